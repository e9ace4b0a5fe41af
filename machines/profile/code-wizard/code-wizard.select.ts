import type { SnapshotFrom } from 'xstate';
import { WIZARD_STEP_PROGRESS } from '../profile.types';
import type { CodeWizardMachine } from './code-wizard.machine';

type Snapshot = SnapshotFrom<CodeWizardMachine>;

export type CodeWizardView = 'details' | 'verification' | 'failed' | 'done';

export const selectView = (snapshot: Snapshot): CodeWizardView => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('details') || snapshot.matches('starting')) return 'details';
  if (snapshot.matches('failed')) return 'failed';
  return 'verification';
};

/** Section 2.3: step 1 at 50, step 2 at 100; the failure view shows the step the failure came from. */
export const selectProgress = (snapshot: Snapshot): number => {
  if (snapshot.matches('failed')) return WIZARD_STEP_PROGRESS[snapshot.context.failedStep ?? 1];
  return WIZARD_STEP_PROGRESS[snapshot.matches('details') || snapshot.matches('starting') ? 1 : 2];
};
export const selectStarting = (snapshot: Snapshot) => snapshot.matches('starting');
export const selectVerifying = (snapshot: Snapshot) => snapshot.matches('verifying');
export const selectResending = (snapshot: Snapshot) => snapshot.matches('resending');
export const selectCancelling = (snapshot: Snapshot) => snapshot.matches('cancelling');
export const selectContext = (snapshot: Snapshot) => snapshot.context;
