// Graceful shutdown of the real entry point (src/server/main.ts) in a child process on embedded
// PGlite: SIGTERM turns /ready to 503 at once, the listener then closes, a request already in
// flight (its body still arriving) is answered, the database is closed (reopening the data
// directory finds the write that request made) and the process exits 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from '../../src/server/db/database';
import { migrations } from '../../src/server/db/migrations';
import { API } from './support/server';

const ROOT = path.resolve(import.meta.dirname, '../..');
const START_TIMEOUT_MS = 90_000;

interface Running {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process wrote to stdout, one JSON log line each. */
  output: string[];
  exited: Promise<number | null>;
}

const running = new Set<ChildProcess>();

async function start(dataDir: string, env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PUBLIC_URL: 'http://127.0.0.1:8080',
      DEMO_SP_PORT: '0',
      PORTAL_DIST: path.join(dataDir, 'no-portal'),
      LOG_LEVEL: 'info',
      FAILURE_DELAY_SECONDS: '0',
      METRICS_TOKEN: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const output: string[] = [];
  let buffered = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start in time')), START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        const listening = /listening on (http:\/\/[^\s;]+)/.exec(line);
        if (listening?.[1]) {
          clearTimeout(timer);
          resolve(listening[1]);
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${output.join('\n')}`));
    });
  });
  return { child, baseUrl, output, exited };
}

/** A POST whose body is sent in two parts: the request is in flight until `finish` is called. */
function slowPost(url: string, json: unknown) {
  const body = Buffer.from(JSON.stringify(json));
  const split = Math.floor(body.length / 2);
  let req!: ClientRequest;
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'x-requested-with': 'XMLHttpRequest',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.write(body.subarray(0, split));
  });
  return { response, finish: () => req.end(body.subarray(split)) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(20);
  }
}

describe('graceful shutdown (main.ts in a child process)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'identity-shutdown-'));

  afterAll(() => {
    for (const child of running) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the request in flight, closes the database cleanly and exits 0', async () => {
    const first = await start(dataDir, { SHUTDOWN_DELAY_SECONDS: '3', SHUTDOWN_GRACE_SECONDS: '60' });
    expect((await fetch(`${first.baseUrl}/ready`)).status).toBe(200);
    // Without METRICS_TOKEN there is no /metrics (and it is no portal page either).
    const metrics = await fetch(`${first.baseUrl}/metrics`);
    expect(metrics.status).toBe(404);
    expect(metrics.headers.get('content-type')).toContain('application/json');

    const inFlight = slowPost(`${first.baseUrl}${API}anonymous/login`, {
      username: 'C10001',
      password: 'Not-The-Password-1',
    });
    // In flight: the server has the request line and headers and waits for the rest of the body.
    await waitFor(() =>
      first.output.some((l) => l.includes('incoming request') && l.includes('/anonymous/login')),
    );
    first.child.kill('SIGTERM');
    await waitFor(() => first.output.some((l) => l.includes('SIGTERM: shutting down')));
    // During SHUTDOWN_DELAY_SECONDS the listener still answers, and /ready says no.
    const ready = await fetch(`${first.baseUrl}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'shutting down' });
    expect((await fetch(`${first.baseUrl}/health`)).status).toBe(200);
    // Then the listener closes: no new connections.
    await waitFor(() => first.output.some((l) => l.includes('closing the listener;')));
    let refused = false;
    for (let i = 0; i < 100 && !refused; i++) {
      refused = await fetch(`${first.baseUrl}/health`).then(
        () => false,
        () => true,
      );
      if (!refused) await sleep(100);
    }
    expect(refused).toBe(true);
    expect(first.child.exitCode).toBeNull();

    inFlight.finish();
    const answer = await inFlight.response;
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body)).toMatchObject({ message: 'Incorrect username or password.' });
    expect(await first.exited).toBe(0);
    expect(first.output.some((line) => line.includes('shut down cleanly'))).toBe(true);

    // The data directory opens again, fully migrated, with the attempt the last request recorded.
    const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
    try {
      const attempts = await database.db
        .selectFrom('sign_in_attempts')
        .select(['username', 'is_successful'])
        .where('username', '=', 'c10001')
        .execute();
      expect(attempts).toEqual([{ username: 'c10001', is_successful: false }]);
      const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(database.db);
      expect(applied.rows.map((r) => r.name).sort()).toEqual(Object.keys(migrations).sort());
    } finally {
      await database.destroy();
    }
  }, 240_000);
});
