// Enrolling a mobile for SMS codes and verifying it, as factor enrolment (machines/forced/factor-enrolment) and
// registration (machines/registration) do it, with section 8's fallback: SMS unavailable (503)
// goes on to the security questions. Both machines name their steps `smsVerification` and
// `securityQuestions`; their setup() checks this config (see invoke-steps.ts).
import { failTo, outputOf } from './invoke-basics';
import { resendingCodeState, submittingState } from './invoke-steps';

/** An SMS call answered 503: the customer message is stored and `#<machine>.securityQuestions` follows. */
export const smsUnavailableTo = <const TMachine extends string>(machine: TMachine) =>
  ({
    guard: { type: 'isUnavailable', params: outputOf },
    target: `#${machine}.securityQuestions`,
    actions: { type: 'storeSmsUnavailable', params: outputOf },
  }) as const;

/**
 * select-sms-factor's `enrolling`, beside its `form`: the server stores the mobile and sends it a code.
 *   --done[isUnavailable] 503 / storeSmsUnavailable--> #<machine>.securityQuestions
 *   --done[isRefused] 422 / storeRefusal--> form    --done / storeMobile--> #<machine>.smsVerification
 *   --error / reportFailure--> #<machine>.failed
 */
export const enrollingSmsState = <const TMachine extends string, TInput>(machine: TMachine, input: TInput) =>
  ({
    meta: { description: 'Enrolling the mobile: the server sends it a code.' },
    invoke: {
      id: 'enrolSms',
      src: 'enrolSms',
      input,
      onDone: [
        smsUnavailableTo(machine),
        {
          guard: { type: 'isRefused', params: outputOf },
          target: 'form',
          actions: { type: 'storeRefusal', params: outputOf },
        },
        { target: `#${machine}.smsVerification`, actions: { type: 'storeMobile', params: outputOf } },
      ],
      onError: failTo(`#${machine}.failed`),
    },
  }) as const;

export interface SmsVerificationOptions<TCodeInput, TResendInput, TAnnounce> {
  /** verifyCode's input: the code of the user.verify event, on the SMS channel. */
  codeInput: TCodeInput;
  /** resendCode's input, when the machine's actor takes one. */
  resendInput?: TResendInput;
  /** The resent toast: 'announceResent', or resentToast('sms'). */
  announce: TAnnounce;
}

/**
 * sms-verification's sub-states:
 *   form --user.verify / forgetRefusal--> verifying --done[isRefused]--> form
 *     --done--> #<machine>.securityQuestions
 *   form --user.resend[mayResend]--> resending --done[isSent] / `announce`--> form
 *     --done[isUnavailable] 503 / storeSmsUnavailable--> #<machine>.securityQuestions
 *     --done / storeResendRefusal--> form
 *   form --route.changed[isSelectSmsRoute]--> #<machine>.selectSms (back, to change the number)
 */
export const smsVerificationStates = <
  const TMachine extends string,
  TCodeInput,
  const TResendInput,
  const TAnnounce,
>(
  machine: TMachine,
  { codeInput, resendInput, announce }: SmsVerificationOptions<TCodeInput, TResendInput, TAnnounce>,
) =>
  ({
    form: {
      meta: { description: 'Code and resend; back to change the number.' },
      on: {
        'user.verify': { target: 'verifying', actions: 'forgetRefusal' },
        'user.resend': { guard: 'mayResend', target: 'resending' },
        'route.changed': { guard: 'isSelectSmsRoute', target: `#${machine}.selectSms` },
      },
    },
    verifying: submittingState({
      description: 'Checking the SMS code.',
      actor: 'verifyCode',
      input: codeInput,
      done: [{ target: `#${machine}.securityQuestions` }],
      failed: `#${machine}.failed`,
    }),
    resending: resendingCodeState({
      description: 'Sending another SMS code.',
      actor: 'resendCode',
      input: resendInput,
      announce,
      fallback: [smsUnavailableTo(machine)],
      failed: `#${machine}.failed`,
    }),
  }) as const;
