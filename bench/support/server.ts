// The server under measurement: the real server in a child process of its own (production mode,
// fresh PGlite (a copy of a freshly seeded folder) or a fresh PostgreSQL database, demo data seeded,
// per-IP limits lifted because one client sends everything), and small helpers the benchmarks share.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { serverArgs } from '../../scripts/server-bundle';
import { withDefaultUser } from '../../src/server/db/database';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** /proc reports CPU in clock ticks of 10 ms (USER_HZ = 100 on Linux). */
const MS_PER_TICK = 10;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function waitForHealth(
  base: string,
  child: ChildProcess,
  timeoutMs = 90_000,
  healthPath = '/health',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${base}${healthPath}`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy in time');
}

/** CPU milliseconds of a process's main thread and of all its other threads (Linux /proc). */
export function threadCpu(pid: number | undefined): { main: number; others: number } | null {
  if (!pid) return null;
  try {
    const ticks = (file: string) => {
      const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
      return Number(fields[11]) + Number(fields[12]);
    };
    const total = ticks(`/proc/${pid}/stat`);
    const main = ticks(`/proc/${pid}/task/${pid}/stat`);
    return { main: main * MS_PER_TICK, others: (total - main) * MS_PER_TICK };
  } catch {
    return null;
  }
}

/** Resident memory of a process in MB (Linux /proc), or null where it cannot be read. */
export function residentMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.replace(/\D+/g, '')) / 1024 : null;
  } catch {
    return null;
  }
}

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDefaultUser(url) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface BenchServer {
  base: string;
  child: ChildProcess;
  engine: 'PGlite' | 'PostgreSQL';
  stop(): Promise<void>;
}

export interface BenchServerOptions {
  /** A PostgreSQL server: a fresh database on it, dropped afterwards. Null: PGlite. */
  databaseUrl: string | null;
  /** Serve the built portal from dist/portal (the Lighthouse run); otherwise no portal. */
  portal?: boolean;
  env?: Record<string, string>;
}

/** Files whose content decides what a freshly seeded data folder holds. */
function seedSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(full);
    }
  };
  walk(path.join(ROOT, 'src/server'));
  walk(path.join(ROOT, 'src/contract'));
  out.push(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'));
  return out.sort();
}

/** A seeded folder this old or older is made again (the demo data set has dates relative to now). */
const TEMPLATE_MAX_AGE_MS = 60 * 60_000;

/**
 * A PGlite data folder with the demo data set, made once by a server that then shut down cleanly,
 * and kept in the temporary folder under a key of the server's source: each benchmark's server
 * starts on a copy and only opens the database, instead of running initdb, the migrations and the
 * seed again (about 10 s of the 2 cores per benchmark). What is measured starts after that.
 */
async function seededTemplate(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of seedSources()) hash.update(file).update(readFileSync(file));
  const dir = path.join(tmpdir(), `identity-bench-seeded-${hash.digest('hex').slice(0, 16)}`);
  const ready = path.join(dir, '.ready');
  if (existsSync(ready) && Date.now() - statSync(ready).mtimeMs < TEMPLATE_MAX_AGE_MS) return dir;

  const fresh = mkdtempSync(path.join(tmpdir(), 'bench-seed-'));
  try {
    const port = await freePort();
    const child = await spawnServer(fresh, port, '', {});
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, child);
    } finally {
      await stopChild(child);
    }
    writeFileSync(path.join(fresh, '.ready'), new Date().toISOString());
    rmSync(dir, { recursive: true, force: true });
    renameSync(fresh, dir);
    return dir;
  } catch (error) {
    rmSync(fresh, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The real server in production mode on `dataDir`, with the per-IP limits lifted: the bundle that
 * `npm start` runs (scripts/server-bundle.ts), built afresh once per benchmark.
 */
async function spawnServer(
  dataDir: string,
  port: number,
  databaseUrl: string,
  options: Pick<BenchServerOptions, 'portal' | 'env'>,
): Promise<ChildProcess> {
  const base = `http://127.0.0.1:${port}`;
  return spawn(process.execPath, await serverArgs(), {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      ...(options.portal ? {} : { PORTAL_DIST: path.join(dataDir, 'no-portal') }),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      RATE_LIMIT_PER_MINUTE: '100000000',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000000',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** SIGTERM (the server closes its database cleanly), SIGKILL after 10 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => {
    child.once('exit', resolve);
    setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, 10_000);
  });
}

export async function startBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  if (!options.databaseUrl) cpSync(await seededTemplate(), dataDir, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let databaseUrl: string | null = null;
  let databaseName: string | null = null;
  if (options.databaseUrl) {
    databaseName = `bench_${randomBytes(4).toString('hex')}`;
    await withAdmin(options.databaseUrl, (c) => c.query(`create database "${databaseName}"`));
    const url = new URL(withDefaultUser(options.databaseUrl));
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  const child = await spawnServer(dataDir, port, databaseUrl ?? '', options);
  const stop = async () => {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    if (options.databaseUrl && databaseName) {
      const name = databaseName;
      await withAdmin(options.databaseUrl, (c) => c.query(`drop database if exists "${name}" with (force)`));
    }
  };
  try {
    await waitForHealth(base, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, child, engine: databaseUrl ? 'PostgreSQL' : 'PGlite', stop };
}

/** Signs a demo account in over HTTP and returns the Cookie header of its session. */
export async function signedInCookie(base: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/rest/ui/anonymous/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200)
    throw new Error(`sign-in of ${username} answered ${res.status}: ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  if (cookies.length === 0) throw new Error('sign-in set no cookie');
  return cookies.join('; ');
}

export { median } from './statistics';

/**
 * Prints a benchmark's verdict and says whether it passed: `problems` always fail (failed requests,
 * a broken run); `below` are budgets not met, which fail unless the run is report-only (CI, while a
 * budget is not met on its 2-core machine: the figure is printed with BELOW BUDGET).
 */
export function verdict(problems: readonly string[], below: readonly string[], reportOnly: boolean): boolean {
  for (const problem of problems) console.error(`  FAIL: ${problem}`);
  for (const miss of below) {
    if (reportOnly) console.log(`  BELOW BUDGET: ${miss} (reported, not enforced)`);
    else console.error(`  FAIL: ${miss}`);
  }
  const passed = problems.length === 0 && (reportOnly || below.length === 0);
  if (passed && below.length === 0) console.log('  PASS');
  return passed;
}
