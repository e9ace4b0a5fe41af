// Admin and access-request calls of section 7, the history item and page metadata of section 3.
// Most of these screens are "not shown" in the spec: shapes marked so are this portal's design.
import * as v from 'valibot';
import { defineCall, type AnySchema } from './call';
import { isoDateTime, limits } from './fields';

const CODE_MAX = 50;
const ID_MAX = 100;
const idParam = v.pipe(v.string(), v.nonEmpty(), v.maxLength(ID_MAX));
const codeParam = v.pipe(v.string(), v.nonEmpty(), v.maxLength(CODE_MAX));

/** One entry of an admin option list; READ_ONLY and VIEW_ACCESS_REQUESTS come back disabled. */
export const Option = v.object({ value: v.string(), disabled: v.boolean() });
export type Option = v.InferOutput<typeof Option>;
/** Not shown: the name of the second list; `accessRequestUser` is the access-request user role. */
export const AdminRoles = v.object({ samAdmin: v.array(Option), accessRequestUser: v.array(Option) });
export type AdminRoles = v.InferOutput<typeof AdminRoles>;

/** Constant option texts of the admin app settings (section 3), word for word. */
export const ACCESS_REQUEST_HANDLING_TEXT = {
  IMMEDIATE: 'Immediately approve all Access Requests',
  MANUAL: 'Undertake manual workflow for Access Requests',
} as const;
export const FACILITY_HANDOFF_TEXT = {
  NONE: 'Handoff to the App does not include a Facility',
  SELECTED_BEFORE_HANDOFF: 'Handoff to the App includes a Facility selected by the user before handoff',
} as const;

/** Page metadata; `number` is zero-based (not shown, chosen here). */
export const PageMetadata = v.object({
  number: v.pipe(v.number(), v.integer(), v.minValue(0)),
  size: v.pipe(v.number(), v.integer(), v.minValue(1)),
  totalElements: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type PageMetadata = v.InferOutput<typeof PageMetadata>;

/** A page of a paged list: `{ data, page }` (section 7's paged list helper). */
export const Paged = <TItem extends AnySchema>(item: TItem) =>
  v.object({ data: v.array(item), page: PageMetadata });

/** Zero-based page number; a query string carries it as text, a typed caller as a number. */
export const pageNumber = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.digits(), v.transform(Number))]),
  v.integer(),
  v.minValue(0),
);
/** Query of the paged list helper: `page` and a free-text `query` (both optional). */
export const PagedQuery = v.strictObject({
  page: v.optional(pageNumber),
  query: v.optional(v.pipe(v.string(), v.maxLength(200))),
});

export const HistoryItem = v.object({
  eventDate: isoDateTime,
  actorApp: v.nullable(v.object({ code: v.string(), name: v.string() })),
  /** Absent (or null) means System. */
  actor: v.optional(v.nullable(v.object({ id: v.string(), username: v.string() }))),
  type: v.object({ text: v.string(), variant: v.string() }),
  ticket: v.nullable(v.object({ code: v.string(), url: v.string() })),
  /** May be multi-line. */
  description: v.nullable(v.string()),
});
export type HistoryItem = v.InferOutput<typeof HistoryItem>;

/** Not shown: a row of the access-request list. */
export const AccessRequestSummary = v.object({
  id: v.string(),
  code: v.string(),
  app: v.object({ code: v.string(), name: v.string() }),
  facility: v.nullable(v.object({ code: v.string(), name: v.string() })),
  requester: v.object({ id: v.string(), username: v.string(), name: v.nullable(v.string()) }),
  status: v.string(),
  createdDate: isoDateTime,
});
export type AccessRequestSummary = v.InferOutput<typeof AccessRequestSummary>;

export const adminCalls = {
  getAdminRoles: defineCall({
    id: 'getAdminRoles',
    method: 'GET',
    path: 'admin/roles',
    response: AdminRoles,
  }),
  // Not shown: the list's path; it is the paged list helper applied to access requests.
  getAccessRequests: defineCall({
    id: 'getAccessRequests',
    method: 'GET',
    path: 'access-requests',
    query: PagedQuery,
    response: Paged(AccessRequestSummary),
  }),
  getAccessRequestId: defineCall({
    id: 'getAccessRequestId',
    method: 'GET',
    path: 'access-requests/:appCode/:code/id',
    params: v.strictObject({ appCode: codeParam, code: codeParam }),
    // Not shown: the id comes wrapped in an object.
    response: v.object({ id: v.string() }),
  }),
  getAccessRequestHistory: defineCall({
    id: 'getAccessRequestHistory',
    method: 'GET',
    path: 'access-requests/:id/history',
    params: v.strictObject({ id: idParam }),
    // Not shown: the page parameter's name; `page`, as in the paged list helper. The size is fixed at 5.
    query: v.strictObject({ page: v.optional(pageNumber) }),
    response: Paged(HistoryItem),
  }),
} as const;

/** History page size (section 9). */
export const HISTORY_PAGE_SIZE = limits.historyPageSize;
