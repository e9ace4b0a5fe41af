// Operations over real HTTP on PGlite and PostgreSQL: the liveness and readiness probes (/ready
// fails with its reason when a migration is missing, the database is gone or a shutdown began),
// request ids, and the Prometheus metrics behind METRICS_TOKEN: latency by route pattern, sign-in
// outcomes (success, forced steps, failures, captcha, locked), wrong secrets by check, process
// metrics, and one registry per server instance.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { ConfigError, loadConfig } from '../../src/server/config';
import { buildServer } from '../../src/server/http/app';
import Fastify from 'fastify';
import {
  loggingOptions,
  redactUrl,
  requestIdOf,
  serializeError,
} from '../../src/server/observability/logging';
import { API, TEST_DATA_KEY, startServer, testSigningKeys, type TestServer } from './support/server';
import { targets } from './support/targets';
import { post, signInToStep, totpAt } from './support/factors';
import type { IncomingMessage } from 'node:http';

const TOKEN = 'metrics-token-0123456789';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The value of one sample of the Prometheus text exposition (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{') && !line.startsWith(name + ' ')) continue;
    const match = /^([^{ ]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) found[pair[1]!] = pair[2]!;
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return 0;
}

describe('operations configuration', () => {
  it('reads METRICS_TOKEN, the shutdown periods and the pool size, with their defaults', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({
      metricsToken: null,
      shutdownDelaySeconds: 0,
      shutdownGraceSeconds: 10,
      databasePoolSize: 10,
    });
    const set = loadConfig({
      METRICS_TOKEN: TOKEN,
      SHUTDOWN_DELAY_SECONDS: '5',
      SHUTDOWN_GRACE_SECONDS: '30',
      DATABASE_POOL_SIZE: '25',
    });
    expect(set).toMatchObject({
      metricsToken: TOKEN,
      shutdownDelaySeconds: 5,
      shutdownGraceSeconds: 30,
      databasePoolSize: 25,
    });
  });

  it('refuses a short or spaced METRICS_TOKEN, a zero grace period and a zero pool', () => {
    for (const env of [
      { METRICS_TOKEN: 'short' },
      { METRICS_TOKEN: 'has a space in it 0123456789' },
      { SHUTDOWN_GRACE_SECONDS: '0' },
      { SHUTDOWN_DELAY_SECONDS: '-1' },
      { DATABASE_POOL_SIZE: '0' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });
});

describe('log helpers', () => {
  it('masks the values of secret query parameters and keeps the rest', () => {
    expect(redactUrl('/saml/acs?SAMLResponse=PHNhbWw%2B&RelayState=abc&x=1')).toBe(
      '/saml/acs?SAMLResponse=[Redacted]&RelayState=[Redacted]&x=1',
    );
    expect(redactUrl('/registration?invitation=INVITE-NEW-0001')).toBe('/registration?invitation=[Redacted]');
    expect(redactUrl('/x?Code=1&page=2')).toBe('/x?Code=[Redacted]&page=2');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
    // What people type that may be a password (a username box) or names someone (an admin search).
    expect(redactUrl('/rest/ui/anonymous/login/failed-auth-count?username=Hunter2-password')).toBe(
      '/rest/ui/anonymous/login/failed-auth-count?username=[Redacted]',
    );
    expect(redactUrl('/rest/ui/admin/identities?query=jane%40example.com&page=1')).toBe(
      '/rest/ui/admin/identities?query=[Redacted]&page=1',
    );
  });

  it('censors secret-named properties at the top level and one and two levels down, errors and bindings included, without touching what was logged', async () => {
    const lines: string[] = [];
    const app = Fastify(loggingOptions({ logLevel: 'info' }, { write: (line) => void lines.push(line) }));
    const logged = {
      password: 'top-secret-1',
      user: { name: 'Jane', newPassword: 'nested-secret-2', ['set-cookie']: 'nested-secret-3' },
      body: { factor: { secret: 'deep-secret-4', label: 'phone' }, code: '918273' },
      list: [{ token: 'array-secret-5' }],
      err: Object.assign(new Error('failed'), { answer: 'error-secret-6', data: { jwt: 'error-secret-7' } }),
      deeper: { a: { b: { password: 'fourth-level' } } },
      count: 3,
    };
    const snapshot = structuredClone({ ...logged, err: undefined });
    app.log.info(logged, 'something happened');
    app.log
      .child({ reqId: 'r-1', authorization: 'binding-secret-8' })
      .warn({ user: { answers: ['x'] } }, 'child');
    await app.close();

    const text = lines.join('');
    for (const secret of [
      'top-secret-1',
      'nested-secret-2',
      'nested-secret-3',
      'deep-secret-4',
      '918273',
      'array-secret-5',
      'error-secret-6',
      'error-secret-7',
      'binding-secret-8',
      '"x"',
    ])
      expect(text).not.toContain(secret);
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({
      password: '[Redacted]',
      user: { name: 'Jane', newPassword: '[Redacted]', 'set-cookie': '[Redacted]' },
      body: { factor: { secret: '[Redacted]', label: 'phone' }, code: '[Redacted]' },
      list: [{ token: '[Redacted]' }],
      err: { message: 'failed', answer: '[Redacted]', data: { jwt: '[Redacted]' } },
      count: 3,
    });
    // Three levels, as documented: a fourth is logged as it is.
    expect(first!.deeper).toEqual({ a: { b: { password: 'fourth-level' } } });
    expect(second).toMatchObject({
      reqId: 'r-1',
      authorization: '[Redacted]',
      user: { answers: '[Redacted]' },
    });
    // The caller's object is left as it was.
    expect({ ...logged, err: undefined }).toEqual(snapshot);
    expect(logged.err).toMatchObject({ answer: 'error-secret-6' });
  });

  it("logs a database error's type, message, code and constraint, never its parameters or row", () => {
    const error = Object.assign(
      new Error('duplicate key value violates unique constraint "identities_email"'),
      {
        code: '23505',
        constraint: 'identities_email',
        detail: 'Key (email)=(jane@example.com) already exists.',
        query: 'insert into identities (email) values ($1)',
        params: ['jane@example.com', '$argon2id$v=19$m=19456,t=2,p=1$secret'],
        where: 'SQL statement',
      },
    );
    const wrapped = new Error('registration failed', { cause: error });
    const logged = JSON.stringify(serializeError(wrapped));
    expect(logged).not.toContain('jane@example.com');
    expect(logged).not.toContain('argon2id');
    expect(serializeError(wrapped)).toMatchObject({
      type: 'Error',
      message: 'registration failed',
      cause: { code: '23505', constraint: 'identities_email', message: error.message },
    });
  });

  it('keeps a well-formed X-Request-Id and replaces anything else with a UUID', () => {
    const of = (value?: string) =>
      requestIdOf({ headers: value === undefined ? {} : { 'x-request-id': value } } as IncomingMessage);
    expect(of('lb-7f3a.42')).toBe('lb-7f3a.42');
    expect(of()).toMatch(UUID);
    expect(of('has spaces and\nnewlines')).toMatch(UUID);
    expect(of('x'.repeat(129))).toMatch(UUID);
  });
});

describe.each(targets)('operations on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    server = await startServer(target, {
      env: {
        METRICS_TOKEN: TOKEN,
        APP_VERSION: '4.5.6',
        FAILURE_DELAY_SECONDS: '0',
        LOCK_AFTER_FAILURES: '6',
      },
      deps: { clock },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    clock.advance(5 * 60_000);
    await server.db.deleteFrom('failed_auth_counts').execute();
  });

  const metrics = async () => {
    const res = await server.client().get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text;
  };

  it('answers /health (liveness) and /ready (readiness) with every check passing', async () => {
    const client = server.client();
    const health = await client.get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', version: '4.5.6' });
    const ready = await client.get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(ready.body).toEqual({
      status: 'ok',
      version: '4.5.6',
      checks: { database: 'ok', migrations: 'ok', signingKeys: 'ok' },
    });
  });

  it('gives every response a request id: its own UUID, or the caller-supplied one when well formed', async () => {
    const client = server.client();
    const fresh = await client.get(`${API}anonymous/context`);
    expect(fresh.headers.get('x-request-id')).toMatch(UUID);
    const other = await client.get(`${API}anonymous/context`);
    expect(other.headers.get('x-request-id')).not.toBe(fresh.headers.get('x-request-id'));
    const kept = await client.get('/health', { headers: { 'x-request-id': 'edge-42.abc' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-42.abc');
    const refused = await client.get(`${API}nope`, { headers: { 'x-request-id': 'bad id "quoted"' } });
    expect(refused.status).toBe(404);
    expect(refused.headers.get('x-request-id')).toMatch(UUID);
  });

  it('serves /metrics only with the bearer token, with process metrics', async () => {
    const client = server.client();
    const refusals: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: TOKEN },
    ];
    for (const headers of refusals) {
      const res = await client.get('/metrics', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.text).not.toContain('http_request_duration_seconds');
    }
    const res = await client.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(sample(res.text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(res.text).toContain('nodejs_eventloop_lag_seconds');
    expect(res.text).toContain('# TYPE identity_sign_in_outcomes_total counter');
  });

  it('times requests by route pattern, method and status class, never by raw URL', async () => {
    const client = server.client();
    const route = '/rest/ui/anonymous/realms/:realm/auth-enabled';
    const before = await metrics();
    const labels = { method: 'GET', route, status_class: '2xx' };
    const count = sample(before, 'http_request_duration_seconds_count', labels);
    for (const realm of ['BANK-REALM-X1', 'BANK-REALM-X2']) {
      await client.get(`${API}anonymous/realms/${realm}/auth-enabled`);
    }
    await client.post(`${API}anonymous/login`, { username: 'x' });
    await client.get(`${API}no/such/call`);
    const after = await metrics();
    expect(sample(after, 'http_request_duration_seconds_count', labels)).toBe(count + 2);
    expect(after).not.toContain('BANK-REALM-X1');
    expect(
      sample(after, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/rest/ui/anonymous/login',
        status_class: '4xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(after, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: 'unmatched',
        status_class: '4xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain('no/such/call');
    expect(sample(after, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(count + 2);
  });

  it('counts sign-in outcomes and wrong secrets by check', async () => {
    const outcome = (text: string, name: string) =>
      sample(text, 'identity_sign_in_outcomes_total', { outcome: name });
    const failures = (text: string, kind: string) => sample(text, 'identity_auth_failures_total', { kind });
    const before = await metrics();

    expect((await server.client().login('C10001')).status).toBe(200);
    await signInToStep(server.client(), 'C10002', 'CHANGE_EXPIRED_PASSWORD');
    const client = server.client();
    for (let i = 0; i < 3; i++) expect((await client.login('C10010', 'Wrong-Password-123')).status).toBe(422);
    const captcha = await client.login('C10010');
    expect(captcha.status).toBe(422);
    await client.get('/captcha.jpg?1');
    const wrongAnswer = server.captcha.last === 'AAAAA' ? 'CCCCC' : 'AAAAA';
    expect((await client.login('C10010', undefined, { captchaCode: wrongAnswer })).status).toBe(422);

    // Five wrong codes end the MFA sign-in's session.
    const mfa = server.client();
    await signInToStep(mfa, 'C10004', 'MFA');
    const taken = new Set([-1, 0, 1].map((o) => totpAt(clock, o)));
    const wrong = ['111111', '222222', '333333'].find((c) => !taken.has(c))!;
    for (let i = 0; i < 5; i++) {
      const res = await post(mfa, 'forced-actions/mfa/verify-authenticator-app', { code: wrong });
      expect(res.status).toBe(422);
    }

    const after = await metrics();
    const delta = (read: (t: string) => number) => read(after) - read(before);
    expect(delta((t) => outcome(t, 'direct_login'))).toBe(1);
    expect(delta((t) => outcome(t, 'forced_change_expired_password'))).toBe(1);
    expect(delta((t) => outcome(t, 'forced_mfa'))).toBe(1);
    expect(delta((t) => outcome(t, 'incorrect_credentials'))).toBe(3);
    expect(delta((t) => outcome(t, 'captcha_required'))).toBe(1);
    expect(delta((t) => outcome(t, 'captcha_incorrect'))).toBe(1);
    expect(delta((t) => outcome(t, 'session_ended'))).toBe(1);
    expect(delta((t) => failures(t, 'password'))).toBe(3);
    expect(delta((t) => failures(t, 'code'))).toBe(5);
  });

  it('counts account locks and the sign-ins refused by them', async () => {
    const before = await metrics();
    const client = server.client();
    for (let i = 1; i <= 6; i++) {
      let captchaCode: string | undefined;
      if (i > 3) {
        await client.get(`/captcha.jpg?${i}`);
        captchaCode = server.captcha.last;
      }
      const res = await client.login('C10008', 'Wrong-Password-123', { captchaCode });
      expect(res.status, `attempt ${i}: ${JSON.stringify(res.body)}`).toBe(422);
    }
    const refused = await client.login('C10008');
    expect(refused.status).toBe(422);
    const after = await metrics();
    expect(
      sample(after, 'identity_account_locks_total') - sample(before, 'identity_account_locks_total'),
    ).toBe(1);
    const locked = (t: string) => sample(t, 'identity_sign_in_outcomes_total', { outcome: 'locked' });
    expect(locked(after) - locked(before)).toBe(1);
  });

  it('keeps one registry per server instance', async () => {
    // A second instance in the same process: with prom-client's global registry its metrics would
    // collide with the first's; with its own it starts from zero.
    const second = await buildServer(server.config, {
      database: server.handle.database,
      dataKey: TEST_DATA_KEY,
      signingKeys: await testSigningKeys(),
    });
    try {
      const res = await second.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('identity_sign_in_outcomes_total{');
      expect(
        sample(await metrics(), 'identity_sign_in_outcomes_total', { outcome: 'direct_login' }),
      ).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it('is not ready while a migration is missing', async () => {
    const row = await server.db
      .selectFrom('kysely_migration' as never)
      .selectAll()
      .orderBy('name' as never, 'desc')
      .executeTakeFirstOrThrow();
    const { name } = row as { name: string };
    await server.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', name as never)
      .execute();
    try {
      const res = await server.client().get('/ready');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        status: 'unavailable',
        reason: `migrations: pending: ${name}`,
        checks: { database: 'ok', migrations: `pending: ${name}`, signingKeys: 'ok' },
      });
    } finally {
      await server.db
        .insertInto('kysely_migration' as never)
        .values(row as never)
        .execute();
    }
    expect((await server.client().get('/ready')).status).toBe(200);
  });

  it('is not ready without its database or once a shutdown began; stays alive meanwhile', async () => {
    const database = server.handle.database;
    await database.destroy();
    // The handle's own clean-up must not close it twice.
    database.destroy = async () => {};
    const client = server.client();
    const down = await client.get('/ready');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'unavailable', checks: { database: 'unreachable' } });
    expect((await client.get('/health')).status).toBe(200);

    server.app.observability.beginShutdown();
    const stopping = await client.get('/ready');
    expect(stopping.status).toBe(503);
    expect(stopping.body).toEqual({ status: 'unavailable', reason: 'shutting down' });
    expect((await client.get('/health')).status).toBe(200);
  });
});
