/**
 * MFA verification (sections 2.6 and 4.3), one screen per factor:
 * /forced-actions/mfa/authenticator-app-verification, sms-verification and email-verification.
 *
 *   loadingPeriod (trusted-device period) --done or error--> choosingFactor
 *   choosingFactor --[isFactor]--> authenticatorApp | sms | email (the factor of the address, or
 *                                  the one start or skip named)
 *                  --otherwise--> starting (POST mfa/start)
 *   starting, skipping --done[hasNextFactor] / storeNext--> choosingFactor
 *   starting --done--> failed ('Unknown authentication outcome')
 *   skipping --done / storeNoOtherFactor--> choosingFactor (the same screen says there is no other
 *                                           factor and offers no skip)
 *   <factor>.form --user.verify--> <factor>.verifying (code, trustDevice)
 *       --done[isRefused] 422 / storeRefusal--> <factor>.form (the message on the code field)
 *       --done / storeOutcome--> continuing
 *   authenticatorApp.form, sms.form --user.skip[maySkip]--> skipping (POST mfa/skip; "I don't have access")
 *   sms.form, email.form --user.resend[mayResend]--> <factor>.resending
 *       --done[isSent] / announceResent--> form ('Resent {type} verification code')
 *       sms only: --done[isUnavailable] 503 / storeSmsUnavailable--> skipping (acts as skip)
 *       --done / storeResendRefusal--> form (the message in red, the resend link disabled)
 *   continuing (invokes continue-sign-in) --done[continuationFailed]--> failed --done--> done (final)
 *   any unexpected failure --> failed
 */
import { assign, assertEvent, fromPromise, setup } from 'xstate';
import type { FactorType } from '../../../src/contract/entities';
import { UNKNOWN_OUTCOME_MESSAGE } from '../../../src/contract/errors';
import { FORCED_ACTION_ROUTES } from '../../routes';
import type { FlowStateMeta } from '../../shared/flow.types';
import { continuingState } from '../../shared/continuation-steps';
import { failTo, outputOf } from '../../shared/invoke-basics';
import { resentToast, resendingCodeState, submittingState } from '../../shared/invoke-steps';
import { continueSignInMachine } from '../continue-sign-in/continue-sign-in.machine';
import { messageOf, provided, required } from '../continue-sign-in/forced-step';
import type {
  CodeChannel,
  ContinueSignInOutput,
  MfaContext,
  MfaEvent,
  MfaInput,
  MfaNext,
  MfaOutput,
  OutcomeResult,
  ResendResult,
  TrustedDevicePeriod,
  VerifyCodeInput,
} from './mfa.types';

const screen = (route: string, description: string): FlowStateMeta => ({ route, description });

/** A factor screen's verifying: the code (and trust this device) checked for `factor`. */
const verifyingState = (factor: FactorType) =>
  submittingState({
    description: 'Checking the code.',
    actor: 'verifyCode',
    input: ({ event }: { event: MfaEvent }): VerifyCodeInput => {
      assertEvent(event, 'user.verify');
      return { factor, code: event.code, trustDevice: event.trustDevice };
    },
    done: [{ target: '#mfa.continuing', actions: { type: 'storeOutcome', params: outputOf } }],
    failed: '#mfa.failed',
  });

