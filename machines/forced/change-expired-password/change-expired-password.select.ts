import type { SnapshotFrom } from 'xstate';
import type { changeExpiredPasswordMachine } from './change-expired-password.machine';

type Snapshot = SnapshotFrom<typeof changeExpiredPasswordMachine>;

/** Which view the page shows. */
export type ChangeExpiredPasswordView = 'form' | 'continuing' | 'failed' | 'cancelling' | 'done';

export const selectView = (snapshot: Snapshot): ChangeExpiredPasswordView => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('form') || snapshot.matches('submitting')) return 'form';
  if (snapshot.matches('continuing')) return 'continuing';
  if (snapshot.matches('cancelling')) return 'cancelling';
  return 'failed';
};

export const selectBusy = (snapshot: Snapshot): boolean => snapshot.matches('submitting');

/** The last refusal: a new object for each one, so the form can react to each. */
export const selectRefusal = (snapshot: Snapshot) => snapshot.context.refusal;

export const selectErrorMessage = (snapshot: Snapshot): string | null => snapshot.context.errorMessage;
