// The MFA step over real HTTP: TOTP once per step (also under 10 parallel submissions), SMS and
// email codes bound to their session, expiry on an injected clock, resend throttling, the SMS
// gateway switch, failure counting, trusted devices, and refusals that change nothing.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { tableGeoIp } from '../../src/server/adapters/geo-ip';
import { hashSessionToken } from '../../src/server/domain/sessions';
import {
  CODE_EXPIRED_MESSAGE,
  CODE_INCORRECT_MESSAGE,
  NO_SMS_FACTOR_MESSAGE,
  RESEND_LIMIT_MESSAGE,
  RESEND_TOO_SOON_MESSAGE,
  SMS_UNAVAILABLE_CUSTOMER_MESSAGE,
  SMS_UNAVAILABLE_MESSAGE,
  TOO_MANY_CODE_FAILURES_MESSAGE,
  TOTP_ALREADY_USED_MESSAGE,
} from '../../src/server/domain/factors/messages';
import { CAPTCHA_REQUIRED_MESSAGE } from '../../src/server/domain/messages';
import { API, snapshot, startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';
import { get, latestCode, outbox, post, signInToStep, totpAt, wrongTotp, type Json } from './support/factors';

const SYDNEY = '203.0.113.5';
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const C10005_MOBILE = '+61 400 000 005';

describe.each(targets)('MFA on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-03-02T09:00:05Z');

  beforeAll(async () => {
    server = await startServer(target, {
      // The failure limit's waits and lock are failure-limit.test.ts's; here the counts alone.
      env: { TRUST_PROXY: 'true', FAILURE_DELAY_SECONDS: '0', LOCK_AFTER_FAILURES: '0' },
      deps: {
        clock,
        geoIp: tableGeoIp({
          [SYDNEY]: { cityName: 'Sydney', countryName: 'Australia', continentName: 'Oceania' },
        }),
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    // Every test starts on fresh TOTP steps, with no failures counted and SMS available.
    clock.advance(5 * 60_000);
    await server.db.deleteFrom('failed_auth_counts').execute();
    await server.db.deleteFrom('trusted_devices').execute();
    await server.app.services.factors.smsGateway.setAvailable(true);
  });

  const failedCount = async (username: string) =>
    (await server.client().get<number>(`${API}anonymous/login/failed-auth-count?username=${username}`)).body;

  it('C10004: start asks for the authenticator app; its code signs in; the same code is refused after', async () => {
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    const start = await post(client, 'forced-actions/mfa/start');
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ nextFactor: 'AUTHENTICATOR_APP', smsUnavailableMessage: null });

    const code = totpAt(clock);
    const ok = await post(client, 'forced-actions/mfa/verify-authenticator-app', {
      code,
      trustDevice: false,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
      forcedAction: null,
      currentUser: { username: 'C10004', isAuthenticated: true, type: 'AUTHENTICATED' },
    });
    // The re-enter-password cookie marks the sign-in; no device was trusted.
    const reauth = ok.setCookies.find((c) => c.startsWith('sam_reauth='));
    expect(reauth).toBeDefined();
    expect(reauth!.toLowerCase()).not.toContain('httponly');
    expect(ok.setCookies.some((c) => c.startsWith('sam_device='))).toBe(false);

    // Another sign-in cannot use the same code, and a replay is not counted as a guess.
    const other = server.client();
    await signInToStep(other, 'C10004', 'MFA');
    const replay = await post(other, 'forced-actions/mfa/verify-authenticator-app', { code });
    expect(replay.status).toBe(422);
    expect(replay.body).toEqual({
      message: TOTP_ALREADY_USED_MESSAGE,
      errors: [{ fieldName: 'code', message: TOTP_ALREADY_USED_MESSAGE }],
    });
    expect(await failedCount('C10004')).toBe(0);
    // Neither is the previous step's code, once a later one was used.
    const older = await post(other, 'forced-actions/mfa/verify-authenticator-app', {
      code: totpAt(clock, -1),
    });
    expect(older.body).toMatchObject({ message: TOTP_ALREADY_USED_MESSAGE });

    // The next step's code works.
    clock.advance(30_000);
    const next = await post(other, 'forced-actions/mfa/verify-authenticator-app', { code: totpAt(clock) });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
  });

  it('withholds the contact details and birth date until the second factor is proven', async () => {
    const stored = await server.db
      .selectFrom('identities')
      .select(['email', 'mobile', 'birth_date'])
      .where('username', '=', 'C10004')
      .executeTakeFirstOrThrow();
    expect(stored.email).not.toBeNull();
    // An earlier sign-in (left at MFA), so that this one has a previous sign-in to tell.
    await signInToStep(server.client(), 'C10004', 'MFA');
    const client = server.client();
    const login = await client.post<Json>(`${API}anonymous/login`, {
      username: 'C10004',
      password: 'Harbour-Lights-2026',
    });
    expect(login.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'MFA' });
    // Nor where and when the owner signed in last: that comes when the sign-in completes.
    expect(login.body.previousSignInAttempt).toBeNull();
    const withheld = { email: null, mobile: null, phone: null, birthDate: null };
    expect(login.body.currentUser).toMatchObject({
      username: 'C10004',
      type: 'AUTHENTICATION_PENDING',
      ...withheld,
    });
    const pending = await get<Json>(client, 'anonymous/current-user');
    expect(pending.body).toMatchObject({ username: 'C10004', ...withheld });

    const ok = await post<Json>(client, 'forced-actions/mfa/verify-authenticator-app', {
      code: totpAt(clock),
    });
    expect(ok.status).toBe(200);
    const revealed = { email: stored.email, mobile: stored.mobile, birthDate: stored.birth_date };
    expect(ok.body.currentUser).toMatchObject({ type: 'AUTHENTICATED', ...revealed });
    expect(ok.body.previousSignInAttempt).toMatchObject({ isSuccessful: expect.any(Boolean) });
    expect((await get<Json>(client, 'anonymous/current-user')).body).toMatchObject(revealed);
  });

  it('moves the session to a new token when the second factor completes the sign-in', async () => {
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    const pendingToken = client.cookie('sam_session')!;
    // A code sent in the pending session belongs to it and follows it to the new token.
    expect((await post(client, 'forced-actions/mfa/send-email')).status).toBe(204);
    const ok = await post<Json>(client, 'forced-actions/mfa/verify-authenticator-app', {
      code: totpAt(clock),
    });
    expect(ok.status).toBe(200);
    const line = ok.setCookies.find((c) => c.startsWith('sam_session='));
    expect(line).toMatch(/HttpOnly/i);
    const signedInToken = client.cookie('sam_session')!;
    expect(signedInToken).not.toBe(pendingToken);
    expect((await get<Json>(client, 'anonymous/current-user')).body).toMatchObject({ type: 'AUTHENTICATED' });
    const codes = await server.db
      .selectFrom('one_time_codes')
      .select('session_id_hash')
      .where('session_id_hash', 'in', [hashSessionToken(pendingToken), hashSessionToken(signedInToken)])
      .execute();
    expect(codes.map((c) => c.session_id_hash)).toEqual([hashSessionToken(signedInToken)]);

    // Whoever saw the pending token holds nothing now.
    const stale = server.client();
    stale.cookies.set('sam_session', pendingToken);
    expect((await get<Json>(stale, 'anonymous/current-user')).body).toMatchObject({ type: 'ANONYMOUS' });
    expect((await get(stale, 'current-user/accessible-apps')).status).toBe(401);
  });

  it('accepts one step of drift either way, not two', async () => {
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    const tooOld = await post(client, 'forced-actions/mfa/verify-authenticator-app', {
      code: totpAt(clock, -2),
    });
    expect(tooOld.body).toMatchObject({ message: CODE_INCORRECT_MESSAGE });
    const ahead = await post(client, 'forced-actions/mfa/verify-authenticator-app', {
      code: totpAt(clock, 1),
    });
    expect(ahead.status).toBe(200);
  });

  it('of 10 parallel submissions of one code, from 10 sign-ins, exactly one succeeds', async () => {
    const clients: TestClient[] = [];
    for (let i = 0; i < 10; i++) {
      const client = server.client();
      await signInToStep(client, 'C10004', 'MFA');
      clients.push(client);
    }
    const code = totpAt(clock);
    const answers = await Promise.all(
      clients.map((c) => post(c, 'forced-actions/mfa/verify-authenticator-app', { code })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(9).fill(422)]);
    for (const refused of answers.filter((a) => a.status === 422))
      expect(refused.body).toMatchObject({ message: TOTP_ALREADY_USED_MESSAGE });
    // The losers keep their sessions (a replay is not a guess) and nothing was counted.
    expect(await failedCount('C10004')).toBe(0);
    const types = await Promise.all(clients.map((c) => get<Json>(c, 'anonymous/current-user')));
    expect(types.map((t) => t.body.type).sort()).toEqual([
      'AUTHENTICATED',
      ...Array<string>(9).fill('AUTHENTICATION_PENDING'),
    ]);
  });

  it('and of 10 parallel submissions in one session, exactly one succeeds', async () => {
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    const code = totpAt(clock);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(client, 'forced-actions/mfa/verify-authenticator-app', { code })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status >= 200 && a.status < 300)).toHaveLength(1);
    expect((await get<Json>(client, 'anonymous/current-user')).body.type).toBe('AUTHENTICATED');
  });

  it('counts wrong codes as failed sign-ins; the 5th ends the session and rerouting to sign-in', async () => {
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    const wrong = wrongTotp(clock);
    for (let i = 1; i <= 4; i++) {
      const res = await post(client, 'forced-actions/mfa/verify-authenticator-app', { code: wrong });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: CODE_INCORRECT_MESSAGE,
        errors: [{ fieldName: 'code', message: CODE_INCORRECT_MESSAGE }],
      });
      expect(await failedCount('C10004')).toBe(i);
    }
    const fifth = await post(client, 'forced-actions/mfa/verify-authenticator-app', { code: wrong });
    expect(fifth.status).toBe(422);
    expect(fifth.body).toEqual({ message: TOO_MANY_CODE_FAILURES_MESSAGE, reroute: '/' });
    expect((await get<Json>(client, 'anonymous/current-user')).body.type).toBe('ANONYMOUS');
    // Even the right code is too late now.
    const late = await post(client, 'forced-actions/mfa/verify-authenticator-app', { code: totpAt(clock) });
    expect(late.status).toBe(401);
    // The next sign-in needs the captcha, as after wrong passwords.
    const again = await client.login('C10004');
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ message: CAPTCHA_REQUIRED_MESSAGE });
  });

  it('checks no more of 20 parallel wrong codes in one session than the session has tries', async () => {
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    const wrong = wrongTotp(clock);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(client, 'forced-actions/mfa/verify-authenticator-app', { code: wrong }),
      ),
    );
    // A code is checked only with one of the session's 5 tries reserved; the rest wait (429) or
    // find the session ended.
    const checked = answers.filter((a) => a.status === 422);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(answers.every((a) => [422, 429, 401].includes(a.status))).toBe(true);
    expect(await failedCount('C10004')).toBeLessThanOrEqual(5);
  });

  it('trusts the device on request: the next sign-in from that browser skips MFA', async () => {
    const headers = { 'user-agent': SAFARI_MAC, 'x-forwarded-for': SYDNEY };
    const client = server.client();
    const login = await client.post<Json>(
      `${API}anonymous/login`,
      { username: 'C10004', password: 'Harbour-Lights-2026' },
      { headers },
    );
    expect(login.body).toMatchObject({ forcedAction: 'MFA' });
    const ok = await client.post<Json>(
      `${API}forced-actions/mfa/verify-authenticator-app`,
      { code: totpAt(clock), trustDevice: true },
      { headers },
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    const line = ok.setCookies.find((c) => c.startsWith('sam_device='));
    expect(line).toBeDefined();
    const attributes = line!.split(';').map((s) => s.trim().toLowerCase());
    expect(attributes).toEqual(
      expect.arrayContaining(['httponly', 'samesite=lax', 'path=/', 'max-age=604800']),
    );
    const token = client.cookie('sam_device')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The record: only the token's hash, with browser, OS, place and last activity.
    const row = await server.db.selectFrom('trusted_devices').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      token_hash: createHash('sha256').update(token).digest('hex'),
      browser_family: 'Safari',
      browser_major: '17',
      browser_minor: '4',
      os_family: 'Mac OS',
      os_version: '10.15.7',
      city_name: 'Sydney',
      country_name: 'Australia',
      continent_name: 'Oceania',
    });
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(7 * 24 * 3_600_000);

    // Sign out and in again from the same browser: no MFA.
    await post(client, 'logout');
    clock.advance(3_600_000);
    const second = await client.login<Json>('C10004');
    expect(second.body).toMatchObject({ outcome: 'DIRECT_LOGIN', currentUser: { type: 'AUTHENTICATED' } });
    const touched = await server.db
      .selectFrom('trusted_devices')
      .select('last_active_at')
      .executeTakeFirstOrThrow();
    expect(touched.last_active_at.toISOString()).toBe(clock.now().toISOString());

    // Another browser is asked; so is another identity presenting this browser's cookie.
    await signInToStep(server.client(), 'C10004', 'MFA');
    const intruder = server.client();
    intruder.cookies.set('sam_device', token);
    await signInToStep(intruder, 'C10005', 'MFA');

    // After the period the device is asked again.
    clock.advance(7 * 24 * 3_600_000);
    const expired = server.client();
    expired.cookies.set('sam_device', token);
    await signInToStep(expired, 'C10004', 'MFA');
  });

  it('inside an application frame, trusts the device and marks the sign-in with partitioned SameSite=None cookies', async () => {
    const attributes = (setCookies: string[], name: string) =>
      setCookies
        .find((c) => c.startsWith(`${name}=`))
        ?.split(';')
        .slice(1)
        .map((a) => a.trim().toLowerCase());
    const framedClient = async () => {
      const client = server.client();
      expect((await client.get('/sso/jwt/TREASURY', { requestedWith: false })).status).toBe(303);
      return client;
    };
    const frame = await framedClient();
    const login = await frame.login<Json>('C10004', undefined, { type: 'JWT', appCode: 'TREASURY' });
    expect(login.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'MFA' });
    const ok = await post(frame, 'forced-actions/mfa/verify-authenticator-app', {
      code: totpAt(clock),
      trustDevice: true,
    });
    expect(ok.status).toBe(200);
    expect(attributes(ok.setCookies, 'sam_frame_device')).toEqual(
      expect.arrayContaining(['httponly', 'samesite=none', 'secure', 'partitioned']),
    );
    expect(ok.setCookies.some((c) => c.startsWith('sam_device='))).toBe(false);
    const reauth = attributes(ok.setCookies, 'sam_reauth');
    expect(reauth).toEqual(expect.arrayContaining(['samesite=none', 'secure', 'partitioned']));
    expect(reauth).not.toContain('httponly');

    // The frame's next sign-in skips MFA; the portal's own context does not take the frame's trust.
    const token = frame.cookie('sam_frame_device')!;
    const again = await framedClient();
    again.cookies.set('sam_frame_device', token);
    expect(
      (await again.login<Json>('C10004', undefined, { type: 'JWT', appCode: 'TREASURY' })).body,
    ).not.toMatchObject({ outcome: 'FORCED_ACTION' });
    const own = server.client();
    own.cookies.set('sam_frame_device', token);
    await signInToStep(own, 'C10004', 'MFA');
  });

  it('trusts for 24 hours when the server period is 1', async () => {
    await server.db
      .updateTable('properties')
      .set({ value: '1' })
      .where('name', '=', 'trusted-device-period')
      .execute();
    try {
      const client = server.client();
      await signInToStep(client, 'C10004', 'MFA');
      const ok = await post(client, 'forced-actions/mfa/verify-authenticator-app', {
        code: totpAt(clock),
        trustDevice: true,
      });
      expect(ok.setCookies.find((c) => c.startsWith('sam_device='))).toContain('Max-Age=86400');
      clock.advance(24 * 3_600_000 - 1000);
      await post(client, 'logout');
      expect((await client.login<Json>('C10004')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
      clock.advance(2000);
      await post(client, 'logout');
      expect((await client.login<Json>('C10004')).body).toMatchObject({ forcedAction: 'MFA' });
    } finally {
      await server.db
        .updateTable('properties')
        .set({ value: '7' })
        .where('name', '=', 'trusted-device-period')
        .execute();
    }
  });

  it('C10005: start sends an SMS code to the enrolled mobile; verify-mobile signs in', async () => {
    const client = server.client();
    await signInToStep(client, 'C10005', 'MFA');
    const start = await post(client, 'forced-actions/mfa/start');
    expect(start.body).toEqual({ nextFactor: 'SMS', smsUnavailableMessage: null });
    const [sms] = await outbox(client, `?to=${encodeURIComponent(C10005_MOBILE)}&limit=1`);
    expect(sms).toMatchObject({ channel: 'SMS', to: C10005_MOBILE, subject: null });
    expect(sms!.code).toMatch(/^\d{6}$/);
    expect(sms!.text).toContain(sms!.code);
    // Only a hash of the code is stored.
    const stored = await server.db.selectFrom('one_time_codes').select('code_hash').execute();
    expect(stored.map((r) => r.code_hash)).not.toContain(sms!.code);

    const ok = await post(client, 'forced-actions/mfa/verify-mobile', {
      code: sms!.code,
      trustDevice: false,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ outcome: 'DIRECT_LOGIN', currentUser: { username: 'C10005' } });
  });

  it('refuses an SMS code that was sent to another session', async () => {
    const first = server.client();
    await signInToStep(first, 'C10005', 'MFA');
    await post(first, 'forced-actions/mfa/start');
    const firstCode = await latestCode(first, C10005_MOBILE);
    const second = server.client();
    await signInToStep(second, 'C10005', 'MFA');
    await post(second, 'forced-actions/mfa/start');
    const secondCode = await latestCode(second, C10005_MOBILE);
    if (secondCode === firstCode) return; // one chance in a million: nothing to tell apart

    const crossed = await post(first, 'forced-actions/mfa/verify-mobile', { code: secondCode });
    expect(crossed.status).toBe(422);
    expect(crossed.body).toMatchObject({ message: CODE_INCORRECT_MESSAGE });
    // Each session's own code still works.
    expect((await post(first, 'forced-actions/mfa/verify-mobile', { code: firstCode })).status).toBe(200);
    expect((await post(second, 'forced-actions/mfa/verify-mobile', { code: secondCode })).status).toBe(200);
  });

  it('refuses a code once 10 minutes have passed; a resend sends a new one', async () => {
    const client = server.client();
    await signInToStep(client, 'C10005', 'MFA');
    await post(client, 'forced-actions/mfa/start');
    const code = await latestCode(client, C10005_MOBILE);
    clock.advance(10 * 60_000);
    const late = await post(client, 'forced-actions/mfa/verify-mobile', { code });
    expect(late.status).toBe(422);
    expect(late.body).toEqual({
      message: CODE_EXPIRED_MESSAGE,
      errors: [{ fieldName: 'code', message: CODE_EXPIRED_MESSAGE }],
    });
    const resend = await post(client, 'forced-actions/mfa/send-sms');
    expect(resend.status).toBe(204);
    const fresh = await latestCode(client, C10005_MOBILE);
    expect((await post(client, 'forced-actions/mfa/verify-mobile', { code: fresh })).status).toBe(200);
  });

  it('throttles resends: not within 30 s, at most 5 codes per step; a resend keeps the failure count', async () => {
    const client = server.client();
    await signInToStep(client, 'C10005', 'MFA');
    await post(client, 'forced-actions/mfa/start');
    const first = await latestCode(client, C10005_MOBILE);

    const tooSoon = await post(client, 'forced-actions/mfa/send-sms');
    expect(tooSoon.status).toBe(422);
    expect(tooSoon.body).toEqual({ message: RESEND_TOO_SOON_MESSAGE });
    // The refused resend did not replace the code.
    expect(await latestCode(client, C10005_MOBILE)).toBe(first);

    const wrongFor = (code: string) => (code === '000000' ? '000001' : '000000');
    // Two wrong codes, then four resends (five codes in all): none of them resets the count.
    for (let i = 0; i < 2; i++)
      expect((await post(client, 'forced-actions/mfa/verify-mobile', { code: wrongFor(first) })).status).toBe(
        422,
      );
    for (let sent = 2; sent <= 5; sent++) {
      clock.advance(31_000);
      const resend = await post(client, 'forced-actions/mfa/send-sms');
      expect(resend.status, `send ${sent}`).toBe(204);
    }
    clock.advance(31_000);
    const sixth = await post(client, 'forced-actions/mfa/send-sms');
    expect(sixth.status).toBe(422);
    expect(sixth.body).toEqual({ message: RESEND_LIMIT_MESSAGE });

    const latest = await latestCode(client, C10005_MOBILE);
    for (let i = 0; i < 2; i++)
      expect(
        (await post(client, 'forced-actions/mfa/verify-mobile', { code: wrongFor(latest) })).status,
      ).toBe(422);
    // The fifth wrong code of the session ends it, resends or not.
    const fifth = await post(client, 'forced-actions/mfa/verify-mobile', { code: wrongFor(latest) });
    expect(fifth.body).toEqual({ message: TOO_MANY_CODE_FAILURES_MESSAGE, reroute: '/' });
    expect((await post(client, 'forced-actions/mfa/verify-mobile', { code: latest })).status).toBe(401);
  });

  it('with the SMS gateway down: SMS calls answer 503 with the customer message and start skips SMS', async () => {
    await server.app.services.factors.smsGateway.setAvailable(false);
    const client = server.client();
    const status = await get(client, 'anonymous/properties/sms-gateway-status');
    expect(status.body).toEqual({ isSmsGatewayAvailable: false });

    await signInToStep(client, 'C10005', 'MFA');
    const start = await post(client, 'forced-actions/mfa/start');
    expect(start.body).toEqual({ nextFactor: 'EMAIL', smsUnavailableMessage: SMS_UNAVAILABLE_MESSAGE });
    const sms = await post(client, 'forced-actions/mfa/send-sms');
    expect(sms.status).toBe(503);
    expect(sms.body).toEqual({
      message: SMS_UNAVAILABLE_MESSAGE,
      customerMessage:
        'SMS verification codes are currently unavailable. You may try to enrol mobile as a factor at a later date.',
    });
    expect(SMS_UNAVAILABLE_CUSTOMER_MESSAGE).toBe((sms.body as Json).customerMessage);

    const [email] = await outbox(client, '?to=c10005@example.com&limit=1');
    expect(email).toMatchObject({ channel: 'EMAIL', subject: 'Your verification code' });
    const ok = await post(client, 'forced-actions/mfa/verify-email', {
      code: email!.code,
      trustDevice: false,
    });
    expect(ok.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });

    await server.app.services.factors.smsGateway.setAvailable(true);
    expect((await get(client, 'anonymous/properties/sms-gateway-status')).body).toEqual({
      isSmsGatewayAvailable: true,
    });
  });

  it('with SMS its only factor and the gateway down, start still names SMS, with the gateway message', async () => {
    const c10005 = await server.db
      .selectFrom('identities')
      .select('id')
      .where('username', '=', 'C10005')
      .executeTakeFirstOrThrow();
    const email = await server.db
      .deleteFrom('identity_factors')
      .where('identity_id', '=', c10005.id)
      .where('factor_type', '=', 'EMAIL')
      .returningAll()
      .executeTakeFirstOrThrow();
    try {
      await server.app.services.factors.smsGateway.setAvailable(false);
      const client = server.client();
      await signInToStep(client, 'C10005', 'MFA');
      const start = await post(client, 'forced-actions/mfa/start');
      expect(start.body).toEqual({ nextFactor: 'SMS', smsUnavailableMessage: SMS_UNAVAILABLE_MESSAGE });
      expect((await post(client, 'forced-actions/mfa/send-sms')).status).toBe(503);
      // Nothing comes after SMS for this account.
      expect((await post(client, 'forced-actions/mfa/skip')).body).toEqual({
        nextFactor: null,
        smsUnavailableMessage: SMS_UNAVAILABLE_MESSAGE,
      });
      // Once the gateway is back, the same step sends the code and it signs in.
      await server.app.services.factors.smsGateway.setAvailable(true);
      clock.advance(31_000);
      expect((await post(client, 'forced-actions/mfa/send-sms')).status).toBe(204);
      const [sms] = await outbox(client, `?to=${encodeURIComponent(C10005_MOBILE)}&limit=1`);
      const ok = await post(client, 'forced-actions/mfa/verify-mobile', {
        code: sms!.code,
        trustDevice: false,
      });
      expect(ok.body).toMatchObject({ outcome: 'DIRECT_LOGIN', currentUser: { username: 'C10005' } });
    } finally {
      await server.db.insertInto('identity_factors').values(email).execute();
    }
  });

  it('skips from the authenticator app to email for C10004, and answers null after the last', async () => {
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    expect((await post(client, 'forced-actions/mfa/start')).body).toMatchObject({
      nextFactor: 'AUTHENTICATOR_APP',
    });
    const before = (await outbox(client, '?to=c10004@example.com')).length;
    const skip = await post(client, 'forced-actions/mfa/skip');
    expect(skip.body).toEqual({ nextFactor: 'EMAIL', smsUnavailableMessage: null });
    const after = await outbox(client, '?to=c10004@example.com');
    expect(after.length).toBe(before + 1);
    expect((await post(client, 'forced-actions/mfa/skip')).body).toEqual({
      nextFactor: null,
      smsUnavailableMessage: null,
    });
    // C10004 has no SMS factor to resend to.
    const sms = await post(client, 'forced-actions/mfa/send-sms');
    expect(sms.status).toBe(422);
    expect(sms.body).toEqual({ message: NO_SMS_FACTOR_MESSAGE });
    const ok = await post(client, 'forced-actions/mfa/verify-email', { code: after[0]!.code });
    expect(ok.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
  });

  it('refuses calls without a pending session, or in another step, with 401 or 403', async () => {
    const anonymous = server.client();
    expect((await post(anonymous, 'forced-actions/mfa/start')).status).toBe(401);
    expect(
      (await post(anonymous, 'forced-actions/mfa/verify-authenticator-app', { code: '123456' })).status,
    ).toBe(401);
    const expired = server.client();
    await signInToStep(expired, 'C10002', 'CHANGE_EXPIRED_PASSWORD');
    const wrongStep = await post(expired, 'forced-actions/mfa/start');
    expect(wrongStep.status).toBe(403);
    expect(wrongStep.body).toMatchObject({ message: expect.any(String) });
    const signedIn = server.client();
    expect((await signedIn.login<Json>('C10001')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    expect((await post(signedIn, 'forced-actions/mfa/verify-email', { code: '123456' })).status).toBe(403);
  });

  it('answers 400 to malformed codes and changes nothing', async () => {
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    const before = {
      ...(await snapshot(server.db)),
      codes: await server.db.selectFrom('one_time_codes').selectAll().execute(),
    };
    for (const body of [
      {},
      { code: '' },
      { code: 123456 },
      { code: '123456', admin: true },
      { code: 'x'.repeat(21) },
    ]) {
      const res = await post(client, 'forced-actions/mfa/verify-authenticator-app', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ message: expect.any(String), errors: expect.any(Array) });
    }
    const raw = await client.request('POST', `${API}forced-actions/mfa/verify-mobile`, { raw: '{not json' });
    expect(raw.status).toBe(400);
    const after = {
      ...(await snapshot(server.db)),
      codes: await server.db.selectFrom('one_time_codes').selectAll().execute(),
    };
    expect(after).toEqual(before);
  });
});
