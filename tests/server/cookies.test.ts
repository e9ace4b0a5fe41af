// Every cookie the server sets, with its attributes, under an http and an https PUBLIC_URL: the
// portal's own ones HttpOnly (except the re-enter-password mark the portal's script reads),
// SameSite always, Secure and __Host- prefixed over https, the framed ones SameSite=None; Secure;
// Partitioned. Journeys that set and clear each one run over real HTTP; a source scan keeps the
// list complete (a new setCookie site fails here until it is listed).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { REENTER_PASSWORD_COOKIE } from '../../src/contract/session';
import { HOST_COOKIE_PREFIX, PORTAL_COOKIES, portalCookieName } from '../../src/server/http/cookie-names';
import { hasCookie } from '../../src/client/app/reenter-password/reenter-password.actors';
import { get, post, signInToStep, totpAt, type Json } from './support/factors';
import { startServer, type TestServer } from './support/server';
import { targets } from './support/targets';

interface SetCookie {
  line: string;
  name: string;
  value: string;
  /** Lower-cased attribute names to their values ('' for flags). */
  attributes: Map<string, string>;
}

function parseSetCookie(line: string): SetCookie {
  const [pair = '', ...rest] = line.split(';').map((part) => part.trim());
  const eq = pair.indexOf('=');
  const attributes = new Map<string, string>();
  for (const attribute of rest) {
    const at = attribute.indexOf('=');
    if (at < 0) attributes.set(attribute.toLowerCase(), '');
    else attributes.set(attribute.slice(0, at).toLowerCase(), attribute.slice(at + 1));
  }
  return { line, name: pair.slice(0, eq), value: pair.slice(eq + 1), attributes };
}

const isClearing = (cookie: SetCookie) =>
  cookie.value === '' ||
  cookie.attributes.get('max-age') === '0' ||
  new Date(cookie.attributes.get('expires') ?? 'x').getTime() <= Date.now();

/** The files that may call setCookie; each cookie they set is in the table below. */
const COOKIE_SITES = [
  'src/server/http/session-cookie.ts',
  'src/server/http/device-cookies.ts',
  'src/server/demo/sp/routes.ts',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the cookie names', () => {
  it('come from one helper: plain over http, __Host- prefixed over https', () => {
    for (const cookie of Object.keys(PORTAL_COOKIES) as Array<keyof typeof PORTAL_COOKIES>) {
      expect(portalCookieName({ secureCookies: false }, cookie)).toBe(PORTAL_COOKIES[cookie]);
      expect(portalCookieName({ secureCookies: true }, cookie)).toBe(
        `${HOST_COOKIE_PREFIX}${PORTAL_COOKIES[cookie]}`,
      );
    }
    expect(PORTAL_COOKIES.reenterPassword).toBe(REENTER_PASSWORD_COOKIE);
  });

  it('the portal finds the re-enter-password cookie under either name, and no look-alike', () => {
    expect(hasCookie('a=1; sam_reauth=1767225600')).toBe(true);
    expect(hasCookie('a=1; __Host-sam_reauth=1767225600')).toBe(true);
    expect(hasCookie('__Host-sam_reauth=')).toBe(false);
    expect(hasCookie('__Secure-sam_reauth=1; __Host-sam_reauth_x=1; __host-sam_reauth=1')).toBe(false);
  });

  it('only the listed files set cookies', () => {
    const root = path.resolve(__dirname, '../..');
    const setting = sourceFiles(path.join(root, 'src/server'))
      .filter((file) => /\.setCookie\(/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file).split(path.sep).join('/'))
      .sort();
    expect(setting).toEqual([...COOKIE_SITES].sort());
  });
});

const CONFIGS = [
  { label: 'http', publicUrl: 'http://localhost:8080', secure: false },
  { label: 'https', publicUrl: 'https://portal.example.com', secure: true },
] as const;

