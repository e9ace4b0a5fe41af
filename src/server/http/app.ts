// The identity server's Fastify instance. Plugins come in tiers, as in fastify/demo:
//   1. external: cookies, security headers, rate limits;
//   2. application services: database, sessions, sign-in, captcha... (app.services);
//   3. routes: one module per area of section 7, then the portal's pages and assets.
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config';
import { systemClock } from '../adapters/clock';
import { cryptoRandom } from '../adapters/random';
import { createSecretBox, loadDataKey } from '../adapters/secret-box';
import { loadSigningKeys } from '../adapters/signing-keys';
import { databaseTargetOf, openDatabase, openMigrationDatabase, type AppDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrations';
import { refreshDemoEndpoints, seedDemo } from '../demo/seed';
import { demoSpRoutes } from '../demo/sp/routes';
import { argon2idHasher } from '../domain/passwords';
import { RequestRefused } from '../domain/errors';
import { TOO_MANY_REQUESTS_MESSAGE } from '../domain/messages';
import { installErrorHandler } from './errors';
import { installPortal } from './plugins/portal';
import { frameworkErrorHandler, installSecurity } from './plugins/security';
import { appRoutes } from './routes/apps';
import { captchaRoutes } from './routes/captcha';
import { handoffRoutes } from './routes/handoff';
import { jwtRoutes } from './routes/jwt';
import { jwtRevocationRoutes } from './routes/jwt-revocation';
import { profileRoutes } from './routes/profile';
import { samlRoutes } from './routes/saml';
import { healthRoutes } from './routes/health';
import { sessionRoutes } from './routes/session';
import { devOutboxRoutes } from './routes/dev-outbox';
import { forcedRoutes } from './routes/forced';
import { mergeRoutes } from './routes/merge';
import { reenterPasswordRoutes } from './routes/reenter-password';
import { registrationRoutes } from './routes/registration';
import { passwordResetRoutes } from './routes/password-reset';
import { adminSmsGatewayRoutes } from './routes/admin-sms-gateway';
import { accessRequestRoutes } from './routes/access-requests';
import { adminRoutes } from './routes/admin';
import { adminIdentityRoutes } from './routes/admin-identities';
import { createServices, type ServerDeps, type Services } from './services';
import { databaseRateLimitStore } from './rate-limit-store';
import { loggingOptions } from '../observability/logging';
import { installObservability } from '../observability/plugin';
import { sweepFailureRecords } from '../db/repositories/lockout';
import { deleteExpiredSessions } from '../db/repositories/sessions';
import { deleteExpiredTrustedDevices } from '../db/repositories/trusted-devices';
import type { Database } from '../db/schema';
import { usernameKeyer } from '../domain/lockout';

/** Request bodies are small JSON documents; anything bigger is refused with 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;
/** Expired sessions are deleted this often (also on start). */
const SESSION_SWEEP_MS = 10 * 60_000;

/**
 * Opens the configured database, migrates it, and seeds the demo data set into an empty one when
 * SEED_DEMO is on.
 */
export async function prepareDatabase(
  config: Config,
  deps: Pick<ServerDeps, 'clock' | 'random' | 'hasher' | 'dataKey'> = {},
  log: (message: string) => void = () => {},
): Promise<AppDatabase> {
  const database = await openDatabase(databaseTargetOf(config), (error) =>
    log(`database pool error: ${error.message}`),
  );
  try {
    await prepareOpenDatabase(database, config, deps, log);
    return database;
  } catch (error) {
    await database.destroy();
    throw error;
  }
}

/** Migrates an opened database and seeds the demo when configured. */
export async function prepareOpenDatabase(
  database: AppDatabase,
  config: Config,
  deps: Pick<ServerDeps, 'clock' | 'random' | 'hasher' | 'dataKey'> = {},
  log: (message: string) => void = () => {},
): Promise<void> {
  const dataKey = () => deps.dataKey ?? loadDataKey(config.dataEncryptionKey, config.dataDir);
  // The data key is read (or made) only when a migration needs it.
  let keyOf: ((username: string) => string) | undefined;
  // On PostgreSQL through a connection without the requests' statement and lock time limits.
  const migrating = await openMigrationDatabase(database);
  const migrations = await migrateToLatest(migrating.db, {
    usernameKey: (username) => (keyOf ??= usernameKeyer(dataKey()))(username),
  }).finally(() => migrating.destroy());
  for (const m of migrations.results ?? []) log(`migration ${m.migrationName}: ${m.status}`);
  if (config.seedDemo) {
    const { seeded } = await seedDemo({
      db: database.db,
      clock: deps.clock ?? systemClock,
      random: deps.random ?? cryptoRandom,
      hasher: deps.hasher ?? argon2idHasher,
      secretBox: createSecretBox(dataKey()),
      publicUrl: config.publicUrl,
    });
    log(seeded ? 'demo data set seeded' : 'database already has identities: demo not seeded');
    // Ports and PUBLIC_URL can change between starts; the demo apps follow them.
    if (config.demoSpUrl) await refreshDemoEndpoints(database.db, config.publicUrl, config.demoSpUrl);
  }
}

/** The sweep's advisory lock on PostgreSQL ('sweep' in ASCII; the demo seed's is 'demo'). */
export const SWEEP_LOCK_KEY = 0x7377656570;

/**
 * One round of the periodic sweep: expired sessions (their captchas and one-time codes go with
 * them), expired trusted devices, then the failure limit's idle counts and old sign-in attempts.
 * Every instance runs the timer; on PostgreSQL one round runs at a time: the round takes
 * pg_try_advisory_lock on a connection of its own, and an instance that finds the lock taken skips
 * its round ('skipped': the round under way deletes the same rows). The deletes run on that
 * connection, each statement (each batch of the failure limit's) committed on its own as before,
 * and a pool of one connection needs no second. The lock is released in `finally`, and with the
 * connection if the process dies. PGlite is one process's database: its round just runs.
 */
export async function sweepExpired(
  services: Pick<Services, 'database' | 'clock'>,
): Promise<'ran' | 'skipped'> {
  const run = async (db: Kysely<Database>) => {
    const now = services.clock.now();
    await deleteExpiredSessions(db, now);
    await deleteExpiredTrustedDevices(db, now);
    await sweepFailureRecords(db, now);
  };
  const { db, kind } = services.database;
  if (kind !== 'postgres') {
    await run(db);
    return 'ran';
  }
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`
      select pg_try_advisory_lock(${SWEEP_LOCK_KEY}::bigint) as locked
    `.execute(connection);
    if (!rows[0]?.locked) return 'skipped';
    try {
      await run(connection);
      return 'ran';
    } finally {
      await sql`select pg_advisory_unlock(${SWEEP_LOCK_KEY}::bigint)`.execute(connection);
    }
  });
}

