// The sign-in machine's actors over the api module: the only sign-in file that imports it.
// Expected refusals become results (LoginResult); anything else is thrown for the machine's onError.
import { fromPromise } from 'xstate';
import type {
  FailedAuthCount,
  FailedAuthCountInput,
  LoginInput,
  LoginResult,
  MfaStart,
} from '../../../../machines/sign-in/sign-in.types';
import type { CurrentUser } from '../../../contract/entities';
import { sessionCalls } from '../../../contract/session';
import {
  acceptedAnswer,
  getCurrentUser,
  getFailedAuthCount,
  isApiError,
  isRefusal,
  login,
  startMfa,
} from '../../api';
import { unlessAborted } from '../shared/actor-calls';

/** Maps a rejected login to the result the machine routes by, or null when it is unexpected. */
export function loginRefusal(error: unknown, username: string): LoginResult | null {
  const unavailable = acceptedAnswer(error, sessionCalls.login);
  if (unavailable?.status === 503) return { type: 'unavailable', message: unavailable.body.message };
  if (isRefusal(error)) {
    return { type: 'refused', username, message: error.body.message, fieldErrors: error.body.errors ?? [] };
  }
  if (isApiError(error) && error.kind === 'http' && !error.handled && error.status === 409) {
    return { type: 'sessionExpired' };
  }
  return null;
}

export const signInActors = {
  getFailedAuthCount: fromPromise<FailedAuthCount, FailedAuthCountInput>(({ input, signal }) =>
    unlessAborted(signal, async (signal) => ({
      count: await getFailedAuthCount({ username: input.username }, { signal }),
    })),
  ),
  login: fromPromise<LoginResult, LoginInput>(({ input, signal }) =>
    unlessAborted(signal, async (signal): Promise<LoginResult> => {
      try {
        return { type: 'outcome', outcome: await login(input, { signal }) };
      } catch (error) {
        const refusal = loginRefusal(error, input.username);
        if (refusal) return refusal;
        throw error;
      }
    }),
  ),
  getCurrentUser: fromPromise<CurrentUser>(({ signal }) =>
    unlessAborted(signal, (signal) => getCurrentUser({ signal })),
  ),
  startMfa: fromPromise<MfaStart>(({ signal }) => unlessAborted(signal, (signal) => startMfa({ signal }))),
};
