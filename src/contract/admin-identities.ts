// The admin's identity screens (section 2.7: 'identity search and an identity page'; their content
// is not shown in the spec, so every shape here is this portal's design): search by username,
// name, email, mobile or customer number through the paged list helper, one identity with its
// factors, sessions and trusted devices, its history (history items, five per page), and signing
// that identity out of all devices with the Jira ticket it is done for.
import * as v from 'valibot';
import { Paged, PagedQuery, HistoryItem, pageNumber } from './admin';
import { defineCall } from './call';
import { FactorType, HandoffTarget } from './entities';
import { isoDate, isoDateTime, requestBody, requiredString } from './fields';
import { TrustedDevice } from './profile';

const idParam = v.pipe(v.string(), v.nonEmpty(), v.maxLength(100));

/** Not shown: a row of the identity search. */
export const IdentitySummary = v.object({
  id: v.string(),
  username: v.string(),
  name: v.string(),
  email: v.nullable(v.string()),
  mobile: v.nullable(v.string()),
  customerNumber: v.nullable(v.string()),
  isStaff: v.boolean(),
  isAdmin: v.boolean(),
  /** Merged into another identity (or otherwise retired): it can no longer sign in. */
  isRetired: v.boolean(),
});
export type IdentitySummary = v.InferOutput<typeof IdentitySummary>;

/** Not shown: one live session of the identity (the browser and system it signed in from). */
export const IdentitySession = v.object({
  browser: v.object({ family: v.nullable(v.string()), versionMajor: v.nullable(v.string()) }),
  operatingSystem: v.object({ family: v.nullable(v.string()), version: v.nullable(v.string()) }),
  /** AUTHENTICATION_PENDING while forced steps remain. */
  type: v.picklist(['AUTHENTICATION_PENDING', 'AUTHENTICATED']),
  signedInDate: isoDateTime,
  lastActiveDate: isoDateTime,
});
export type IdentitySession = v.InferOutput<typeof IdentitySession>;

/** Not shown: the identity page. */
export const IdentityDetails = v.object({
  ...IdentitySummary.entries,
  phone: v.nullable(v.string()),
  birthDate: v.nullable(isoDate),
  salaryNumber: v.nullable(v.string()),
  isIdentityVerified: v.boolean(),
  isPasswordExpired: v.boolean(),
  isMfaRequired: v.boolean(),
  /** When repeated failed passwords or codes locked the account; null while it is not locked. */
  lockedDate: v.nullable(isoDateTime),
  roles: v.array(v.string()),
  createdDate: isoDateTime,
  enrolledFactors: v.array(FactorType),
  hasSecurityQuestions: v.boolean(),
  /** The applications (and facilities) it may hand off to: what signing it out also ends. */
  accessibleApps: v.array(HandoffTarget),
  sessions: v.array(IdentitySession),
  trustedDevices: v.array(TrustedDevice),
});
export type IdentityDetails = v.InferOutput<typeof IdentityDetails>;

/** A Jira issue key: the admin signs another identity out only for a ticket. */
export const SignOutIdentityBody = requestBody({ ticketCode: requiredString(50) });

export const adminIdentityCalls = {
  // The paged list helper applied to identities: `query` matches username, name, email, mobile or
  // customer number (case-insensitively; a mobile however it is spaced).
  searchIdentities: defineCall({
    id: 'searchIdentities',
    method: 'GET',
    path: 'admin/identities',
    query: PagedQuery,
    response: Paged(IdentitySummary),
  }),
  getIdentity: defineCall({
    id: 'getIdentity',
    method: 'GET',
    path: 'admin/identities/:id',
    params: v.strictObject({ id: idParam }),
    response: IdentityDetails,
  }),
  // Five history items per page, newest first, as the access-request history.
  getIdentityHistory: defineCall({
    id: 'getIdentityHistory',
    method: 'GET',
    path: 'admin/identities/:id/history',
    params: v.strictObject({ id: idParam }),
    query: v.strictObject({ page: v.optional(pageNumber) }),
    response: Paged(HistoryItem),
  }),
  // Section 7's POST {prefix}/single-logout for another identity. Ends every session of the
  // identity, revokes its trusted devices and its handed-off JWTs; the history records the admin
  // as actor with the ticket.
  signOutIdentity: defineCall({
    id: 'signOutIdentity',
    method: 'POST',
    path: 'admin/identities/:id/single-logout',
    params: v.strictObject({ id: idParam }),
    body: SignOutIdentityBody,
    response: v.null(),
  }),
} as const;
