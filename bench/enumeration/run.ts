// Enumeration timing: does an answer's time tell a known username or email from an unknown one?
//
// Bodies and statuses are equal by construction and asserted in tests/server/failure-limit.test.ts;
// time is a measurement, so it lives here. Two pairs, their samples interleaved (known, unknown,
// known, ...) so drift on the machine moves both sides alike:
//   - sign-in: an unknown username vs a known username with a wrong password (both verify an
//     argon2id hash: the account's, or a dummy one; both run the same two statements);
//   - password-reset start: an unknown email vs a known one (the code is sent after the answer).
// Each pair's medians must be within 5% of each other, else the exit code is 1.
//
//   npm run bench:enumeration              200 samples per side
//   npm run bench:enumeration -- --smoke   100 samples per side, for CI; same 5% limit
//   npm run bench:enumeration -- --smoke --report-only   prints the verdicts, exit code 0 unless
//            an answer differs (for a CI whose neighbours make the medians swing)
//   options: --samples=<n> --tolerance=<fraction, default 0.05>
//
// The server runs as its own process on a fresh embedded database with the demo data, a fixed
// captcha answer (the count passes 3 at once: every sign-in sample answers a captcha), and the
// failure limit's waits and lock off: after the 4th failure every attempt would otherwise be a 429,
// which is a different path from the one measured. The waits and lock run the same statements
// for known and unknown usernames either way.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverArgs } from '../../scripts/server-bundle';
import { INCORRECT_CREDENTIALS_MESSAGE } from '../../src/server/domain/messages';
import { median } from '../support/statistics';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CAPTCHA = 'BENCH';
const KNOWN_USERNAME = 'C10001';
const UNKNOWN_USERNAME = 'nobody.known.here';
const KNOWN_EMAIL = 'c10001@example.com';
const UNKNOWN_EMAIL = 'nobody-known-here@example.com';
const WRONG_PASSWORD = 'Not-The-Password-2026';

interface Options {
  smoke: boolean;
  samples: number;
  tolerance: number;
  reportOnly: boolean;
}

function parseOptions(argv: string[]): Options {
  const smoke = argv.includes('--smoke');
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, fallback: number) => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
    return n;
  };
  return {
    smoke,
    samples: Math.round(number('samples', smoke ? 100 : 200)),
    tolerance: number('tolerance', 0.05),
    reportOnly: argv.includes('--report-only'),
  };
}

function freePort(): Promise<number> {
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

async function waitForHealth(base: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy in time');
}

/** A browser-like client: one cookie jar, the portal's headers. */
class Client {
  #cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async request(method: string, url: string, body?: unknown): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.#cookies.size > 0) headers.cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.base + url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (pair && eq > 0) this.#cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return { status: res.status, text: await res.text() };
  }
}

/** Prepares one sample (untimed), then times the request; checks the answer is the expected one. */
type Sample = () => Promise<{ ms: number; status: number; text: string }>;

function signInSample(base: string, username: string): Sample {
  return async () => {
    const client = new Client(base);
    await client.request('GET', `/captcha.jpg?${Date.now()}`);
    const started = performance.now();
    const res = await client.request('POST', '/rest/ui/anonymous/login', {
      username,
      password: WRONG_PASSWORD,
      captchaCode: CAPTCHA,
    });
    return { ms: performance.now() - started, ...res };
  };
}

function resetStartSample(base: string, email: string): Sample {
  return async () => {
    const client = new Client(base);
    await client.request('GET', `/captcha.jpg?${Date.now()}`);
    const started = performance.now();
    const res = await client.request('POST', '/rest/ui/anonymous/password-reset/start', {
      email,
      captchaCode: CAPTCHA,
    });
    const ms = performance.now() - started;
    // The code goes out after the answer (a known email's send is two statements and the
    // outbox; an unknown one's decoy is one): let it finish, or it lands in the next sample's time.
    await new Promise((r) => setTimeout(r, 40));
    return { ms, ...res };
  };
}

