// Crash tests (`npm run test:crash`): the real server is killed with SIGKILL at random points of
// a merge, a registration, a password reset and two profile changes (change-email verification,
// change-password), on PGlite and on PostgreSQL. After each kill the database must hold the state
// before or the state after each interrupted operation, never one between; the server must start
// cleanly on it (/health and /ready, no error logged); an operation found undone must then
// complete when retried by the same browser, and every one must show its effect over HTTP.
//
// Cost: one child start per kill is the whole price, so runs are pipelined. One database per
// target is seeded once; each run starts from a fresh prepared point (its own identities or
// invitation, written while the server is down, right after reading the previous kill's
// results); and each kill interrupts one run of every operation at once (their final calls are
// fired so that the kill lands at an independent random point of each one's typical duration).
// The typical duration (the kill window) starts as the reference's retry time and is then
// calibrated from the kills themselves: a kill that finds the operation done shrinks it by 10%,
// one that finds it undone grows it by 3.6%, which settles where about a quarter of the kills land
// after the commit, so that the windows cover each operation's work up to and past its commit
// whatever the load (a retry's time alone is a poor guess: cold after a start, or not concurrent).
// The first run of each operation is the reference: killed before its final call (the "before"
// fingerprint), then retried to completion (the "after" one).
//
// Environment: CRASH_RUNS (runs of each operation per target, default 50), CRASH_TARGETS
// (pglite,postgres), CRASH_OPS (merge,registration,reset,profile-email,profile-password),
// CRASH_SEED (the delays' random seed; printed), TEST_DATABASE_URL (PostgreSQL admin URL, default
// postgres://postgres@127.0.0.1:5432/postgres; unreachable PostgreSQL is skipped unless CI=true).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase, withDefaultUser, type AppDatabase } from '../../src/server/db/database';
import {
  CAPTCHA_ANSWER,
  CRASH_DATA_KEY,
  fingerprint,
  OPERATIONS,
  type Operation,
  type Run,
} from './operations';
import { freePort, ServerProcess } from './server-process';

interface Target {
  name: 'pglite' | 'postgres';
  env: Record<string, string>;
  /** Opens the database for the driver (the server is down). */
  open(): Promise<AppDatabase>;
  /** Closes what open gave (PGlite) or keeps it (PostgreSQL's pool). */
  close(database: AppDatabase): Promise<void>;
  /** Waits until no connection of a killed server is left (its transaction rolled back or committed). */
  settle(): Promise<void>;
  dispose(): Promise<void>;
}

type Phase = 'reference' | 'crashed' | 'retry' | 'retried' | 'verify' | 'done';

interface Tracked {
  run: Run;
  phase: Phase;
  reference: boolean;
  /** Kill point as a fraction of the operation's typical duration. */
  fraction?: number;
  /** The final call answered its success before the kill. */
  answered?: boolean;
  seen?: 'before' | 'after';
}

interface OpStats {
  before?: string;
  after?: string;
  durations: number[];
  /** The kill window: the typical duration of the final call where the kills land (ms). */
  window: number;
  seen: { before: number; after: number };
  retried: number;
  verified: number;
}

interface TargetReport {
  target: string;
  kills: number;
  startMs: number[];
  openMs: number[];
  wallMs: number;
  ops: Record<string, OpStats>;
}

const failures: string[] = [];
const DRIVER_APPLICATION = 'crash-driver';

function fail(message: string): void {
  failures.push(message);
  console.error(`FAIL ${message}`);
}

/** mulberry32: a small seeded generator, so a failing run's delays can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Lines of `actual` missing from `expected` and the reverse, for a failure message. */
function difference(label: string, expected: string, actual: string): string {
  const e = new Set(expected.split('\n'));
  const a = new Set(actual.split('\n'));
  const extra = [...a].filter((l) => !e.has(l)).map((l) => `    + ${l}`);
  const missing = [...e].filter((l) => !a.has(l)).map((l) => `    - ${l}`);
  return `  vs ${label}:\n${[...missing, ...extra].join('\n')}`;
}

async function pgliteTarget(dataDir: string): Promise<Target> {
  return {
    name: 'pglite',
    env: { DATA_DIR: dataDir, DATABASE_URL: '', DATA_ENCRYPTION_KEY: CRASH_DATA_KEY.toString('base64') },
    open: () => openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') }),
    close: (database) => database.destroy(),
    settle: async () => {},
    dispose: async () => {},
  };
}

async function postgresTarget(adminUrl: string, dataDir: string): Promise<Target> {
  const name = `identity_crash_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDefaultUser(adminUrl) });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(withDefaultUser(adminUrl));
  url.pathname = `/${name}`;
  const driverUrl = new URL(url);
  driverUrl.searchParams.set('application_name', DRIVER_APPLICATION);
  const database = await openDatabase({ kind: 'postgres', url: driverUrl.toString(), poolSize: 2 });
  return {
    name: 'postgres',
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      DATA_ENCRYPTION_KEY: CRASH_DATA_KEY.toString('base64'),
    },
    open: async () => database,
    close: async () => {},
    async settle() {
      // The killed server's backends end once PostgreSQL sees their sockets close.
      for (let i = 0; i < 400; i++) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where datname = ${name} and application_name <> ${DRIVER_APPLICATION}`.execute(database.db);
        if ((rows[0]?.n ?? 0) === 0) return;
        await sleep(25);
      }
      throw new Error('The killed server still has connections to PostgreSQL after 10 s');
    },
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
}

