// Anonymous and session calls of section 7 (the foundation's part of them).
import type { FastifyInstance } from 'fastify';
import { SMS_GATEWAY_STATUS } from '../../domain/reference';
import { sessionCalls as calls } from '../../../contract/session';
import { ANONYMOUS_USER, toCurrentUser } from '../../domain/current-user';
import { refuse } from '../../domain/errors';
import { findIdentityWithRolesCached } from '../../db/repositories/identities';
import { afterSignInStep, clearReenterPasswordCookie, deviceTokenOf } from '../device-cookies';
import { registerCall } from '../route';
import { auditEvent } from '../../observability/context';
import { observeSignIn } from '../../observability/sign-in';
import { clearSessionCookie, sessionsNamedBy, setSessionCookie } from '../session-cookie';

export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  const { config, reference, signIn, sessions, db } = app.services;

  registerCall(
    app,
    calls.getContext,
    {},
    async ({ session }) => session?.context ?? reference.defaultContext(),
  );

  registerCall(app, calls.getCurrentUser, {}, async ({ session }) => {
    if (!session?.identityId) return ANONYMOUS_USER;
    const found = await findIdentityWithRolesCached(db, app.services.database.readCache, session.identityId);
    if (!found) return ANONYMOUS_USER;
    return toCurrentUser(found.identity, found.roles, session.type, session.data.forcedAction);
  });

  registerCall(app, calls.getEnvironment, {}, async () => ({
    environment: config.nodeEnv,
    applicationVersion: config.appVersion,
  }));

  registerCall(app, calls.getFrameOrigin, {}, async ({ session }) => ({
    origin: await reference.frameOrigin(session?.context ?? (await reference.defaultContext())),
  }));

  registerCall(app, calls.getRealmAuthEnabled, {}, async ({ params }) =>
    reference.realmAuthEnabled(params.realm),
  );

  registerCall(app, calls.getEnum, {}, async ({ params }) => {
    const values = await reference.enumeration(params.name);
    if (!values) throw refuse.notFound();
    return values;
  });

  // sms-gateway-status answers what the server will use: the stored switch, and off whatever it
  // says when no SMS gateway is configured (so the portal offers no SMS step that cannot send).
  registerCall(app, calls.getProperty, {}, async ({ params }) =>
    params.name === SMS_GATEWAY_STATUS
      ? { isSmsGatewayAvailable: await app.services.factors.smsGateway.isAvailable() }
      : reference.property(params.name),
  );

  registerCall(app, calls.getTrustedDevicePeriod, {}, async () => reference.trustedDevicePeriod());

  registerCall(
    app,
    calls.login,
    { rateLimitPerMinute: config.loginRateLimitPerMinute },
    async ({ body, request, reply, session }) => {
      // observeSignIn: the outcome metric and the audit line (observability/sign-in.ts).
      const { outcome, issued } = await observeSignIn(body.username, () =>
        signIn.signIn(body, {
          ipAddress: request.ip ?? null,
          session,
          deviceToken: deviceTokenOf(request, config, session),
          userAgent: request.headers['user-agent'] ?? null,
        }),
      );
      setSessionCookie(reply, config, issued);
      afterSignInStep(reply, app.services, { session: issued.session, token: null });
      return outcome;
    },
  );

  registerCall(app, calls.getFailedAuthCount, {}, async ({ query }) => signIn.failedCount(query.username));

  registerCall(app, calls.logout, { access: 'any-session' }, async ({ session, request, reply }) => {
    // Both session cookies are cleared, so every session they name ends: where the portal's own
    // cookie arrives with the framed one, the request is served as the framed session only.
    for (const named of await sessionsNamedBy(request, app.services)) {
      await sessions.end(named.idHash);
      if (named.identityId)
        auditEvent('SIGNED_OUT', { identityId: named.identityId, sessionIdHash: named.idHash });
    }
    clearSessionCookie(reply, config);
    clearReenterPasswordCookie(reply, config, session);
    return null;
  });
}
