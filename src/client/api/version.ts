// Section 7: every answer's x-application-version is passed to the subscribers (the app-version
// watcher), so a new release is noticed by the next call.
type VersionListener = (version: string) => void;

const listeners = new Set<VersionListener>();

export function onApplicationVersion(listener: VersionListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function notifyApplicationVersion(version: string): void {
  for (const listener of listeners) listener(version);
}
