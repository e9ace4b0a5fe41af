// Security review, logout: where a browser sends both the portal's session cookie and the framed
// (JWT) one (the framed entry opened at top level), the request is served as the framed session.
// Logout clears both cookies, so it must end both sessions: it used to end only the framed one,
// leaving the signed-in portal session valid on the server for whoever held its token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionToken } from '../../src/server/domain/sessions';
import { API, startServer, TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

type Json = Record<string, unknown>;

const PORTAL_COOKIE = 'sam_session';
const FRAME_COOKIE = 'sam_frame_session';

describe.each(targets)('logout ends every session the cookies name, on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A client that sends only the portal cookie `token`. */
  const withPortalToken = (token: string) => {
    const client = server.client();
    client.cookies.set(PORTAL_COOKIE, token);
    return client;
  };

  const sessionRows = (tokens: string[]) =>
    server.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('id_hash', 'in', tokens.map(hashSessionToken))
      .execute();

  it('ends the signed-in portal session as well as the framed one', async () => {
    const browser = server.client();
    expect((await browser.login<Json>('C10001')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    const entry = await browser.get('/sso/jwt/TREASURY', { requestedWith: false });
    expect(entry.status).toBe(303);
    const portalToken = browser.cookie(PORTAL_COOKIE)!;
    const frameToken = browser.cookie(FRAME_COOKIE)!;
    expect(portalToken).toBeDefined();
    expect(frameToken).toBeDefined();
    // Both sessions are alive, and the portal one is signed in.
    expect(await sessionRows([portalToken, frameToken])).toHaveLength(2);
    expect((await withPortalToken(portalToken).get<Json>(`${API}anonymous/current-user`)).body).toMatchObject(
      {
        username: 'C10001',
        isAuthenticated: true,
      },
    );

    const out = await browser.post(`${API}logout`);
    expect(out.status).toBe(204);
    expect(browser.cookie(PORTAL_COOKIE)).toBeUndefined();
    expect(browser.cookie(FRAME_COOKIE)).toBeUndefined();

    // Neither token is worth anything now.
    expect(await sessionRows([portalToken, frameToken])).toEqual([]);
    const replayed = withPortalToken(portalToken);
    expect((await replayed.get<Json>(`${API}anonymous/current-user`)).body).toMatchObject({
      isAuthenticated: false,
      username: null,
    });
    expect((await replayed.get(`${API}profile/enrolled-factors`)).status).toBe(401);
  });

  it('with only one cookie, ends that session and leaves the browser’s others alone', async () => {
    const one = server.client();
    await one.login('C10001');
    const other = server.client();
    await other.login('C10001');
    expect((await one.post(`${API}logout`)).status).toBe(204);
    expect((await one.get<Json>(`${API}anonymous/current-user`)).body).toMatchObject({
      isAuthenticated: false,
    });
    expect((await other.get<Json>(`${API}anonymous/current-user`)).body).toMatchObject({
      isAuthenticated: true,
    });
  });

  it('answers 204 without any session', async () => {
    const res = await new TestClient(server.baseUrl).post(`${API}logout`);
    expect(res.status).toBe(204);
  });
});
