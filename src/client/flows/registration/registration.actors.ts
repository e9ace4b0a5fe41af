// The registration machine's actors over the api module: the only file of this flow that imports
// it. 422 and the accepted 503s are results; anything else is thrown for onError.
import { fromPromise } from 'xstate';
import type {
  AuthenticatorSetup,
  CodeCheckResult,
  DetailsInput,
  EnrolSmsResult,
  ExistingAccountInput,
  InviteResult,
  OutcomeResult,
  PasswordInput,
  RegistrationCodeChannel,
  RegistrationFacts,
  ResendResult,
  SecurityQuestionsInput,
  StartInput,
  StepResult,
} from '../../../../machines/registration/registration.types';
import {
  collectRegistrationDetails,
  enrolRegistrationEmail,
  enrolRegistrationSecurityQuestions,
  enrolRegistrationSms,
  getEnum,
  getProperty,
  getRegistrationQrCode,
  getRegistrationSetupKey,
  logout,
  resendRegistrationSms,
  startRegistration,
  submitExistingRegistration,
  submitNewRegistration,
  verifyRegistrationAuthenticatorApp,
  verifyRegistrationMobile,
} from '../../api';
import {
  continueSignIn,
  customerUnavailableOf,
  refusalOf,
  withRefusals,
} from '../forced/shared/continue-sign-in.actors';
import { unlessAborted } from '../shared/actor-calls';

/** The enumeration the security questions come from. */
export const SECURITY_QUESTIONS_ENUM = 'security-questions';

export const registrationActors = {
  prepareRegistration: fromPromise<RegistrationFacts>(({ signal }) =>
    unlessAborted(signal, async (signal) => {
      // Section 2.5: the start clears the current user (a signed-in session ends here), before
      // the captcha image, which belongs to the anonymous session that follows.
      await logout({ signal });
      const [gateway, questions] = await Promise.all([
        getProperty({ name: 'sms-gateway-status' }, { signal }),
        getEnum({ name: SECURITY_QUESTIONS_ENUM }, { signal }),
      ]);
      return {
        isSmsGatewayAvailable: 'isSmsGatewayAvailable' in gateway ? gateway.isSmsGatewayAvailable : false,
        questions,
      };
    }),
  ),
  startRegistration: fromPromise<InviteResult, StartInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<Awaited<ReturnType<typeof startRegistration>>, InviteResult>(
        () => startRegistration(input, { signal }),
        (invite) => ({ type: 'invite', invite }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  collectDetails: fromPromise<InviteResult, DetailsInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<Awaited<ReturnType<typeof collectRegistrationDetails>>, InviteResult>(
        () => collectRegistrationDetails(input, { signal }),
        (invite) => ({ type: 'invite', invite }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  loadAuthenticatorSetup: fromPromise<AuthenticatorSetup>(({ signal }) =>
    unlessAborted(signal, async (signal) => {
      // One after the other: the first call creates the secret the second shows too.
      const { setupKey } = await getRegistrationSetupKey({ signal });
      const qrCode = await getRegistrationQrCode({ signal });
      return { qrCode, setupKey };
    }),
  ),
  verifyCode: fromPromise<CodeCheckResult, { channel: RegistrationCodeChannel; code: string }>(
    ({ input, signal }) =>
      unlessAborted(signal, (signal) =>
        withRefusals<unknown, CodeCheckResult>(
          () =>
            input.channel === 'sms'
              ? verifyRegistrationMobile(input.code, { signal })
              : verifyRegistrationAuthenticatorApp(input.code, { signal }),
          () => ({ type: 'verified' }),
          (refusal) => ({ type: 'refused', ...refusal }),
        ),
      ),
  ),
  enrolEmail: fromPromise<void>(({ signal }) =>
    unlessAborted(signal, async (signal) => {
      await enrolRegistrationEmail({ signal });
    }),
  ),
  enrolSms: fromPromise<EnrolSmsResult, { mobile: string }>(({ input, signal }) =>
    unlessAborted(signal, async (signal): Promise<EnrolSmsResult> => {
      try {
        const invite = await enrolRegistrationSms(input.mobile, { signal });
        return { type: 'enrolled', mobile: invite.mobile ?? input.mobile };
      } catch (error) {
        const unavailable = customerUnavailableOf(error);
        if (unavailable !== null) return { type: 'unavailable', message: unavailable };
        const refusal = refusalOf(error);
        if (refusal) return { type: 'refused', ...refusal };
        throw error;
      }
    }),
  ),
  resendCode: fromPromise<ResendResult>(({ signal }) =>
    unlessAborted(signal, async (signal): Promise<ResendResult> => {
      try {
        await resendRegistrationSms({ signal });
        return { type: 'sent' };
      } catch (error) {
        const unavailable = customerUnavailableOf(error);
        if (unavailable !== null) return { type: 'unavailable', message: unavailable };
        const refusal = refusalOf(error);
        if (refusal) return { type: 'refused', message: refusal.message };
        throw error;
      }
    }),
  ),
  enrolSecurityQuestions: fromPromise<StepResult, SecurityQuestionsInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<unknown, StepResult>(
        () => enrolRegistrationSecurityQuestions(input, { signal }),
        () => ({ type: 'done' }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  submitNew: fromPromise<OutcomeResult, PasswordInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<Awaited<ReturnType<typeof submitNewRegistration>>, OutcomeResult>(
        () => submitNewRegistration(input, { signal }),
        (outcome) => ({ type: 'outcome', outcome }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  submitExisting: fromPromise<OutcomeResult, ExistingAccountInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<Awaited<ReturnType<typeof submitExistingRegistration>>, OutcomeResult>(
        () => submitExistingRegistration(input, { signal }),
        (outcome) => ({ type: 'outcome', outcome }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  continueSignIn,
};
