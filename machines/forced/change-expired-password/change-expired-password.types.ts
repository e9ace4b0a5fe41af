import type { AuthenticationOutcome } from '../../../src/contract/entities';
import type { ContinueSignInInput, ContinueSignInOutput } from '../continue-sign-in/continue-sign-in.types';
import type { ForcedStepOutput, LandingInput, OutcomeResult, Refusal } from '../continue-sign-in/forced-step';

export type ChangeExpiredPasswordInput = LandingInput;

/** The change-expired-password call's payload (section 7); the passwords pass through, never stored. */
export interface NewPasswordInput {
  password: string;
  confirmPassword: string;
}

export type { ContinueSignInInput, ContinueSignInOutput, OutcomeResult };

export interface ChangeExpiredPasswordContext extends LandingInput {
  /** The last 422: policy or blocklist reasons, shown on the fields; kept until the next submit. */
  refusal: Refusal | null;
  /** The outcome of the change, handed to the continuation. */
  outcome: AuthenticationOutcome | null;
  /** How sign-in continued (the final output). */
  handover: ForcedStepOutput | null;
  /** The message of an unexpected failure. */
  errorMessage: string | null;
}

export type ChangeExpiredPasswordEvent =
  /** The user submitted the new password and its confirmation (valid by section 5). */
  | { type: 'user.submit'; password: string; confirmPassword: string }
  /** Cancel: invalidate the session and go to sign-in. */
  | { type: 'user.cancel' };

export type ChangeExpiredPasswordOutput = ForcedStepOutput;
