import type { SnapshotFrom } from 'xstate';
import type { idleWarningMachine } from './idle-warning.machine';

type Snapshot = SnapshotFrom<typeof idleWarningMachine>;

/** Whether the dialog 'Your session is about to end' is open. */
export const selectWarningOpen = (snapshot: Snapshot): boolean =>
  snapshot.matches('warning') || snapshot.matches('extending');

/** Stay signed in was chosen and its call is on its way. */
export const selectExtending = (snapshot: Snapshot): boolean => snapshot.matches('extending');
