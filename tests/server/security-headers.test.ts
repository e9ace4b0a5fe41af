// The security headers on every kind of response the portal's listener sends: API JSON (success,
// every error status, unknown paths), portal pages and assets, /saml/*, /sso/jwt/*, /demo-sp/*,
// the dev outbox, health, captcha, preflights and malformed URLs. CSP with no 'unsafe-inline' or
// 'unsafe-eval', object-src and base-uri 'none', frame-ancestors and form-action from the apps
// table; nosniff; Referrer-Policy; HSTS in production only.
import { request as httpRequest } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspBuilder, helmetStaticHeaders } from '../../src/server/http/plugins/security';
import { API, startServer, type TestServer } from './support/server';
import { targets } from './support/targets';

const INDEX = `<!doctype html><html><head><meta name="csp-nonce" content="__CSP_NONCE__">
<script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>`;

interface Probe {
  label: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The status the probe expects (so a probe that stops reaching its case fails). */
  status: number;
  /** Answered before routing (frameworkErrors): the strictest policy. */
  beforeRouting?: boolean;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** A raw HTTP request: the path goes on the wire exactly as written (fetch would normalise it). */
function send(baseUrl: string, probe: Probe): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: probe.method ?? 'GET',
        path: probe.path,
        headers: {
          ...(probe.body === undefined ? {} : { 'content-length': Buffer.byteLength(probe.body) }),
          ...probe.headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(probe.body);
  });
}

function cspOf(value: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of value.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name, values);
  }
  return directives;
}

const XRW = { 'x-requested-with': 'XMLHttpRequest' };
const JSON_XRW = { ...XRW, 'content-type': 'application/json' };

/** Requests that reach every kind of response; each expects its status. */
function probes(): Probe[] {
  return [
    { label: 'API JSON', path: `${API}anonymous/context`, headers: XRW, status: 200 },
    { label: 'API HEAD', method: 'HEAD', path: `${API}anonymous/context`, headers: XRW, status: 200 },
    { label: 'API 401', path: `${API}current-user/accessible-apps`, headers: XRW, status: 401 },
    { label: 'API 404', path: `${API}anonymous/nothing-here`, headers: XRW, status: 404 },
    { label: 'API 403 (no X-Requested-With)', method: 'POST', path: `${API}logout`, status: 403 },
    {
      label: 'API 400 (malformed JSON)',
      method: 'POST',
      path: `${API}anonymous/login`,
      headers: JSON_XRW,
      body: '{"username":',
      status: 400,
    },
    {
      label: 'API 415 (not JSON)',
      method: 'POST',
      path: `${API}anonymous/login`,
      headers: { ...XRW, 'content-type': 'text/plain' },
      body: 'username=C10001',
      status: 415,
    },
    {
      label: 'API 413',
      method: 'POST',
      path: `${API}anonymous/login`,
      headers: JSON_XRW,
      body: JSON.stringify({ username: 'x', password: 'y'.repeat(70 * 1024) }),
      status: 413,
    },
    { label: 'API 500', path: `${API}anonymous/test/security-throws`, headers: XRW, status: 500 },
    {
      label: 'API preflight',
      method: 'OPTIONS',
      path: `${API}anonymous/login`,
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-requested-with,content-type',
      },
      status: 403,
    },
    {
      label: 'malformed URL under the API',
      path: `${API}anonymous/%E0%A4%A`,
      headers: XRW,
      status: 400,
      beforeRouting: true,
    },
    { label: 'malformed URL', path: '/%E0%A4%A', status: 400, beforeRouting: true },
    { label: 'over-long parameter', path: `/sso/jwt/${'A'.repeat(300)}`, status: 404 },
    { label: 'portal page /', path: '/', status: 200 },
    { label: 'portal page (SPA route)', path: '/profile/my-applications', status: 200 },
    { label: 'hashed asset', path: '/assets/index-AbC123.js', status: 200 },
    { label: 'other static file', path: '/favicon.svg', status: 200 },
    { label: 'missing asset', path: '/assets/missing-123.js', status: 404 },
    { label: 'POST to a page path', method: 'POST', path: '/profile', status: 404 },
    { label: 'health', path: '/health', status: 200 },
    { label: 'captcha image', path: '/captcha.jpg?1', status: 200 },
    { label: 'SAML metadata', path: '/saml/metadata', status: 200 },
    { label: 'SAML SSO without a request', path: '/saml/sso', status: 400 },
    {
      label: 'SAML SSO form post, unreadable',
      method: 'POST',
      path: '/saml/sso',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://sp.example' },
      body: 'SAMLRequest=bm90LXhtbA%3D%3D',
      status: 400,
    },
    { label: 'unknown SAML path', path: '/saml/nothing', status: 404 },
    { label: 'framed JWT entry', path: '/sso/jwt/TREASURY', status: 303 },
    { label: 'framed JWT entry, unknown app', path: '/sso/jwt/NOPE', status: 404 },
    { label: 'JWKS', path: '/.well-known/jwks.json', status: 200 },
    { label: 'demo SP list', path: '/demo-sp', status: 200 },
    { label: 'demo SP page', path: '/demo-sp/LOANS', status: 200 },
    { label: 'demo SP redirect', path: '/demo-sp/loans', status: 301 },
    { label: 'demo SP AuthnRequest', path: '/demo-sp/LOANS/login', status: 303 },
    {
      label: 'demo SP ACS without a response',
      method: 'POST',
      path: '/demo-sp/LOANS/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'RelayState=x',
      status: 400,
    },
    { label: 'unknown demo SP', path: '/demo-sp/NOPE', status: 404 },
  ];
}

