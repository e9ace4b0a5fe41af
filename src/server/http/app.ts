// The identity server's Fastify instance. Plugins come in tiers, as in fastify/demo:
//   1. external: cookies, security headers, rate limits;
//   2. application services: database, sessions, sign-in, captcha... (app.services);
//   3. routes: one module per area of section 7, then the portal's pages and assets.
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { systemClock } from '../adapters/clock';
import { cryptoRandom } from '../adapters/random';
import { createSecretBox, loadDataKey } from '../adapters/secret-box';
import { databaseTargetOf, openDatabase, type AppDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrations';
import { seedDemo } from '../demo/seed';
import { argon2idHasher } from '../domain/passwords';
import { RequestRefused } from '../domain/errors';
import { TOO_MANY_REQUESTS_MESSAGE } from '../domain/messages';
import { installErrorHandler } from './errors';
import { installPortal } from './plugins/portal';
import { installSecurity } from './plugins/security';
import { appRoutes } from './routes/apps';
import { captchaRoutes } from './routes/captcha';
import { healthRoutes } from './routes/health';
import { sessionRoutes } from './routes/session';
import { createServices, type ServerDeps } from './services';

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
  const migrations = await migrateToLatest(database.db);
  for (const m of migrations.results ?? []) log(`migration ${m.migrationName}: ${m.status}`);
  if (config.seedDemo) {
    const { seeded } = await seedDemo({
      db: database.db,
      clock: deps.clock ?? systemClock,
      random: deps.random ?? cryptoRandom,
      hasher: deps.hasher ?? argon2idHasher,
      secretBox: createSecretBox(deps.dataKey ?? loadDataKey(config.dataEncryptionKey, config.dataDir)),
      publicUrl: config.publicUrl,
    });
    log(seeded ? 'demo data set seeded' : 'database already has identities: demo not seeded');
  }
}

/** Fastify takes a hop count at run time but not in its types: express it as a function. */
function trustProxyOption(value: Config['trustProxy']) {
  if (typeof value !== 'number') return value;
  return (_address: string, hop: number) => hop < value;
}

export async function buildServer(config: Config, deps: ServerDeps = {}): Promise<FastifyInstance> {
  const ownsDatabase = !deps.database;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
        remove: true,
      },
    },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 200 },
  });
  const database = deps.database ?? (await prepareDatabase(config, deps, (m) => app.log.info(m)));

  try {
    // Tier 2 first: everything below reads app.services.
    const services = createServices(config, database, deps);
    app.decorate('services', services);
    installErrorHandler(app, services.clock);
    // Calls take JSON only: any other body type is a 415, not a string handed to validation.
    app.removeContentTypeParser('text/plain');

    // Tier 1: external plugins.
    await app.register(cookie);
    await installSecurity(app);
    await app.register(rateLimit, {
      global: false,
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
    });
    await installPortal(app, config.portalDist);

    await services.signIn.warmUp();
    const sweep = () =>
      services.sessions
        .sweep()
        .catch((error: unknown) => app.log.warn({ err: error }, 'session sweep failed'));
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
