// The databases every server behaviour runs on: PGlite always; PostgreSQL when TEST_DATABASE_URL
// is set or postgres://127.0.0.1:5432/postgres answers. Each PostgreSQL user gets a fresh, uniquely
// named database, dropped afterwards. With CI=true an unreachable PostgreSQL fails the run.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, withDefaultUser, type AppDatabase } from '../../../src/server/db/database';

export interface DatabaseHandle {
  database: AppDatabase;
  /** Connection string for PostgreSQL targets (null for PGlite). */
  url: string | null;
  dispose(): Promise<void>;
}

export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
  /** A new, empty database. */
  open(): Promise<DatabaseHandle>;
}

const DEFAULT_POSTGRES_URL = 'postgres://127.0.0.1:5432/postgres';
const PROBE_TIMEOUT_MS = 1500;

async function probe(url: string): Promise<string | null> {
  const client = new pg.Client({
    connectionString: withDefaultUser(url),
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const pgliteTarget: DatabaseTarget = {
  name: 'pglite',
  async open() {
    const database = await openDatabase({ kind: 'pglite' });
    return { database, url: null, dispose: () => database.destroy() };
  },
};

function postgresTarget(adminUrl: string): DatabaseTarget {
  return {
    name: 'postgres',
    async open() {
      const name = `identity_test_${process.pid}_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: withDefaultUser(adminUrl) });
      await admin.connect();
      try {
        await admin.query(`create database "${name}"`);
      } finally {
        await admin.end();
      }
      const url = new URL(withDefaultUser(adminUrl));
      url.pathname = `/${name}`;
      const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 });
      return {
        database,
        url: url.toString(),
        async dispose() {
          await database.destroy();
          const cleanup = new pg.Client({ connectionString: withDefaultUser(adminUrl) });
          await cleanup.connect();
          try {
            await cleanup.query(`drop database if exists "${name}" with (force)`);
          } finally {
            await cleanup.end();
          }
        },
      };
    },
  };
}

async function resolveTargets(): Promise<DatabaseTarget[]> {
  const explicit = process.env.TEST_DATABASE_URL;
  const url = explicit || DEFAULT_POSTGRES_URL;
  const problem = await probe(url);
  if (problem === null) return [pgliteTarget, postgresTarget(url)];
  if (explicit || process.env.CI === 'true') {
    throw new Error(
      `PostgreSQL at ${url} is unreachable (${problem}). ` +
        (explicit
          ? 'TEST_DATABASE_URL is set, so the PostgreSQL suite must run.'
          : 'CI=true requires the PostgreSQL suite.'),
    );
  }
  console.warn(`[tests/server] PostgreSQL at ${url} unreachable (${problem}): running on PGlite only`);
  return [pgliteTarget];
}

export const targets: DatabaseTarget[] = await resolveTargets();
