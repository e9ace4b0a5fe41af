import type { SnapshotFrom } from 'xstate';
import type { reenterPasswordMachine } from './reenter-password.machine';

type Snapshot = SnapshotFrom<typeof reenterPasswordMachine>;

/** Whether the modal 'Re-enter password' is open. */
export const selectModalOpen = (snapshot: Snapshot): boolean => snapshot.matches('prompting');

export const selectSubmitting = (snapshot: Snapshot): boolean =>
  snapshot.matches({ prompting: { form: 'submitting' } });

/** The message shown on the password field: the refusal, or an unexpected failure's. */
export const selectPasswordError = (snapshot: Snapshot): string | null =>
  snapshot.context.refusal?.message ?? snapshot.context.errorMessage;
