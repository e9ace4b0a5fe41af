// Probes for load balancers and orchestrators (see README, Operations):
// - GET /health, liveness: the process is up and serving HTTP. It looks at nothing else, so a
//   database outage never gets healthy instances restarted.
// - GET /ready, readiness: this instance can serve sign-ins. The database answers `select 1`,
//   every migration this build knows is applied, and the signing keys are loaded; and no shutdown
//   has begun. Otherwise 503 with the reasons, so the load balancer sends traffic elsewhere.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { migrations } from '../../db/migrations';

export const READY_PATH = '/ready';
export const HEALTH_PATH = '/health';

/** Kysely's bookkeeping table of applied migrations. */
const MIGRATION_TABLE = 'kysely_migration';
/** A probe that waits longer than this for the database reports it unreachable. */
const DATABASE_TIMEOUT_MS = 2_000;

type Check = 'ok' | string;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const { db, config, handoff } = app.services;
  const known = Object.keys(migrations);

  app.get(HEALTH_PATH, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok', version: config.appVersion }),
  );

  async function database(): Promise<{ database: Check; migrations: Check }> {
    try {
      await withTimeout(sql`select 1`.execute(db), DATABASE_TIMEOUT_MS);
    } catch {
      return { database: 'unreachable', migrations: 'unknown' };
    }
    try {
      const applied = await withTimeout(
        sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db),
        DATABASE_TIMEOUT_MS,
      );
      const names = new Set(applied.rows.map((row) => row.name));
      const missing = known.filter((name) => !names.has(name));
      return {
        database: 'ok',
        migrations: missing.length === 0 ? 'ok' : `pending: ${missing.join(', ')}`,
      };
    } catch {
      return { database: 'ok', migrations: 'not applied' };
    }
  }

  function signingKeys(): Check {
    try {
      const published = handoff.jwks().keys.length > 0;
      const metadata = handoff.metadata().includes('X509Certificate');
      return published && metadata ? 'ok' : 'missing';
    } catch {
      return 'missing';
    }
  }

  app.get(READY_PATH, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (app.observability.shuttingDown) {
      return reply.code(503).send({ status: 'unavailable', reason: 'shutting down' });
    }
    const checks = { ...(await database()), signingKeys: signingKeys() };
    const failing = Object.entries(checks).filter(([, value]) => value !== 'ok');
    if (failing.length > 0) {
      const reason = failing.map(([name, value]) => `${name}: ${value}`).join('; ');
      request.log.warn({ checks }, `not ready: ${reason}`);
      return reply.code(503).send({ status: 'unavailable', reason, checks });
    }
    return reply.send({ status: 'ok', checks, version: config.appVersion });
  });
}
