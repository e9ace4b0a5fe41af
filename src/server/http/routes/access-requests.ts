// Access-request calls (contract/admin.ts): any signed-in user files a request for an app they
// lack; admins and holders of VIEW_ACCESS_REQUESTS read the list, ids and histories (403 others).
import type { FastifyInstance } from 'fastify';
import { adminCalls as calls } from '../../../contract/admin';
import { findIdentityWithRoles } from '../../db/repositories/identities';
import { AccessRequestService } from '../../domain/access-requests';
import { refuse } from '../../domain/errors';
import { registerCall } from '../route';

export const VIEW_ACCESS_REQUESTS = 'VIEW_ACCESS_REQUESTS';

export async function accessRequestRoutes(app: FastifyInstance): Promise<void> {
  const { db, clock, random, factors } = app.services;
  const service = new AccessRequestService({ db, clock, random, mail: factors.mail });

  const requireViewer = async (identityId: string) => {
    const found = await findIdentityWithRoles(db, identityId);
    if (!found || !(found.identity.is_admin || found.roles.includes(VIEW_ACCESS_REQUESTS))) {
      throw refuse.forbidden();
    }
  };

  registerCall(app, calls.requestAccess, { access: 'authenticated', rateLimitPerMinute: 30 }, async (ctx) =>
    service.request(ctx.identityId(), ctx.body.appCode, ctx.body.facilityCode),
  );

  registerCall(app, calls.getAccessRequests, { access: 'authenticated' }, async (ctx) => {
    await requireViewer(ctx.identityId());
    return service.list(ctx.query.page ?? 0, ctx.query.query ?? '');
  });

  registerCall(app, calls.getAccessRequestId, { access: 'authenticated' }, async (ctx) => {
    await requireViewer(ctx.identityId());
    return service.idOf(ctx.params.appCode, ctx.params.code);
  });

  registerCall(app, calls.getAccessRequestHistory, { access: 'authenticated' }, async (ctx) => {
    await requireViewer(ctx.identityId());
    return service.history(ctx.params.id, ctx.query.page ?? 0);
  });

  registerCall(app, calls.getAccessRequestApiCalls, { access: 'authenticated' }, async (ctx) => {
    await requireViewer(ctx.identityId());
    return service.history(ctx.params.id, ctx.query.page ?? 0, true);
  });

  registerCall(app, calls.getAccessRequest, { access: 'authenticated' }, async (ctx) => {
    await requireViewer(ctx.identityId());
    return service.details(ctx.params.id);
  });
}
