// The HTTP rules every call shares: request validation, body parsing, the X-Requested-With check,
// headers, the error shapes, response contracts and rate limits.
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCall } from '../../src/contract/call';
import {
  BODY_TOO_LARGE_MESSAGE,
  MALFORMED_BODY_MESSAGE,
  MISSING_REQUESTED_WITH_MESSAGE,
  NOT_FOUND_MESSAGE,
  TOO_MANY_REQUESTS_MESSAGE,
  UNEXPECTED_ERROR_MESSAGE,
  UNSUPPORTED_MEDIA_MESSAGE,
  VALIDATION_FAILED_MESSAGE,
} from '../../src/server/domain/messages';
import { readPackageVersion } from '../../src/server/config';
import { registerCall, routeUrlOf } from '../../src/server/http/route';
import { API, snapshot, startServer, type TestResponse, type TestServer } from './support/server';
import { targets } from './support/targets';

type Json = Record<string, unknown>;
const LOGIN = `${API}anonymous/login`;

const brokenCall = defineCall({
  id: 'testBrokenResponse',
  method: 'GET',
  path: 'anonymous/test/broken-response',
  response: v.object({ ok: v.boolean() }),
});
const throwingCall = defineCall({
  id: 'testThrows',
  method: 'GET',
  path: 'anonymous/test/throws',
  response: v.object({ ok: v.boolean() }),
});

function expectBadRequest(res: TestResponse, message: string) {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = res.body as Json;
  expect(body.message).toBe(message);
  expect(Array.isArray(body.errors)).toBe(true);
  expect((body.errors as unknown[]).length).toBeGreaterThan(0);
  expect(body.stackTraceHash).toMatch(/^[0-9a-f]{16}$/);
  expect(Number.isNaN(Date.parse(body.timestamp as string))).toBe(false);
}

describe('routeUrlOf', () => {
  it('puts contract paths under /rest/ui/ with their :name parameters', () => {
    expect(routeUrlOf('anonymous/realms/:realm/auth-enabled')).toBe(
      '/rest/ui/anonymous/realms/:realm/auth-enabled',
    );
    expect(routeUrlOf('/current-user/saml-handoff')).toBe('/rest/ui/current-user/saml-handoff');
    expect(() => routeUrlOf('apps/:1code')).toThrow();
    expect(() => routeUrlOf('apps/x:code')).toThrow();
  });
});