describe('the policy as built', () => {
  it('lists only well-formed registered origins, so no value from the apps table can end a directive or start a policy', () => {
    const csp = cspBuilder(false);
    const value = csp('N0nce==', {
      formActions: ['https://acs.example.com', 'http://a;script-src *', 'https://b,c.example.com'],
      frameAncestors: [
        'http://[::1]:8080',
        'https://xn--bcher-kva.ch',
        "https://x.example.com 'unsafe-inline'",
      ],
    });
    const directives = cspOf(value);
    expect(directives.get('form-action')).toEqual(["'self'", 'https://acs.example.com']);
    expect(directives.get('frame-ancestors')).toEqual([
      "'self'",
      'http://[::1]:8080',
      'https://xn--bcher-kva.ch',
    ]);
    expect(directives.get('style-src')).toEqual(["'self'", "'nonce-N0nce=='"]);
    expect(value).not.toContain(',');
    expect(directives.has('upgrade-insecure-requests')).toBe(false);
    expect(cspOf(cspBuilder(true)('n', { formActions: [], frameAncestors: [] })).get('form-action')).toEqual([
      "'self'",
    ]);
    expect(
      cspOf(cspBuilder(true)('n', { formActions: [], frameAncestors: [] })).has('upgrade-insecure-requests'),
    ).toBe(true);
  });

  it('follows the origins when they change and gives each request its own nonce', () => {
    const csp = cspBuilder(false);
    const first = { formActions: ['https://one.example.com'], frameAncestors: [] as string[] };
    expect(cspOf(csp('a', first)).get('form-action')).toEqual(["'self'", 'https://one.example.com']);
    const second = { formActions: ['https://two.example.com'], frameAncestors: ['https://f.example.com'] };
    const value = csp('b', second);
    expect(cspOf(value).get('form-action')).toEqual(["'self'", 'https://two.example.com']);
    expect(cspOf(value).get('frame-ancestors')).toEqual(["'self'", 'https://f.example.com']);
    expect(cspOf(value).get('style-src')).toEqual(["'self'", "'nonce-b'"]);
  });

  it("takes helmet's other headers once, without X-Frame-Options, HSTS or COEP", () => {
    const headers = new Map(helmetStaticHeaders());
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
    for (const absent of [
      'x-frame-options',
      'strict-transport-security',
      'cross-origin-embedder-policy',
      'content-security-policy',
    ])
      expect(headers.has(absent)).toBe(false);
  });
});

