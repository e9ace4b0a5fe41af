// The database store of @fastify/rate-limit (http/rate-limit-store.ts) on each database: the
// atomic upsert's counts and windows, concurrent requests, pruning, per-route scopes, and the
// plugin using it.
import Fastify from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  databaseRateLimitStore,
  incrementRateLimit,
  pruneRateLimits,
  readRateLimit,
  type RateLimitState,
  type RateLimitStore,
} from '../../src/server/http/rate-limit-store';
import { migrateToLatest } from '../../src/server/db/migrations';
import { targets, type DatabaseHandle } from './support/targets';

const MINUTE = 60_000;
const T0 = Date.parse('2026-03-01T10:00:00.000Z');

function incr(store: RateLimitStore, key: string, timeWindow = MINUTE, max = 10): Promise<RateLimitState> {
  return new Promise((resolve, reject) =>
    store.incr(key, (error, state) => (error ? reject(error) : resolve(state)), timeWindow, max),
  );
}

function read(store: RateLimitStore, key: string): Promise<RateLimitState> {
  return new Promise((resolve, reject) =>
    store.read(key, (error, state) => (error ? reject(error) : resolve(state)), MINUTE, 10),
  );
}

describe.each(targets)('the rate-limit store on $name', (target) => {
  let handle: DatabaseHandle;
  const db = () => handle.database.db;

  beforeAll(async () => {
    handle = await target.open();
    await migrateToLatest(handle.database.db);
  });
  afterAll(async () => {
    await handle?.dispose();
  });
  beforeEach(async () => {
    await db().deleteFrom('rate_limits').execute();
  });

  it('counts a key from 1 within its window, then starts a new window', async () => {
    expect(await incrementRateLimit(db(), 'k', MINUTE, T0)).toEqual({ current: 1, ttl: MINUTE });
    expect(await incrementRateLimit(db(), 'k', MINUTE, T0 + 1_000)).toEqual({ current: 2, ttl: 59_000 });
    expect(await incrementRateLimit(db(), 'k', MINUTE, T0 + 59_999)).toEqual({ current: 3, ttl: 1 });
    // The window ends at T0 + 60 s: the next request starts again at 1, with a full window.
    expect(await incrementRateLimit(db(), 'k', MINUTE, T0 + MINUTE)).toEqual({ current: 1, ttl: MINUTE });
    expect(await incrementRateLimit(db(), 'k', MINUTE, T0 + MINUTE + 5)).toEqual({
      current: 2,
      ttl: MINUTE - 5,
    });
    // Other keys have counters of their own.
    expect(await incrementRateLimit(db(), 'other', MINUTE, T0 + MINUTE + 5)).toEqual({
      current: 1,
      ttl: MINUTE,
    });
    expect(await db().selectFrom('rate_limits').select(['key', 'count']).orderBy('key').execute()).toEqual([
      { key: 'k', count: 2 },
      { key: 'other', count: 1 },
    ]);
  });

  it('reads a count without counting, and nothing once the window has ended', async () => {
    await incrementRateLimit(db(), 'k', MINUTE, T0);
    await incrementRateLimit(db(), 'k', MINUTE, T0);
    expect(await readRateLimit(db(), 'k', T0 + 10_000)).toEqual({ current: 2, ttl: 50_000 });
    expect(await readRateLimit(db(), 'k', T0 + 10_000)).toEqual({ current: 2, ttl: 50_000 });
    expect(await readRateLimit(db(), 'k', T0 + MINUTE)).toEqual({ current: 0, ttl: 0 });
    expect(await readRateLimit(db(), 'missing', T0)).toEqual({ current: 0, ttl: 0 });
  });

  it('counts 40 concurrent requests exactly once each', async () => {
    const states = await Promise.all(
      Array.from({ length: 40 }, () => incrementRateLimit(db(), 'busy', MINUTE, T0)),
    );
    expect(states.map((s) => s.current).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });

  it('prunes the rows whose window has ended, and only those', async () => {
    await incrementRateLimit(db(), 'old', MINUTE, T0);
    await incrementRateLimit(db(), 'new', MINUTE, T0 + 30_000);
    expect(await pruneRateLimits(db(), T0 + MINUTE)).toBe(1);
    expect(await db().selectFrom('rate_limits').select('key').execute()).toEqual([{ key: 'new' }]);
  });

  it('scopes each route child by method and URL, and prunes at most once a period', async () => {
    let now = T0;
    const Store = databaseRateLimitStore(db(), { now: () => now, pruneEveryMs: MINUTE });
    const root = new Store({ max: 10 });
    const login = root.child({ routeInfo: { method: 'POST', url: '/rest/ui/anonymous/login' } });
    const captcha = root.child({ routeInfo: { method: ['GET', 'HEAD'], url: '/captcha.jpg' } });

    expect(await incr(login, '10.0.0.1')).toEqual({ current: 1, ttl: MINUTE });
    expect(await incr(login, '10.0.0.1')).toEqual({ current: 2, ttl: MINUTE });
    expect(await incr(captcha, '10.0.0.1')).toEqual({ current: 1, ttl: MINUTE });
    expect(await incr(login, '10.0.0.2')).toEqual({ current: 1, ttl: MINUTE });
    expect(await read(login, '10.0.0.1')).toEqual({ current: 2, ttl: MINUTE });
    expect(
      (await db().selectFrom('rate_limits').select('key').orderBy('key').execute()).map((r) => r.key),
    ).toEqual([
      'GET,HEAD /captcha.jpg 10.0.0.1',
      'POST /rest/ui/anonymous/login 10.0.0.1',
      'POST /rest/ui/anonymous/login 10.0.0.2',
    ]);

    // Past the windows and a pruning period: the next request prunes the ended rows (off its path).
    now = T0 + 2 * MINUTE;
    expect(await incr(captcha, '10.0.0.9')).toEqual({ current: 1, ttl: MINUTE });
    await expect
      .poll(async () => (await db().selectFrom('rate_limits').select('key').execute()).map((r) => r.key))
      .toEqual(['GET,HEAD /captcha.jpg 10.0.0.9']);
    // Within the same period an ended row stays; the first request of the next period prunes it.
    await db()
      .insertInto('rate_limits')
      .values({ key: 'ended', count: 5, resets_at: new Date(T0) })
      .execute();
    now = T0 + 2 * MINUTE + 30_000;
    await incr(login, '10.0.0.3');
    expect(await read(login, '10.0.0.3')).toEqual({ current: 1, ttl: MINUTE });
    const keys = async () => (await db().selectFrom('rate_limits').select('key').execute()).map((r) => r.key);
    expect(await keys()).toContain('ended');
    now = T0 + 3 * MINUTE;
    await incr(login, '10.0.0.3');
    await expect.poll(keys).not.toContain('ended');
  });

  it('limits requests through @fastify/rate-limit, answering 429 past the maximum', async () => {
    const app = Fastify();
    await app.register(rateLimit, { global: false, store: databaseRateLimitStore(db()) });
    app.get('/limited', { config: { rateLimit: { max: 3, timeWindow: MINUTE } } }, async () => 'ok');
    app.get('/other', { config: { rateLimit: { max: 3, timeWindow: MINUTE } } }, async () => 'ok');
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await app.inject({ url: '/limited' })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = await app.inject({ url: '/limited' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect((await app.inject({ url: '/other' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
