// Starts the real server on a fresh database, listening on a free port, and gives tests HTTP
// clients with their own cookie jars (plain fetch: real sockets, real headers).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { createCaptchaRenderer, type CaptchaRenderer } from '../../../src/server/adapters/captcha-image';
import { cryptoRandom } from '../../../src/server/adapters/random';
import { loadConfig, type Config } from '../../../src/server/config';
import { openDatabase } from '../../../src/server/db/database';
import type { Database } from '../../../src/server/db/schema';
import type { UsernameKey } from '../../../src/server/db/repositories/lockout';
import { buildServer, prepareOpenDatabase } from '../../../src/server/http/app';
import { generateSigningKeys, type SigningKeys } from '../../../src/server/adapters/signing-keys';
import type { ServerDeps } from '../../../src/server/http/services';
import type { DatabaseHandle, DatabaseTarget } from './targets';

export const API = '/rest/ui/';
export const DEMO_PASSWORD = 'Harbour-Lights-2026';
export const TEST_DATA_KEY = Buffer.alloc(32, 7);

/** A captcha renderer that remembers the answers it drew, so tests can solve real captchas. */
export class RecordingCaptchaRenderer implements CaptchaRenderer {
  readonly answers: string[] = [];
  readonly #inner = createCaptchaRenderer(cryptoRandom);
  render(text: string): Buffer {
    this.answers.push(text);
    return this.#inner.render(text);
  }
  get last(): string {
    const answer = this.answers.at(-1);
    if (!answer) throw new Error('No captcha drawn yet');
    return answer;
  }
}

export interface StartOptions {
  env?: Record<string, string>;
  deps?: Omit<ServerDeps, 'database'>;
  /** Called after the app is built and before it listens (to add test-only routes). */
  beforeListen?: (app: FastifyInstance) => void | Promise<void>;
  /**
   * Runs a second instance on this server's PostgreSQL database, with a connection pool of its
   * own; closing it leaves the database to the first server.
   */
  sameDatabaseAs?: TestServer;
}

export interface TestServer {
  readonly target: DatabaseTarget['name'];
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly db: Kysely<Database>;
  readonly baseUrl: string;
  readonly captcha: RecordingCaptchaRenderer;
  readonly handle: DatabaseHandle;
  client(): TestClient;
  close(): Promise<void>;
}

export async function startServer(target: DatabaseTarget, options: StartOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'identity-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORTAL_DIST: path.join(dataDir, 'no-portal'),
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
    ...options.env,
  });
  const handle = options.sameDatabaseAs
    ? await secondConnection(options.sameDatabaseAs.handle)
    : await target.open();
  const captcha = new RecordingCaptchaRenderer();
  const deps: ServerDeps = {
    captchaRenderer: captcha,
    dataKey: TEST_DATA_KEY,
    signingKeys: await testSigningKeys(),
    ...options.deps,
  };
  let app: FastifyInstance | undefined;
  try {
    await prepareOpenDatabase(handle.database, config, deps);
    app = await buildServer(config, { ...deps, database: handle.database });
    await options.beforeListen?.(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await app?.close();
    await handle.dispose();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('Server did not bind a TCP port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const started = app;
  return {
    target: target.name,
    app: started,
    config,
    db: handle.database.db,
    baseUrl,
    captcha,
    handle,
    client: () => new TestClient(baseUrl),
    async close() {
      await started.close();
      await handle.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Another pool on a PostgreSQL test database; disposing of it does not drop the database. */
async function secondConnection(first: DatabaseHandle): Promise<DatabaseHandle> {
  if (!first.url) throw new Error('Only a PostgreSQL database can be shared by two servers');
  const database = await openDatabase({ kind: 'postgres', url: first.url, poolSize: 10 });
  return { database, url: first.url, dispose: () => database.destroy() };
}

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  body: T;
  text: string;
  bytes: Buffer;
  setCookies: string[];
}

export interface RequestOptions {
  json?: unknown;
  /** A raw body (sent as is, with `contentType`). */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Send X-Requested-With (default true). */
  requestedWith?: boolean;
}

/** fetch with a cookie jar of its own. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async request<T = unknown>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.requestedWith !== false) headers['x-requested-with'] = 'XMLHttpRequest';
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    } else if (options.raw !== undefined) {
      body = options.raw;
      headers['content-type'] = options.contentType ?? 'application/json';
    }
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    let parsed: unknown;
    if ((response.headers.get('content-type') ?? '').includes('application/json') && text.length > 0) {
      parsed = JSON.parse(text);
    }
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) this.#store(line);
    return { status: response.status, headers: response.headers, body: parsed as T, text, bytes, setCookies };
  }

  get<T = unknown>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }

  post<T = unknown>(path: string, json?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, json === undefined ? options : { ...options, json });
  }

  /** POST anonymous/login. */
  login<T = Record<string, unknown>>(
    username: string,
    password = DEMO_PASSWORD,
    extra: Record<string, unknown> = {},
  ) {
    return this.post<T>(`${API}anonymous/login`, { username, password, ...extra });
  }

  #store(line: string) {
    const [pair, ...attributes] = line.split(';').map((s) => s.trim());
    if (!pair) return;
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const expired = attributes.some((a) => {
      const [k, v] = a.split('=');
      if (k?.toLowerCase() === 'max-age') return Number(v) <= 0;
      if (k?.toLowerCase() === 'expires') return new Date(v ?? '').getTime() <= Date.now();
      return false;
    });
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** Row counts of the tables a request could change, to prove that a refused one changed nothing. */
/** The key of the username's failure row on this server (failed_auth_counts.username_key). */
export function usernameKey(server: TestServer, username: string): UsernameKey {
  return server.app.services.factors.lockout.keyOf(username);
}

export async function snapshot(db: Kysely<Database>) {
  const tables = [
    'sessions',
    'captcha_challenges',
    'sign_in_attempts',
    'failed_auth_counts',
    'identities',
    'credentials',
  ] as const;
  const out: Record<string, unknown> = {};
  for (const table of tables) out[table] = await db.selectFrom(table).selectAll().execute();
  return out;
}

let sharedSigningKeys: Promise<SigningKeys> | undefined;
/**
 * One set of signing keys per test process: generating an RSA key takes about a second, and what
 * the keys sign is the same whichever key it is. The key store's own tests generate their own.
 */
export function testSigningKeys(): Promise<SigningKeys> {
  sharedSigningKeys ??= generateSigningKeys();
  return sharedSigningKeys;
}