describe.each(targets)('cookies on $name', (target) => {
  describe.each(CONFIGS)('with an $label PUBLIC_URL', ({ publicUrl, secure }) => {
    let server: TestServer;
    const clock = new ManualClock('2026-03-02T09:00:05Z');
    const prefix = secure ? HOST_COOKIE_PREFIX : '';
    const name = (base: string) => `${prefix}${base}`;
    /** Every Set-Cookie line of the journeys, by cookie name. */
    const seen = new Map<string, SetCookie[]>();

    beforeAll(async () => {
      server = await startServer(target, { env: { PUBLIC_URL: publicUrl }, deps: { clock } });
    });
    afterAll(async () => {
      await server?.close();
    });
    beforeEach(async () => {
      clock.advance(5 * 60_000);
      await server.db.deleteFrom('trusted_devices').execute();
    });

    function record(setCookies: string[]): SetCookie[] {
      const parsed = setCookies.map(parseSetCookie);
      for (const cookie of parsed) seen.set(cookie.name, [...(seen.get(cookie.name) ?? []), cookie]);
      return parsed;
    }
    const find = (cookies: SetCookie[], cookieName: string) => {
      const found = cookies.find((c) => c.name === cookieName);
      expect(found, `${cookieName} in ${cookies.map((c) => c.line).join(' | ')}`).toBeDefined();
      return found!;
    };

    /** The attributes every cookie of the portal (Path=/) has, set or cleared. */
    function expectPortalCookie(
      cookie: SetCookie,
      expected: { httpOnly: boolean; sameSite: 'Lax' | 'None'; partitioned: boolean },
    ) {
      const a = cookie.attributes;
      expect(a.get('path'), cookie.line).toBe('/');
      expect(a.has('domain'), cookie.line).toBe(false);
      expect(a.has('httponly'), cookie.line).toBe(expected.httpOnly);
      expect(a.get('samesite'), cookie.line).toBe(expected.sameSite);
      expect(a.has('partitioned'), cookie.line).toBe(expected.partitioned);
      // SameSite=None needs Secure; over https every cookie is Secure.
      expect(a.has('secure'), cookie.line).toBe(secure || expected.sameSite === 'None');
      if (cookie.name.startsWith(HOST_COOKIE_PREFIX)) expect(a.has('secure'), cookie.line).toBe(true);
    }

    const lax = (httpOnly: boolean) => ({ httpOnly, sameSite: 'Lax', partitioned: false }) as const;
    const framed = (httpOnly: boolean) => ({ httpOnly, sameSite: 'None', partitioned: true }) as const;

    it('the session cookie: HttpOnly, Lax, no lifetime; it is what the server reads back', async () => {
      const client = server.client();
      const captcha = record((await client.get('/captcha.jpg?1')).setCookies);
      const session = find(captcha, name('sam_session'));
      expectPortalCookie(session, lax(true));
      expect(session.attributes.has('max-age') || session.attributes.has('expires')).toBe(false);
      expect(session.value).toMatch(/^[A-Za-z0-9_-]{32,}$/);

      const login = await client.login<Json>('C10001');
      expect(login.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
      const signedIn = record(login.setCookies);
      expectPortalCookie(find(signedIn, name('sam_session')), lax(true));
      // The unprefixed name is not a session over https (and vice versa).
      const current = await get(client, 'anonymous/current-user');
      expect(current.body).toMatchObject({ isAuthenticated: true });
      const other = server.client();
      other.cookies.set(secure ? 'sam_session' : '__Host-sam_session', client.cookie(name('sam_session'))!);
      expect((await get(other, 'anonymous/current-user')).body).toMatchObject({ isAuthenticated: false });
    });

    it('the re-enter-password mark: readable by the portal (not HttpOnly), Lax, a lifetime; cleared on sign-out', async () => {
      const client = server.client();
      const login = record((await client.login<Json>('C10001')).setCookies);
      const reauth = find(login, name('sam_reauth'));
      expectPortalCookie(reauth, lax(false));
      expect(Number(reauth.attributes.get('max-age'))).toBeGreaterThan(0);
      expect(hasCookie(`${reauth.name}=${reauth.value}`)).toBe(true);

      const logout = record((await post(client, 'logout')).setCookies);
      const clearedSession = find(logout, name('sam_session'));
      const clearedReauth = find(logout, name('sam_reauth'));
      for (const cleared of [clearedSession, clearedReauth]) expect(isClearing(cleared)).toBe(true);
      // A clearing line must match the cookie's attributes, or the browser keeps the cookie.
      expectPortalCookie(clearedSession, lax(true));
      expectPortalCookie(clearedReauth, lax(false));
      expect(client.cookie(name('sam_session'))).toBeUndefined();
    });

    it('the trusted-device cookie: HttpOnly, Lax, living the trusted period', async () => {
      const client = server.client();
      await signInToStep(client, 'C10004', 'MFA');
      const ok = await post(client, 'forced-actions/mfa/verify-authenticator-app', {
        code: totpAt(clock),
        trustDevice: true,
      });
      expect(ok.status).toBe(200);
      const cookies = record(ok.setCookies);
      const device = find(cookies, name('sam_device'));
      expectPortalCookie(device, lax(true));
      expect(Number(device.attributes.get('max-age'))).toBeGreaterThan(0);
      expectPortalCookie(find(cookies, name('sam_reauth')), lax(false));
      expect(cookies.some((c) => c.name.includes('frame'))).toBe(false);

      // Clearing the trusted devices clears the cookie with the same attributes.
      const cleared = await post(client, 'profile/trusted-devices/clear');
      expect(cleared.status).toBe(204);
      const clearedDevice = find(record(cleared.setCookies), name('sam_device'));
      expect(isClearing(clearedDevice)).toBe(true);
      expectPortalCookie(clearedDevice, lax(true));
    });

    it('inside an application frame: the framed session, device and mark are SameSite=None; Secure; Partitioned', async () => {
      const frame = server.client();
      const entry = await frame.get('/sso/jwt/TREASURY', { requestedWith: false });
      expect(entry.status).toBe(303);
      const frameSession = find(record(entry.setCookies), name('sam_frame_session'));
      expectPortalCookie(frameSession, framed(true));
      expect(frameSession.attributes.has('max-age') || frameSession.attributes.has('expires')).toBe(false);

      const login = await frame.login<Json>('C10004', undefined, { type: 'JWT', appCode: 'TREASURY' });
      expect(login.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'MFA' });
      record(login.setCookies);
      const ok = await post(frame, 'forced-actions/mfa/verify-authenticator-app', {
        code: totpAt(clock),
        trustDevice: true,
      });
      expect(ok.status).toBe(200);
      const cookies = record(ok.setCookies);
      expectPortalCookie(find(cookies, name('sam_frame_device')), framed(true));
      expectPortalCookie(find(cookies, name('sam_reauth')), framed(false));
      expect(cookies.some((c) => c.name === name('sam_device') || c.name === name('sam_session'))).toBe(
        false,
      );

      const logout = record((await post(frame, 'logout')).setCookies);
      const cleared = find(logout, name('sam_frame_session'));
      expect(isClearing(cleared)).toBe(true);
      expectPortalCookie(cleared, framed(true));
    });

    it('the demo SP’s request cookie: its own path, HttpOnly, Lax, Secure over https', async () => {
      const res = await server.client().get('/demo-sp/LOANS/login', { requestedWith: false });
      expect(res.status).toBe(303);
      const cookie = find(record(res.setCookies), 'demo_sp_requests');
      expect(cookie.attributes.get('path')).toBe('/demo-sp/LOANS');
      expect(cookie.attributes.has('domain')).toBe(false);
      expect(cookie.attributes.has('httponly')).toBe(true);
      expect(cookie.attributes.get('samesite')).toBe('Lax');
      expect(cookie.attributes.has('secure')).toBe(secure);
    });

    it('the journeys above met every cookie of the table, and no other', () => {
      expect([...seen.keys()].sort()).toEqual(
        [...Object.values(PORTAL_COOKIES).map((base) => name(base)), 'demo_sp_requests'].sort(),
      );
      for (const [cookieName, lines] of seen) {
        for (const cookie of lines) {
          expect(cookie.attributes.has('samesite'), cookie.line).toBe(true);
          expect(cookie.attributes.has('httponly'), cookie.line).toBe(
            cookieName !== name(REENTER_PASSWORD_COOKIE),
          );
          if (secure) expect(cookie.attributes.has('secure'), cookie.line).toBe(true);
        }
      }
    });
  });
});
