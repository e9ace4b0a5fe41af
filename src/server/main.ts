// Entry point: `npm start` (after a build) or `npm run serve`. Loads the configuration, migrates the
// database, seeds the demo data set into an empty one, and listens.
//
// Graceful shutdown on SIGTERM or SIGINT:
//   1. /ready answers 503 at once, so load balancers stop sending new requests; the listener keeps
//      serving for SHUTDOWN_DELAY_SECONDS (default 0) while they notice;
//   2. the listener closes: no new connections, idle keep-alive connections are closed, requests on
//      open connections are answered 503;
//   3. requests in flight finish, for up to SHUTDOWN_GRACE_SECONDS (default 10);
//   4. the database closes (PGlite writes its data directory out cleanly) and the process exits 0.
// A second signal, or the grace period running out, exits at once with code 1.
import { ConfigError, demoSpUrlFor, loadConfig, type Config } from './config';
import { refreshDemoEndpoints } from './demo/seed';
import { startTreasuryDemo } from './demo/sp/treasury';
import { buildServer } from './http/app';

type App = Awaited<ReturnType<typeof buildServer>>;

/** Stops the demo listener, once it runs. */
let closeDemo: () => Promise<void> = async () => {};

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }

  const startedAt = performance.now();
  // The server opens, migrates and seeds the database itself, logging each step, and closes it
  // when it closes.
  const app = await buildServer(config);
  installShutdown(app, config);

  const address = await app.listen({ port: config.port, host: config.host });
  const demoSp = config.seedDemo ? await startDemoListener(config, app) : null;
  app.log.info(
    `identity server ${config.appVersion} (${config.nodeEnv}, ${app.services.database.kind}) listening on ${address}; ` +
      `public URL ${config.publicUrl}; ready in ${Math.round(performance.now() - startedAt)} ms`,
  );
  if (demoSp) app.log.info(`demo application TREASURY (framed JWT) at ${demoSp}/demo-sp/TREASURY`);
  if (!['trace', 'debug', 'info'].includes(config.logLevel)) {
    console.log(`listening on ${address}`);
  }
}

function installShutdown(app: App, config: Config): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      app.log.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    app.observability.beginShutdown();
    const delayMs = config.shutdownDelaySeconds * 1000;
    const graceMs = config.shutdownGraceSeconds * 1000;
    app.log.info(
      `${signal}: shutting down (/ready answers 503; closing the listener in ${delayMs} ms, ` +
        `then up to ${graceMs} ms for requests in flight)`,
    );
    const closing = new Promise<void>((resolve) => setTimeout(resolve, delayMs)).then(() => {
      app.log.info('closing the listener; waiting for requests in flight');
      const force = setTimeout(() => {
        app.log.error(`requests still in flight after ${graceMs} ms: exiting`);
        process.exit(1);
      }, graceMs);
      force.unref();
      return Promise.all([app.close(), closeDemo()]);
    });
    closing.then(
      () => {
        app.log.info('shut down cleanly');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * The TREASURY demo page's listener, on an origin of its own (see demo/sp/treasury.ts). It verifies
 * tokens against the portal's keys fetched from this process's own listener, which works where
 * PUBLIC_URL is a proxy the server itself cannot reach. Answers the demo's URL.
 */
async function startDemoListener(config: Config, app: App): Promise<string> {
  const bound = app.server.address();
  const port = typeof bound === 'object' && bound ? bound.port : config.port;
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const host = wildcard ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  const demo = await startTreasuryDemo({
    host: config.host,
    port: config.demoSpPort,
    publicUrl: config.publicUrl,
    jwksUrl: `http://${host}:${port}/.well-known/jwks.json`,
  });
  closeDemo = () => demo.close();
  if (config.demoSpUrl) return config.demoSpUrl;
  // DEMO_SP_PORT 0: the frame origin is known only now.
  const url = demoSpUrlFor(config.publicUrl, demo.port);
  await refreshDemoEndpoints(app.services.db, config.publicUrl, url);
  app.services.appOrigins.invalidate();
  return url;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
