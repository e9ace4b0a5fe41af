// GET /captcha.jpg?{timestamp}: a new captcha for the session (created if needed). The query
// only defeats caches; every request issues a new challenge that replaces the previous one.
import type { FastifyInstance } from 'fastify';
import { ensureSession } from '../session-cookie';

export const CAPTCHA_PATH = '/captcha.jpg';

export async function captchaRoutes(app: FastifyInstance): Promise<void> {
  const services = app.services;
  app.get(
    CAPTCHA_PATH,
    { config: { rateLimit: { max: services.config.rateLimitPerMinute, timeWindow: 60_000 } } },
    async (request, reply) => {
      const session = await ensureSession(request, reply, services);
      const image = await services.captcha.issue(session.idHash);
      return reply.header('cache-control', 'no-store').type('image/jpeg').send(image);
    },
  );
}