describe.each(targets)('HTTP rules on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target, {
      env: { APP_VERSION: '9.9.9-test' },
      beforeListen(app) {
        // A handler that breaks its own response contract, and one that throws.
        registerCall(app, brokenCall, {}, async () => ({ ok: 'yes' }) as unknown as { ok: boolean });
        registerCall(app, throwingCall, {}, async () => {
          throw new Error('boom');
        });
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Sends `send`, then proves that no row of the sign-in tables changed. */
  async function unchanged(send: () => Promise<TestResponse>) {
    const before = await snapshot(server.db);
    const res = await send();
    expect(await snapshot(server.db)).toEqual(before);
    return res;
  }

  it('refuses malformed JSON with a 400 error body and changes nothing', async () => {
    const res = await unchanged(() =>
      server.client().post(LOGIN, undefined, { raw: '{"username":"C10001",' }),
    );
    expectBadRequest(res, MALFORMED_BODY_MESSAGE);
    expect((res.body as Json).errors).toEqual([{ fieldName: 'body', message: expect.any(String) }]);
  });

  it('refuses an empty JSON body', async () => {
    const res = await unchanged(() => server.client().post(LOGIN, undefined, { raw: '' }));
    expectBadRequest(res, MALFORMED_BODY_MESSAGE);
  });

  it('refuses wrong types with field errors and changes nothing', async () => {
    const res = await unchanged(() => server.client().post(LOGIN, { username: 10001, password: ['x'] }));
    expectBadRequest(res, VALIDATION_FAILED_MESSAGE);
    const names = ((res.body as Json).errors as Array<{ fieldName: string }>).map((e) => e.fieldName).sort();
    expect(names).toEqual(['password', 'username']);
  });

  it('refuses a body that is not an object', async () => {
    const res = await unchanged(() => server.client().post(LOGIN, ['C10001', 'x']));
    expectBadRequest(res, VALIDATION_FAILED_MESSAGE);
  });

  it('refuses missing fields with the spec message', async () => {
    const res = await unchanged(() => server.client().post(LOGIN, { password: 'x' }));
    expectBadRequest(res, VALIDATION_FAILED_MESSAGE);
    expect((res.body as Json).errors).toEqual([{ fieldName: 'username', message: 'Required field' }]);
  });

  it('refuses oversized fields (username over 50) and changes nothing', async () => {
    const res = await unchanged(() =>
      server.client().post(LOGIN, { username: 'C'.repeat(51), password: 'Harbour-Lights-2026' }),
    );
    expectBadRequest(res, VALIDATION_FAILED_MESSAGE);
    expect((res.body as Json).errors).toEqual([
      { fieldName: 'username', message: 'Size cannot be greater than 50' },
    ]);
    const longCaptcha = await unchanged(() =>
      server.client().post(LOGIN, { username: 'C10001', password: 'x', captchaCode: 'A'.repeat(200) }),
    );
    expectBadRequest(longCaptcha, VALIDATION_FAILED_MESSAGE);
  });

  it('refuses unknown fields', async () => {
    const res = await unchanged(() =>
      server.client().post(LOGIN, { username: 'C10001', password: 'x', isAdmin: true }),
    );
    expectBadRequest(res, VALIDATION_FAILED_MESSAGE);
  });

  it('refuses __proto__ and constructor.prototype bodies and changes nothing', async () => {
    const proto = await unchanged(() =>
      server
        .client()
        .post(LOGIN, undefined, { raw: '{"username":"C10001","password":"x","__proto__":{"isAdmin":true}}' }),
    );
    expectBadRequest(proto, MALFORMED_BODY_MESSAGE);
    const ctor = await unchanged(() =>
      server.client().post(LOGIN, undefined, {
        raw: '{"username":"C10001","password":"x","constructor":{"prototype":{"isAdmin":true}}}',
      }),
    );
    expectBadRequest(ctor, MALFORMED_BODY_MESSAGE);
    expect(({} as Json).isAdmin).toBeUndefined();
  });

  it('caps the body size with a 413 JSON error', async () => {
    const res = await unchanged(() =>
      server.client().post(LOGIN, { username: 'C10001', password: 'x'.repeat(70 * 1024) }),
    );
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: BODY_TOO_LARGE_MESSAGE });
  });

  it('refuses non-JSON bodies with a 415 JSON error', async () => {
    const res = await unchanged(() =>
      server.client().post(LOGIN, undefined, { raw: 'username=C10001', contentType: 'text/plain' }),
    );
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: UNSUPPORTED_MEDIA_MESSAGE });
  });

  it('refuses state-changing calls without X-Requested-With with 403 JSON', async () => {
    const client = server.client();
    const login = await unchanged(() =>
      client.post(LOGIN, { username: 'C10001', password: 'Harbour-Lights-2026' }, { requestedWith: false }),
    );
    expect(login.status).toBe(403);
    expect(login.body).toEqual({ message: MISSING_REQUESTED_WITH_MESSAGE });
    expect(login.setCookies).toEqual([]);

    await client.login('C10001');
    const logout = await client.post(`${API}logout`, undefined, { requestedWith: false });
    expect(logout.status).toBe(403);
    expect((await client.get<Json>(`${API}anonymous/current-user`)).body.isAuthenticated).toBe(true);

    const wrongValue = await client.post(`${API}logout`, undefined, {
      headers: { 'x-requested-with': 'fetch' },
      requestedWith: false,
    });
    expect(wrongValue.status).toBe(403);
    // Reads need it too: a cross-site top-level GET carries the Lax cookie but no header.
    const read = await client.get(`${API}anonymous/context`, { requestedWith: false });
    expect(read.status).toBe(403);
    expect((await client.get(`${API}anonymous/context`)).status).toBe(200);
  });

  it('sends x-application-version on every response', async () => {
    const client = server.client();
    const responses = await Promise.all([
      client.get(`${API}anonymous/context`),
      client.get(`${API}nope`),
      client.get('/health'),
      client.get('/captcha.jpg?1'),
      client.get('/some/page'),
      client.post(LOGIN, undefined, { raw: '{' }),
      client.post(LOGIN, { username: 'x', password: 'y' }, { requestedWith: false }),
    ]);
    for (const res of responses) expect(res.headers.get('x-application-version')).toBe('9.9.9-test');
    expect(readPackageVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('sends the security headers: CSP without unsafe-inline, nosniff, Referrer-Policy, no HSTS outside production', async () => {
    const res = await server.client().get(`${API}anonymous/context`);
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(csp).not.toContain('unsafe-inline');
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['style-src']?.[0]).toBe("'self'");
    expect(directives['style-src']?.[1]).toMatch(/^'nonce-[A-Za-z0-9+/=]{24}'$/);
    expect(directives['img-src']).toEqual(["'self'", 'data:']);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    // The seeded apps: LOANS and PAYROLL post SAML to their ACS on PUBLIC_URL; TREASURY frames us
    // from the demo listener, on another site (127.0.0.1 for a localhost portal) and port.
    expect(directives['form-action']).toEqual(["'self'", 'http://localhost:8080']);
    expect(directives['frame-ancestors']).toEqual(["'self'", 'http://127.0.0.1:8081']);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');

    const again = await server.client().get(`${API}anonymous/context`);
    expect(again.headers.get('content-security-policy')).not.toBe(csp);
  });

  it('answers 401 with the session-expired body for calls that need a session', async () => {
    const res = await server.client().get(`${API}current-user/accessible-apps`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Your session has expired. Sign in again to continue.', url: '/' });
    const app = await server.client().get(`${API}apps/LOANS`);
    expect(app.status).toBe(401);
  });

  it('answers unknown API paths with a 404 JSON body', async () => {
    const get = await server.client().get(`${API}anonymous/nothing-here`);
    expect(get.status).toBe(404);
    expect(get.body).toEqual({ message: NOT_FOUND_MESSAGE });
    const post = await server.client().post(`${API}nothing-here`, {});
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ message: NOT_FOUND_MESSAGE });
  });

  it('never sends a response that breaks its contract: 500 with a stack-trace hash', async () => {
    const res = await server.client().get(`${API}anonymous/test/broken-response`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      message: UNEXPECTED_ERROR_MESSAGE,
      stackTraceHash: expect.stringMatching(/^[0-9a-f]{16}$/),
      timestamp: expect.any(String),
    });
    expect(res.text).not.toContain('yes');
  });

  it('answers unexpected errors with a 500 JSON body without details', async () => {
    const res = await server.client().get(`${API}anonymous/test/throws`);
    expect(res.status).toBe(500);
    expect((res.body as Json).message).toBe(UNEXPECTED_ERROR_MESSAGE);
    expect(res.text).not.toContain('boom');
  });
});

