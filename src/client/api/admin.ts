// One function per admin call of src/contract/admin.ts, each taking `{ signal }` last. Imported
// directly by the admin actors (not through api/index.ts), so it stays in the admin pages' chunk.
import { adminCalls, type CreateInvitationBody } from '../../contract/admin';
import { adminSmsGatewayCalls } from '../../contract/admin-sms-gateway';
import { sessionCalls } from '../../contract/session';
import { request, type CallOptions } from './request';

export const getAdminApps = ({ signal }: CallOptions = {}) => request(adminCalls.getAdminApps, { signal });

export const listInvitations = (
  { page, query }: { page: number; query: string },
  { signal }: CallOptions = {},
) =>
  request(adminCalls.listInvitations, { query: { page, query: query === '' ? undefined : query }, signal });

export const createInvitation = (body: CreateInvitationBody, { signal }: CallOptions = {}) =>
  request(adminCalls.createInvitation, { body, signal });

export const revokeInvitation = ({ id }: { id: string }, { signal }: CallOptions = {}) =>
  request(adminCalls.revokeInvitation, { params: { id }, signal });

/** Whether SMS codes are sent (the sms-gateway-status property). */
export const getSmsGatewayStatus = async ({ signal }: CallOptions = {}): Promise<boolean> => {
  const property = await request(sessionCalls.getProperty, {
    params: { name: 'sms-gateway-status' },
    signal,
  });
  return 'isSmsGatewayAvailable' in property ? property.isSmsGatewayAvailable : property.value === 'true';
};

export const setSmsGatewayStatus = async (
  available: boolean,
  { signal }: CallOptions = {},
): Promise<boolean> =>
  (
    await request(adminSmsGatewayCalls.setSmsGatewayStatus, {
      body: { isSmsGatewayAvailable: available },
      signal,
    })
  ).isSmsGatewayAvailable;
