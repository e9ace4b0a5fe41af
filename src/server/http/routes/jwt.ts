// JWT handoff endpoints: the public keys (/.well-known/jwks.json) and the framed entry point a
// registered JWT application puts in its iframe (/sso/jwt/{appCode}). The entry starts a framed
// session whose context is that app and sends the frame to the portal's sign-in; the token is
// answered by the sign-in (outcome JWT) and posted by the portal to the registered frame origin.
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { refuse } from '../../domain/errors';
import { samlMessages } from '../../domain/handoff/messages';
import { framedSessionOf, setSessionCookie } from '../session-cookie';

export const JWKS_PATH = '/.well-known/jwks.json';
export const FRAMED_ENTRY_PATH = '/sso/jwt/:appCode';

const AppCode = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,50}$/));

export async function jwtRoutes(app: FastifyInstance): Promise<void> {
  const services = app.services;
  const { handoff, config } = services;
  const rateLimit = { max: config.rateLimitPerMinute, timeWindow: 60_000 };

  app.get(JWKS_PATH, { config: { rateLimit } }, async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .type('application/jwk-set+json; charset=utf-8')
      .send(JSON.stringify(handoff.jwks())),
  );

  // No automatic HEAD: a prefetch must not end the frame's session.
  app.get(FRAMED_ENTRY_PATH, { config: { rateLimit }, exposeHeadRoute: false }, async (request, reply) => {
    const parsed = v.safeParse(AppCode, (request.params as { appCode?: unknown }).appCode);
    if (!parsed.success) throw refuse.notFound(samlMessages.unknownJwtApp);
    const issued = await handoff.startFramedSession(parsed.output, await framedSessionOf(request, services));
    setSessionCookie(reply, config, issued);
    return reply.header('cache-control', 'no-store').redirect('/', 303);
  });
}
