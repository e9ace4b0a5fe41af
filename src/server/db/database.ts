// Opens the database: embedded PGlite (default) or PostgreSQL through a `pg` pool (DATABASE_URL).
// Both read dates as 'YYYY-MM-DD' strings, bigints as numbers and timestamptz as Date, so the
// rest of the server cannot tell them apart.
import { mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect';
import { ReadCache } from './read-cache';
import type { Database } from './schema';

export type DatabaseKind = 'pglite' | 'postgres';

export interface AppDatabase {
  readonly db: Kysely<Database>;
  readonly kind: DatabaseKind;
  /** The cache of hot reads: PGlite only (read-cache.ts); null on PostgreSQL. */
  readonly readCache: ReadCache | null;
  /** Closes the pool or the PGlite instance. */
  destroy(): Promise<void>;
  /** What was opened (PostgreSQL: the URL and the pool's limits), for a connection of another kind. */
  readonly target?: DatabaseTarget;
}

const OID_INT8 = 20;
const OID_DATE = 1082;

const asString = (value: string) => value;
const asNumber = (value: string) => Number(value);

export type DatabaseTarget =
  | {
      kind: 'pglite';
      /** A folder; undefined keeps the database in memory. */
      dataDir?: string;
      /** Start from a dump (PGlite's dumpDataDir tarball) instead of an empty cluster. */
      loadDataDir?: Blob;
    }
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** Longest a statement may run (ms; 0: PostgreSQL's own setting). */
      statementTimeoutMs?: number;
      /** Longest a request waits for a free connection, or for a new one to connect (ms). */
      connectTimeoutMs?: number;
      /** Longest a statement waits for a lock (ms; 0: no limit). */
      lockTimeoutMs?: number;
    };

/**
 * Limits on every PostgreSQL connection, so that nothing waits for ever: a statement stuck behind a
 * slow scan, a row lock held by a stalled transaction, a full pool, or a peer that vanished
 * without closing the TCP connection (keep-alive notices it in about a minute, not the kernel's
 * 15 minutes of retransmits). Each ends in an error, which the request answers as a 500 (section
 * 8: the portal's error page), and the connection goes back to the pool or is dropped.
 */
export const POSTGRES_LIMITS = {
  /** Default statement_timeout: the admin lists' searches at bank scale take well under this. */
  statementTimeoutMs: 15_000,
  /** lock_timeout: the merge's and the lockout's row locks are held for milliseconds. */
  lockTimeoutMs: 5_000,
  /** idle_in_transaction_session_timeout: a transaction left open by a stalled request ends. */
  idleInTransactionMs: 60_000,
  /** Default wait for a pool connection (connectionTimeoutMillis). */
  connectTimeoutMs: 10_000,
  /** TCP keep-alive's first probe after this much silence. */
  keepAliveInitialDelayMs: 10_000,
} as const;

/** application_name: what pg_stat_activity shows for this server's connections. */
export const APPLICATION_NAME = 'identity-portal';

/**
 * A PGlite instance reading bigints as numbers and dates as text, as the pool below does, with the
 * pg_trgm extension available: a data folder with trigram indexes must always be opened so.
 */
export function createPGlite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<PGlite> {
  return PGlite.create({
    // Trigram indexes for the admin lists' searches (migration 0022), as on PostgreSQL.
    extensions: { pg_trgm },
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    parsers: { [OID_INT8]: asNumber, [OID_DATE]: asString },
  });
}

/** Kysely on a PGlite instance, with the read cache its driver keeps coherent. */
export function kyselyOnPGlite(
  pglite: PGlite,
  options: { closeOnDestroy?: boolean } = {},
): { db: Kysely<Database>; readCache: ReadCache } {
  const readCache = new ReadCache();
  const db = new Kysely<Database>({
    dialect: new PGliteDialect({ pglite, ...options, onWrite: () => readCache.invalidate() }),
  });
  return { db, readCache };
}

export async function openDatabase(
  target: DatabaseTarget,
  onPoolError: (error: Error) => void = () => {},
): Promise<AppDatabase> {
  if (target.kind === 'pglite') {
    if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
    const pglite = await createPGlite(target);
    const { db, readCache } = kyselyOnPGlite(pglite);
    const destroy = async () => {
      await db.destroy();
      // Kysely skips the driver's destroy when no query ever ran: close the instance ourselves.
      if (!pglite.closed) await pglite.close();
    };
    return { db, kind: 'pglite', readCache, destroy };
  }
  const statementTimeout = target.statementTimeoutMs ?? POSTGRES_LIMITS.statementTimeoutMs;
  const pool = new pg.Pool({
    connectionString: withDefaultUser(target.url),
    max: target.poolSize ?? 10,
    connectionTimeoutMillis: target.connectTimeoutMs ?? POSTGRES_LIMITS.connectTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: POSTGRES_LIMITS.keepAliveInitialDelayMs,
    application_name: APPLICATION_NAME,
    ...(statementTimeout > 0 ? { statement_timeout: statementTimeout } : {}),
    lock_timeout: target.lockTimeoutMs ?? POSTGRES_LIMITS.lockTimeoutMs,
    idle_in_transaction_session_timeout: POSTGRES_LIMITS.idleInTransactionMs,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === OID_INT8) return asNumber;
        if (oid === OID_DATE) return asString;
        return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid);
      }) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', onPoolError);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', readCache: null, destroy: () => db.destroy(), target };
}

/**
 * Where the schema migrations run: on PostgreSQL a connection of their own without the statement
 * and lock time limits, which are for requests. A migration may rewrite a big table for minutes,
 * and an instance starting beside another waits on the migration lock (an advisory lock, for which
 * Kysely lifts the lock limit itself) until that one has migrated: under the statement limit both
 * would fail the start after 15 s. PGlite's is the database itself.
 */
export async function openMigrationDatabase(opened: AppDatabase): Promise<AppDatabase> {
  const target = opened.target;
  if (opened.kind === 'pglite' || target?.kind !== 'postgres') return { ...opened, destroy: async () => {} };
  return openDatabase({ ...target, poolSize: 1, statementTimeoutMs: 0, lockTimeoutMs: 0 });
}

/** Like libpq, a URL without a user name connects as the operating-system user. */
export function withDefaultUser(url: string): string {
  const parsed = new URL(url);
  if (parsed.username) return url;
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    return url;
  }
  parsed.username = encodeURIComponent(user);
  return parsed.toString();
}

/** The database the configuration names. */
export function databaseTargetOf(config: {
  databaseUrl: string | null;
  pgliteDir: string;
  databasePoolSize?: number;
  databaseStatementTimeoutMs?: number;
}): DatabaseTarget {
  return config.databaseUrl
    ? {
        kind: 'postgres',
        url: config.databaseUrl,
        poolSize: config.databasePoolSize,
        statementTimeoutMs: config.databaseStatementTimeoutMs,
      }
    : { kind: 'pglite', dataDir: config.pgliteDir };
}
