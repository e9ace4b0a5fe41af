import { VERSION_HEADER } from '../../contract/call';
// Section 7: every answer's headers are passed to the subscribers: x-application-version to the
// app-version watcher, so a new release is noticed by the next call; and x-session-expires-in to
// the idle warning (session-expiry.ts, which subscribes once it is loaded).
type ResponseListener = (headers: Headers) => void;

const listeners = new Set<ResponseListener>();

export function onResponse(listener: ResponseListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function notifyResponse(headers: Headers): void {
  for (const listener of listeners) listener(headers);
}

export const onApplicationVersion = (listener: (version: string) => void) =>
  onResponse((headers) => {
    const version = headers.get(VERSION_HEADER);
    if (version) listener(version);
  });
