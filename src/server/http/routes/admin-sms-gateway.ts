// The admin's SMS gateway switch (contract/admin-sms-gateway.ts): admins only.
import type { FastifyInstance } from 'fastify';
import { adminSmsGatewayCalls as calls } from '../../../contract/admin-sms-gateway';
import { registerCall } from '../route';

export async function adminSmsGatewayRoutes(app: FastifyInstance): Promise<void> {
  const { factors } = app.services;

  // An admin call (route.ts): admins only, with a recent password entry, as every admin call.
  registerCall(app, calls.setSmsGatewayStatus, { access: 'admin' }, async (ctx) => {
    await factors.smsGateway.setAvailable(ctx.body.isSmsGatewayAvailable);
    return { isSmsGatewayAvailable: ctx.body.isSmsGatewayAvailable };
  });
}
