import type { AuthenticationOutcome, FactorType } from '../../../src/contract/entities';
import type { ContinueSignInOutput, MfaStart } from '../continue-sign-in/continue-sign-in.types';
import type {
  CodeChannel,
  ForcedStepOutput,
  LandingInput,
  OutcomeResult,
  Refusal,
  ResendResult,
} from '../continue-sign-in/forced-step';

export type { CodeChannel, ContinueSignInOutput, MfaStart, OutcomeResult, ResendResult };

/** Section 7's trusted-device period: 1 (24 hours) or 7 (7 days). */
export type TrustedDevicePeriod = 1 | 7;

export interface MfaInput extends LandingInput {
  /** The factor of the screen the page was opened at; null at an address that names none. */
  factor: FactorType | null;
  /** The SMS-unavailable message MFA start (or skip) answered, handed over by the page before. */
  smsUnavailableMessage: string | null;
}

/** The verify call's payload: the code, and whether to trust this device. */
export interface VerifyCodeInput {
  factor: FactorType;
  code: string;
  trustDevice: boolean;
}

/** The answer of MFA start and skip: the factor to verify next. */
export type MfaNext = MfaStart;

export interface MfaContext extends LandingInput {
  /** The factor whose screen is shown. */
  factor: FactorType | null;
  /** Shown as the SMS-unavailable alert on the MFA screens. */
  smsUnavailableMessage: string | null;
  /** The server's trusted-device period; null until read (the text then says 24 hours). */
  trustedDevicePeriod: TrustedDevicePeriod | null;
  /** Skip found no factor after this one: the screen stays, says so, and offers no skip. */
  noOtherFactor: boolean;
  /** The last refused code (422), shown on the code field until the next try. */
  refusal: Refusal | null;
  /** A refused resend (422, or 503 on email): shown in red, and the resend link is disabled. */
  resendRefusal: string | null;
  /** The outcome of the verified code, handed to the continuation. */
  outcome: AuthenticationOutcome | null;
  /** How sign-in continued (the final output). */
  handover: ForcedStepOutput | null;
  /** 'Unknown authentication outcome' or the message of an unexpected failure. */
  errorMessage: string | null;
}

export type MfaEvent =
  /** The user entered the code (valid by section 5) and chose whether to trust this device. */
  | { type: 'user.verify'; code: string; trustDevice: boolean }
  /** "I don't have access" (authenticator app and SMS screens). */
  | { type: 'user.skip' }
  /** The resend link (SMS and email screens). */
  | { type: 'user.resend' };

export type MfaOutput = ForcedStepOutput;
