import type { SnapshotFrom } from 'xstate';
import type { profileFormMachine } from './profile-form.machine';

type Snapshot = SnapshotFrom<typeof profileFormMachine>;

/** Which view the screen shows. */
export type ProfileFormView = 'checking' | 'form' | 'readOnly' | 'failed' | 'done';

export const selectView = (snapshot: Snapshot): ProfileFormView => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('checking')) return 'checking';
  if (snapshot.matches('readOnly')) return 'readOnly';
  if (snapshot.matches('failed')) return 'failed';
  return 'form';
};

export const selectBusy = (snapshot: Snapshot): boolean => snapshot.matches('submitting');

export const selectRefusal = (snapshot: Snapshot) => snapshot.context.refusal;

export const selectErrorMessage = (snapshot: Snapshot): string | null => snapshot.context.errorMessage;
