// The demo service providers over real HTTP: the SAML ones on the portal's listener (start page,
// AuthnRequest, ACS validating with node-saml), and the TREASURY page's own listener (page, script,
// policy, token verification against the portal's JWKS).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKeys, type SigningKeys } from '../../src/server/adapters/signing-keys';
import { refreshDemoEndpoints } from '../../src/server/demo/seed';
import { startTreasuryDemo, type TreasuryDemo } from '../../src/server/demo/sp/treasury';
import { API, startServer, type TestClient, type TestServer } from './support/server';
import { decodeResponse, pathOf } from './support/saml';
import { targets } from './support/targets';

type Json = Record<string, unknown>;
const PUBLIC_URL = 'http://localhost:8080';

let keys: SigningKeys;
beforeAll(async () => {
  keys = await generateSigningKeys(PUBLIC_URL);
});

function cspOf(headers: Headers): Record<string, string[]> {
  return Object.fromEntries(
    (headers.get('content-security-policy') ?? '').split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

/** Posts the handoff's form to the ACS as the portal's hidden form would. */
function postToAcs(
  client: TestClient,
  saml: { assertionConsumerServiceUrl: string; samlResponse: string; relayState: string | null },
) {
  const form = new URLSearchParams({ SAMLResponse: saml.samlResponse });
  if (saml.relayState !== null) form.set('RelayState', saml.relayState);
  return client.request('POST', pathOf(saml.assertionConsumerServiceUrl), {
    raw: form.toString(),
    contentType: 'application/x-www-form-urlencoded',
    requestedWith: false,
  });
}

const text = (html: string, id: string) => new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1]?.trim();

describe.each(targets)('demo service providers on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target, { deps: { signingKeys: keys } });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('LOANS and PAYROLL (SAML)', () => {
    it('serves an accessible start page with a strict policy', async () => {
      const res = await server.client().get('/demo-sp/LOANS', { requestedWith: false });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<html lang="en">');
      expect(res.text).toContain('<title>Loans (demo service provider)</title>');
      expect(res.text.match(/<h1>/g)).toHaveLength(1);
      expect(res.text).toContain('<a href="/demo-sp/LOANS/login">Sign in to Loans with the portal</a>');
      expect(res.text).not.toContain('<script');
      const csp = cspOf(res.headers);
      expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      expect(csp['script-src']).toEqual(["'self'"]);
      const nonce = /<style nonce="([^"]+)">/.exec(res.text)?.[1];
      expect(csp['style-src']).toContain(`'nonce-${nonce}'`);
    });

    it('lists the demo service providers', async () => {
      const res = await server.client().get('/demo-sp', { requestedWith: false });
      expect(res.status).toBe(200);
      for (const path of ['/demo-sp/LOANS', '/demo-sp/PAYROLL', '/demo-sp/TREASURY']) {
        expect(res.text).toContain(`href="${path}"`);
      }
    });

    it('redirects lower-case paths to the upper-case ones, keeping a POST a POST', async () => {
      const page = await server.client().get('/demo-sp/loans', { requestedWith: false });
      expect(page.status).toBe(301);
      expect(page.headers.get('location')).toBe('/demo-sp/LOANS');
      const login = await server.client().get('/demo-sp/payroll/login', { requestedWith: false });
      expect(login.headers.get('location')).toBe('/demo-sp/PAYROLL/login');
      const acs = await server.client().request('POST', '/demo-sp/loans/acs', {
        raw: 'SAMLResponse=x',
        contentType: 'application/x-www-form-urlencoded',
        requestedWith: false,
      });
      expect(acs.status).toBe(308);
      expect(acs.headers.get('location')).toBe('/demo-sp/LOANS/acs');
      expect((await server.client().get('/demo-sp/NOPE', { requestedWith: false })).status).toBe(404);
    });

    it('sends the browser from PAYROLL through sign-in back to PAYROLL, which validates the answer', async () => {
      const client = server.client();
      const start = await client.get('/demo-sp/PAYROLL/login', { requestedWith: false });
      expect(start.status).toBe(303);
      const location = start.headers.get('location')!;
      expect(location.startsWith(`${PUBLIC_URL}/saml/sso?SAMLRequest=`)).toBe(true);
      expect(client.cookie('demo_sp_requests')).toBeDefined();

      const sso = await client.get(pathOf(location), { requestedWith: false });
      expect(sso.status).toBe(303);
      expect(sso.headers.get('location')).toBe('/');
      const login = await client.login<{ outcome: string; saml: Parameters<typeof postToAcs>[1] }>('C10001');
      expect(login.body.outcome).toBe('SAML_HANDOFF');
      expect(login.body.saml.relayState).toBe('/demo-sp/PAYROLL');

      const acs = await postToAcs(client, login.body.saml);
      expect(acs.status).toBe(200);
      expect(acs.text).toContain('Payroll validated the response');
      expect(text(acs.text, 'username')).toBe('C10001');
      expect(text(acs.text, 'name')).toBe('Olivia Bennett');
      expect(text(acs.text, 'facility')).toBe('None');
      expect(text(acs.text, 'started-by')).toMatch(/^Payroll \(in response to _[0-9a-f]+\)$/);
      expect(text(acs.text, 'relay-state')).toBe('/demo-sp/PAYROLL');

      // The same response again: its request has been answered.
      const replay = await postToAcs(client, login.body.saml);
      expect(replay.status).toBe(400);
      expect(replay.text).toContain('Payroll rejected the response');
    });

    it('shows the facility of an IdP-initiated LOANS handoff, with a name holding markup as text', async () => {
      await server.db
        .updateTable('identities')
        .set({ name: '<i>Olivia</i> & co' })
        .where('username', '=', 'C10001')
        .execute();
      try {
        const client = server.client();
        await client.login('C10001');
        const handoff = await client.post<{ saml: Parameters<typeof postToAcs>[1] }>(
          `${API}current-user/saml-handoff`,
          {
            appCode: 'LOANS',
            facilityCode: 'F002',
          },
        );
        const acs = await postToAcs(server.client(), handoff.body.saml);
        expect(acs.status).toBe(200);
        expect(text(acs.text, 'facility')).toBe('F002 (Riverside Family Practice)');
        expect(text(acs.text, 'started-by')).toBe('The portal (IdP-initiated)');
        expect(text(acs.text, 'name')).toBe('&lt;i&gt;Olivia&lt;/i&gt; &amp; co');
        expect(acs.text).not.toContain('<i>Olivia');
      } finally {
        await server.db
          .updateTable('identities')
          .set({ name: 'Olivia Bennett' })
          .where('username', '=', 'C10001')
          .execute();
      }
    });

    it('rejects a tampered response, one meant for another SP, and an empty post, saying why', async () => {
      const client = server.client();
      await client.login('C10001');
      const handoff = await client.post<{ saml: Parameters<typeof postToAcs>[1] }>(
        `${API}current-user/saml-handoff`,
        {
          appCode: 'LOANS',
          facilityCode: 'F001',
        },
      );
      const saml = handoff.body.saml;
      const tampered = Buffer.from(decodeResponse(saml.samlResponse).replace('>F001<', '>F002<')).toString(
        'base64',
      );
      const bad = await postToAcs(server.client(), { ...saml, samlResponse: tampered });
      expect(bad.status).toBe(400);
      expect(text(bad.text, 'verdict')).toMatch(/^Loans rejected the response: .*signature/i);

      const elsewhere = await postToAcs(server.client(), {
        ...saml,
        assertionConsumerServiceUrl: `${PUBLIC_URL}/demo-sp/PAYROLL/acs`,
      });
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.text).toContain('Payroll rejected the response');

      const empty = await server.client().request('POST', '/demo-sp/LOANS/acs', {
        raw: '',
        contentType: 'application/x-www-form-urlencoded',
        requestedWith: false,
      });
      expect(empty.status).toBe(400);
      expect(empty.text).toContain('No SAMLResponse was posted');
    });

    it('repoints a demo installation’s apps at every start, and leaves real apps alone', async () => {
      const endpoints = async () =>
        Object.fromEntries(
          (await server.db.selectFrom('apps').select(['code', 'acs_url', 'frame_origin']).execute()).map(
            (a) => [a.code, a.acs_url ?? a.frame_origin],
          ),
        );
      try {
        // A demo seeded by an earlier version, on other ports.
        await server.db
          .updateTable('apps')
          .set({ acs_url: 'http://localhost:3000/demo-sp/loans/acs' })
          .where('code', '=', 'LOANS')
          .execute();
        await refreshDemoEndpoints(server.db, 'http://localhost:4000', 'http://127.0.0.1:4001');
        expect(await endpoints()).toEqual({
          LOANS: 'http://localhost:4000/demo-sp/LOANS/acs',
          PAYROLL: 'http://localhost:4000/demo-sp/PAYROLL/acs',
          TREASURY: 'http://127.0.0.1:4001',
        });
        // A real LOANS application: nothing is touched.
        await server.db
          .updateTable('apps')
          .set({ acs_url: 'https://loans.bank.example/saml/acs' })
          .where('code', '=', 'LOANS')
          .execute();
        const before = await endpoints();
        await refreshDemoEndpoints(server.db, 'http://localhost:5000', 'http://127.0.0.1:5001');
        expect(await endpoints()).toEqual(before);
      } finally {
        await server.db
          .updateTable('apps')
          .set({ acs_url: `${PUBLIC_URL}/demo-sp/LOANS/acs` })
          .where('code', '=', 'LOANS')
          .execute();
        await refreshDemoEndpoints(server.db, PUBLIC_URL, 'http://127.0.0.1:8081');
      }
    });

    it('points /demo-sp/TREASURY at the demo listener, the registered frame origin', async () => {
      const res = await server.client().get('/demo-sp/TREASURY', { requestedWith: false });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('http://127.0.0.1:8081/demo-sp/TREASURY');
    });
  });

  describe('TREASURY (JWT in a frame, own listener)', () => {
    let demo: TreasuryDemo;
    let demoUrl: string;

    beforeAll(async () => {
      demo = await startTreasuryDemo({
        host: '127.0.0.1',
        port: 0,
        publicUrl: server.config.publicUrl,
        jwksUrl: `${server.baseUrl}/.well-known/jwks.json`,
      });
      demoUrl = `http://127.0.0.1:${demo.port}`;
    });
    afterAll(async () => {
      await demo?.close();
    });

    const verify = (body: unknown) =>
      fetch(`${demoUrl}/demo-sp/TREASURY/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('frames the portal’s entry point, accepts messages from its origin only, with no inline script', async () => {
      const res = await fetch(`${demoUrl}/demo-sp/TREASURY`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<title>Treasury (demo application)</title>');
      expect(html).toContain(`<main data-portal-origin="${PUBLIC_URL}">`);
      const iframe = /<iframe[^>]*>/.exec(html)?.[0].replace(/\s+/g, ' ');
      expect(iframe).toBe(
        `<iframe id="portal-frame" title="Portal sign-in" src="${PUBLIC_URL}/sso/jwt/TREASURY" >`,
      );
      expect(html).toContain('<script type="module" src="/demo-sp/TREASURY/treasury.js"></script>');
      expect(html).not.toMatch(/<script>|<style/);
      const csp = cspOf(res.headers);
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['style-src']).toEqual(["'self'"]);
      expect(csp['frame-src']).toEqual([PUBLIC_URL]);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      const script = await (await fetch(`${demoUrl}/demo-sp/TREASURY/treasury.js`)).text();
      expect(script).toContain('event.origin !== portalOrigin');
      expect(script).toContain('event.source !== frame.contentWindow');
    });

    it('verifies a token from a framed sign-in against the portal’s JWKS and shows its claims', async () => {
      const client = server.client();
      await client.get('/sso/jwt/TREASURY', { requestedWith: false });
      const login = await client.login<Json>('admin1', undefined, { type: 'JWT' });
      const res = await verify({ token: login.body.jwt });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { claims: Json };
      expect(body.claims).toMatchObject({
        username: 'admin1',
        name: 'Harriet Admin',
        iss: PUBLIC_URL,
        aud: 'TREASURY',
        kid: keys.jwt.kid,
      });

      const [header, payload, signature] = (login.body.jwt as string).split('.');
      const forged = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), username: 'C10001' }),
      ).toString('base64url');
      const rejected = await verify({ token: `${header}.${forged}.${signature}` });
      expect(rejected.status).toBe(401);
      expect(((await rejected.json()) as Json).reason).toMatch(/signature/);

      expect((await verify({ jwt: 'x' })).status).toBe(400);
    });
  });
});
