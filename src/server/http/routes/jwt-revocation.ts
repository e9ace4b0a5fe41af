// Revocation of handed-off JWTs. A token is self-contained, so 'Sign out of all devices' cannot
// recall one already handed to an app; instead each identity has a 'valid after' time (moved to
// the sign-out moment) that the apps ask for, and they refuse tokens issued at or before it.
//
//   GET /jwt/valid-after/{sub}
//   Authorization: Bearer <a JWT this portal issued for {sub}>
//   200 { "sub": "...", "validAfter": "2026-...Z" | null, "tokenValid": true | false }
//
// The app proves it holds a token for the subject: the token must carry our signature (the key at
// /.well-known/jwks.json), our issuer, the subject in the path and a registered JWT app as its
// audience. Its expiry is not required to lie in the future: an app keeps a signed-in user longer
// than the token lives and must still be able to ask. `tokenValid` is false when the token was
// issued at or before the valid-after time (iat has whole seconds, so a token issued within the
// same second as the sign-out is refused too: the safe side).
import type { FastifyInstance } from 'fastify';
import { createLocalJWKSet, decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import * as v from 'valibot';
import { jwtValidAfterOf } from '../../db/repositories/profile';

export const JWT_VALID_AFTER_PATH = '/jwt/valid-after/:sub';

const Subject = v.pipe(v.string(), v.uuid());
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

export async function jwtRevocationRoutes(app: FastifyInstance): Promise<void> {
  const { config, handoff, db } = app.services;
  const keys = createLocalJWKSet(handoff.jwks() as Parameters<typeof createLocalJWKSet>[0]);
  const rateLimit = { max: config.rateLimitPerMinute, timeWindow: 60_000 };

  app.get(JWT_VALID_AFTER_PATH, { config: { rateLimit } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const refused = (reason: string) =>
      reply.code(401).header('www-authenticate', 'Bearer error="invalid_token"').send({ message: reason });

    const sub = v.safeParse(Subject, (request.params as { sub?: unknown }).sub);
    if (!sub.success) return reply.code(404).send({ message: 'Unknown subject' });
    const bearer = BEARER.exec(request.headers.authorization ?? '');
    if (!bearer?.[1]) return refused('Send a token this portal issued for the subject as a Bearer token');
    const token = bearer[1];

    let iat: number;
    try {
      const claims = decodeJwt(token);
      if (typeof claims.iat !== 'number') return refused('The token has no issued-at time');
      // Verified as at its issue time: the signature, issuer and audience must hold; the expiry
      // may have passed (see the header comment).
      const { payload } = await jwtVerify(token, keys, {
        issuer: config.publicUrl,
        algorithms: ['ES256'],
        requiredClaims: ['sub', 'iat', 'aud'],
        currentDate: new Date(claims.iat * 1000),
      });
      if (payload.sub !== sub.output) return refused('The token was issued for another subject');
      const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      const jwtApps = await db
        .selectFrom('apps')
        .select('code')
        .where('context_type', '=', 'JWT')
        .where(
          'code',
          'in',
          audiences.filter((a): a is string => typeof a === 'string'),
        )
        .execute();
      if (jwtApps.length === 0) return refused('The token was not issued to a registered application');
      iat = claims.iat;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return refused(`${error.code}: ${error.message}`);
      throw error;
    }

    const found = await jwtValidAfterOf(db, sub.output);
    if (!found) return reply.code(404).send({ message: 'Unknown subject' });
    const validAfter = found.validAfter;
    return reply.type('application/json; charset=utf-8').send({
      sub: sub.output,
      validAfter: validAfter ? validAfter.toISOString() : null,
      tokenValid: validAfter === null || iat * 1000 > validAfter.getTime(),
    });
  });
}
