import type { SnapshotFrom } from 'xstate';
import type { FactorType } from '../../../src/contract/entities';
import type { mfaMachine } from './mfa.machine';

type Snapshot = SnapshotFrom<typeof mfaMachine>;

/** Which view the page shows. */
export type MfaView = 'loading' | FactorType | 'continuing' | 'failed' | 'done';

export const selectView = (snapshot: Snapshot): MfaView => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('authenticatorApp')) return 'AUTHENTICATOR_APP';
  if (snapshot.matches('sms')) return 'SMS';
  if (snapshot.matches('email')) return 'EMAIL';
  if (snapshot.matches('continuing')) return 'continuing';
  if (snapshot.matches('failed')) return 'failed';
  return 'loading';
};

/** A code is being checked. */
export const selectVerifying = (snapshot: Snapshot): boolean =>
  snapshot.matches({ authenticatorApp: 'verifying' }) ||
  snapshot.matches({ sms: 'verifying' }) ||
  snapshot.matches({ email: 'verifying' });

/** Another code is being sent. */
export const selectResending = (snapshot: Snapshot): boolean =>
  snapshot.matches({ sms: 'resending' }) || snapshot.matches({ email: 'resending' });

/** The message of the last refused code, shown on the code field. */
export const selectCodeError = (snapshot: Snapshot): string | null => {
  const refusal = snapshot.context.refusal;
  if (refusal === null) return null;
  return refusal.fieldErrors.find((e) => e.fieldName === 'code')?.message ?? refusal.message;
};

export const selectResendRefusal = (snapshot: Snapshot): string | null => snapshot.context.resendRefusal;

export const selectSmsUnavailableMessage = (snapshot: Snapshot): string | null =>
  snapshot.context.smsUnavailableMessage;

/** The server's period in days (1 or 7), or null when it could not be read. */
export const selectTrustedDevicePeriod = (snapshot: Snapshot) => snapshot.context.trustedDevicePeriod;

export const selectErrorMessage = (snapshot: Snapshot): string | null => snapshot.context.errorMessage;

/** Skip found no factor after the current one: the screen says so and offers no skip link. */
export const selectNoOtherFactor = (snapshot: Snapshot): boolean => snapshot.context.noOtherFactor;