/** Fastify takes a hop count at run time but not in its types: express it as a function. */
function trustProxyOption(value: Config['trustProxy']) {
  if (typeof value !== 'number') return value;
  return (_address: string, hop: number) => hop < value;
}

export async function buildServer(config: Config, deps: ServerDeps = {}): Promise<FastifyInstance> {
  const ownsDatabase = !deps.database;
  const app = Fastify({
    // JSON lines with secrets redacted, and a request id per request (observability/logging.ts).
    ...loggingOptions(config, deps.logStream),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 200 },
    // A URL Fastify cannot decode is answered before any hook: the error body and headers too.
    frameworkErrors: frameworkErrorHandler(config, deps.clock ?? systemClock),
  });
  const database = deps.database ?? (await prepareDatabase(config, deps, (m) => app.log.info(m)));

  try {
    // Tier 2 first: everything below reads app.services.
    const signingKeys = deps.signingKeys ?? (await loadSigningKeys(config));
    const services = createServices(config, database, { ...deps, signingKeys });
    app.decorate('services', services);
    installErrorHandler(app, services.clock);
    await installObservability(app);
    // Calls take JSON only: any other body type is a 415, not a string handed to validation.
    app.removeContentTypeParser('text/plain');

    // Tier 1: external plugins.
    await app.register(cookie);
    await installSecurity(app);
    await app.register(rateLimit, {
      global: false,
      // On PostgreSQL the counters live in the database, so every instance on it shares each limit
      // (rate-limit-store.ts). The embedded PGlite belongs to one process, so there is nothing to
      // share: the plugin's own in-memory store counts the same fixed windows without a database
      // write on every request (a statement on PGlite costs the one event-loop thread).
      ...(database.kind === 'postgres'
        ? { store: databaseRateLimitStore(database.db, { now: () => services.clock.now().getTime() }) }
        : {}),
      keyGenerator: (request) => request.ip,
      errorResponseBuilder: (_request, context) =>
        new RequestRefused(context.statusCode, { message: TOO_MANY_REQUESTS_MESSAGE }),
    });

    // Tier 3: routes.
    await app.register(async (scope) => {
      await healthRoutes(scope);
      await captchaRoutes(scope);
      await sessionRoutes(scope);
      await appRoutes(scope);
      await forcedRoutes(scope);
      await mergeRoutes(scope);
      await reenterPasswordRoutes(scope);
      await registrationRoutes(scope);
      await passwordResetRoutes(scope);
      await adminSmsGatewayRoutes(scope);
      await accessRequestRoutes(scope);
      await adminRoutes(scope);
      await adminIdentityRoutes(scope);
      await devOutboxRoutes(scope);
      await handoffRoutes(scope);
      await samlRoutes(scope);
      await jwtRoutes(scope);
      await jwtRevocationRoutes(scope);
      await profileRoutes(scope);
      if (config.seedDemo) await demoSpRoutes(scope);
    });
    await installPortal(app, config.portalDist);

    await services.signIn.warmUp();
    const sweep = () =>
      sweepExpired(services).catch((error: unknown) => app.log.warn({ err: error }, 'session sweep failed'));
    const timer = setInterval(sweep, SESSION_SWEEP_MS);
    timer.unref();
    app.addHook('onReady', async () => {
      await sweep();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      if (ownsDatabase) await database.destroy();
    });
  } catch (error) {
    if (ownsDatabase) await database.destroy();
    throw error;
  }
  return app;
}
