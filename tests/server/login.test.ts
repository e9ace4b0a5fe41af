// Password sign-in over real HTTP: outcomes, cookies, session rotation, failed counts, captcha.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tableGeoIp } from '../../src/server/adapters/geo-ip';
import {
  CAPTCHA_FIELD_INCORRECT,
  CAPTCHA_FIELD_REQUIRED,
  CAPTCHA_INCORRECT_MESSAGE,
  CAPTCHA_REQUIRED_MESSAGE,
  INCORRECT_CREDENTIALS_MESSAGE,
  SIGN_IN_UNAVAILABLE_MESSAGE,
} from '../../src/server/domain/messages';
import { hashSessionToken } from '../../src/server/domain/sessions';
import { API, startServer, usernameKey, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

type Json = Record<string, unknown>;
const SYDNEY = '203.0.113.5';
const AUCKLAND = '198.51.100.7';
const COOKIE = 'sam_session';

describe.each(targets)('sign-in on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target, {
      // The failure limit's waits and lock are failure-limit.test.ts's; here the counts alone.
      env: { TRUST_PROXY: 'true', FAILURE_DELAY_SECONDS: '0', LOCK_AFTER_FAILURES: '0' },
      deps: {
        geoIp: tableGeoIp({
          [SYDNEY]: { cityName: 'Sydney', countryName: 'Australia', continentName: 'Oceania' },
          [AUCKLAND]: { cityName: 'Auckland', countryName: 'New Zealand', continentName: 'Oceania' },
        }),
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.db.deleteFrom('failed_auth_counts').execute();
  });

  const failedCount = async (client: TestClient, username: string) =>
    (
      await client.get<number>(
        `${API}anonymous/login/failed-auth-count?username=${encodeURIComponent(username)}`,
      )
    ).body;

  it('signs C10001 in with DIRECT_LOGIN and the current user', async () => {
    const client = server.client();
    const res = await client.login('C10001');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
      forcedAction: null,
      currentUser: {
        username: 'C10001',
        name: 'Olivia Bennett',
        email: 'c10001@example.com',
        mobile: '+61 400 000 001',
        birthDate: '1985-03-14',
        isAuthenticated: true,
        isAdmin: false,
        isStaff: false,
        roles: [],
        type: 'AUTHENTICATED',
      },
    });
    expect((res.body.currentUser as Json).id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('accepts the username in any case and with surrounding spaces', async () => {
    const res = await server.client().login('  c10001 ');
    expect(res.status).toBe(200);
    expect((res.body.currentUser as Json).username).toBe('C10001');
  });

  it('sets an HttpOnly, SameSite=Lax session cookie for the whole site, not Secure over http', async () => {
    const res = await server.client().login('C10001');
    const line = res.setCookies.find((c) => c.startsWith(`${COOKIE}=`));
    expect(line).toBeDefined();
    const attributes = line!.split(';').map((s) => s.trim().toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=lax');
    expect(attributes).toContain('path=/');
    expect(attributes).not.toContain('secure');
    const token = line!.split(';')[0]!.slice(COOKIE.length + 1);
    // 32 random bytes in base64url: 256 bits.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash of the token is stored.
    const rows = await server.db.selectFrom('sessions').select('id_hash').execute();
    expect(rows.map((r) => r.id_hash)).toContain(hashSessionToken(token));
    expect(rows.map((r) => r.id_hash)).not.toContain(token);
  });

  it('issues a new session id at sign-in and ends the one the browser came with', async () => {
    const client = server.client();
    await client.get('/captcha.jpg?1');
    const before = client.cookie(COOKIE);
    expect(before).toBeDefined();
    const res = await client.login('C10001');
    expect(res.status).toBe(200);
    const after = client.cookie(COOKIE);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    const old = await server.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('id_hash', '=', hashSessionToken(before!))
      .executeTakeFirst();
    expect(old).toBeUndefined();
    // A fixation attempt with the old id gets an anonymous user.
    const attacker = server.client();
    attacker.cookies.set(COOKIE, before!);
    const seen = await attacker.get<Json>(`${API}anonymous/current-user`);
    expect(seen.body).toMatchObject({ username: null, isAuthenticated: false, type: 'ANONYMOUS' });
  });

  it('answers the current user after sign-in and the anonymous user after logout', async () => {
    const client = server.client();
    const anonymous = await client.get<Json>(`${API}anonymous/current-user`);
    expect(anonymous.body).toEqual({
      id: null,
      username: null,
      name: null,
      email: null,
      mobile: null,
      phone: null,
      birthDate: null,
      isAuthenticated: false,
      isAdmin: false,
      isStaff: false,
      roles: [],
      type: 'ANONYMOUS',
    });
    await client.login('C10001');
    const me = await client.get<Json>(`${API}anonymous/current-user`);
    expect(me.body).toMatchObject({ username: 'C10001', isAuthenticated: true, type: 'AUTHENTICATED' });
    const token = client.cookie(COOKIE)!;

    const out = await client.post(`${API}logout`);
    expect(out.status).toBe(204);
    expect(out.text).toBe('');
    expect(client.cookie(COOKIE)).toBeUndefined();
    const gone = await server.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('id_hash', '=', hashSessionToken(token))
      .executeTakeFirst();
    expect(gone).toBeUndefined();
    const after = await client.get<Json>(`${API}anonymous/current-user`);
    expect(after.body).toMatchObject({ username: null, isAuthenticated: false, type: 'ANONYMOUS' });
    // The old cookie replayed is worth nothing.
    const replay = server.client();
    replay.cookies.set(COOKIE, token);
    expect((await replay.get(`${API}current-user/accessible-apps`)).status).toBe(401);
  });

  it('logout without a session is harmless', async () => {
    const res = await server.client().post(`${API}logout`);
    expect(res.status).toBe(204);
  });

  it('answers a wrong password and an unknown username identically', async () => {
    const wrong = await server.client().login('C10001', 'not-the-password');
    const unknown = await server.client().login('nobody-at-all', 'not-the-password');
    expect(wrong.status).toBe(422);
    expect(unknown.status).toBe(wrong.status);
    expect(wrong.body).toEqual({ message: INCORRECT_CREDENTIALS_MESSAGE });
    expect(unknown.text).toBe(wrong.text);
    const headerNames = (h: Headers) => [...h.keys()].filter((k) => k !== 'date').sort();
    expect(headerNames(unknown.headers)).toEqual(headerNames(wrong.headers));
    expect(unknown.setCookies).toEqual([]);
    expect(wrong.setCookies).toEqual([]);
    // Both are counted, known or not.
    const client = server.client();
    expect(await failedCount(client, 'C10001')).toBe(1);
    expect(await failedCount(client, 'NOBODY-AT-ALL')).toBe(1);
  });

  it('takes about as long for an unknown username as for a wrong password', async () => {
    const time = async (username: string) => {
      const started = performance.now();
      await server.client().login(username, 'not-the-password');
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      await server.db.deleteFrom('failed_auth_counts').execute();
      known.push(await time('C10004'));
      unknown.push(await time(`ghost-${i}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2]!;
    // Both run one argon2id verification (tens of ms); skipping it for unknown usernames would
    // make them answer in a millisecond or two, a ratio far below these bounds even on a busy host.
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.33);
    expect(ratio).toBeLessThan(3);
  });

  it('records failed and successful attempts and returns the previous one with its place', async () => {
    await server.db.deleteFrom('sign_in_attempts').execute();
    const fromSydney = { headers: { 'x-forwarded-for': SYDNEY } };
    const client = server.client();
    const failed = await client.request('POST', `${API}anonymous/login`, {
      ...fromSydney,
      json: { username: 'C10008', password: 'wrong-password' },
    });
    expect(failed.status).toBe(422);

    const first = await client.request<Json>('POST', `${API}anonymous/login`, {
      ...fromSydney,
      json: { username: 'C10008', password: 'Harbour-Lights-2026' },
    });
    expect(first.status).toBe(200);
    expect(first.body.previousSignInAttempt).toMatchObject({
      ipAddress: SYDNEY,
      cityName: 'Sydney',
      countryName: 'Australia',
      continentName: 'Oceania',
      isSuccessful: false,
      isGeolocationDifferent: false,
    });

    const second = await server.client().request<Json>('POST', `${API}anonymous/login`, {
      headers: { 'x-forwarded-for': AUCKLAND },
      json: { username: 'C10008', password: 'Harbour-Lights-2026' },
    });
    expect(second.body.previousSignInAttempt).toMatchObject({
      ipAddress: SYDNEY,
      countryName: 'Australia',
      isSuccessful: true,
      isGeolocationDifferent: true,
    });
    const date = (second.body.previousSignInAttempt as Json).date as string;
    expect(Number.isNaN(Date.parse(date))).toBe(false);

    const rows = await server.db
      .selectFrom('sign_in_attempts')
      .select(['username', 'is_successful', 'ip_address', 'country_name'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { username: 'c10008', is_successful: false, ip_address: SYDNEY, country_name: 'Australia' },
      { username: 'c10008', is_successful: true, ip_address: SYDNEY, country_name: 'Australia' },
      { username: 'c10008', is_successful: true, ip_address: AUCKLAND, country_name: 'New Zealand' },
    ]);
  });

  it('has no previous attempt on a first sign-in and unknown places stay null', async () => {
    await server.db.deleteFrom('sign_in_attempts').execute();
    // C10001 signs in directly (a sign-in with forced steps tells its previous one when it completes).
    const first = await server.client().login<Json>('C10001');
    expect(first.body.previousSignInAttempt).toBeNull();
    const second = await server.client().login<Json>('C10001');
    expect(second.body.previousSignInAttempt).toMatchObject({
      ipAddress: '127.0.0.1',
      cityName: null,
      countryName: null,
      continentName: null,
      isSuccessful: true,
      isGeolocationDifferent: false,
    });
  });

  it('requires a captcha from the 3rd failure, checks it before the password, and uses it once', async () => {
    const client = server.client();
    for (let i = 1; i <= 3; i++) {
      const res = await client.login('C10004', 'wrong-password');
      expect(res.body).toEqual({ message: INCORRECT_CREDENTIALS_MESSAGE });
      expect(await failedCount(client, 'C10004')).toBe(i);
    }

    // Missing captcha: refused even with the right password, which is not checked.
    const missing = await client.login('C10004');
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      message: CAPTCHA_REQUIRED_MESSAGE,
      errors: [{ fieldName: 'captchaCode', message: CAPTCHA_FIELD_REQUIRED }],
    });
    expect(await failedCount(client, 'C10004')).toBe(3);

    // Wrong captcha: refused with the right password too.
    await client.get('/captcha.jpg?2');
    const wrongAnswer = server.captcha.last === 'AAAAA' ? 'CCCCC' : 'AAAAA';
    const wrong = await client.login('C10004', undefined, { captchaCode: wrongAnswer });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({
      message: CAPTCHA_INCORRECT_MESSAGE,
      errors: [{ fieldName: 'captchaCode', message: CAPTCHA_FIELD_INCORRECT }],
    });
    expect(await failedCount(client, 'C10004')).toBe(3);

    // The right captcha lets the password be checked (wrong here: counted).
    await client.get('/captcha.jpg?3');
    const answer = server.captcha.last;
    const counted = await client.login('C10004', 'wrong-password', { captchaCode: answer.toLowerCase() });
    expect(counted.body).toEqual({ message: INCORRECT_CREDENTIALS_MESSAGE });
    expect(await failedCount(client, 'C10004')).toBe(4);

    // Single use: the same answer again is refused.
    const reused = await client.login('C10004', undefined, { captchaCode: answer });
    expect(reused.body).toMatchObject({ message: CAPTCHA_INCORRECT_MESSAGE });

    // A new captcha, answered, with the right password: signed in, count reset.
    await client.get('/captcha.jpg?4');
    const ok = await client.login<Json>('C10004', undefined, { captchaCode: server.captcha.last });
    expect(ok.status).toBe(200);
    // C10004's password is right; its authenticator app is asked next.
    expect(ok.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'MFA' });
    // The earlier failures stay until the sign-in completes (MFA codes count with them: lockout.ts).
    expect(await failedCount(client, 'C10004')).toBe(4);
  });

  it('counts 50 parallel wrong passwords exactly (each past its own captcha)', async () => {
    const clients = Array.from({ length: 50 }, () => server.client());
    const answers: string[] = [];
    for (const client of clients) {
      await client.get('/captcha.jpg?parallel');
      answers.push(server.captcha.last);
    }
    const results = await Promise.all(
      clients.map((client, i) => client.login('C10005', 'wrong-password', { captchaCode: answers[i] })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(422));
    expect(results.every((r) => (r.body as Json).message === INCORRECT_CREDENTIALS_MESSAGE)).toBe(true);
    expect(await failedCount(server.client(), 'C10005')).toBe(50);
    const row = await server.db
      .selectFrom('failed_auth_counts')
      .select('count')
      .where('username_key', '=', usernameKey(server, 'C10005'))
      .executeTakeFirstOrThrow();
    expect(row.count).toBe(50);
  });

  it('lets no more than 3 of 50 parallel attempts without a captcha reach the password check', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => server.client().login('C10006', 'wrong-password')),
    );
    const byMessage = (m: string) => results.filter((r) => (r.body as Json).message === m).length;
    expect(byMessage(INCORRECT_CREDENTIALS_MESSAGE)).toBe(3);
    expect(byMessage(CAPTCHA_REQUIRED_MESSAGE)).toBe(47);
    expect(await failedCount(server.client(), 'C10006')).toBe(3);
  });

  it('answers 503 when the realm has sign-in disabled, and counts nothing', async () => {
    const client = server.client();
    await server.db.updateTable('realms').set({ auth_enabled: false }).where('code', '=', 'BANK').execute();
    try {
      expect((await client.get(`${API}anonymous/realms/BANK/auth-enabled`)).body).toBe(false);
      const res = await client.login('C10001');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: SIGN_IN_UNAVAILABLE_MESSAGE });
      expect(res.setCookies).toEqual([]);
      expect(await failedCount(client, 'C10001')).toBe(0);
    } finally {
      await server.db.updateTable('realms').set({ auth_enabled: true }).where('code', '=', 'BANK').execute();
    }
    expect((await client.get(`${API}anonymous/realms/BANK/auth-enabled`)).body).toBe(true);
  });

  it('refuses an unknown realm code with a field error', async () => {
    const res = await server.client().login('C10001', undefined, { realmCode: 'NOPE' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errors: [{ fieldName: 'realmCode' }] });
  });

  it('sends C10002 (password expired) to FORCED_ACTION CHANGE_EXPIRED_PASSWORD with a pending session', async () => {
    const client = server.client();
    const res = await client.login<Json>('C10002');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      outcome: 'FORCED_ACTION',
      forcedAction: 'CHANGE_EXPIRED_PASSWORD',
      currentUser: { username: 'C10002', isAuthenticated: false, type: 'AUTHENTICATION_PENDING' },
    });
    const me = await client.get<Json>(`${API}anonymous/current-user`);
    expect(me.body).toMatchObject({
      username: 'C10002',
      isAuthenticated: false,
      type: 'AUTHENTICATION_PENDING',
    });
    // A pending session cannot use the authenticated calls.
    const apps = await client.get<Json>(`${API}current-user/accessible-apps`);
    expect(apps.status).toBe(403);
    const row = await server.db
      .selectFrom('sessions')
      .select(['type', 'data'])
      .where('id_hash', '=', hashSessionToken(client.cookie(COOKIE)!))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      type: 'AUTHENTICATION_PENDING',
      data: { forcedAction: 'CHANGE_EXPIRED_PASSWORD', passed: [], previousSignInAttempt: null },
    });
  });

  it('signs in admin1 with the admin flags and roles', async () => {
    const res = await server.client().login<Json>('admin1');
    expect(res.body.currentUser).toMatchObject({
      isAdmin: true,
      isStaff: true,
      roles: ['ADMIN', 'READ_ONLY'],
    });
    const auditor = await server.client().login<Json>('auditor1');
    expect(auditor.body.currentUser).toMatchObject({ isAdmin: false, roles: ['VIEW_ACCESS_REQUESTS'] });
  });
});
