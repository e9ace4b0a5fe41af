// The admin's identity screens (contract/admin-identities.ts): authenticated admins only (403 for
// anyone else signed in, VIEW_ACCESS_REQUESTS and READ_ONLY holders included).
import type { FastifyInstance } from 'fastify';
import { adminIdentityCalls as calls } from '../../../contract/admin-identities';
import { findIdentityWithRoles } from '../../db/repositories/identities';
import { AdminIdentities } from '../../domain/admin/identities';
import { refuse } from '../../domain/errors';
import { registerCall } from '../route';

export async function adminIdentityRoutes(app: FastifyInstance): Promise<void> {
  const { db, clock, profile } = app.services;
  const identities = new AdminIdentities({ db, clock, profile });

  const requireAdmin = async (identityId: string) => {
    const found = await findIdentityWithRoles(db, identityId);
    if (!found?.identity.is_admin) throw refuse.forbidden();
  };

  registerCall(app, calls.searchIdentities, { access: 'authenticated' }, async (ctx) => {
    await requireAdmin(ctx.identityId());
    return identities.search(ctx.query.page ?? 0, ctx.query.query ?? '');
  });

  registerCall(app, calls.getIdentity, { access: 'authenticated' }, async (ctx) => {
    await requireAdmin(ctx.identityId());
    return identities.details(ctx.params.id);
  });

  registerCall(app, calls.getIdentityHistory, { access: 'authenticated' }, async (ctx) => {
    await requireAdmin(ctx.identityId());
    return identities.history(ctx.params.id, ctx.query.page ?? 0);
  });

  registerCall(
    app,
    calls.signOutIdentity,
    { access: 'authenticated', rateLimitPerMinute: 30 },
    async (ctx) => {
      const adminId = ctx.identityId();
      await requireAdmin(adminId);
      await identities.signOut(ctx.params.id, adminId, ctx.body.ticketCode);
      return null;
    },
  );
}
