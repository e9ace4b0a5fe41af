// Admin and access-request calls of section 7, the history item and page metadata of section 3.
// Most of these screens are "not shown" in the spec: shapes marked so are this portal's design.
import * as v from 'valibot';
import { defineCall, type AnySchema } from './call';
import { email, isoDateTime, limits, messages, optionalString, requestBody, requiredString } from './fields';

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
/**
 * The pages a list (identities, invitations, access requests: 20 rows a page) can be paged to:
 * the first 500, the first 10,000 rows. Not in the spec: this portal's limit. Each page further is
 * a longer read (the rows before it are counted off), and at a bank's scale a list that long is
 * narrowed with its search, not paged through; a page beyond it is refused with 400 at `page`.
 */
export const LIST_PAGE_LIMIT = 500;
/** The zero-based number of a list's page: at most LIST_PAGE_LIMIT - 1. */
export const listPageNumber = v.pipe(
  pageNumber,
  v.maxValue(LIST_PAGE_LIMIT - 1, messages.maxValue(LIST_PAGE_LIMIT - 1)),
);
/** Query of the paged list helper: `page` and a free-text `query` (both optional). */
export const PagedQuery = v.strictObject({
  page: v.optional(listPageNumber),
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

/** Not shown: one access request with when it was decided (null while pending). */
export const AccessRequestDetails = v.object({
  ...AccessRequestSummary.entries,
  decidedDate: v.nullable(isoDateTime),
});
export type AccessRequestDetails = v.InferOutput<typeof AccessRequestDetails>;

/** Not shown: an app as the admin sees it, with its settings and facilities. */
export const AdminApp = v.object({
  code: v.string(),
  name: v.string(),
  contextType: v.picklist(['SAML', 'JWT']),
  facilityHandoff: v.picklist(['NONE', 'SELECTED_BEFORE_HANDOFF']),
  accessRequestHandling: v.picklist(['IMMEDIATE', 'MANUAL']),
  facilities: v.array(v.object({ code: v.string(), name: v.string(), alias: v.nullable(v.string()) })),
});
export type AdminApp = v.InferOutput<typeof AdminApp>;

/**
 * Not shown: where an invitation stands. EXPIRED ran out of time; REVOKED was withdrawn by an admin
 * before it was used or ran out. Either way its code registers no one.
 */
export const INVITATION_STATUSES = ['OPEN', 'USED', 'EXPIRED', 'REVOKED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** Not shown: a row of the admin's invitation list. */
export const InvitationSummary = v.object({
  id: v.string(),
  email: v.string(),
  app: v.nullable(v.object({ code: v.string(), name: v.string() })),
  facility: v.nullable(v.object({ code: v.string(), name: v.string() })),
  name: v.nullable(v.string()),
  customerNumber: v.nullable(v.string()),
  isStaff: v.boolean(),
  status: v.picklist(INVITATION_STATUSES),
  createdDate: isoDateTime,
  expiresDate: isoDateTime,
  usedDate: v.nullable(isoDateTime),
  /** When an admin revoked it (REVOKED), else null. */
  revokedAt: v.nullable(isoDateTime),
  /** The revoking admin's username; null when not revoked, or when that identity is gone. */
  revokedBy: v.nullable(v.string()),
  /**
   * The username of the admin who created it; null for an invitation no admin made (the invite
   * command's, the demo seed's, those from before creators were recorded). Optional: absent in
   * answers from servers that did not record it.
   */
  createdBy: v.optional(v.nullable(v.string())),
});
export type InvitationSummary = v.InferOutput<typeof InvitationSummary>;

/**
 * Section 5: at registration the full name is "editable for staff or when no customer number is
 * present". For anyone else (a non-staff invitee with a customer number) the name is the
 * invitation's, shown and kept as it is, so such an invitation to a new account must carry it.
 * The invitation form, the server's invitation domain (which refuses one without a name: 422, a
 * 'Required field' error at `name`) and the registration wizard share this rule.
 */
export function invitationFixesName(invitee: {
  isStaff: boolean;
  customerNumber?: string | null | undefined;
}): boolean {
  return !invitee.isStaff && (invitee.customerNumber ?? '').trim() !== '';
}

/**
 * Whether the invitee enters the name at registration (section 5). An invitation that should carry
 * the name but does not (one created before invitations had to carry it) lets the invitee enter it
 * as staff do: the alternative is a registration that can never continue. The server's check of
 * collect-details and the registration wizard's form decide it with this one function.
 */
export function inviteeEntersName(invite: {
  isStaff: boolean;
  customerNumber?: string | null | undefined;
  name?: string | null | undefined;
}): boolean {
  return !invitationFixesName(invite) || !invite.name?.trim();
}

/**
 * Not shown: an admin invites someone to register for an app (and facility); the email goes out at
 * once. A non-staff invitee with a customer number needs a name (`invitationFixesName`): the server
 * refuses one without it with 422 and a field error, as it refuses a missing facility.
 */
export const CreateInvitationBody = requestBody({
  email,
  appCode: requiredString(CODE_MAX),
  facilityCode: v.optional(requiredString(CODE_MAX)),
  customerNumber: optionalString(20),
  name: optionalString(limits.name),
  isStaff: v.boolean(),
  validityDays: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(365))),
});
export type CreateInvitationBody = v.InferOutput<typeof CreateInvitationBody>;

/** Not shown: where an access request stands. */
export const ACCESS_REQUEST_STATUSES = ['PENDING', 'APPROVED'] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];

