// Observability for one server instance: the X-Request-Id response header, the request context the
// audit log and the sign-in metrics read (context.ts), the request latency histogram, the audit
// lines of committed history events, the shutdown flag /ready reports, and /metrics.
//
// /metrics is served only when METRICS_TOKEN is set, to requests carrying
// `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); without the token it does not exist
// (404). It lists this instance's own numbers: scrape every instance, not the load balancer.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { hashSessionToken } from '../domain/sessions';
import { frameSessionCookieName, sessionCookieName } from '../http/session-cookie';
import { observeRequest, writeAudit, type RequestObservation } from './context';
import { REQUEST_ID_HEADER } from './logging';
import { createMetrics, statusClass, type Metrics } from './metrics';

export const METRICS_PATH = '/metrics';
/** The answer to /metrics without the right bearer token. */
export const METRICS_UNAUTHORIZED = { message: 'A bearer token is required.' };

export interface Observability {
  readonly metrics: Metrics;
  /** True once a shutdown began: /ready answers 503 from then on. */
  readonly shuttingDown: boolean;
  beginShutdown(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    observability: Observability;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

function bearerMatches(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match !== null && timingSafeEqual(digest(match[1] ?? ''), digest(token));
}

/** Logs the audit lines of the history events and other changes whose transaction committed. */
export async function flushAuditEvents(db: Kysely<Database>, observation: RequestObservation): Promise<void> {
  for (const change of observation.changes.splice(0)) {
    if (await change.committed(db)) writeAudit(observation, change.event, change.fields);
  }
  const pending = observation.pending.splice(0);
  if (pending.length === 0) return;
  const committed = await db
    .selectFrom('identity_events')
    .select('id')
    .where(
      'id',
      'in',
      pending.map((e) => e.id),
    )
    .execute();
  const ids = new Set(committed.map((row) => String(row.id)));
  for (const event of pending) {
    if (!ids.has(event.id)) continue;
    writeAudit(observation, event.type, {
      identityId: event.identityId,
      actorIdentityId: event.actorIdentityId,
      actorAppCode: event.actorAppCode,
      ticketCode: event.ticketCode,
      history: true,
    });
  }
}

export async function installObservability(app: FastifyInstance): Promise<void> {
  const { config, db } = app.services;
  const metricsToken = config.metricsToken;
  const metrics = createMetrics({ processMetrics: metricsToken !== null });
  let shuttingDown = false;
  app.decorate('observability', {
    metrics,
    get shuttingDown() {
      return shuttingDown;
    },
    beginShutdown() {
      shuttingDown = true;
    },
  } satisfies Observability);

  const observations = new WeakMap<FastifyRequest, RequestObservation>();
  const framedCookie = frameSessionCookieName(config);
  const ownCookie = sessionCookieName(config);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });

  // After the body is parsed, so the context reaches the handler whatever the body parser did.
  app.addHook('preHandler', (request, _reply, done) => {
    let hash: string | null | undefined;
    const observation: RequestObservation = {
      request,
      metrics,
      pending: [],
      changes: [],
      sessionIdHash: () => {
        if (hash === undefined) {
          const token = request.cookies?.[framedCookie] ?? request.cookies?.[ownCookie];
          hash = token ? hashSessionToken(token) : null;
        }
        return hash;
      },
    };
    observations.set(request, observation);
    observeRequest(observation, done);
  });

  // Synchronous unless there are audit lines to confirm (most responses have none).
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_class: statusClass(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    const observation = observations.get(request);
    if (!observation || (observation.pending.length === 0 && observation.changes.length === 0)) {
      done();
      return;
    }
    flushAuditEvents(db, observation)
      .catch((error: unknown) => request.log.error({ err: error }, 'audit: could not confirm history events'))
      .then(() => done(), done);
  });

  if (metricsToken !== null) {
    app.get(METRICS_PATH, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!bearerMatches(request, metricsToken)) {
        return reply.code(401).header('www-authenticate', 'Bearer').send(METRICS_UNAUTHORIZED);
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  }
}
