/**
 * Factor enrolment (sections 2.6 and 4.3), under /forced-actions/factor-enrolment; the heading says
 * 'Multi-factor enrolment' when MFA is required, else 'Security enrolment'.
 *
 *   loading (mfa-required, sms-gateway-status, security-questions enumeration) --done--> resuming
 *   resuming (a reload resumes at the address's step):
 *     [entersSecurityQuestions] --> securityQuestions
 *     [entersSmsStep, gateway down] / noteSmsUnavailable --> securityQuestions
 *     [entersSmsStep] --> selectSms          otherwise --> email
 *   email ('', 25): form --user.verify--> verifying
 *       --done[isRefused] 422--> form    --done[smsGatewayAvailable]--> selectSms
 *       --done / noteSmsUnavailable--> securityQuestions
 *     form --user.resend[mayResend]--> resending --done[isSent] / announceResent--> form
 *                                     --done / storeResendRefusal--> form (red, link disabled)
 *   selectSms (select-sms-factor, 50): form --user.chooseEmail--> securityQuestions
 *     form --user.enrolSms--> enrolling --done[isUnavailable] 503 / storeSmsUnavailable--> securityQuestions
 *       --done[isRefused] 422--> form    --done / storeMobile--> smsVerification
 *   smsVerification (sms-verification, 50): form --user.verify--> verifying
 *       --done[isRefused]--> form    --done--> securityQuestions
 *     form --user.resend[mayResend]--> resending --done[isSent]--> form
 *       --done[isUnavailable] 503 / storeSmsUnavailable--> securityQuestions --done--> form (red)
 *     form --route.changed[isSelectSmsRoute]--> selectSms (back, to change the number)
 *   securityQuestions (security-questions, 100): form --user.submit--> submitting
 *       --done[isRefused] 422--> form    --done / storeOutcome--> continuing
 *   continuing (invokes continue-sign-in) --done[continuationFailed]--> failed --done--> done (final)
 *   any unexpected failure --> failed
 */
import { assign, assertEvent, fromPromise, setup } from 'xstate';
import { FACTOR_ENROLMENT_STEPS, FORCED_ACTION_ROUTES } from '../../routes';
import type { FlowStateMeta } from '../../shared/flow.types';
import { continuingState } from '../../shared/continuation-steps';
import { failTo, outputOf } from '../../shared/invoke-basics';
import { resentToast, resendingCodeState, submittingState } from '../../shared/invoke-steps';
import { enrollingSmsState, smsVerificationStates } from '../../shared/sms-enrolment';
import { continueSignInMachine } from '../continue-sign-in/continue-sign-in.machine';
import { messageOf, provided, required } from '../continue-sign-in/forced-step';
import type {
  CodeChannel,
  CodeCheckResult,
  ContinueSignInOutput,
  EnrolmentFacts,
  EnrolSmsResult,
  FactorEnrolmentContext,
  FactorEnrolmentEvent,
  FactorEnrolmentInput,
  FactorEnrolmentOutput,
  OutcomeResult,
  ResendResult,
  SecurityQuestionsInput,
} from './factor-enrolment.types';

/** Section 8: the alert when SMS cannot be enrolled now. */
export const SMS_UNAVAILABLE_MESSAGE =
  'SMS verification codes are currently unavailable. You may try to enrol mobile as a factor at a later date.';

const step = (route: string, progress: number, description: string): FlowStateMeta => ({
  route,
  progress,
  description,
});

const isSmsStep = (step: string): boolean =>
  step === FACTOR_ENROLMENT_STEPS.SELECT_SMS_FACTOR || step === FACTOR_ENROLMENT_STEPS.SMS_VERIFICATION;

/** The input of a code check: the code of the user.verify event, on `channel`. */
const codeInput =
  (channel: CodeChannel) =>
  ({ event }: { event: FactorEnrolmentEvent }): { channel: CodeChannel; code: string } => {
    assertEvent(event, 'user.verify');
    return { channel, code: event.code };
  };

/** The step of an address under the wizard's base path ('' for the base itself). */
const stepOf = (path: string): string => {
  const base = FORCED_ACTION_ROUTES.FACTOR_ENROLMENT;
  if (path === base || path === `${base}/`) return FACTOR_ENROLMENT_STEPS.EMAIL_VERIFICATION;
  return path.startsWith(`${base}/`) ? path.slice(base.length + 1).replace(/\/$/, '') : path;
};

