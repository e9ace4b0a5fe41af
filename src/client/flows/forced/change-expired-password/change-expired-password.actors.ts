// The change-expired-password machine's actors over the api module: the only file of this flow
// that imports it. A 422 (policy or blocklist reasons) is a result; anything else is thrown.
import { fromPromise } from 'xstate';
import type {
  NewPasswordInput,
  OutcomeResult,
} from '../../../../../machines/forced/change-expired-password/change-expired-password.types';
import { changeExpiredPassword, logout } from '../../../api';
import { unlessAborted } from '../../shared/actor-calls';
import { continueSignIn, withRefusals } from '../shared/continue-sign-in.actors';

export const changeExpiredPasswordActors = {
  changeExpiredPassword: fromPromise<OutcomeResult, NewPasswordInput>(({ input, signal }) =>
    unlessAborted(signal, () =>
      withRefusals<Awaited<ReturnType<typeof changeExpiredPassword>>, OutcomeResult>(
        // Not cancelled when the page is left: the new password is set either way, and the answer
        // carries the session's cookie.
        () => changeExpiredPassword(input),
        (outcome) => ({ type: 'outcome', outcome }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  logout: fromPromise<void>(({ signal }) =>
    unlessAborted(signal, async (signal) => {
      await logout({ signal });
    }),
  ),
  continueSignIn,
};
