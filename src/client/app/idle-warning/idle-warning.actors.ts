// The idle warning's ties to the api layer: its one call, GET anonymous/current-user, which counts
// as use of the session (the answer says anew how long it has left) and tells whether it is still
// signed in or pending; the time left each answer reports; and section 8's 401 handling for the end.
import { fromPromise } from 'xstate';
import type { SessionCheck } from '../../../../machines/session/idle-warning/idle-warning.types';
import { SESSION_EXPIRED_MESSAGE } from '../../../contract/errors';
import { applyGlobalAction } from '../../api/global-handling';
import { unlessAborted } from '../../flows/shared/actor-calls';
import { SIGN_IN_ROUTE } from '../routes';
import type { PortalServices } from '../services';

import { onSessionExpiry } from '../../api/session-expiry';

export { onSessionExpiry };

/**
 * The end: section 8's 401 handling (the notice, the user forgotten with the page kept as the
 * target path where section 4.1 says so, and the sign-in page).
 */
export const endExpiredSession = () =>
  void applyGlobalAction(
    { type: 'sessionExpired', url: SIGN_IN_ROUTE },
    { message: SESSION_EXPIRED_MESSAGE },
  );

/**
 * The session check over `loadSession` (the app's services: GET anonymous/current-user). An answer
 * that the session is gone is asked once more before it counts: a forced step that completes while
 * the first is on its way gives the browser a new session cookie (sign-in-flow.ts), and a question
 * sent with the old one is answered for a session that no longer exists.
 */
export const idleWarningActors = (loadSession: PortalServices['loadSession']) => {
  const ask = async (signal: AbortSignal): Promise<SessionCheck> => {
    let expiresInMs: number | null = null;
    const stop = onSessionExpiry((ms) => (expiresInMs = ms));
    try {
      const { currentUser } = await loadSession({ signal });
      const alive = currentUser.isAuthenticated || currentUser.type === 'AUTHENTICATION_PENDING';
      return { alive, expiresInMs };
    } finally {
      stop();
    }
  };
  return {
    checkSession: fromPromise<SessionCheck>(({ signal }) =>
      unlessAborted(signal, async (signal) => {
        const first = await ask(signal);
        return first.alive ? first : ask(signal);
      }),
    ),
  };
};
