// Handoff and app calls of section 7 that the foundation needs: the user's accessible apps and an
// app's public settings.
import type { FastifyInstance } from 'fastify';
import { sessionCalls as calls } from '../../../contract/session';
import { handoffTargetsFrom } from '../../domain/current-user';
import { refuse } from '../../domain/errors';
import { grantsOf } from '../../db/repositories/reference';
import { registerCall } from '../route';

export async function appRoutes(app: FastifyInstance): Promise<void> {
  const { db, reference } = app.services;

  registerCall(app, calls.getAccessibleApps, {}, async (ctx) =>
    handoffTargetsFrom(await grantsOf(db, ctx.identityId())),
  );

  registerCall(app, calls.getApp, {}, async ({ params }) => {
    const found = await reference.app(params.appCode);
    if (!found) throw refuse.notFound();
    return found;
  });
}
