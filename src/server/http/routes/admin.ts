// Admin calls (contract/admin.ts): authenticated admins only (access 'admin': 403 for anyone else
// signed in).
import type { FastifyInstance } from 'fastify';
import { adminCalls as calls } from '../../../contract/admin';
import { findIdentityWithRoles } from '../../db/repositories/identities';
import { adminApps, adminRoles } from '../../domain/admin';
import { AdminInvitations } from '../../domain/admin/invitations';
import { refuse } from '../../domain/errors';
import { OWN_UNLOCK_MESSAGE, UNLOCKED_BY_ADMIN_TEXT } from '../../domain/lockout';
import { registerCall } from '../route';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const { db, clock, random, factors, config } = app.services;
  const invitations = new AdminInvitations({
    db,
    clock,
    random,
    mail: factors.mail,
    publicUrl: config.publicUrl,
  });

  registerCall(app, calls.getAdminRoles, { access: 'admin' }, () => adminRoles(db));

  registerCall(app, calls.getAdminApps, { access: 'admin' }, () => adminApps(db));

  registerCall(app, calls.listInvitations, { access: 'admin' }, async (ctx) => {
    return invitations.list(ctx.query.page ?? 0, ctx.query.query ?? '');
  });

  registerCall(app, calls.createInvitation, { access: 'admin', rateLimitPerMinute: 30 }, async (ctx) => {
    return invitations.create(ctx.body, ctx.identityId());
  });

  registerCall(app, calls.revokeInvitation, { access: 'admin' }, async (ctx) => {
    const adminId = ctx.identityId();
    return invitations.revoke(ctx.params.id, adminId);
  });

  // Support lifts an account's lock (domain/lockout.ts).
  registerCall(app, calls.unlockIdentity, { access: 'admin' }, async (ctx) => {
    const adminId = ctx.identityId();
    const { identityId } = ctx.params;
    if (identityId === adminId) throw refuse.forbidden(OWN_UNLOCK_MESSAGE);
    const found = UUID.test(identityId) ? await findIdentityWithRoles(db, identityId) : undefined;
    if (!found) throw refuse.notFound();
    return factors.lockout.unlock({
      identity: found.identity,
      actorIdentityId: adminId,
      description: UNLOCKED_BY_ADMIN_TEXT,
    });
  });
}
