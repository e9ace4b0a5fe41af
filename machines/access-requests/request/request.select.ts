import type { SnapshotFrom } from 'xstate';
import type { AccessRequestDetails } from '../../../src/contract/admin';
import type { requestMachine } from './request.machine';

type Snapshot = SnapshotFrom<typeof requestMachine>;

export type RequestView = 'loading' | 'resolved' | 'ready' | 'failed';

export const selectView = (s: Snapshot): RequestView =>
  s.matches('ready')
    ? 'ready'
    : s.matches('resolved')
      ? 'resolved'
      : s.matches('failed')
        ? 'failed'
        : 'loading';

export const selectId = (s: Snapshot): string | null => s.context.id;
export const selectDetails = (s: Snapshot): AccessRequestDetails | null => s.context.details;
export const selectErrorMessage = (s: Snapshot): string | null => s.context.errorMessage;
