import type { SnapshotFrom } from 'xstate';
import type { HistoryItem, PageMetadata } from '../../../src/contract/admin';
import type { historyMachine } from './history.machine';

type Snapshot = SnapshotFrom<typeof historyMachine>;

export type HistoryView = 'loading' | 'ready' | 'failed';

export const selectView = (s: Snapshot): HistoryView =>
  s.matches('ready') ? 'ready' : s.matches('failed') ? 'failed' : 'loading';

/** The items last loaded (kept on screen while the next page loads). */
export const selectItems = (s: Snapshot): HistoryItem[] => s.context.result?.data ?? [];
export const selectPage = (s: Snapshot): PageMetadata | null => s.context.result?.page ?? null;
export const selectErrorMessage = (s: Snapshot): string | null => s.context.errorMessage;
