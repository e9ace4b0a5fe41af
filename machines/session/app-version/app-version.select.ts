import type { SnapshotFrom } from 'xstate';
import type { appVersionMachine } from './app-version.machine';

type Snapshot = SnapshotFrom<typeof appVersionMachine>;

/** Whether the 'Update available' toast is shown. */
export const selectUpdateAvailable = (snapshot: Snapshot): boolean => snapshot.matches('updateAvailable');
export const selectLatestVersion = (snapshot: Snapshot): string | null => snapshot.context.latestVersion;
