// Admin switch for the SMS gateway (section 3's server property sms-gateway-status). Section 7 says
// the calls that check SMS gateway availability are made but does not show their paths; this is
// the admin's side of that property: when the gateway provider has an outage, an admin switches
// SMS codes off for every instance, and the flows fall back (MFA to email, reset to questions).
import * as v from 'valibot';
import { defineCall } from './call';
import { requestBody } from './fields';

export const SmsGatewayStatus = v.object({ isSmsGatewayAvailable: v.boolean() });
export type SmsGatewayStatus = v.InferOutput<typeof SmsGatewayStatus>;

export const adminSmsGatewayCalls = {
  // Not shown: the path and answer. POST (the contract has no PUT); answers the status the server
  // then uses (off when no SMS gateway is configured, whatever is stored).
  setSmsGatewayStatus: defineCall({
    id: 'setSmsGatewayStatus',
    method: 'POST',
    path: 'admin/properties/sms-gateway-status',
    body: requestBody({ isSmsGatewayAvailable: v.boolean() }),
    response: SmsGatewayStatus,
  }),
} as const;
