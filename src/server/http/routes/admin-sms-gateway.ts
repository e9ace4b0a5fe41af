// The admin's SMS gateway switch (contract/admin-sms-gateway.ts): admins only.
import type { FastifyInstance } from 'fastify';
import { adminSmsGatewayCalls as calls } from '../../../contract/admin-sms-gateway';
import { registerCall } from '../route';

export async function adminSmsGatewayRoutes(app: FastifyInstance): Promise<void> {
  const { factors } = app.services;

  // An admin call (route.ts): admins only, with a recent password entry, as every admin call. The
  // answer is what the servers will use, not what was asked: switched on without an SMS gateway
  // configured (SMS_GATEWAY_URL, in production), SMS codes stay unavailable.
  registerCall(app, calls.setSmsGatewayStatus, { access: 'admin' }, async (ctx) => ({
    isSmsGatewayAvailable: await factors.smsGateway.setAvailable(
      ctx.body.isSmsGatewayAvailable,
      ctx.identityId(),
    ),
  }));
}