async function crashTarget(
  target: Target,
  operations: readonly Operation[],
  runs: number,
  random: () => number,
): Promise<TargetReport> {
  const wall = performance.now();
  const port = await freePort();
  let demoPort = await freePort();
  while (demoPort === port) demoPort = await freePort();
  const server = new ServerProcess(port, {
    ...target.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DEMO_SP_PORT: String(demoPort),
    DEMO_SP_URL: `http://localhost:${demoPort}`,
    CAPTCHA_FIXED_ANSWER: CAPTCHA_ANSWER,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const report: TargetReport = {
    target: target.name,
    kills: 0,
    startMs: [],
    openMs: [],
    wallMs: 0,
    ops: Object.fromEntries(
      operations.map((op) => [
        op.name,
        {
          durations: [],
          window: 0,
          seen: { before: 0, after: 0 },
          retried: 0,
          verified: 0,
        } satisfies OpStats,
      ]),
    ),
  };
  const label = (t: Tracked) => `${target.name} ${t.run.op.name} run ${t.run.n}`;

  // Migrations and the demo seed, once.
  const seedMs = await server.start();
  console.log(`[${target.name}] seeded and started in ${Math.round(seedMs)} ms`);
  await server.stop();

  const tracked: Tracked[] = [];
  let next = 0; // 0: the reference runs; 1..runs: random kills.
  try {
    for (;;) {
      // ---- server down: read what the last kill left, prepare the next runs -------------------
      await target.settle();
      const opened = performance.now();
      const database = await target.open();
      report.openMs.push(performance.now() - opened);
      try {
        for (const t of tracked) {
          const stats = report.ops[t.run.op.name]!;
          if (t.phase === 'reference') {
            stats.before = await fingerprint(database.db, t.run);
            t.phase = 'retry';
          } else if (t.phase === 'retried') {
            const fp = await fingerprint(database.db, t.run);
            if (t.reference) {
              stats.after = fp;
              if (fp === stats.before) fail(`${label(t)}: the operation changed nothing it fingerprints`);
            } else if (fp !== stats.after) {
              fail(
                `${label(t)}: retried to completion but not the after state\n${difference('after', stats.after!, fp)}`,
              );
            }
            t.phase = 'verify';
          }
        }
        for (const t of tracked) {
          if (t.phase !== 'crashed') continue;
          const stats = report.ops[t.run.op.name]!;
          const fp = await fingerprint(database.db, t.run);
          if (fp === stats.after) {
            t.seen = 'after';
            t.phase = 'verify';
          } else if (fp === stats.before && !t.answered) {
            t.seen = 'before';
            t.phase = 'retry';
          } else {
            fail(
              `${label(t)} (killed at ${(t.fraction! * 100).toFixed(0)}% of its duration${t.answered ? ', after its answer' : ''}): ` +
                `the database is neither before nor after\n${difference('before', stats.before!, fp)}\n${difference('after', stats.after!, fp)}`,
            );
            t.phase = 'done';
            continue;
          }
          stats.seen[t.seen]++;
          stats.window *= t.seen === 'after' ? 0.9 : 1.0357;
          if (process.env.CRASH_VERBOSE) {
            console.log(`  ${label(t)}: killed at ${(t.fraction! * 100).toFixed(0)}%: ${t.seen}`);
          }
        }
        if (next <= runs) {
          for (const op of operations) {
            const run = await op.prepare(database.db, next, server.baseUrl);
            tracked.push({ run, phase: 'crashed', reference: next === 0 });
          }
        }
      } finally {
        await target.close(database);
      }

      // ---- server up: a clean start, retries, verifications, then the next kill --------------
      if (tracked.every((t) => t.phase === 'done') && next > runs) break;
      try {
        report.startMs.push(await server.start());
      } catch (error) {
        fail(`${target.name}: the server did not start cleanly after a kill: ${String(error)}`);
        break;
      }
      // Retries run together, as the final calls of a kill do, so that their durations are the
      // typical durations the next kill points are drawn in.
      await Promise.all(
        tracked
          .filter((t) => t.phase === 'retry')
          .map(async (t) => {
            const stats = report.ops[t.run.op.name]!;
            try {
              const sent = performance.now();
              const res = await t.run.op.final(t.run);
              if (res.status !== t.run.op.finalStatus) {
                fail(`${label(t)}: the retry answered ${res.status} ${res.text.slice(0, 300)}`);
                t.phase = 'done';
                return;
              }
              stats.durations.push(performance.now() - sent);
              if (!t.reference) stats.retried++;
              t.phase = 'retried';
            } catch (error) {
              fail(`${label(t)}: retrying: ${String(error)}`);
              t.phase = 'done';
            }
          }),
      );
      await Promise.all(
        tracked
          .filter((t) => t.phase === 'verify')
          .map(async (t) => {
            try {
              await t.run.op.verify(t.run);
              if (!t.reference) report.ops[t.run.op.name]!.verified++;
            } catch (error) {
              fail(`${label(t)}: verifying: ${String(error)}`);
            }
            t.phase = 'done';
          }),
      );
      const fresh = tracked.filter((t) => t.run.n === next && t.phase === 'crashed');
      if (next > runs) {
        await server.stop();
        continue;
      }
      const driven = await Promise.all(
        fresh.map(async (t) => {
          try {
            await t.run.op.drive(t.run);
            t.run.cookieHashes = t.run.client.cookieHashes();
            return t;
          } catch (error) {
            fail(`${label(t)}: driving to the final point: ${String(error)}`);
            t.phase = 'done';
            return null;
          }
        }),
      );
      const ready = driven.filter((t): t is Tracked => t !== null);
      if (next === 0) {
        // The references: killed before their final calls.
        for (const t of ready) t.phase = 'reference';
      } else {
        // Each final call starts so that the kill lands at a random point of its typical duration.
        const plan = ready.map((t) => {
          const stats = report.ops[t.run.op.name]!;
          stats.window ||= median(stats.durations) || 200;
          const typical = stats.window;
          t.fraction = random();
          return { t, typical, before: t.fraction * typical };
        });
        const killAt = Math.max(0, ...plan.map((p) => p.before));
        const fired = plan.map(async ({ t, before }) => {
          await sleep(killAt - before);
          try {
            const res = await t.run.op.final(t.run);
            if (res.status === t.run.op.finalStatus) t.answered = true;
          } catch {
            // the connection died with the server
          }
        });
        await sleep(killAt);
        await server.kill();
        report.kills++;
        await Promise.all(fired);
      }
      if (next === 0) {
        await server.kill();
        report.kills++;
      }
      next++;
      if (next % 5 === 0 || next > runs) {
        console.log(
          `[${target.name}] ${Math.min(next - 1, runs)}/${runs} kills, ${Math.round((performance.now() - wall) / 1000)} s`,
        );
      }
    }
  } finally {
    await server.kill();
    report.wallMs = performance.now() - wall;
  }
  return report;
}

async function main(): Promise<void> {
  const runs = Number(process.env.CRASH_RUNS ?? 50);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('CRASH_RUNS must be a whole number of at least 1');
  const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const wanted = (process.env.CRASH_TARGETS ?? 'pglite,postgres').split(',').map((s) => s.trim());
  const opNames = (process.env.CRASH_OPS ?? OPERATIONS.map((o) => o.name).join(','))
    .split(',')
    .map((s) => s.trim());
  const operations = OPERATIONS.filter((o) => opNames.includes(o.name));
  if (operations.length === 0)
    throw new Error(`CRASH_OPS names none of ${OPERATIONS.map((o) => o.name).join(', ')}`);
  console.log(
    `crash tests: ${runs} runs of ${operations.map((o) => o.name).join(', ')} on ${wanted.join(', ')}; CRASH_SEED=${seed}`,
  );
  const random = seeded(seed);
  const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const reports: TargetReport[] = [];
  const started = performance.now();

  for (const name of wanted) {
    const dataDir = mkdtempSync(path.join(tmpdir(), `portal-crash-${name}-`));
    let target: Target | null = null;
    try {
      if (name === 'pglite') target = await pgliteTarget(dataDir);
      else if (name === 'postgres') {
        try {
          target = await postgresTarget(adminUrl, dataDir);
        } catch (error) {
          if (process.env.CI === 'true' || process.env.TEST_DATABASE_URL) throw error;
          console.warn(`PostgreSQL at ${adminUrl} unreachable (${String(error)}): skipped`);
          continue;
        }
      } else throw new Error(`Unknown target ${name} (pglite or postgres)`);
      reports.push(await crashTarget(target, operations, runs, random));
    } finally {
      await target?.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  console.log('');
  for (const r of reports) {
    const avg = (values: number[]) =>
      Math.round(values.reduce((a, b) => a + b, 0) / Math.max(1, values.length));
    console.log(
      `${r.target}: ${r.kills} kills in ${Math.round(r.wallMs / 1000)} s ` +
        `(${Math.round(r.wallMs / Math.max(1, r.kills))} ms a kill; server start ${avg(r.startMs)} ms, driver open ${avg(r.openMs)} ms)`,
    );
    for (const [op, s] of Object.entries(r.ops)) {
      console.log(
        `  ${op.padEnd(17)} before ${String(s.seen.before).padStart(3)}  after ${String(s.seen.after).padStart(3)}  ` +
          `retried ${String(s.retried).padStart(3)}  verified ${String(s.verified).padStart(3)}  retry ${Math.round(median(s.durations))} ms, kill window ${Math.round(s.window)} ms`,
      );
    }
  }
  console.log(
    `\ncrash tests: ${failures.length === 0 ? 'passed' : `${failures.length} failures`} in ${Math.round((performance.now() - started) / 1000)} s (CRASH_SEED=${seed})`,
  );
  if (failures.length > 0) process.exitCode = 1;
}

await main();
