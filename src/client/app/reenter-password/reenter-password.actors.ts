// The re-enter-password watcher's actors: the recent-authentication cookie read from the document,
// and the two calls of section 7 over the api module. A 422 (wrong password) or a 429 (too many
// attempts: wait) is a result.
import { fromPromise } from 'xstate';
import type { ReenterResult } from '../../../../machines/session/reenter-password/reenter-password.types';
import { REENTER_PASSWORD_COOKIE } from '../../../contract/session';
import { getReenterPasswordExpired, isRefusal, reenterPassword } from '../../api';
import { unlessAborted } from '../../flows/shared/actor-calls';

/**
 * Whether the JS-readable re-enter-password cookie is in `cookies` (document.cookie's format),
 * under its own name or, over https, with the __Host- prefix (src/server/http/cookie-names.ts).
 */
export function hasCookie(cookies: string, name: string = REENTER_PASSWORD_COOKIE): boolean {
  return cookies.split(';').some((pair) => {
    const [key, value = ''] = pair.trim().split('=');
    return (key === name || key === `__Host-${name}`) && value !== '';
  });
}

export const reenterPasswordActors = {
  hasRecentAuthentication: fromPromise<boolean>(async () => hasCookie(document.cookie)),
  isPasswordExpired: fromPromise<boolean>(({ signal }) =>
    unlessAborted(signal, (signal) => getReenterPasswordExpired({ signal })),
  ),
  reenterPassword: fromPromise<ReenterResult, { password: string }>(({ input, signal }) =>
    unlessAborted(signal, async (signal): Promise<ReenterResult> => {
      try {
        await reenterPassword({ currentPassword: input.password }, { signal });
        return { type: 'accepted' };
      } catch (error) {
        if (isRefusal(error)) {
          return { type: 'refused', message: error.body.message };
        }
        throw error;
      }
    }),
  ),
};
