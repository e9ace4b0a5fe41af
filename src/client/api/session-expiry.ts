// Every answer for a signed-in or pending session says how long the session has left unless it is
// used (x-session-expires-in); the idle warning (WCAG 2.2.1) listens from when it is loaded.
import { SESSION_EXPIRES_IN_HEADER } from '../../contract/call';
import { onResponse } from './version';

/** Calls `listener` with the milliseconds left that each answer from now on says. */
export const onSessionExpiry = (listener: (expiresInMs: number) => void) =>
  onResponse((headers) => {
    const seconds = headers.get(SESSION_EXPIRES_IN_HEADER);
    if (seconds) listener(Number(seconds) * 1000);
  });
