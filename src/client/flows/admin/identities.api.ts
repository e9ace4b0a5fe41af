// One function per call of src/contract/admin-identities.ts (and the roles lists of admin.ts), each
// taking `{ signal }` last. Imported only by the identity actors, so it stays in the admin chunk.
import { adminCalls } from '../../../contract/admin';
import { adminIdentityCalls } from '../../../contract/admin-identities';
import { request, type CallOptions } from '../../api/request';

/** A page of the identity search (zero-based `page`; an empty `query` lists everyone). */
export const searchIdentities = (
  { page, query }: { page: number; query: string },
  { signal }: CallOptions = {},
) =>
  request(adminIdentityCalls.searchIdentities, {
    query: { page, query: query === '' ? undefined : query },
    signal,
  });

export const getIdentity = ({ id }: { id: string }, { signal }: CallOptions = {}) =>
  request(adminIdentityCalls.getIdentity, { params: { id }, signal });

/** Five history items per page. */
export const getIdentityHistory = (
  { id, page }: { id: string; page: number },
  { signal }: CallOptions = {},
) => request(adminIdentityCalls.getIdentityHistory, { params: { id }, query: { page }, signal });

export const signOutIdentity = (
  { id, ticketCode }: { id: string; ticketCode: string },
  { signal }: CallOptions = {},
) => request(adminIdentityCalls.signOutIdentity, { params: { id }, body: { ticketCode }, signal });

export const getAdminRoles = ({ signal }: CallOptions = {}) => request(adminCalls.getAdminRoles, { signal });

/** Lifts the lock repeated failures put on the account (the call of contract/admin.ts). */
export const unlockIdentity = ({ id }: { id: string }, { signal }: CallOptions = {}) =>
  request(adminCalls.unlockIdentity, { params: { identityId: id }, signal });
