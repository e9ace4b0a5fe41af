// The admin's SMS gateway switch (contract/admin-sms-gateway.ts): authenticated admins only.
import type { FastifyInstance } from 'fastify';
import { adminSmsGatewayCalls as calls } from '../../../contract/admin-sms-gateway';
import { findIdentityWithRoles } from '../../db/repositories/identities';
import { refuse } from '../../domain/errors';
import { registerCall } from '../route';

export async function adminSmsGatewayRoutes(app: FastifyInstance): Promise<void> {
  const { db, factors } = app.services;

  registerCall(app, calls.setSmsGatewayStatus, { access: 'authenticated' }, async (ctx) => {
    const found = await findIdentityWithRoles(db, ctx.identityId());
    if (!found?.identity.is_admin) throw refuse.forbidden();
    await factors.smsGateway.setAvailable(ctx.body.isSmsGatewayAvailable);
    return { isSmsGatewayAvailable: ctx.body.isSmsGatewayAvailable };
  });
}
