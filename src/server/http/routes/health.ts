// GET /health: liveness and database reachability, for load balancers and orchestrators.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app.services;
  app.get('/health', async (request, reply) => {
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .send({ status: 'unavailable', database: 'unreachable' });
    }
    return reply
      .header('cache-control', 'no-store')
      .send({ status: 'ok', database: 'ok', version: config.appVersion });
  });
}