/**
 * Not shown: a signed-in user asks for access to an app they lack (with the facility, for apps
 * whose handoff includes one). The app's access-request handling decides whether it is approved at
 * once (the grant is created) or waits for the manual workflow.
 */
export const RequestAccessBody = requestBody({
  appCode: requiredString(CODE_MAX),
  facilityCode: v.optional(requiredString(CODE_MAX)),
});
export const RequestAccessResult = v.object({
  id: v.string(),
  code: v.string(),
  status: v.picklist(ACCESS_REQUEST_STATUSES),
});
export type RequestAccessResult = v.InferOutput<typeof RequestAccessResult>;

/** Not shown: the unlocked account's username and whether it was locked at all. */
export const UnlockResult = v.object({ username: v.string(), wasLocked: v.boolean() });
export type UnlockResult = v.InferOutput<typeof UnlockResult>;

export const adminCalls = {
  requestAccess: defineCall({
    id: 'requestAccess',
    method: 'POST',
    path: 'access-requests',
    body: RequestAccessBody,
    response: RequestAccessResult,
  }),
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
  // Not shown: one request's details (the organisations tab: the app and facility asked for).
  getAccessRequest: defineCall({
    id: 'getAccessRequest',
    method: 'GET',
    path: 'access-requests/:id',
    params: v.strictObject({ id: idParam }),
    response: AccessRequestDetails,
  }),
  // Not shown: the api-calls tab, the outbound calls of the request's history, paged like it.
  getAccessRequestApiCalls: defineCall({
    id: 'getAccessRequestApiCalls',
    method: 'GET',
    path: 'access-requests/:id/api-calls',
    params: v.strictObject({ id: idParam }),
    query: v.strictObject({ page: v.optional(pageNumber) }),
    response: Paged(HistoryItem),
  }),
  // Not shown: the apps with their settings and facilities (the admin's apps screen and the
  // invitation form's choices).
  getAdminApps: defineCall({
    id: 'getAdminApps',
    method: 'GET',
    path: 'admin/apps',
    response: v.array(AdminApp),
  }),
  listInvitations: defineCall({
    id: 'listInvitations',
    method: 'GET',
    path: 'admin/invitations',
    query: PagedQuery,
    response: Paged(InvitationSummary),
  }),
  createInvitation: defineCall({
    id: 'createInvitation',
    method: 'POST',
    path: 'admin/invitations',
    body: CreateInvitationBody,
    response: InvitationSummary,
  }),
  // Not shown: an admin revokes an OPEN invitation (REVOKED, naming the admin); its code no longer
  // registers anyone. A used, expired or revoked one is refused (409) and left as it was.
  revokeInvitation: defineCall({
    id: 'revokeInvitation',
    method: 'POST',
    path: 'admin/invitations/:id/revoke',
    params: v.strictObject({ id: idParam }),
    response: InvitationSummary,
  }),
  // Not shown: support lifts the lock that repeated failed passwords or codes put on an account
  // (and forgets its failures); the lock and the unlock are in the identity's history.
  unlockIdentity: defineCall({
    id: 'unlockIdentity',
    method: 'POST',
    path: 'admin/identities/:identityId/unlock',
    params: v.strictObject({ identityId: idParam }),
    response: UnlockResult,
  }),
} as const;

/** History page size (section 9). */
export const HISTORY_PAGE_SIZE = limits.historyPageSize;
