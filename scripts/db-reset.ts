// `npm run db:reset`: deletes the embedded PGlite database in DATA_DIR, so the next start migrates
// and reseeds it. The data key in DATA_DIR/keys stays. Stop the server first.
// With DATABASE_URL set it empties that PostgreSQL database instead (every table of the public
// schema), but only when asked twice: `npm run db:reset -- --yes`, and never with NODE_ENV=production.
import { existsSync, rmSync } from 'node:fs';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/database';

async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }

  if (!config.databaseUrl) {
    if (!existsSync(config.pgliteDir)) {
      console.log(`No embedded database at ${config.pgliteDir}: nothing to reset.`);
      return 0;
    }
    rmSync(config.pgliteDir, { recursive: true, force: true });
    console.log(
      `Deleted the embedded database at ${config.pgliteDir}. The next start recreates and reseeds it.`,
    );
    return 0;
  }

  if (config.isProduction) {
    console.error('Refusing to reset a database with NODE_ENV=production.');
    return 1;
  }
  const target = new URL(config.databaseUrl);
  const where = `${target.host}${target.pathname}`;
  if (!process.argv.includes('--yes')) {
    console.error(
      `DATABASE_URL names ${where}. To drop every table in its public schema, run again with --yes.`,
    );
    return 1;
  }
  const database = await openDatabase({ kind: 'postgres', url: config.databaseUrl, poolSize: 1 });
  try {
    await sql`drop schema public cascade`.execute(database.db);
    await sql`create schema public`.execute(database.db);
  } finally {
    await database.destroy();
  }
  console.log(`Emptied ${where}. The next start migrates and reseeds it.`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