describe('the portal’s own markup', () => {
  it('has no inline script, inline style or style attribute for the CSP to refuse', () => {
    const html = readFileSync(path.resolve(__dirname, '../../src/client/index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(content?.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).not.toMatch(/\son[a-z]+=/);
    expect(html).toContain('<meta name="csp-nonce" content="__CSP_NONCE__" />');
  });
});

describe.each(targets)('security headers on $name', (target) => {
  let dev: TestServer;
  let production: TestServer;
  let dist: string;

  // Two servers at once on a shared machine: give them time.
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'portal-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), 'console.log("portal");');
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const beforeListen = (app: TestServer['app']) => {
      app.get(`${API}anonymous/test/security-throws`, async () => {
        throw new Error('boom');
      });
    };
    [dev, production] = await Promise.all([
      startServer(target, { env: { PORTAL_DIST: dist }, beforeListen }),
      startServer(target, {
        env: {
          NODE_ENV: 'production',
          SEED_DEMO: 'true',
          PUBLIC_URL: 'https://portal.example.com',
          DEMO_SP_URL: 'https://treasury.example.org',
          PORTAL_DIST: dist,
          LOGIN_RATE_LIMIT_PER_MINUTE: '20',
          LOG_LEVEL: 'silent',
        },
        beforeListen,
      }),
    ]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([dev?.close(), production?.close()]);
    rmSync(dist, { recursive: true, force: true });
  });

  function expectHeaders(
    label: string,
    answer: Answer,
    expected: { production: boolean; frameAncestors: string[]; formAction: string[] },
    beforeRouting = false,
  ) {
    const h = answer.headers;
    const raw = String(h['content-security-policy'] ?? '');
    expect(raw, `${label}: CSP`).not.toBe('');
    expect(raw, label).not.toContain('unsafe-inline');
    expect(raw, label).not.toContain('unsafe-eval');
    expect(h['x-content-type-options'], label).toBe('nosniff');
    expect(h['referrer-policy'], label).toBe('no-referrer');
    expect(h['strict-transport-security'], label).toBe(
      expected.production ? 'max-age=31536000; includeSubDomains' : undefined,
    );
    expect(h['x-application-version'], label).toBeDefined();
    const csp = cspOf(raw);
    if (beforeRouting) {
      expect(Object.fromEntries(csp), label).toEqual({
        'default-src': ["'none'"],
        'base-uri': ["'none'"],
        'object-src': ["'none'"],
        'form-action': ["'none'"],
        'frame-ancestors': ["'none'"],
      });
      expect(h['content-type'], label).toMatch(/^application\/json/);
      return;
    }
    expect(csp.get('default-src'), label).toEqual(["'self'"]);
    expect(csp.get('script-src'), label).toEqual(["'self'"]);
    expect(csp.get('object-src'), label).toEqual(["'none'"]);
    expect(csp.get('base-uri'), label).toEqual(["'none'"]);
    const styles = csp.get('style-src') ?? [];
    expect(styles[0], label).toBe("'self'");
    expect(styles[1], label).toMatch(/^'nonce-[A-Za-z0-9+/]{22}=='$/);
    expect(styles, label).toHaveLength(2);
    expect(csp.has('style-src-attr'), label).toBe(false);
    expect(csp.get('frame-ancestors'), label).toEqual(["'self'", ...expected.frameAncestors]);
    expect(csp.get('form-action'), label).toEqual(["'self'", ...expected.formAction]);
    expect(csp.has('upgrade-insecure-requests'), label).toBe(expected.production);
  }

  it('every kind of response carries them outside production, without HSTS', async () => {
    const nonces = new Set<string>();
    for (const probe of probes()) {
      const answer = await send(dev.baseUrl, probe);
      expect(answer.status, probe.label).toBe(probe.status);
      expectHeaders(
        probe.label,
        answer,
        {
          production: false,
          // The seeded registry: TREASURY frames the portal from the demo listener; LOANS and
          // PAYROLL take SAML responses at their ACS on the portal's own origin.
          frameAncestors: ['http://127.0.0.1:8081'],
          formAction: ['http://localhost:8080'],
        },
        probe.beforeRouting,
      );
      if (!probe.beforeRouting) nonces.add(String(answer.headers['content-security-policy']));
    }
    // A fresh nonce for every response.
    expect(nonces.size).toBe(probes().filter((p) => !p.beforeRouting).length);
  });

  it('every kind of response carries them in production, with HSTS and upgrade-insecure-requests', async () => {
    const expected = {
      production: true,
      frameAncestors: ['https://treasury.example.org'],
      formAction: ['https://portal.example.com'],
    };
    for (const probe of probes()) {
      const answer = await send(production.baseUrl, probe);
      expect(answer.status, probe.label).toBe(probe.status);
      expectHeaders(probe.label, answer, expected, probe.beforeRouting);
    }
    // Sign-ins until the per-client limit answers 429.
    let limited: Answer | undefined;
    for (let n = 0; n < 25 && !limited; n++) {
      const answer = await send(production.baseUrl, {
        label: 'sign-in',
        method: 'POST',
        path: `${API}anonymous/login`,
        headers: JSON_XRW,
        body: JSON.stringify({ username: `limit-${n}`, password: 'wrong' }),
        status: 422,
      });
      if (answer.status === 429) limited = answer;
      else expect(answer.status).toBe(422);
    }
    expect(limited).toBeDefined();
    expectHeaders('429', limited!, expected);
  });

  it('frame-ancestors and form-action follow the apps table', async () => {
    const apps = () => dev.db.selectFrom('apps').select(['code', 'frame_origin', 'acs_url']).execute();
    const before = await apps();
    try {
      await dev.db
        .updateTable('apps')
        .set({ frame_origin: 'https://frames.example.net' })
        .where('code', '=', 'TREASURY')
        .execute();
      await dev.db
        .updateTable('apps')
        .set({ acs_url: 'https://payroll.example.com/saml/acs' })
        .where('code', '=', 'PAYROLL')
        .execute();
      dev.app.services.appOrigins.invalidate();
      for (const probe of [
        { label: 'framed entry', path: '/sso/jwt/TREASURY', status: 303 },
        { label: 'portal page', path: '/', status: 200 },
        { label: 'API', path: `${API}anonymous/context`, headers: XRW, status: 200 },
      ]) {
        const answer = await send(dev.baseUrl, probe);
        expect(answer.status).toBe(probe.status);
        expectHeaders(probe.label, answer, {
          production: false,
          frameAncestors: ['https://frames.example.net'],
          formAction: ['http://localhost:8080', 'https://payroll.example.com'],
        });
      }
    } finally {
      for (const app of before) {
        await dev.db
          .updateTable('apps')
          .set({ frame_origin: app.frame_origin, acs_url: app.acs_url })
          .where('code', '=', app.code)
          .execute();
      }
      dev.app.services.appOrigins.invalidate();
    }
    const restored = await send(dev.baseUrl, { label: 'restored', path: '/', status: 200 });
    expect(cspOf(String(restored.headers['content-security-policy'])).get('frame-ancestors')).toEqual([
      "'self'",
      'http://127.0.0.1:8081',
    ]);
  });

  it('keeps the headers (and the last known origins) when the apps table cannot be read', async () => {
    const origins = dev.app.services.appOrigins;
    const ensureFresh = origins.ensureFresh.bind(origins);
    origins.invalidate();
    origins.ensureFresh = () => Promise.reject(new Error('database unavailable'));
    try {
      const answer = await send(dev.baseUrl, { label: 'page', path: '/', status: 200 });
      expect(answer.status).toBe(200);
      expectHeaders('with the apps table unreadable', answer, {
        production: false,
        frameAncestors: ['http://127.0.0.1:8081'],
        formAction: ['http://localhost:8080'],
      });
    } finally {
      origins.ensureFresh = ensureFresh;
    }
  });
});