export const mfaMachine = setup({
  types: {
    context: {} as MfaContext,
    events: {} as MfaEvent,
    input: {} as MfaInput,
    output: {} as MfaOutput,
  },
  actors: {
    getTrustedDevicePeriod: fromPromise<TrustedDevicePeriod>(provided('getTrustedDevicePeriod')),
    startMfa: fromPromise<MfaNext>(provided('startMfa')),
    skipMfa: fromPromise<MfaNext>(provided('skipMfa')),
    verifyCode: fromPromise<OutcomeResult, VerifyCodeInput>(provided('verifyCode')),
    resendCode: fromPromise<ResendResult, { channel: CodeChannel }>(provided('resendCode')),
    continueSignIn: continueSignInMachine,
  },
  guards: {
    isFactor: ({ context }, { factor }: { factor: FactorType }) => context.factor === factor,
    hasNextFactor: (_, next: MfaNext) => next.nextFactor !== null,
    isRefused: (_, result: OutcomeResult) => result.type === 'refused',
    isSent: (_, result: ResendResult) => result.type === 'sent',
    /** Section 8: after a refused resend the link is disabled until another screen. */
    mayResend: ({ context }) => context.resendRefusal === null,
    /** Until a skip has found no factor after this one (the link is then gone). */
    maySkip: ({ context }) => !context.noOtherFactor,
    isUnavailable: (_, result: ResendResult) => result.type === 'unavailable',
    continuationFailed: (_, output: ContinueSignInOutput) => output.kind === 'failed',
  },
  actions: {
    storePeriod: assign((_, period: TrustedDevicePeriod) => ({ trustedDevicePeriod: period })),
    /**
     * Another screen: nothing of the last one's refusals stays. SMS found unavailable (a 503 on
     * the SMS screen) stays so, whatever the skip answers.
     */
    storeNext: assign(({ context }, next: MfaNext) => ({
      factor: next.nextFactor,
      smsUnavailableMessage: next.smsUnavailableMessage ?? context.smsUnavailableMessage,
      noOtherFactor: false,
      refusal: null,
      resendRefusal: null,
    })),
    /** Nothing after the current factor: its screen stays, without the skip link. */
    storeNoOtherFactor: assign(({ context }, next: MfaNext) => ({
      smsUnavailableMessage: next.smsUnavailableMessage ?? context.smsUnavailableMessage,
      noOtherFactor: true,
      refusal: null,
    })),
    forgetRefusal: assign({ refusal: null }),
    storeRefusal: assign((_, result: OutcomeResult) => ({
      refusal:
        result.type === 'refused' ? { message: result.message, fieldErrors: result.fieldErrors } : null,
    })),
    storeOutcome: assign((_, result: OutcomeResult) => ({
      outcome: result.type === 'outcome' ? result.outcome : null,
    })),
    /** Provided by the app: the success toast 'Resent {type} verification code'. */
    announceResent: (_, _resent: { channel: CodeChannel }) => {},
    storeResendRefusal: assign((_, result: ResendResult) => ({
      resendRefusal: result.type === 'sent' ? null : result.message,
    })),
    storeSmsUnavailable: assign((_, result: ResendResult) => ({
      smsUnavailableMessage: result.type === 'unavailable' ? result.message : null,
    })),
    storeHandover: assign((_, output: ContinueSignInOutput) => ({
      handover: output.kind === 'failed' ? null : output,
    })),
    reportContinuationFailure: assign((_, output: ContinueSignInOutput) => ({
      errorMessage: output.kind === 'failed' ? output.message : null,
    })),
    reportUnknownOutcome: assign({ errorMessage: UNKNOWN_OUTCOME_MESSAGE }),
    reportFailure: assign((_, failure: { error: unknown }) => ({ errorMessage: messageOf(failure.error) })),
  },
}).createMachine({
  id: 'mfa',
  context: ({ input }) => ({
    targetPath: input.targetPath,
    adminTargetPath: input.adminTargetPath,
    factor: input.factor,
    smsUnavailableMessage: input.smsUnavailableMessage,
    trustedDevicePeriod: null,
    noOtherFactor: false,
    refusal: null,
    resendRefusal: null,
    outcome: null,
    handover: null,
    errorMessage: null,
  }),
  initial: 'loadingPeriod',
  output: ({ event }) => event.output as MfaOutput,
  states: {
    loadingPeriod: {
      meta: {
        description: 'Reads the trusted-device period for the checkbox (24 hours unless told 7 days).',
      },
      invoke: {
        id: 'getTrustedDevicePeriod',
        src: 'getTrustedDevicePeriod',
        onDone: {
          target: 'choosingFactor',
          actions: { type: 'storePeriod', params: ({ event }) => event.output },
        },
        // The checkbox still works: its text then shows the default period.
        onError: { target: 'choosingFactor' },
      },
    },
    choosingFactor: {
      meta: { description: 'The screen of the factor to verify: from the address, start or skip.' },
      always: [
        { guard: { type: 'isFactor', params: { factor: 'AUTHENTICATOR_APP' } }, target: 'authenticatorApp' },
        { guard: { type: 'isFactor', params: { factor: 'SMS' } }, target: 'sms' },
        { guard: { type: 'isFactor', params: { factor: 'EMAIL' } }, target: 'email' },
        { target: 'starting' },
      ],
    },
    starting: {
      meta: { description: 'No factor in the address: MFA start names the first factor.' },
      invoke: {
        id: 'startMfa',
        src: 'startMfa',
        onDone: [
          {
            guard: { type: 'hasNextFactor', params: ({ event }) => event.output },
            target: 'choosingFactor',
            actions: { type: 'storeNext', params: ({ event }) => event.output },
          },
          { target: 'failed', actions: 'reportUnknownOutcome' },
        ],
        onError: failTo('failed'),
      },
    },
    authenticatorApp: {
      meta: screen(FORCED_ACTION_ROUTES.MFA_AUTHENTICATOR_APP, 'The authenticator app code.'),
      initial: 'form',
      states: {
        form: {
          meta: { description: 'Code, trust this device, and "I don\'t have access".' },
          on: {
            'user.verify': { target: 'verifying', actions: 'forgetRefusal' },
            'user.skip': { guard: 'maySkip', target: '#mfa.skipping' },
          },
        },
        verifying: verifyingState('AUTHENTICATOR_APP'),
      },
    },
    sms: {
      meta: screen(FORCED_ACTION_ROUTES.MFA_SMS, 'The code sent by SMS.'),
      initial: 'form',
      states: {
        form: {
          meta: { description: 'Code, trust this device, resend, and "I don\'t have access".' },
          on: {
            'user.verify': { target: 'verifying', actions: 'forgetRefusal' },
            'user.skip': { guard: 'maySkip', target: '#mfa.skipping' },
            'user.resend': { guard: 'mayResend', target: 'resending' },
          },
        },
        verifying: verifyingState('SMS'),
        resending: resendingCodeState({
          description: 'Sending another code by SMS.',
          actor: 'resendCode',
          input: { channel: 'sms' },
          announce: resentToast('sms'),
          // Section 8: SMS unavailable acts as "I don't have access".
          fallback: [
            {
              guard: { type: 'isUnavailable', params: outputOf },
              target: '#mfa.skipping',
              actions: { type: 'storeSmsUnavailable', params: outputOf },
            },
          ],
          failed: '#mfa.failed',
        }),
      },
    },
    email: {
      meta: screen(FORCED_ACTION_ROUTES.MFA_EMAIL, 'The code sent by email.'),
      initial: 'form',
      states: {
        form: {
          meta: { description: 'Code, trust this device, and resend.' },
          on: {
            'user.verify': { target: 'verifying', actions: 'forgetRefusal' },
            'user.resend': { guard: 'mayResend', target: 'resending' },
          },
        },
        verifying: verifyingState('EMAIL'),
        resending: resendingCodeState({
          description: 'Sending another code by email.',
          actor: 'resendCode',
          input: { channel: 'email' },
          announce: resentToast('email'),
          failed: '#mfa.failed',
        }),
      },
    },
    skipping: {
      meta: {
        description:
          '"I don\'t have access" (or SMS unavailable): MFA skip names the next factor, or none after this one.',
      },
      invoke: {
        id: 'skipMfa',
        src: 'skipMfa',
        onDone: [
          {
            guard: { type: 'hasNextFactor', params: ({ event }) => event.output },
            target: 'choosingFactor',
            actions: { type: 'storeNext', params: ({ event }) => event.output },
          },
          { target: 'choosingFactor', actions: { type: 'storeNoOtherFactor', params: outputOf } },
        ],
        onError: failTo('failed'),
      },
    },
    continuing: continuingState({
      description: 'The code was accepted: sign-in continues as the outcome says.',
    }),
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
