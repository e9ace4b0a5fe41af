// Access-request calls (contract/admin.ts): any signed-in user files a request for an app they
// lack; admins and holders of VIEW_ACCESS_REQUESTS read the list, ids and histories (403 others);
// only admins decide a pending request (contract/access-requests.ts; 403 for viewers too).
import type { FastifyInstance } from 'fastify';
import { accessRequestDecisionCalls } from '../../../contract/access-requests';
import { adminCalls as calls } from '../../../contract/admin';
import { findIdentityWithRoles } from '../../db/repositories/identities';
import { AccessRequestService } from '../../domain/access-requests';
import { refuse } from '../../domain/errors';
import { registerCall } from '../route';

export const VIEW_ACCESS_REQUESTS = 'VIEW_ACCESS_REQUESTS';

export async function accessRequestRoutes(app: FastifyInstance): Promise<void> {
  const { db, clock, random, factors, reference } = app.services;
  const service = new AccessRequestService({ db, clock, random, mail: factors.mail, reference });

  const requireViewer = async (identityId: string) => {
    const found = await findIdentityWithRoles(db, identityId);
    if (!found || !(found.identity.is_admin || found.roles.includes(VIEW_ACCESS_REQUESTS))) {
      throw refuse.forbidden();
    }
  };

  // The list, ids and histories: what a viewer reads needs a recent password entry, as admin calls
  // do (route.ts), so an unattended signed-in screen does not keep them open.
  const viewer = { access: 'authenticated', recentPassword: true } as const;

  // Approve and reject: admins only (viewers and READ_ONLY holders just look).
  const decisions = [
    [accessRequestDecisionCalls.approveAccessRequest, 'approve'],
    [accessRequestDecisionCalls.rejectAccessRequest, 'reject'],
  ] as const;
  for (const [call, decision] of decisions) {
    registerCall(app, call, { access: 'admin', rateLimitPerMinute: 60 }, async (ctx) => {
      const adminIdentityId = ctx.identityId();
      const body: { ticketCode: string; reason?: string } = ctx.body;
      return service.decide({ id: ctx.params.id, adminIdentityId, decision, ...body });
    });
  }

  registerCall(app, calls.requestAccess, { access: 'authenticated', rateLimitPerMinute: 30 }, async (ctx) =>
    service.request(ctx.identityId(), ctx.body.appCode, ctx.body.facilityCode),
  );

  registerCall(app, calls.getAccessRequests, viewer, async (ctx) => {
    await requireViewer(ctx.identityId());
    return service.list(ctx.query.page ?? 0, ctx.query.query ?? '');
  });

  registerCall(app, calls.getAccessRequestId, viewer, async (ctx) => {
    await requireViewer(ctx.identityId());
    return service.idOf(ctx.params.appCode, ctx.params.code);
  });

  registerCall(app, calls.getAccessRequestHistory, viewer, async (ctx) => {
    await requireViewer(ctx.identityId());
    return service.history(ctx.params.id, ctx.query.page ?? 0);
  });

  registerCall(app, calls.getAccessRequestApiCalls, viewer, async (ctx) => {
    await requireViewer(ctx.identityId());
    return service.history(ctx.params.id, ctx.query.page ?? 0, true);
  });

  registerCall(app, calls.getAccessRequest, viewer, async (ctx) => {
    await requireViewer(ctx.identityId());
    return service.details(ctx.params.id);
  });
}
