// Re-enter password (section 4.2) over real HTTP on an injected clock: the JS-readable cookie set at
// sign-in, expired after REENTER_PASSWORD_MINUTES, re-entry with argon2id, wrong passwords counted
// with the sign-in failures and a session limit.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { loadConfig } from '../../src/server/config';
import {
  REENTER_PASSWORD_INCORRECT_MESSAGE,
  REENTER_PASSWORD_REQUIRED_MESSAGE,
  TOO_MANY_PASSWORD_FAILURES_MESSAGE,
} from '../../src/server/domain/factors/messages';
import { API, DEMO_PASSWORD, startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';
import { get, post, signInToStep, type Json } from './support/factors';

const PERIOD_S = 15 * 60;

function reauthCookie(setCookies: string[]): string | undefined {
  return setCookies.find((c) => c.startsWith('sam_reauth='));
}

describe.each(targets)('re-enter password on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-03-02T09:00:00Z');

  beforeAll(async () => {
    // The failure limit's waits and lock are failure-limit.test.ts's; here the counts alone.
    server = await startServer(target, {
      env: { FAILURE_DELAY_SECONDS: '0', LOCK_AFTER_FAILURES: '0' },
      deps: { clock },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.db.deleteFrom('failed_auth_counts').execute();
  });

  const failedCount = async () =>
    (await server.client().get<number>(`${API}anonymous/login/failed-auth-count?username=C10001`)).body;
  const signedIn = async (): Promise<TestClient> => {
    const client = server.client();
    const res = await client.login<Json>('C10001');
    expect(res.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    return client;
  };

  it('marks a completed sign-in with a readable cookie that lasts the period', async () => {
    const client = server.client();
    const res = await client.login('C10001');
    const line = reauthCookie(res.setCookies);
    expect(line).toBeDefined();
    const attributes = line!.split(';').map((s) => s.trim().toLowerCase());
    expect(attributes).not.toContain('httponly');
    expect(attributes).toEqual(expect.arrayContaining(['path=/', 'samesite=lax', `max-age=${PERIOD_S}`]));
    expect(client.cookie('sam_reauth')).toBe(String(clock.now().getTime() / 1000 + PERIOD_S));
    // A sign-in that stops at a forced step is not complete: no cookie yet.
    const pending = await server.client().login('C10004');
    expect(reauthCookie(pending.setCookies)).toBeUndefined();
  });

  it('answers not expired within the period (renewing the cookie) and expired after it', async () => {
    const client = await signedIn();
    clock.advance(10 * 60_000);
    const fresh = await get<boolean>(client, 'reenter-password/expired');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toBe(false);
    expect(reauthCookie(fresh.setCookies)).toContain(`Max-Age=${5 * 60}`);

    clock.advance(5 * 60_000);
    const stale = await get<boolean>(client, 'reenter-password/expired');
    expect(stale.body).toBe(true);
    expect(client.cookie('sam_reauth')).toBeUndefined();

    // Re-entering the password makes it recent for another period.
    const again = await post(client, 'reenter-password', { currentPassword: DEMO_PASSWORD });
    expect(again.status).toBe(204);
    expect(reauthCookie(again.setCookies)).toContain(`Max-Age=${PERIOD_S}`);
    expect((await get<boolean>(client, 'reenter-password/expired')).body).toBe(false);
    clock.advance(PERIOD_S * 1000 - 1000);
    expect((await get<boolean>(client, 'reenter-password/expired')).body).toBe(false);
    clock.advance(1000);
    expect((await get<boolean>(client, 'reenter-password/expired')).body).toBe(true);
  });

  it('refuses a wrong password with 422, counting it like a failed sign-in; the right one clears the count', async () => {
    const client = await signedIn();
    const wrong = await post(client, 'reenter-password', { currentPassword: 'not-the-password-1' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({
      message: REENTER_PASSWORD_INCORRECT_MESSAGE,
      errors: [{ fieldName: 'currentPassword', message: REENTER_PASSWORD_INCORRECT_MESSAGE }],
    });
    expect(reauthCookie(wrong.setCookies)).toBeUndefined();
    await post(client, 'reenter-password', { currentPassword: 'not-the-password-2' });
    expect(await failedCount()).toBe(2);
    expect((await post(client, 'reenter-password', { currentPassword: DEMO_PASSWORD })).status).toBe(204);
    expect(await failedCount()).toBe(0);
  });

  it('ends the session at the 5th wrong password, rerouting to sign-in', async () => {
    const client = await signedIn();
    for (let i = 1; i <= 4; i++)
      expect((await post(client, 'reenter-password', { currentPassword: `wrong-${i}` })).status).toBe(422);
    const fifth = await post(client, 'reenter-password', { currentPassword: 'wrong-5' });
    expect(fifth.status).toBe(422);
    expect(fifth.body).toEqual({ message: TOO_MANY_PASSWORD_FAILURES_MESSAGE, reroute: '/' });
    expect((await get<Json>(client, 'anonymous/current-user')).body.type).toBe('ANONYMOUS');
    expect((await post(client, 'reenter-password', { currentPassword: DEMO_PASSWORD })).status).toBe(401);
    // The sign-in page asks for the captcha now.
    expect(await failedCount()).toBe(5);
  });

  it('refuses admin calls and handoffs once the period is over, until the password is entered again', async () => {
    const client = server.client();
    expect((await client.login<Json>('admin1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    const auditor = server.client();
    expect((await auditor.login<Json>('auditor1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    const c10001 = await signedIn();
    const handoff = (c: TestClient) =>
      post(c, 'current-user/saml-handoff', { appCode: 'PAYROLL', facilityCode: null });
    const smsSwitch = () =>
      post(client, 'admin/properties/sms-gateway-status', { isSmsGatewayAvailable: true });
    expect((await get(client, 'admin/apps')).status).toBe(200);
    expect((await handoff(c10001)).status).toBe(200);
    expect((await get(auditor, 'access-requests')).status).toBe(200);
    expect((await smsSwitch()).status).toBe(200);

    clock.advance(PERIOD_S * 1000 + 1000);
    const stale = await get(client, 'admin/apps');
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual({ message: REENTER_PASSWORD_REQUIRED_MESSAGE, url: '/' });
    expect((await handoff(c10001)).body).toEqual({ message: REENTER_PASSWORD_REQUIRED_MESSAGE, url: '/' });
    // The SMS gateway switch and what a viewer of access requests reads are held back alike.
    expect((await smsSwitch()).body).toEqual({ message: REENTER_PASSWORD_REQUIRED_MESSAGE, url: '/' });
    expect((await get(auditor, 'access-requests')).body).toEqual({
      message: REENTER_PASSWORD_REQUIRED_MESSAGE,
      url: '/',
    });
    // Reading one's own things goes on; the modal asks for the password.
    expect((await get(c10001, 'profile/enrolled-factors')).status).toBe(200);
    expect((await get(client, 'reenter-password/expired')).body).toBe(true);

    expect((await post(client, 'reenter-password', { currentPassword: DEMO_PASSWORD })).status).toBe(204);
    expect((await get(client, 'admin/apps')).status).toBe(200);
    expect((await post(c10001, 'reenter-password', { currentPassword: DEMO_PASSWORD })).status).toBe(204);
    expect((await handoff(c10001)).status).toBe(200);
  });

  it("the modal's poll does not keep an unattended session from its idle timeout", async () => {
    const client = await signedIn();
    const idleMs = server.config.sessionIdleMinutes * 60_000;
    // The user leaves; the password entry expires and the modal polls until the idle time is up.
    for (let waited = 0; waited < idleMs; waited += 60_000) {
      clock.advance(60_000);
      const poll = await get(client, 'reenter-password/expired');
      if (waited + 60_000 < idleMs) expect(poll.status, `after ${waited + 60_000} ms`).toBe(200);
    }
    clock.advance(1_000);
    expect((await get(client, 'reenter-password/expired')).status).toBe(401);
    expect((await get<Json>(client, 'anonymous/current-user')).body.type).toBe('ANONYMOUS');
  });

  it('needs an authenticated session and a password', async () => {
    expect((await get(server.client(), 'reenter-password/expired')).status).toBe(401);
    expect((await post(server.client(), 'reenter-password', { currentPassword: DEMO_PASSWORD })).status).toBe(
      401,
    );
    const pending = server.client();
    await signInToStep(pending, 'C10004', 'MFA');
    expect((await get(pending, 'reenter-password/expired')).status).toBe(403);
    const client = await signedIn();
    for (const body of [{}, { currentPassword: '' }, { currentPassword: DEMO_PASSWORD, extra: true }]) {
      const res = await post(client, 'reenter-password', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await failedCount()).toBe(0);
  });

  it('takes the period from REENTER_PASSWORD_MINUTES', () => {
    expect(loadConfig({}).reenterPasswordMinutes).toBe(15);
    expect(loadConfig({ REENTER_PASSWORD_MINUTES: '5' }).reenterPasswordMinutes).toBe(5);
    expect(() => loadConfig({ REENTER_PASSWORD_MINUTES: '0' })).toThrow(/REENTER_PASSWORD_MINUTES/);
  });
});
