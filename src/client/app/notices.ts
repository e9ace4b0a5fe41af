// Short messages for the user raised outside React (the api layer's 401 and 422-reroute notices).
// The shell shows them as toasts; notices raised before it mounts wait for it.

export type NoticeTone = 'info' | 'success' | 'warning' | 'error';

export interface Notice {
  message: string;
  title?: string;
  tone: NoticeTone;
}

type Listener = (notice: Notice) => void;

const listeners = new Set<Listener>();
const waiting: Notice[] = [];

export function announce(notice: Notice): void {
  if (listeners.size === 0) {
    waiting.push(notice);
    return;
  }
  for (const listener of listeners) listener(notice);
}

/** Subscribes and delivers the notices that arrived while nobody listened. */
export function onNotice(listener: Listener): () => void {
  listeners.add(listener);
  for (const notice of waiting.splice(0)) listener(notice);
  return () => {
    listeners.delete(listener);
  };
}