interface PairResult {
  name: string;
  known: number;
  unknown: number;
  difference: number;
  /** Median of (known - unknown) over the interleaved pairs, relative to the unknown median: drift-free. */
  paired: number;
  ok: boolean;
}

/**
 * The answer the path under measurement gives. Known and unknown answering alike is not enough:
 * both refused the same way before that path (a 400, a 429, a captcha refusal) would time nothing.
 */
interface Expected {
  status: number;
  /** Words the body holds; for a 204, nothing. */
  text: string;
}

async function comparePair(
  name: string,
  known: Sample,
  unknown: Sample,
  expected: Expected,
  options: Options,
): Promise<PairResult> {
  // Warm-up: JIT, prepared statements, the dummy hash; and the answers must be the expected one.
  const first = [await known(), await unknown()];
  for (const [side, answer] of [
    ['known', first[0]!],
    ['unknown', first[1]!],
  ] as const) {
    const matches = answer.status === expected.status && answer.text.includes(expected.text);
    if (!matches || (expected.text === '' && answer.text !== ''))
      throw new Error(
        `${name}: the ${side} side answered ${answer.status} ${answer.text}, not ${expected.status} ` +
          `${expected.text || '(no body)'}: the path to be timed was not reached`,
      );
  }
  for (let i = 0; i < 4; i++) await (i % 2 ? unknown : known)();
  // Every sample must then answer exactly as the first did (checked below).

  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < options.samples; i++) {
    // Alternate which side goes first, so neither always follows the other.
    const order = i % 2 ? (['unknown', 'known'] as const) : (['known', 'unknown'] as const);
    for (const side of order) {
      const sample = await (side === 'known' ? known : unknown)();
      if (sample.status !== first[0]!.status || sample.text !== first[0]!.text)
        throw new Error(`${name}: ${side} sample answered ${sample.status} ${sample.text}`);
      times[side].push(sample.ms);
    }
  }
  const k = median(times.known);
  const u = median(times.unknown);
  const difference = Math.abs(k - u) / Math.min(k, u);
  const paired = median(times.known.map((t, i) => t - times.unknown[i]!)) / u;
  return { name, known: k, unknown: u, difference, paired, ok: difference <= options.tolerance };
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = performance.now();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-enumeration-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, await serverArgs(), {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: 'true',
      DEMO_SP_PORT: '0',
      LOG_LEVEL: 'silent',
      CAPTCHA_FIXED_ANSWER: CAPTCHA,
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
      FAILURE_DELAY_SECONDS: '0',
      LOCK_AFTER_FAILURES: '0',
      PORTAL_DIST: path.join(dataDir, 'no-portal'),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForHealth(base, child);
    const results = [
      await comparePair(
        'sign-in: unknown username vs known username + wrong password',
        signInSample(base, KNOWN_USERNAME),
        signInSample(base, UNKNOWN_USERNAME),
        { status: 422, text: INCORRECT_CREDENTIALS_MESSAGE },
        options,
      ),
      await comparePair(
        'password-reset start: unknown email vs known email',
        resetStartSample(base, KNOWN_EMAIL),
        resetStartSample(base, UNKNOWN_EMAIL),
        { status: 204, text: '' },
        options,
      ),
    ];
    console.log(
      `Enumeration timing, medians of ${options.samples} samples per side (limit ${(options.tolerance * 100).toFixed(1)}%):`,
    );
    for (const r of results) {
      console.log(
        `  ${r.ok ? 'OK  ' : 'FAIL'} ${r.name}: known ${r.known.toFixed(2)} ms, unknown ${r.unknown.toFixed(2)} ms, ` +
          `difference ${(r.difference * 100).toFixed(2)}% (paired ${(r.paired * 100).toFixed(2)}%)`,
      );
    }
    console.log(`Run took ${((performance.now() - startedAt) / 1000).toFixed(1)} s.`);
    if (options.reportOnly && !results.every((r) => r.ok))
      console.log('Report only: the exit code ignores the timing verdicts.');
    return results.every((r) => r.ok) || options.reportOnly ? 0 : 1;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
