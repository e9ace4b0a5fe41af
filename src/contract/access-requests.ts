// An admin's decision on an access request that waits for the manual workflow (section 2.7's admin
// screens; not shown in the spec, so these shapes are this portal's design): approve it (the access
// is granted exactly as immediate handling grants it) or reject it with a reason, each for a Jira
// ticket. Only a PENDING request can be decided; a decided one is refused with 409.
import * as v from 'valibot';
import { ACCESS_REQUEST_STATUSES, AccessRequestDetails } from './admin';
import { SignOutIdentityBody } from './admin-identities';
import { defineCall } from './call';
import { messages, requestBody } from './fields';

const idParam = v.pipe(v.string(), v.nonEmpty(), v.maxLength(100));

/** Every status a request can have: PENDING, APPROVED, and REJECTED once an admin says no. */
export const ACCESS_REQUEST_ALL_STATUSES = [...ACCESS_REQUEST_STATUSES, 'REJECTED'] as const;
export type AccessRequestAnyStatus = (typeof ACCESS_REQUEST_ALL_STATUSES)[number];

/** The statuses a decision leads to. */
export const ACCESS_REQUEST_DECISIONS = { approve: 'APPROVED', reject: 'REJECTED' } as const;
export type AccessRequestDecision = keyof typeof ACCESS_REQUEST_DECISIONS;

export const DECISION_REASON_MAX = 500;

/** The Jira ticket code, with the rules of the identity page's 'sign out of all devices' field. */
export const decisionTicketCode = SignOutIdentityBody.entries.ticketCode;

/** Why the request is rejected: trimmed, 1 to 500 characters; it reaches the requester. */
export const decisionReason = v.pipe(
  v.string(messages.required),
  v.trim(),
  v.nonEmpty(messages.required),
  v.maxLength(DECISION_REASON_MAX, messages.maxSize(DECISION_REASON_MAX)),
);

export const ApproveAccessRequestBody = requestBody({ ticketCode: decisionTicketCode });
export type ApproveAccessRequestBody = v.InferOutput<typeof ApproveAccessRequestBody>;

export const RejectAccessRequestBody = requestBody({
  ticketCode: decisionTicketCode,
  reason: decisionReason,
});
export type RejectAccessRequestBody = v.InferOutput<typeof RejectAccessRequestBody>;

/** The decided request, as GET access-requests/{id} now answers it. */
export const DecidedAccessRequest = v.object({
  ...AccessRequestDetails.entries,
  status: v.picklist(['APPROVED', 'REJECTED']),
  decidedDate: v.pipe(v.string(), v.isoTimestamp()),
});
export type DecidedAccessRequest = v.InferOutput<typeof DecidedAccessRequest>;

export const accessRequestDecisionCalls = {
  // Admins only (VIEW_ACCESS_REQUESTS and READ_ONLY holders only view): 403 for anyone else.
  approveAccessRequest: defineCall({
    id: 'approveAccessRequest',
    method: 'POST',
    path: 'access-requests/:id/approve',
    params: v.strictObject({ id: idParam }),
    body: ApproveAccessRequestBody,
    response: DecidedAccessRequest,
  }),
  rejectAccessRequest: defineCall({
    id: 'rejectAccessRequest',
    method: 'POST',
    path: 'access-requests/:id/reject',
    params: v.strictObject({ id: idParam }),
    body: RejectAccessRequestBody,
    response: DecidedAccessRequest,
  }),
} as const;
