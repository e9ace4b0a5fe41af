import type { RouteChangedEvent } from '../../shared/flow.types';
import type { ProfileOutput, Refusal, WizardStep } from '../profile.types';

export type { ProfileOutput, WizardStep };

/** Step 1: the new secret as the setup key and its QR code (a data URL). */
export interface AppSetup {
  setupKey: string;
  qrCode: string;
}

/** Step 2's call: a code of the new app and the current password. */
export interface VerifyAppInput {
  code: string;
  currentPassword: string;
}

export type VerifyAppResult = { type: 'verified' } | ({ type: 'refused' } & Refusal);

export interface AppWizardContext {
  /** Step 2's parameter: step 2 is only reachable once the setup is shown. */
  setup: AppSetup | null;
  /** The last refusal of step 2 (code or current password), on its fields. */
  refusal: Refusal | null;
  errorMessage: string | null;
  /** The step an unexpected failure came from: the failure view shows its progress (section 2.3). */
  failedStep: WizardStep | null;
}

export type AppWizardEvent =
  /** Step 1's Next: the app holds the secret. */
  | { type: 'user.next' }
  | ({ type: 'user.verify' } & VerifyAppInput)
  | { type: 'user.cancel' }
  | RouteChangedEvent;

export type AppWizardOutput = ProfileOutput;
