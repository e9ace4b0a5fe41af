import type { SnapshotFrom } from 'xstate';
import type { CodeWizardMachine } from './code-wizard.machine';

type Snapshot = SnapshotFrom<CodeWizardMachine>;

export type CodeWizardView = 'details' | 'verification' | 'failed' | 'done';

export const selectView = (snapshot: Snapshot): CodeWizardView => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('details') || snapshot.matches('starting')) return 'details';
  if (snapshot.matches('failed')) return 'failed';
  return 'verification';
};

export const selectProgress = (snapshot: Snapshot): number =>
  snapshot.matches('details') || snapshot.matches('starting') ? 50 : 100;
export const selectStarting = (snapshot: Snapshot) => snapshot.matches('starting');
export const selectVerifying = (snapshot: Snapshot) => snapshot.matches('verifying');
export const selectResending = (snapshot: Snapshot) => snapshot.matches('resending');
export const selectCancelling = (snapshot: Snapshot) => snapshot.matches('cancelling');
export const selectContext = (snapshot: Snapshot) => snapshot.context;
