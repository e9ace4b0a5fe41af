// The databases every server behaviour runs on: PGlite always; PostgreSQL when TEST_DATABASE_URL
// is set or postgres://127.0.0.1:5432/postgres answers. Each PostgreSQL user gets a fresh, uniquely
// named database, dropped afterwards. With CI=true an unreachable PostgreSQL fails the run.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import pg from 'pg';
import {
  createPGlite,
  kyselyOnPGlite,
  openDatabase,
  withDefaultUser,
  type AppDatabase,
} from '../../../src/server/db/database';
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
  // How the instance is created (its extensions) shapes the template too.
  const databaseSource = readFileSync(new URL('../../../src/server/db/database.ts', import.meta.url));
  const pglitePackage = readFileSync(
    new URL('../../../node_modules/@electric-sql/pglite/package.json', import.meta.url),
  );
  const key = createHash('sha256')
    .update(migrationsSource)
    .update(databaseSource)
    .update(pglitePackage)
    .digest('hex')
    .slice(0, 16);
  const file = path.join(tmpdir(), `identity-pglite-template-${key}.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);

  const pglite = await createPGlite();
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

/**
 * The schema as migrations leave it: tables, columns, indexes and constraints. An instance whose
 * schema a test changed is closed instead of reused.
 */
async function schemaOf(pglite: PGlite): Promise<string> {
  const { rows } = await pglite.query<{ part: string | null }>(`
    select string_agg(table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable
                      || ' ' || coalesce(column_default, ''), ',' order by table_name, column_name) as part
      from information_schema.columns where table_schema = 'public'
    union all
    select string_agg(indexdef, ',' order by indexdef) from pg_indexes where schemaname = 'public'
    union all
    select string_agg(conname || ' ' || pg_get_constraintdef(oid), ',' order by conname)
      from pg_constraint where connamespace = 'public'::regnamespace`);
  return rows.map((r) => r.part ?? '').join('\n');
}

/** What a restored template holds besides its schema: the rows migrations insert, and sequences. */
interface TemplateState {
  schema: string;
  /** Table name (quoted) -> its rows as JSON, for the tables that have any. */
  rows: Map<string, string>;
  /** setval arguments of each sequence. */
  sequences: { name: string; value: number; called: boolean }[];
}

async function stateOf(pglite: PGlite): Promise<TemplateState> {
  const rows = new Map<string, string>();
  for (const table of await tablesOf(pglite)) {
    const { rows: found } = await pglite.query<{ json: string | null }>(
      `select json_agg(t)::text as json from ${table} t`,
    );
    if (found[0]?.json) rows.set(table, found[0].json);
  }
  const { rows: sequences } = await pglite.query<{ name: string; value: number; called: boolean }>(
    `select quote_ident(schemaname) || '.' || quote_ident(sequencename) as name,
            coalesce(last_value, start_value) as value, last_value is not null as called
       from pg_sequences where schemaname = 'public'`,
  );
  return { schema: await schemaOf(pglite), rows, sequences };
}

async function tablesOf(pglite: PGlite): Promise<string[]> {
  const { rows } = await pglite.query<{ name: string }>(
    `select quote_ident(tablename) as name from pg_tables
      where schemaname = 'public' and tablename not like 'kysely\\_%' order by tablename`,
  );
  return rows.map((r) => r.name);
}

/**
 * Migrated instances given back by finished tests, reset to the template. Restoring the template
 * takes about a second (unpacking a 40 MB cluster and starting its backend); resetting a used
 * instance takes a tenth of that, and with shared modules (vitest.config.ts) the files of a worker
 * share this pool.
 */
const idle: PGlite[] = [];
const MAX_IDLE = 2;
let template: Promise<TemplateState> | undefined;

async function freshPglite(): Promise<PGlite> {
  const reused = idle.pop();
  if (reused) return reused;
  const pglite = await createPGlite({ loadDataDir: await pgliteTemplate() });
  template ??= stateOf(pglite);
  await template;
  return pglite;
}

/**
 * Resets a used instance to the template for the next test: the session as new (no transaction,
 * prepared statement, setting or lock), every table emptied and given back the rows migrations
 * inserted, every sequence where it was, the migrations' own tables kept. Closed instead when
 * anything fails or a test changed the schema.
 */
async function recycle(pglite: PGlite): Promise<void> {
  try {
    if (pglite.closed || idle.length >= MAX_IDLE || !template) throw new Error('not kept');
    const { schema, rows, sequences } = await template;
    await pglite.exec('rollback');
    await pglite.exec('discard all');
    if ((await schemaOf(pglite)) !== schema) throw new Error('schema changed');
    const tables = await tablesOf(pglite);
    await pglite.transaction(async (tx) => {
      if (tables.length > 0) await tx.exec(`truncate ${tables.join(', ')} cascade`);
      for (const [table, json] of rows) {
        await tx.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1)`, [
          json,
        ]);
      }
      for (const { name, value, called } of sequences) {
        await tx.query('select setval($1, $2, $3)', [name, value, called]);
      }
    });
    idle.push(pglite);
  } catch {
    if (!pglite.closed) await pglite.close();
  }
}

const pgliteTarget: DatabaseTarget = {
  name: 'pglite',
  async open() {
    const pglite = await freshPglite();
    const { db, readCache } = kyselyOnPGlite(pglite, { closeOnDestroy: false });
    let disposed = false;
    const database: AppDatabase = {
      db,
      kind: 'pglite',
      readCache,
      async destroy() {
        if (disposed) return;
        disposed = true;
        await db.destroy();
        await recycle(pglite);
      },
    };
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
