// The admin's identity screens (contract/admin-identities.ts): authenticated admins only (403 for
// anyone else signed in, VIEW_ACCESS_REQUESTS and READ_ONLY holders included).
import type { FastifyInstance } from 'fastify';
import { adminIdentityCalls as calls } from '../../../contract/admin-identities';
import { AdminIdentities } from '../../domain/admin/identities';
import { registerCall } from '../route';

export async function adminIdentityRoutes(app: FastifyInstance): Promise<void> {
  const { db, clock, profile, factors } = app.services;
  const identities = new AdminIdentities({ db, clock, profile, lockout: factors.lockout });

  registerCall(app, calls.searchIdentities, { access: 'admin' }, async (ctx) => {
    return identities.search(ctx.query.page ?? 0, ctx.query.query ?? '');
  });

  registerCall(app, calls.getIdentity, { access: 'admin' }, async (ctx) => {
    return identities.details(ctx.params.id);
  });

  registerCall(app, calls.getIdentityHistory, { access: 'admin' }, async (ctx) => {
    return identities.history(ctx.params.id, ctx.query.page ?? 0);
  });

  registerCall(app, calls.signOutIdentity, { access: 'admin', rateLimitPerMinute: 30 }, async (ctx) => {
    const adminId = ctx.identityId();
    await identities.signOut(ctx.params.id, adminId, ctx.body.ticketCode);
    return null;
  });
}
