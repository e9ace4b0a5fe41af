// Handoff calls of section 7: handoff targets, IdP-initiated and single-sign-on SAML handoffs, and
// the SELECT_FACILITY forced step (its list, and the handoff that completes the sign-in).
import type { FastifyInstance } from 'fastify';
import { handoffCalls as calls } from '../../../contract/handoff';
import { refuse } from '../../domain/errors';
import { handoffMessages } from '../../domain/handoff/messages';
import { afterSignInStep } from '../device-cookies';
import { registerCall } from '../route';

export async function handoffRoutes(app: FastifyInstance): Promise<void> {
  const { handoff, signInFlow } = app.services;

  registerCall(app, calls.getHandoffTargets, {}, async (ctx) =>
    handoff.targets(ctx.identityId(), ctx.query.appCode),
  );

  registerCall(app, calls.samlHandoff, { recentPassword: true }, async ({ session, body }) => {
    if (!session) throw refuse.sessionExpired();
    return handoff.samlHandoff(session, body);
  });

  registerCall(app, calls.ssoSamlHandoff, { recentPassword: true }, async ({ session, body }) => {
    if (!session) throw refuse.sessionExpired();
    return handoff.ssoSamlHandoff(session, body);
  });

  registerCall(
    app,
    calls.getSelectFacilityFacilities,
    { access: 'pending', step: 'SELECT_FACILITY' },
    async ({ session }) => {
      if (!session) throw refuse.sessionExpired();
      return handoff.selectableFacilities(session);
    },
  );

  registerCall(
    app,
    calls.selectFacilitySamlHandoff,
    { access: 'pending', step: 'SELECT_FACILITY' },
    async ({ session, body, reply }) => {
      if (!session) throw refuse.sessionExpired();
      const target = await handoff.checkSelectedFacility(session, body);
      const step = await signInFlow.continueAfter(session, 'SELECT_FACILITY', {
        data: { handoffFacilityCode: target.facilityCode ?? undefined },
      });
      const { outcome } = step;
      // The sign-in is complete: its new session cookie and the recent-authentication cookie, as
      // after any other last step.
      afterSignInStep(reply, app.services, step);
      // Access withdrawn between the check and the completion.
      if (outcome.outcome === 'DIRECT_LOGIN' && outcome.isSingleSignOn) {
        throw refuse.unprocessable(handoffMessages.noAccess(outcome.appName ?? target.appName));
      }
      // SELECT_FACILITY is the last step, so its completion is the context's SAML handoff.
      if (outcome.outcome !== 'SAML_HANDOFF' || !outcome.saml) {
        throw new Error(`select-facility completed with ${outcome.outcome}, not a SAML handoff`);
      }
      return { ...target, saml: outcome.saml };
    },
  );
}
