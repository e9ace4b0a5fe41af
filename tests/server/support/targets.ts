// The databases every server behaviour runs on: PGlite always; PostgreSQL when TEST_DATABASE_URL
// is set or postgres://127.0.0.1:5432/postgres answers. Each PostgreSQL user gets a fresh, uniquely
// named database, dropped afterwards. With CI=true an unreachable PostgreSQL fails the run.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, withDefaultUser, type AppDatabase } from '../../../src/server/db/database';
import { migrateToLatest } from '../../../src/server/db/migrations';
import { PGliteDialect } from '../../../src/server/db/pglite-dialect';

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

/**
 * A migrated, empty PGlite cluster as a tarball, shared by every test file of this and later runs:
 * restoring it takes a third of the time of PGlite's initdb. Keyed by the migrations' source and
 * the PGlite version, written under a temporary name and renamed, so concurrent workers are safe.
 */
async function pgliteTemplate(): Promise<Blob> {
  const migrationsSource = readFileSync(new URL('../../../src/server/db/migrations.ts', import.meta.url));
  const pglitePackage = readFileSync(
    new URL('../../../node_modules/@electric-sql/pglite/package.json', import.meta.url),
  );
  const key = createHash('sha256').update(migrationsSource).update(pglitePackage).digest('hex').slice(0, 16);
  const file = path.join(tmpdir(), `identity-pglite-template-${key}.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);

  const pglite = await PGlite.create();
  const db = new Kysely<unknown>({ dialect: new PGliteDialect({ pglite, closeOnDestroy: false }) });
  try {
    await migrateToLatest(db);
    await db.destroy();
    const dump = await pglite.dumpDataDir('none');
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  } finally {
    await pglite.close();
  }
}

const pgliteTarget: DatabaseTarget = {
  name: 'pglite',
  async open() {
    const database = await openDatabase({ kind: 'pglite', loadDataDir: await pgliteTemplate() });
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
