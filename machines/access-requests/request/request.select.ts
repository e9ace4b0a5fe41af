import type { SnapshotFrom } from 'xstate';
import type { AccessRequestDetails } from '../../../src/contract/admin';
import type { requestMachine } from './request.machine';
import { pendingDecision, type Decision, type DecisionOutcome, type RequestContext } from './request.types';

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

/** Approve and Reject are offered: an admin, a pending request, nothing being decided. */
export const selectCanDecide = (s: Snapshot): boolean =>
  s.matches({ ready: 'viewing' }) && s.can({ type: 'user.approve' });

/** An admin's own pending request: another admin decides it, so the page says so instead. */
export const selectOwnPendingRequest = (s: Snapshot): boolean => pendingDecision(s.context) === 'own';

/** The decision being confirmed or sent (null: no confirmation open). */
export const selectDecision = (s: Snapshot): Decision | null =>
  s.matches({ ready: 'confirming' }) || s.matches({ ready: 'deciding' }) ? s.context.decision : null;

export const selectDeciding = (s: Snapshot): boolean => s.matches({ ready: 'deciding' });
export const selectRefusal = (s: Snapshot): RequestContext['refusal'] => s.context.refusal;
export const selectOutcome = (s: Snapshot): DecisionOutcome | null => s.context.outcome;
export const selectDecisions = (s: Snapshot): number => s.context.decisions;
