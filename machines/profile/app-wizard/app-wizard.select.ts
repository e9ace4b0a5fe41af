import type { SnapshotFrom } from 'xstate';
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

export const selectVerifying = (snapshot: Snapshot) => snapshot.matches('verifying');
export const selectContext = (snapshot: Snapshot) => snapshot.context;
