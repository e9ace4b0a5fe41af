// The password reset machine's actors over the api module: the only file of this flow that imports
// it. 422 and the accepted 503s are results; anything else is thrown for onError.
import { fromPromise } from 'xstate';
import type {
  CheckResult,
  DetailsResult,
  Refusal,
  ResendResult,
  ResetAvailability,
  SecurityAnswer,
  StartResetInput,
  StartResult,
  SubmitResult,
} from '../../../../machines/password-reset/password-reset.types';
import {
  getContext,
  getEnum,
  getRealmAuthEnabled,
  isApiError,
  logout,
  selectPasswordResetUser,
  sendPasswordResetCode,
  startPasswordReset,
  submitPasswordReset,
  verifyPasswordResetAuthenticatorApp,
  verifyPasswordResetEmail,
  verifyPasswordResetMobile,
  verifyPasswordResetSecurityQuestion,
} from '../../api';
import { unlessAborted } from '../shared/actor-calls';
import { customerUnavailableOf, refusalOf, withRefusals } from '../forced/shared/continue-sign-in.actors';

/** The enumeration the security questions come from. */
export const SECURITY_QUESTIONS_ENUM = 'security-questions';

const verified = (): CheckResult => ({ type: 'verified' });
const refused = (refusal: Refusal) => ({ type: 'refused' as const, ...refusal });

async function send(channel: 'email' | 'sms', signal: AbortSignal): Promise<ResendResult> {
  try {
    await sendPasswordResetCode(channel, { signal });
    return { type: 'sent' };
  } catch (error) {
    const unavailable = customerUnavailableOf(error);
    if (unavailable !== null) return { type: 'unavailable', message: unavailable };
    const refusal = refusalOf(error);
    if (refusal) return { type: 'refused', message: refusal.message };
    throw error;
  }
}

export const passwordResetActors = {
  // The start page clears the current user (section 2.4): on the server too, so a signed-in
  // session does not live on behind an anonymous-looking page.
  loadAvailability: fromPromise<ResetAvailability>(({ signal }) =>
    unlessAborted(signal, async (signal) => {
      await logout({ signal });
      const context = await getContext({ signal });
      const [authEnabled, questions] = await Promise.all([
        getRealmAuthEnabled({ realm: context.realmCode }, { signal }),
        getEnum({ name: SECURITY_QUESTIONS_ENUM }, { signal }),
      ]);
      return { authEnabled, questions };
    }),
  ),
  startReset: fromPromise<StartResult, StartResetInput>(({ input, signal }) =>
    unlessAborted(signal, async (signal): Promise<StartResult> => {
      try {
        await startPasswordReset(input, { signal });
        return { type: 'started', email: input.email };
      } catch (error) {
        if (isApiError(error) && !error.handled && error.kind === 'http' && error.status === 503)
          return { type: 'unavailable', message: error.body.message };
        const refusal = refusalOf(error);
        if (refusal) return { type: 'refused', ...refusal };
        throw error;
      }
    }),
  ),
  verifyEmail: fromPromise<DetailsResult, { code: string }>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<Awaited<ReturnType<typeof verifyPasswordResetEmail>>, DetailsResult>(
        () => verifyPasswordResetEmail(input.code, { signal }),
        (details) => ({ type: 'details', details }),
        (refusal) => refused(refusal),
      ),
    ),
  ),
  resendEmail: fromPromise<ResendResult>(({ signal }) =>
    unlessAborted(signal, (signal) => send('email', signal)),
  ),
  selectUser: fromPromise<DetailsResult, { username: string }>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<Awaited<ReturnType<typeof selectPasswordResetUser>>, DetailsResult>(
        () => selectPasswordResetUser(input.username, { signal }),
        (details) => ({ type: 'details', details }),
        (refusal) => refused(refusal),
      ),
    ),
  ),
  verifyAuthenticatorApp: fromPromise<CheckResult, { code: string }>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals(() => verifyPasswordResetAuthenticatorApp(input.code, { signal }), verified, refused),
    ),
  ),
  sendSms: fromPromise<ResendResult>(({ signal }) => unlessAborted(signal, (signal) => send('sms', signal))),
  verifySms: fromPromise<CheckResult, { code: string }>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals(() => verifyPasswordResetMobile(input.code, { signal }), verified, refused),
    ),
  ),
  // Each question is answered in turn; the first wrong answer is the screen's refusal.
  verifySecurityQuestions: fromPromise<CheckResult, { answers: SecurityAnswer[] }>(({ input, signal }) =>
    unlessAborted(signal, async (signal): Promise<CheckResult> => {
      for (const answer of input.answers) {
        const result = await withRefusals<null, CheckResult>(
          () => verifyPasswordResetSecurityQuestion(answer, { signal }),
          verified,
          (refusal) => ({
            type: 'refused',
            message: refusal.message,
            // The field names the question it belongs to.
            fieldErrors: refusal.fieldErrors.map((e) => ({ ...e, fieldName: `answer.${answer.question}` })),
          }),
        );
        if (result.type === 'refused') return result;
      }
      return { type: 'verified' };
    }),
  ),
  submitPassword: fromPromise<SubmitResult, { password: string; confirmPassword: string }>(
    ({ input, signal }) =>
      unlessAborted(signal, (signal) =>
        withRefusals<null, SubmitResult>(
          () => submitPasswordReset(input, { signal }),
          () => ({ type: 'reset' }),
          (refusal) => ({ type: 'refused', ...refusal }),
        ),
      ),
  ),
};
