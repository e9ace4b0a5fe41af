// The factor-enrolment machine's actors over the api module: the only file of this flow that
// imports it. 422 and the accepted 503s are results; anything else is thrown for onError.
import { fromPromise } from 'xstate';
import type {
  CodeChannel,
  CodeCheckResult,
  EnrolmentFacts,
  EnrolSmsResult,
  OutcomeResult,
  ResendResult,
  SecurityQuestionsInput,
} from '../../../../../machines/forced/factor-enrolment/factor-enrolment.types';
import { forcedCalls } from '../../../../contract/forced';
import {
  enrolSms,
  getEnum,
  getMfaRequired,
  getProperty,
  submitFactorEnrolment,
  verifyEnrolmentCode,
} from '../../../api';
import { unlessAborted } from '../../shared/actor-calls';
import {
  continueSignIn,
  customerUnavailableOf,
  refusalOf,
  resend,
  withRefusals,
} from '../shared/continue-sign-in.actors';

/** The enumeration the security questions come from. */
export const SECURITY_QUESTIONS_ENUM = 'security-questions';

const verifyCalls = {
  email: forcedCalls.factorEnrolmentVerifyEmail,
  sms: forcedCalls.factorEnrolmentVerifyMobile,
} as const;
const resendCalls = {
  email: forcedCalls.factorEnrolmentSendEmail,
  sms: forcedCalls.factorEnrolmentSendSms,
} as const;

export const factorEnrolmentActors = {
  loadEnrolment: fromPromise<EnrolmentFacts>(({ signal }) =>
    unlessAborted(signal, async (signal) => {
      const [mfaRequired, gateway, questions] = await Promise.all([
        getMfaRequired({ signal }),
        getProperty({ name: 'sms-gateway-status' }, { signal }),
        getEnum({ name: SECURITY_QUESTIONS_ENUM }, { signal }),
      ]);
      return {
        mfaRequired,
        isSmsGatewayAvailable: 'isSmsGatewayAvailable' in gateway ? gateway.isSmsGatewayAvailable : false,
        questions,
      };
    }),
  ),
  verifyCode: fromPromise<CodeCheckResult, { channel: CodeChannel; code: string }>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<unknown, CodeCheckResult>(
        () => verifyEnrolmentCode(verifyCalls[input.channel], input.code, { signal }),
        () => ({ type: 'verified' }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  resendCode: fromPromise<ResendResult, { channel: CodeChannel }>(({ input, signal }) =>
    unlessAborted(signal, (signal) => resend(resendCalls[input.channel], signal)),
  ),
  enrolSms: fromPromise<EnrolSmsResult, { mobile: string }>(({ input, signal }) =>
    unlessAborted(signal, async (signal): Promise<EnrolSmsResult> => {
      try {
        return { type: 'enrolled', mobile: await enrolSms(input.mobile, { signal }) };
      } catch (error) {
        const unavailable = customerUnavailableOf(error);
        if (unavailable !== null) return { type: 'unavailable', message: unavailable };
        const refusal = refusalOf(error);
        if (refusal) return { type: 'refused', ...refusal };
        throw error;
      }
    }),
  ),
  submitEnrolment: fromPromise<OutcomeResult, SecurityQuestionsInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<Awaited<ReturnType<typeof submitFactorEnrolment>>, OutcomeResult>(
        () => submitFactorEnrolment(input, { signal }),
        (outcome) => ({ type: 'outcome', outcome }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  continueSignIn,
};
