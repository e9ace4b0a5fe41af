import type { CurrentUser } from '../../../src/contract/entities';
import type { ProfileOutput, Refusal, SubmitResult } from '../profile.types';

export type { ProfileOutput, SubmitResult };

export interface ProfileFormInput {
  /** Change-name and change-date-of-birth: read-only once the identity is verified (section 2.3). */
  lockedWhenVerified: boolean;
}

/** The form's values as the screen collected them (current password included): passed, never stored. */
export type FormValues = Record<string, unknown> & { currentPassword: string };

export interface ProfileFormContext {
  lockedWhenVerified: boolean;
  /** The last 422: its message and the field errors, shown until the next submit. */
  refusal: Refusal | null;
  /** The updated user a saved change answered (handed over with the output). */
  savedUser: CurrentUser | null;
  /** The message of an unexpected failure. */
  errorMessage: string | null;
}

export type ProfileFormEvent =
  /** The user submitted the form (valid by section 5). */
  | { type: 'user.submit'; values: FormValues }
  /** Cancel (or Back from a read-only or failed screen): back to /profile. */
  | { type: 'user.cancel' };
