// The admin machines' actors over the api module: the only file of this flow that imports it.
import { fromPromise } from 'xstate';
import type { Paged } from '../../../../machines/access-requests/access-requests.types';
import type { CreateInvitationResult } from '../../../../machines/admin/create-invitation/create-invitation.types';
import type { InvitationListQuery } from '../../../../machines/admin/invitations/invitations.types';
import type { AdminApp, CreateInvitationBody, InvitationSummary } from '../../../contract/admin';
import { isApiError } from '../../api';
import {
  createInvitation,
  getAdminApps,
  getSmsGatewayStatus,
  listInvitations,
  revokeInvitation,
  setSmsGatewayStatus,
} from '../../api/admin';
import { unlessAborted } from '../shared/actor-calls';

export const invitationsActors = {
  loadInvitations: fromPromise<Paged<InvitationSummary>, InvitationListQuery>(({ input, signal }) =>
    unlessAborted(signal, (signal) => listInvitations(input, { signal })),
  ),
  revokeInvitation: fromPromise<InvitationSummary, { id: string }>(({ input, signal }) =>
    unlessAborted(signal, (signal) => revokeInvitation(input, { signal })),
  ),
};

export const createInvitationActors = {
  loadApps: fromPromise<AdminApp[]>(({ signal }) =>
    unlessAborted(signal, (signal) => getAdminApps({ signal })),
  ),
  // A 422 is the server's refusal of this invitation (unknown facility, bad customer number): a result.
  createInvitation: fromPromise<CreateInvitationResult, CreateInvitationBody>(({ input, signal }) =>
    unlessAborted(signal, async (signal) => {
      try {
        return { type: 'created', invitation: await createInvitation(input, { signal }) };
      } catch (error) {
        if (isApiError(error) && !error.handled && error.status === 422) {
          return { type: 'refused', message: error.body.message, fieldErrors: error.body.errors ?? [] };
        }
        throw error;
      }
    }),
  ),
};

export const smsGatewayActors = {
  loadStatus: fromPromise<boolean>(({ signal }) =>
    unlessAborted(signal, (signal) => getSmsGatewayStatus({ signal })),
  ),
  saveStatus: fromPromise<boolean, { available: boolean }>(({ input, signal }) =>
    unlessAborted(signal, (signal) => setSmsGatewayStatus(input.available, { signal })),
  ),
};
