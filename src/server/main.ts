// Entry point: `npm start` (after a build) or `npm run serve`. Loads the configuration, migrates the
// database, seeds the demo data set into an empty one, listens, and shuts down gracefully on
// SIGINT/SIGTERM (in-flight requests finish; a second signal or 10 s forces the exit).
import { ConfigError, loadConfig } from './config';
import { buildServer, prepareDatabase } from './http/app';

const SHUTDOWN_GRACE_MS = 10_000;

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
  const database = await prepareDatabase(config, {}, (message) => console.log(`[start] ${message}`));
  const app = await buildServer(config, { database });
  app.addHook('onClose', async () => {
    await database.destroy();
  });

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      app.log.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => {
      app.log.error('shutdown took too long: exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `identity server ${config.appVersion} (${config.nodeEnv}, ${database.kind}) listening on ${address}; ` +
      `public URL ${config.publicUrl}; ready in ${Math.round(performance.now() - startedAt)} ms`,
  );
  if (!['trace', 'debug', 'info'].includes(config.logLevel)) {
    console.log(`listening on ${address}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
