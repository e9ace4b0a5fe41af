import type { SnapshotFrom } from 'xstate';
import type { AccessRequestSummary, PageMetadata } from '../../../src/contract/admin';
import type { requestListMachine } from './request-list.machine';

type Snapshot = SnapshotFrom<typeof requestListMachine>;

export type RequestListView = 'loading' | 'ready' | 'failed';

export const selectView = (s: Snapshot): RequestListView =>
  s.matches('ready') ? 'ready' : s.matches('failed') ? 'failed' : 'loading';

/** The rows last loaded (kept on screen while the next page loads). */
export const selectRows = (s: Snapshot): AccessRequestSummary[] => s.context.result?.data ?? [];
export const selectPage = (s: Snapshot): PageMetadata | null => s.context.result?.page ?? null;
export const selectQuery = (s: Snapshot): string => s.context.query;
export const selectErrorMessage = (s: Snapshot): string | null => s.context.errorMessage;
