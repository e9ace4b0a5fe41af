// The identity machines' actors over their api module: the only file of these screens that imports it.
import { fromPromise } from 'xstate';
import type { Paged } from '../../../../machines/access-requests/access-requests.types';
import type { HistoryPageQuery } from '../../../../machines/access-requests/history/history.types';
import type { SignOutResult } from '../../../../machines/admin/identity/identity.machine';
import type { IdentitySearchQuery } from '../../../../machines/admin/identity-search/identity-search.machine';
import type { AdminRoles, HistoryItem, UnlockResult } from '../../../contract/admin';
import type { IdentityDetails, IdentitySummary } from '../../../contract/admin-identities';
import { isApiError } from '../../api/api-error';
import { unlessAborted } from '../shared/actor-calls';
import {
  getAdminRoles,
  getIdentity,
  getIdentityHistory,
  searchIdentities,
  signOutIdentity,
  unlockIdentity,
} from './identities.api';

export const identitySearchActors = {
  searchIdentities: fromPromise<Paged<IdentitySummary>, IdentitySearchQuery>(({ input, signal }) =>
    unlessAborted(signal, (signal) => searchIdentities(input, { signal })),
  ),
};

export const identityActors = {
  unlockIdentity: fromPromise<UnlockResult, { id: string }>(({ input, signal }) =>
    unlessAborted(signal, (signal) => unlockIdentity(input, { signal })),
  ),
  loadIdentity: fromPromise<IdentityDetails, { id: string }>(({ input, signal }) =>
    unlessAborted(signal, (signal) => getIdentity(input, { signal })),
  ),
  // A 422 is the server's refusal of the ticket code: a result shown at the field.
  signOutIdentity: fromPromise<SignOutResult, { id: string; ticketCode: string }>(({ input, signal }) =>
    unlessAborted(signal, async (signal) => {
      try {
        await signOutIdentity(input, { signal });
        return { type: 'signedOut' };
      } catch (error) {
        if (isApiError(error) && !error.handled && error.status === 422) {
          const field = error.body.errors?.find((e) => e.fieldName === 'ticketCode');
          return { type: 'refused', message: field?.message ?? error.body.message };
        }
        throw error;
      }
    }),
  ),
};

/** The identity page's history: the access-request history machine with the identity's pages. */
export const identityHistoryActors = {
  loadHistoryPage: fromPromise<Paged<HistoryItem>, HistoryPageQuery>(({ input, signal }) =>
    unlessAborted(signal, (signal) => getIdentityHistory(input, { signal })),
  ),
};

export const identityRolesActors = {
  loadRoles: fromPromise<AdminRoles>(({ signal }) =>
    unlessAborted(signal, (signal) => getAdminRoles({ signal })),
  ),
};
