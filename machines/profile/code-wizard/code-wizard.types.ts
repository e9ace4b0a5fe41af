import type { CurrentUser } from '../../../src/contract/entities';
import type { RouteChangedEvent } from '../../shared/flow.types';
import type { ProfileOutput, Refusal, ResendResult, WizardStep } from '../profile.types';

export type { ProfileOutput, ResendResult, WizardStep };

/** Step 1's call: the current password and the new email or mobile. */
export interface StartInput {
  currentPassword: string;
  value: string;
}

export type StartResult =
  /** A code went to the new address: step 2 verifies it there. */
  | { type: 'codeSent'; destination: string }
  /** Nothing to verify (the same mobile again): the updated user. */
  | { type: 'updated'; user: CurrentUser }
  | ({ type: 'refused' } & Refusal)
  /** Section 8: an SMS 503; the customer message. */
  | { type: 'unavailable'; message: string };

export type VerifyResult = { type: 'verified'; user: CurrentUser } | ({ type: 'refused' } & Refusal);

export interface CodeWizardContext {
  /** Step 2's parameter: where the code went. Step 2 is only reachable with it. */
  destination: string | null;
  /** The last refused start (422), shown on step 1's fields. */
  refusal: Refusal | null;
  /** The last refused code (422), shown on the code field. */
  codeRefusal: Refusal | null;
  /** A refused resend: shown in red, and the resend link is disabled. */
  resendRefusal: string | null;
  /** The saved user (handed over with the output). */
  savedUser: CurrentUser | null;
  /** The customer message of an SMS 503. */
  unavailableMessage: string | null;
  errorMessage: string | null;
  /** The step an unexpected failure came from: the failure view shows its progress (section 2.3). */
  failedStep: WizardStep | null;
}

export type CodeWizardEvent =
  | { type: 'user.start'; currentPassword: string; value: string }
  | { type: 'user.verify'; code: string }
  | { type: 'user.resend' }
  | { type: 'user.cancel' }
  | RouteChangedEvent;

export type CodeWizardOutput = ProfileOutput;
