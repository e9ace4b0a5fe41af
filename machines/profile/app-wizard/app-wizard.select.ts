import type { SnapshotFrom } from 'xstate';
import { WIZARD_STEP_PROGRESS } from '../profile.types';
import type { AppWizardMachine } from './app-wizard.machine';

type Snapshot = SnapshotFrom<AppWizardMachine>;

export type AppWizardView = 'loading' | 'setup' | 'verification' | 'failed' | 'done';

export const selectView = (snapshot: Snapshot): AppWizardView => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('setup')) return 'setup';
  if (snapshot.matches('failed')) return 'failed';
  return 'verification';
};

/** Section 2.3: step 1 at 50, step 2 at 100; the failure view shows the step the failure came from. */
export const selectProgress = (snapshot: Snapshot): number => {
  if (snapshot.matches('failed')) return WIZARD_STEP_PROGRESS[snapshot.context.failedStep ?? 1];
  return WIZARD_STEP_PROGRESS[snapshot.matches('loading') || snapshot.matches('setup') ? 1 : 2];
};

export const selectVerifying = (snapshot: Snapshot) => snapshot.matches('verifying');
export const selectContext = (snapshot: Snapshot) => snapshot.context;