describe.each(targets)('production and limits on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target, {
      env: {
        NODE_ENV: 'production',
        SEED_DEMO: 'true',
        PUBLIC_URL: 'https://portal.example.com',
        CAPTCHA_FIXED_ANSWER: 'FIXED',
        LOGIN_RATE_LIMIT_PER_MINUTE: '3',
        RATE_LIMIT_PER_MINUTE: '1000',
        // Production logs at info by default: not into the test report.
        LOG_LEVEL: 'silent',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends HSTS in production', async () => {
    const res = await server.client().get('/health');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('marks the session cookie Secure with the __Host- prefix when PUBLIC_URL is https', async () => {
    const res = await server.client().get('/captcha.jpg?1');
    const line = res.setCookies[0] ?? '';
    expect(line.startsWith('__Host-sam_session=')).toBe(true);
    expect(line.toLowerCase()).toContain('; secure');
    expect(line.toLowerCase()).toContain('httponly');
  });

  it('ignores CAPTCHA_FIXED_ANSWER in production', async () => {
    expect(server.config.captchaFixedAnswer).toBeNull();
    await server.client().get('/captcha.jpg?2');
    expect(server.captcha.last).not.toBe('FIXED');
  });

  it('limits sign-in requests per client with a 429 JSON error', async () => {
    const client = server.client();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await client.login(`limit-${i}`, 'wrong')).status);
    expect(statuses.slice(0, 3)).toEqual([422, 422, 422]);
    expect(statuses[3]).toBe(429);
    const limited = await client.login('limit-x', 'wrong');
    expect(limited.body).toEqual({ message: TOO_MANY_REQUESTS_MESSAGE });
    expect(limited.headers.get('retry-after')).not.toBeNull();
    // Other calls have their own budget.
    expect((await client.get(`${API}anonymous/context`)).status).toBe(200);
  });
});
