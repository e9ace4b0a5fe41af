// A store for @fastify/rate-limit that keeps its counters in the database (table rate_limits,
// migration 0013), so every server instance on one database shares each limit: a client's 61st
// sign-in in a minute is refused whichever instance it reaches.
//
// One row per route and client key. Each request is one atomic upsert: a new key, or a key whose
// window has ended, starts again at 1 with a new window; otherwise the count goes up by one. The
// window is fixed (as the plugin's in-memory store does without continueExceeding or
// exponentialBackoff, which this store does not offer). Rows whose window has ended are deleted
// at most once per PRUNE_EVERY_MS per process, off the request's path, through the index on
// resets_at.
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** What the plugin expects from `incr` and `read`. */
export interface RateLimitState {
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

type Callback = (error: Error | null, state: RateLimitState) => void;

/** The store interface of @fastify/rate-limit (the class is instantiated by the plugin). */
export interface RateLimitStore {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read(key: string, callback: Callback, timeWindow: number, max: number): void;
  /** The plugin passes the route's rate-limit settings, with the route itself as `routeInfo`. */
  child(routeOptions: object): RateLimitStore;
}

interface RouteInfo {
  method?: string | string[];
  url?: string;
}

export const PRUNE_EVERY_MS = 60_000;

export interface DatabaseRateLimitStoreOptions {
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
  pruneEveryMs?: number;
}

/** Increments the counter of `key` and answers its count and time left in its window. */
export async function incrementRateLimit(
  db: Kysely<Database>,
  key: string,
  timeWindowMs: number,
  nowMs: number,
): Promise<RateLimitState> {
  const now = new Date(nowMs);
  const row = await db
    .insertInto('rate_limits')
    .values({ key, count: 1, resets_at: new Date(nowMs + timeWindowMs) })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.resets_at <= ${now} then 1 else rate_limits.count + 1 end`,
        resets_at: sql<Date>`case when rate_limits.resets_at <= ${now} then excluded.resets_at else rate_limits.resets_at end`,
      }),
    )
    .returning(['count', 'resets_at'])
    .executeTakeFirstOrThrow();
  return { current: Number(row.count), ttl: Math.max(0, new Date(row.resets_at).getTime() - nowMs) };
}

/** The count of `key` in its current window, without counting a request. */
export async function readRateLimit(
  db: Kysely<Database>,
  key: string,
  nowMs: number,
): Promise<RateLimitState> {
  const row = await db
    .selectFrom('rate_limits')
    .select(['count', 'resets_at'])
    .where('key', '=', key)
    .executeTakeFirst();
  const resetsAt = row ? new Date(row.resets_at).getTime() : 0;
  if (!row || resetsAt <= nowMs) return { current: 0, ttl: 0 };
  return { current: Number(row.count), ttl: resetsAt - nowMs };
}

/** Deletes the rows whose window has ended; answers how many. */
export async function pruneRateLimits(db: Kysely<Database>, nowMs: number): Promise<number> {
  const result = await db
    .deleteFrom('rate_limits')
    .where('resets_at', '<=', new Date(nowMs))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The class to pass as @fastify/rate-limit's `store` option. */
export function databaseRateLimitStore(
  db: Kysely<Database>,
  options: DatabaseRateLimitStoreOptions = {},
): FastifyRateLimitStoreCtor & (new (scope?: unknown) => RateLimitStore) {
  const now = options.now ?? Date.now;
  const pruneEveryMs = options.pruneEveryMs ?? PRUNE_EVERY_MS;
  let lastPrune = now();

  const pruneNow = (nowMs: number) => {
    if (nowMs - lastPrune < pruneEveryMs) return;
    lastPrune = nowMs;
    // Off the request's path; a failure (the database closing, say) is retried next period.
    pruneRateLimits(db, nowMs).catch(() => {});
  };

  return class DatabaseRateLimitStore implements RateLimitStore {
    /** The route this store counts for ('*' for the plugin's global store). */
    readonly scope: string;

    // The plugin constructs the root store with its settings; children get their route's name.
    constructor(scope?: unknown) {
      this.scope = typeof scope === 'string' ? scope : '*';
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      const nowMs = now();
      incrementRateLimit(db, `${this.scope} ${key}`, timeWindow, nowMs).then(
        (state) => {
          pruneNow(nowMs);
          callback(null, state);
        },
        (error: unknown) =>
          callback(error instanceof Error ? error : new Error(String(error)), { current: 0, ttl: 0 }),
      );
    }

    read(key: string, callback: Callback): void {
      readRateLimit(db, `${this.scope} ${key}`, now()).then(
        (state) => callback(null, state),
        (error: unknown) =>
          callback(error instanceof Error ? error : new Error(String(error)), { current: 0, ttl: 0 }),
      );
    }

    child(routeOptions: object): RateLimitStore {
      const route = (routeOptions as { routeInfo?: RouteInfo }).routeInfo ?? (routeOptions as RouteInfo);
      const methods = Array.isArray(route.method) ? route.method.join(',') : (route.method ?? '');
      return new DatabaseRateLimitStore(`${methods} ${route.url ?? ''}`.trim() || '*');
    }
  };
}
