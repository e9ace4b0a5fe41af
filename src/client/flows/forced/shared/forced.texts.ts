// The user-visible strings every forced step shares (sections 2.6, 5 and 8). Strings quoted from
// the spec are word for word; tests import them from here.
import type { CodeChannel } from '../../../../../machines/forced/continue-sign-in/forced-step';
import { UNKNOWN_OUTCOME_MESSAGE } from '../../../../contract/errors';
import { messages } from '../../../../contract/fields';

const channelName: Record<CodeChannel, string> = { email: 'email', sms: 'SMS' };

export const forcedTexts = {
  loading: 'Loading',
  signingIn: 'Signing you in',
  handingOff: 'Handing off',
  /** Shown only when the browser does not run the hidden form's script. */
  continueHandoff: 'Continue',
  failedHeading: 'Sign in could not continue',
  unknownOutcome: UNKNOWN_OUTCOME_MESSAGE,
  /** The failed view's way out: the session is ended and sign-in starts again. */
  backToSignIn: 'Sign in again',
  cancelling: 'Cancelling sign in',
  /** Section 8's success toast after a resend. */
  resent: (channel: CodeChannel) => `Resent ${channelName[channel]} verification code`,
  /** Section 8: SMS gateway unavailable. */
  smsUnavailable:
    'SMS verification codes are currently unavailable. You may try to enrol mobile as a factor at a later date.',
  smsUnavailableTitle: 'SMS unavailable',
  code: 'Verification code',
  resendCode: 'Resend code',
  resending: 'Sending a new code',
  /** The progress bar's name; its value is shown as a percentage with two decimals. */
  progress: 'Progress',
  percent: (value: number) => `${value.toFixed(2)}%`,
  validation: messages,
} as const;
