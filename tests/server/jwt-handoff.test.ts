// The JWT handoff over real HTTP: the framed entry point and its cookie, the sign-in outcome JWT
// with the registered frame origin, the token verified with jose against /.well-known/jwks.json,
// and the refusals (409 without a framed session, unknown or non-JWT apps).
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKeys, type SigningKeys } from '../../src/server/adapters/signing-keys';
import { SESSION_EXPIRED_MESSAGE } from '../../src/server/domain/messages';
import { hashSessionToken } from '../../src/server/domain/sessions';
import { API, startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

type Json = Record<string, unknown>;
const PUBLIC_URL = 'http://localhost:8080';
/** The demo listener's default URL for PORT 8080: DEMO_SP_PORT 8081, the other loopback name. */
const TREASURY_ORIGIN = 'http://127.0.0.1:8081';
const FRAME_COOKIE = 'sam_frame_session';

let keys: SigningKeys;
beforeAll(async () => {
  keys = await generateSigningKeys(PUBLIC_URL);
});

function attributesOf(setCookies: string[], name: string): string[] {
  const line = setCookies.find((c) => c.startsWith(`${name}=`));
  expect(line, `Set-Cookie ${name}`).toBeDefined();
  return line!
    .split(';')
    .slice(1)
    .map((s) => s.trim().toLowerCase());
}

describe.each(targets)('JWT handoff on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target, { deps: { signingKeys: keys } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const framed = async (appCode = 'TREASURY'): Promise<TestClient> => {
    const client = server.client();
    const res = await client.get(`/sso/jwt/${appCode}`, { requestedWith: false });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    return client;
  };

  it('publishes the ES256 public key at /.well-known/jwks.json, without private parts', async () => {
    const res = await server
      .client()
      .get<{ keys: Json[] }>('/.well-known/jwks.json', { requestedWith: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/jwk-set+json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const body = JSON.parse(res.text) as { keys: Json[] };
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      alg: 'ES256',
      use: 'sig',
      kid: keys.jwt.kid,
    });
    expect(body.keys[0]).not.toHaveProperty('d');
  });

  it('starts a framed session with the JWT context and a SameSite=None, Secure, Partitioned cookie', async () => {
    const client = server.client();
    const res = await client.get('/sso/jwt/TREASURY', { requestedWith: false });
    expect(res.status).toBe(303);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const attributes = attributesOf(res.setCookies, FRAME_COOKIE);
    expect(attributes).toEqual(
      expect.arrayContaining(['path=/', 'httponly', 'samesite=none', 'secure', 'partitioned']),
    );
    expect(res.setCookies.some((c) => c.startsWith('sam_session='))).toBe(false);
    const context = await client.get<Json>(`${API}anonymous/context`);
    expect(context.body).toEqual({
      appCode: 'TREASURY',
      realmCode: 'BANK',
      showInHeader: false,
      type: 'JWT',
    });
    const origin = await client.get<Json>(`${API}anonymous/frame-origin`);
    expect(origin.body).toEqual({ origin: TREASURY_ORIGIN });
  });

  it('signs admin1 in inside the frame with outcome JWT: a token jose verifies against the JWKS', async () => {
    const client = await framed();
    const login = await client.login<Json>('admin1', undefined, { type: 'JWT', appCode: 'TREASURY' });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ outcome: 'JWT', frameOrigin: TREASURY_ORIGIN });
    // The signed-in framed session stays in the framed cookie.
    expect(attributesOf(login.setCookies, FRAME_COOKIE)).toEqual(
      expect.arrayContaining(['samesite=none', 'secure', 'partitioned']),
    );
    const token = login.body.jwt as string;
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: keys.jwt.kid, typ: 'JWT' });
    const jwks = createRemoteJWKSet(new URL(`${server.baseUrl}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(token, jwks, {
      issuer: PUBLIC_URL,
      audience: 'TREASURY',
      algorithms: ['ES256'],
    });
    const me = await client.get<Json>(`${API}anonymous/current-user`);
    expect(payload).toMatchObject({
      sub: me.body.id,
      username: 'admin1',
      name: 'Harriet Admin',
      email: 'admin1@example.com',
    });
    expect(payload.exp! - payload.iat!).toBe(300);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(30);
    expect(payload.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    // Another app, another issuer or a changed token: not accepted.
    await expect(jwtVerify(token, jwks, { issuer: PUBLIC_URL, audience: 'LOANS' })).rejects.toThrow(/aud/);
    await expect(
      jwtVerify(token, jwks, { issuer: 'https://other.example', audience: 'TREASURY' }),
    ).rejects.toThrow(/iss/);
    const [header, body, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload, username: 'C10001' })).toString('base64url');
    await expect(jwtVerify(`${header}.${forged}.${signature}`, jwks)).rejects.toThrow(/signature/);
    expect(body).not.toBe(forged);
  });

  it('issues a new token id on every sign-in', async () => {
    const jtis = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const client = await framed();
      const login = await client.login<Json>('admin1', undefined, { type: 'JWT' });
      const [, payload] = (login.body.jwt as string).split('.');
      jtis.add((JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Json).jti as string);
    }
    expect(jtis.size).toBe(2);
  });

  it('answers 409 to a framed sign-in without its framed session', async () => {
    const before = await server.db.selectFrom('sessions').select('id_hash').execute();
    const res = await server.client().login<Json>('admin1', undefined, { type: 'JWT' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(SESSION_EXPIRED_MESSAGE);
    expect(await server.db.selectFrom('sessions').select('id_hash').execute()).toEqual(before);
  });

  it('answers DIRECT_LOGIN with isSingleSignOn for a user without access to the framed app', async () => {
    const client = await framed();
    const login = await client.login<Json>('C10001', undefined, { type: 'JWT' });
    expect(login.body).toMatchObject({ outcome: 'DIRECT_LOGIN', isSingleSignOn: true, appName: 'Treasury' });
    expect(login.body.jwt ?? null).toBeNull();
  });

  it('replaces the frame’s earlier session when the frame starts again', async () => {
    const client = await framed();
    const first = client.cookie(FRAME_COOKIE)!;
    await client.get('/sso/jwt/TREASURY', { requestedWith: false });
    const second = client.cookie(FRAME_COOKIE)!;
    expect(second).not.toBe(first);
    const rows = await server.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('id_hash', 'in', [hashSessionToken(first), hashSessionToken(second)])
      .execute();
    expect(rows.map((r) => r.id_hash)).toEqual([hashSessionToken(second)]);
  });

  it('leaves the portal’s own session alone when a frame starts', async () => {
    const client = server.client();
    await client.login('C10001');
    const own = client.cookie('sam_session')!;
    await client.get('/sso/jwt/TREASURY', { requestedWith: false });
    const row = await server.db
      .selectFrom('sessions')
      .select('type')
      .where('id_hash', '=', hashSessionToken(own))
      .executeTakeFirst();
    expect(row?.type).toBe('AUTHENTICATED');
  });

  it('answers 404 for apps that are not framed JWT apps', async () => {
    const sessionsBefore = (await server.db.selectFrom('sessions').select('id_hash').execute()).length;
    for (const path of [
      '/sso/jwt/LOANS',
      '/sso/jwt/NOPE',
      '/sso/jwt/treasury',
      '/sso/jwt/%3Cscript%3E',
      '/sso/other',
    ]) {
      const res = await server.client().get<Json>(path, { requestedWith: false });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.setCookies).toEqual([]);
    }
    expect((await server.db.selectFrom('sessions').select('id_hash').execute()).length).toBe(sessionsBefore);
  });

  it('lets only the registered frame origin frame the portal (CSP frame-ancestors)', async () => {
    const res = await server.client().get(`${API}anonymous/context`);
    const csp = res.headers.get('content-security-policy') ?? '';
    const frameAncestors = /frame-ancestors ([^;]+)/.exec(csp)?.[1]?.split(/\s+/);
    expect(frameAncestors).toEqual(["'self'", TREASURY_ORIGIN]);
  });

  it('clears both session cookies at logout, the framed one with its own attributes', async () => {
    const client = await framed();
    const res = await client.post(`${API}logout`);
    expect(res.status).toBe(204);
    expect(attributesOf(res.setCookies, FRAME_COOKIE)).toEqual(
      expect.arrayContaining(['samesite=none', 'secure', 'partitioned']),
    );
    expect(res.setCookies.some((c) => c.startsWith('sam_session=;') || c.startsWith('sam_session='))).toBe(
      true,
    );
    expect(client.cookie(FRAME_COOKIE)).toBeUndefined();
  });
});
