// One function per access-request call of src/contract/admin.ts, each taking `{ signal }` last.
// Imported directly by the access-request actors (not through api/index.ts), so it stays in the
// access-request pages' lazy chunk.
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
