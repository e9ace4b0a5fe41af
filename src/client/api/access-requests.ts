// One function per access-request call of src/contract/admin.ts and src/contract/access-requests.ts,
// each taking `{ signal }` last.
// Imported directly by the access-request actors (not through api/index.ts), so it stays in the
// access-request pages' lazy chunk.
import { accessRequestDecisionCalls } from '../../contract/access-requests';
import { adminCalls } from '../../contract/admin';
import { request, type CallOptions } from './request';

/** A page of the access-request list (zero-based `page`; `query` searches code, app, facility, requester). */
export const getAccessRequests = (
  { page, query }: { page: number; query: string },
  { signal }: CallOptions = {},
) =>
  request(adminCalls.getAccessRequests, { query: { page, query: query === '' ? undefined : query }, signal });

export const getAccessRequestId = (
  { appCode, code }: { appCode: string; code: string },
  { signal }: CallOptions = {},
) => request(adminCalls.getAccessRequestId, { params: { appCode, code }, signal });

export const getAccessRequest = ({ id }: { id: string }, { signal }: CallOptions = {}) =>
  request(adminCalls.getAccessRequest, { params: { id }, signal });

/** Five history items per page. */
export const getAccessRequestHistory = (
  { id, page }: { id: string; page: number },
  { signal }: CallOptions = {},
) => request(adminCalls.getAccessRequestHistory, { params: { id }, query: { page }, signal });

/** The outbound calls of the request's history, five per page. */
export const getAccessRequestApiCalls = (
  { id, page }: { id: string; page: number },
  { signal }: CallOptions = {},
) => request(adminCalls.getAccessRequestApiCalls, { params: { id }, query: { page }, signal });

/** An admin approves a pending request for a Jira ticket (the access is granted). */
export const approveAccessRequest = (
  { id, ticketCode }: { id: string; ticketCode: string },
  { signal }: CallOptions = {},
) =>
  request(accessRequestDecisionCalls.approveAccessRequest, { params: { id }, body: { ticketCode }, signal });

/** An admin rejects a pending request for a Jira ticket, with the reason the requester is told. */
export const rejectAccessRequest = (
  { id, ticketCode, reason }: { id: string; ticketCode: string; reason: string },
  { signal }: CallOptions = {},
) =>
  request(accessRequestDecisionCalls.rejectAccessRequest, {
    params: { id },
    body: { ticketCode, reason },
    signal,
  });
