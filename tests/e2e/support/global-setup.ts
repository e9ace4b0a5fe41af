// Starts one real server per browser-suite file (production build, its own fresh embedded PGlite
// seeded with the demo data), so that no journey sees what another changed in the demo accounts and
// the files pass in any order. The demo data set is made once: a first server initialises, migrates
// and seeds a data folder and stops cleanly; each file's server starts on a copy of that folder, so
// it only opens the database (a dozen initdb-migrate-seed runs took two minutes of the suite).
// Each server also runs the TREASURY demo application on a second listener (reached as 127.0.0.1,
// so framing the portal on localhost is cross-site); the same listener under another origin is not
// registered and so may not frame the portal. The addresses reach the tests through `provide`,
// keyed by file name (see portal.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { serverArgs } from '../../../scripts/server-bundle';

export const CAPTCHA_ANSWER = 'E2E42';

/** How many servers start at once on copies of the seeded folder (the machine has 2 cores). */
const STARTING_AT_ONCE = 4;

export interface PortalAddresses {
  baseUrl: string;
  /** Origin of the TREASURY demo page (its registered frame origin); the page is at /demo-sp/TREASURY. */
  demoSpUrl: string;
  /** The same demo listener under an origin no app registered (http://localhost:port). */
  unregisteredDemoSpUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server of each browser-suite file, by file name (e.g. 'sign-in.e2e.test.ts'). */
    portals: Record<string, PortalAddresses>;
    captchaAnswer: string;
  }
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

async function waitForHealth(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  path = '/health',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}${path}`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The server did not answer ${url}${path} within ${timeoutMs} ms`);
}

interface RunningPortal {
  addresses: PortalAddresses;
  dataDir: string;
  /** Stops the server (SIGTERM: it closes its database cleanly) and keeps its data folder. */
  exit(): Promise<void>;
  /** Stops the server and deletes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts a server on a new data folder: a copy of `seeded` when given (the demo apps' addresses
 * follow the new ports at start), else empty (initialised, migrated and seeded at start).
 */
async function startPortal(port: number, demoSpPort: number, seeded?: string): Promise<RunningPortal> {
  const demoSpUrl = `http://127.0.0.1:${demoSpPort}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  if (seeded) cpSync(seeded, dataDir, { recursive: true });
  const baseUrl = `http://localhost:${port}`;
  const child = spawn(process.execPath, await serverArgs(), {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PUBLIC_URL: baseUrl,
      DEMO_SP_PORT: String(demoSpPort),
      DEMO_SP_URL: demoSpUrl,
      CAPTCHA_FIXED_ANSWER: CAPTCHA_ANSWER,
      LOG_LEVEL: 'warn',
    },
    // Migration lines are noise nine times over; warnings and errors still reach the report.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exit = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => {
        child.once('exit', resolve);
        setTimeout(() => {
          child.kill('SIGKILL');
          resolve(null);
        }, 5000);
      });
    }
  };
  const stop = async () => {
    await exit();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, 180_000);
    await waitForHealth(demoSpUrl, child, 10_000, '/demo-sp/TREASURY');
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    addresses: { baseUrl, demoSpUrl, unregisteredDemoSpUrl: `http://localhost:${demoSpPort}` },
    dataDir,
    exit,
    stop,
  };
}

/** A data folder with the demo data set, made by a server that then shut down cleanly. */
async function seededDataDir(port: number, demoSpPort: number): Promise<RunningPortal> {
  const first = await startPortal(port, demoSpPort);
  try {
    await first.exit();
  } catch (error) {
    await first.stop();
    throw error;
  }
  return first;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Only the files this run will execute get a server: `vitest run <filter>` names them by part of
  // their path (vitest keeps the filters on its instance; the property is not in its public types).
  const folder = fileURLToPath(new URL('..', import.meta.url));
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern ?? [];
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.e2e.test.ts'))
    .filter(
      (name) =>
        filters.length === 0 || filters.some((f) => join(folder, name).includes(f.replace(/^\.\//, ''))),
    )
    .sort();
  const ports = new Set<number>();
  while (ports.size < files.length * 2 + 2) ports.add(await freePort());
  const [...free] = ports;
  const running: RunningPortal[] = [];
  const portals: Record<string, PortalAddresses> = {};
  const template = await seededDataDir(free[2 * files.length]!, free[2 * files.length + 1]!);
  try {
    for (let i = 0; i < files.length; i += STARTING_AT_ONCE) {
      const batch = files.slice(i, i + STARTING_AT_ONCE);
      const started = await Promise.allSettled(
        batch.map((_, j) => startPortal(free[2 * (i + j)]!, free[2 * (i + j) + 1]!, template.dataDir)),
      );
      started.forEach((result, j) => {
        if (result.status === 'fulfilled') {
          running.push(result.value);
          portals[batch[j]!] = result.value.addresses;
        }
      });
      const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
  } catch (error) {
    await Promise.all(running.map((p) => p.stop()));
    throw error;
  } finally {
    await template.stop();
  }
  project.provide('portals', portals);
  project.provide('captchaAnswer', CAPTCHA_ANSWER);
  return async () => {
    await Promise.all(running.map((p) => p.stop()));
  };
}
