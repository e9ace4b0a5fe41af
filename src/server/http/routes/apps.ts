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

  // Signed-in users; and a sign-in pending at the select-facility step, for the app it signs in to
  // only: the step names that app when a handoff is refused (section 8's handoff toast), and a
  // facility names its app by code alone (section 3).
  registerCall(app, calls.getApp, { access: 'any-session' }, async ({ params, session }) => {
    if (!session || session.type === 'ANONYMOUS') throw refuse.sessionExpired();
    const choosingFacility =
      session.type === 'AUTHENTICATION_PENDING' &&
      session.data.forcedAction === 'SELECT_FACILITY' &&
      session.context.appCode === params.appCode;
    if (session.type !== 'AUTHENTICATED' && !choosingFacility) throw refuse.forbidden();
    const found = await reference.app(params.appCode);
    if (!found) throw refuse.notFound();
    return found;
  });
}
