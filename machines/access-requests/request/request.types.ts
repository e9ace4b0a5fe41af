import type { AccessRequestDetails } from '../../../src/contract/admin';

/**
 * Opened by id (/access-requests/{id}) or by app code and request code (/access-requests/{appCode}/{code}).
 * `mayDecide`: the user is an admin, who may approve or reject a pending request (VIEW_ACCESS_REQUESTS
 * holders only view; the server refuses them too). `selfId`: the user's identity id; an admin's own
 * request is for another admin to decide (the server refuses it too).
 */
export type RequestInput = ({ id: string } | { appCode: string; code: string }) & {
  mayDecide?: boolean;
  selfId?: string;
};

/** An admin's decision on a pending request. */
export type Decision = 'approve' | 'reject';

/** The server's refusal of a decision's fields (a 422), by field. */
export interface DecisionFieldErrors {
  ticketCode?: string;
  reason?: string;
}

/** What the decide actor is given: the typed ticket (and reason) travel in the event, not the context. */
export interface DecideInput {
  id: string;
  decision: Decision;
  ticketCode: string;
  /** Only for a rejection. */
  reason: string | null;
}

/**
 * What deciding answers: the decided request; a refusal of the fields (422); or the request was
 * decided meanwhile (409: the page loads it again). Anything else is a failure (onError).
 */
export type DecideResult =
  | { type: 'decided'; details: AccessRequestDetails }
  | { type: 'refused'; message: string; fieldErrors: DecisionFieldErrors }
  | { type: 'alreadyDecided'; message: string };

/** What the page tells after a decision attempt; the view moves focus to it. */
export type DecisionOutcome =
  { type: 'decided'; status: string } | { type: 'alreadyDecided'; message: string };

export interface RequestContext {
  input: RequestInput;
  /** The request's id: given, or resolved from the app code and code. */
  id: string | null;
  details: AccessRequestDetails | null;
  errorMessage: string | null;
  mayDecide: boolean;
  /** The user's identity id (null: unknown). */
  selfId: string | null;
  /** The decision being confirmed or sent. */
  decision: Decision | null;
  /** Why the last decision was not taken (shown in the confirmation). */
  refusal: { message: string; fieldErrors: DecisionFieldErrors } | null;
  outcome: DecisionOutcome | null;
  /** How many decisions this page has seen made, by this admin or meanwhile by another (the history reloads for each). */
  decisions: number;
}

export type RequestEvent =
  /** 'Try again' after a failed load. */
  | { type: 'user.retry' }
  /** 'Approve' on a pending request: opens the confirmation with the ticket field. */
  | { type: 'user.approve' }
  /** 'Reject' on a pending request: opens the confirmation with the ticket and reason fields. */
  | { type: 'user.reject' }
  /** 'Cancel' in the confirmation. */
  | { type: 'user.cancel' }
  /** The confirmation's submit, with what was typed (the reason is ignored for an approval). */
  | { type: 'user.confirm'; ticketCode: string; reason: string };

/**
 * What a pending request is to the user: 'decide' (an admin's to approve or reject), 'own' (an
 * admin's own request, for another admin to decide), or null (not an admin, or not pending).
 */
export function pendingDecision(
  context: Pick<RequestContext, 'mayDecide' | 'details' | 'selfId'>,
): 'decide' | 'own' | null {
  if (!context.mayDecide || context.details?.status !== 'PENDING') return null;
  return context.details.requester.id === context.selfId ? 'own' : 'decide';
}