export const factorEnrolmentMachine = setup({
  types: {
    context: {} as FactorEnrolmentContext,
    events: {} as FactorEnrolmentEvent,
    input: {} as FactorEnrolmentInput,
    output: {} as FactorEnrolmentOutput,
  },
  actors: {
    loadEnrolment: fromPromise<EnrolmentFacts>(provided('loadEnrolment')),
    verifyCode: fromPromise<CodeCheckResult, { channel: CodeChannel; code: string }>(provided('verifyCode')),
    resendCode: fromPromise<ResendResult, { channel: CodeChannel }>(provided('resendCode')),
    enrolSms: fromPromise<EnrolSmsResult, { mobile: string }>(provided('enrolSms')),
    submitEnrolment: fromPromise<OutcomeResult, SecurityQuestionsInput>(provided('submitEnrolment')),
    continueSignIn: continueSignInMachine,
  },
  guards: {
    entersSecurityQuestions: ({ context }) =>
      stepOf(context.entryPath) === FACTOR_ENROLMENT_STEPS.SECURITY_QUESTIONS,
    entersSmsStep: ({ context }) => isSmsStep(stepOf(context.entryPath)),
    entersSmsStepWithoutGateway: ({ context }) =>
      isSmsStep(stepOf(context.entryPath)) && !context.isSmsGatewayAvailable,
    smsGatewayAvailable: ({ context }) => context.isSmsGatewayAvailable,
    isRefused: (_, result: { type: string }) => result.type === 'refused',
    isSent: (_, result: ResendResult) => result.type === 'sent',
    /** Section 8: after a refused resend the link is disabled until another screen. */
    mayResend: ({ context }) => context.resendRefusal === null,
    isUnavailable: (_, result: { type: string }) => result.type === 'unavailable',
    isSelectSmsRoute: ({ event }) => {
      assertEvent(event, 'route.changed');
      return stepOf(event.path) === FACTOR_ENROLMENT_STEPS.SELECT_SMS_FACTOR;
    },
    continuationFailed: (_, output: ContinueSignInOutput) => output.kind === 'failed',
  },
  actions: {
    storeFacts: assign((_, facts: EnrolmentFacts) => ({
      mfaRequired: facts.mfaRequired,
      isSmsGatewayAvailable: facts.isSmsGatewayAvailable,
      questions: facts.questions,
    })),
    /** The gateway is down (sms-gateway-status): section 8's alert on security-questions. */
    noteSmsUnavailable: assign({ smsUnavailableMessage: SMS_UNAVAILABLE_MESSAGE }),
    /** 503: the customer message is stored; section 8's text when there is none. */
    storeSmsUnavailable: assign((_, result: { type: string; message?: string }) => ({
      smsUnavailableMessage:
        result.type === 'unavailable' && result.message ? result.message : SMS_UNAVAILABLE_MESSAGE,
    })),
    /** A new screen: nothing of the last one's refusals stays. */
    forgetRefusals: assign({ refusal: null, resendRefusal: null }),
    forgetRefusal: assign({ refusal: null }),
    storeRefusal: assign((_, result: CodeCheckResult | EnrolSmsResult | OutcomeResult) => ({
      refusal:
        result.type === 'refused' ? { message: result.message, fieldErrors: result.fieldErrors } : null,
    })),
    storeMobile: assign((_, result: EnrolSmsResult) => ({
      mobile: result.type === 'enrolled' ? result.mobile : null,
    })),
    /** Provided by the app: the success toast 'Resent {type} verification code'. */
    announceResent: (_, _resent: { channel: CodeChannel }) => {},
    storeResendRefusal: assign((_, result: ResendResult) => ({
      resendRefusal: result.type === 'sent' ? null : result.message,
    })),
    storeOutcome: assign((_, result: OutcomeResult) => ({
      outcome: result.type === 'outcome' ? result.outcome : null,
    })),
    storeHandover: assign((_, output: ContinueSignInOutput) => ({
      handover: output.kind === 'failed' ? null : output,
    })),
    reportContinuationFailure: assign((_, output: ContinueSignInOutput) => ({
      errorMessage: output.kind === 'failed' ? output.message : null,
    })),
    reportFailure: assign((_, failure: { error: unknown }) => ({ errorMessage: messageOf(failure.error) })),
  },
}).createMachine({
  id: 'factorEnrolment',
  context: ({ input }) => ({
    targetPath: input.targetPath,
    adminTargetPath: input.adminTargetPath,
    entryPath: input.path,
    mfaRequired: false,
    isSmsGatewayAvailable: false,
    questions: [],
    mobile: null,
    smsUnavailableMessage: null,
    refusal: null,
    resendRefusal: null,
    outcome: null,
    handover: null,
    errorMessage: null,
  }),
  initial: 'loading',
  output: ({ event }) => event.output as FactorEnrolmentOutput,
  states: {
    loading: {
      meta: { description: 'Reads whether MFA is required, the SMS gateway status and the questions.' },
      invoke: {
        id: 'loadEnrolment',
        src: 'loadEnrolment',
        onDone: { target: 'resuming', actions: { type: 'storeFacts', params: ({ event }) => event.output } },
        onError: failTo('failed'),
      },
    },
    resuming: {
      meta: { description: "Starts at the address's step; the SMS steps need the SMS gateway." },
      always: [
        { guard: 'entersSecurityQuestions', target: 'securityQuestions' },
        { guard: 'entersSmsStepWithoutGateway', target: 'securityQuestions', actions: 'noteSmsUnavailable' },
        { guard: 'entersSmsStep', target: 'selectSms' },
        { target: 'email' },
      ],
    },
    email: {
      meta: step(FACTOR_ENROLMENT_STEPS.EMAIL_VERIFICATION, 25, 'The code sent to the email address.'),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: { description: 'Code and resend.' },
          on: {
            'user.verify': { target: 'verifying', actions: 'forgetRefusal' },
            'user.resend': { guard: 'mayResend', target: 'resending' },
          },
        },
        verifying: submittingState({
          description: 'Checking the email code.',
          actor: 'verifyCode',
          input: codeInput('email'),
          done: [
            { guard: 'smsGatewayAvailable', target: '#factorEnrolment.selectSms' },
            { target: '#factorEnrolment.securityQuestions', actions: 'noteSmsUnavailable' },
          ],
          failed: '#factorEnrolment.failed',
        }),
        resending: resendingCodeState({
          description: 'Sending another email code.',
          actor: 'resendCode',
          input: { channel: 'email' },
          announce: resentToast('email'),
          failed: '#factorEnrolment.failed',
        }),
      },
    },
    selectSms: {
      meta: step(FACTOR_ENROLMENT_STEPS.SELECT_SMS_FACTOR, 50, 'SMS with a mobile number, or email instead.'),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: { description: 'The factor choice and the mobile number.' },
          on: {
            'user.enrolSms': { target: 'enrolling', actions: 'forgetRefusal' },
            'user.chooseEmail': { target: '#factorEnrolment.securityQuestions' },
          },
        },
        enrolling: enrollingSmsState('factorEnrolment', ({ event }: { event: FactorEnrolmentEvent }) => {
          assertEvent(event, 'user.enrolSms');
          return { mobile: event.mobile };
        }),
      },
    },
    smsVerification: {
      meta: step(FACTOR_ENROLMENT_STEPS.SMS_VERIFICATION, 50, 'The code sent to the mobile.'),
      initial: 'form',
      entry: 'forgetRefusals',
      states: smsVerificationStates('factorEnrolment', {
        codeInput: codeInput('sms'),
        resendInput: { channel: 'sms' },
        announce: resentToast('sms'),
      }),
    },
    securityQuestions: {
      meta: step(
        FACTOR_ENROLMENT_STEPS.SECURITY_QUESTIONS,
        100,
        'Two different questions and their answers.',
      ),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: {
            description: 'Questions from the enumeration (defaults DRIVERS_LICENCE, MEDICARE), answers.',
          },
          on: { 'user.submit': { target: 'submitting', actions: 'forgetRefusal' } },
        },
        submitting: submittingState({
          description: 'Submitting the enrolment.',
          actor: 'submitEnrolment',
          input: ({ event }: { event: FactorEnrolmentEvent }): SecurityQuestionsInput => {
            assertEvent(event, 'user.submit');
            return {
              question1: event.question1,
              answer1: event.answer1,
              question2: event.question2,
              answer2: event.answer2,
            };
          },
          done: [
            { target: '#factorEnrolment.continuing', actions: { type: 'storeOutcome', params: outputOf } },
          ],
          failed: '#factorEnrolment.failed',
        }),
      },
    },
    continuing: continuingState({ description: 'Enrolled: sign-in continues as the outcome says.' }),
    failed: {
      meta: { description: "'Unknown authentication outcome' or an unexpected failure." },
    },
    done: {
      type: 'final',
      meta: { description: 'Sign-in continued: the landing page or the next forced step (output.route).' },
      output: ({ context }) => required(context.handover, 'a hand-over'),
    },
  },
});
