// Security review, profile: a new password, a new authenticator app, or a verified mobile that
// enables the SMS factor or moves it, moves the current session to a new token (a new cookie), as
// a completed sign-in does, so a token taken before the change is worth nothing after it. The
// password change used to end the other sessions but keep the current token.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { base32Decode, hotp, totpStep } from '../../src/server/domain/factors/totp';
import { hashSessionToken } from '../../src/server/domain/sessions';
import { DEMO_PASSWORD, startServer, type TestClient, type TestServer } from './support/server';
import { copyOfIdentity } from './support/identities';
import { targets } from './support/targets';
import { get, latestCode, post, type Json } from './support/factors';

const COOKIE = 'sam_session';

describe.each(targets)('password and factor changes renew the session token, on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-03-02T09:00:05Z');
  let clones = 0;

  beforeAll(async () => {
    server = await startServer(target, { deps: { clock } });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    // Past the resend interval, onto a fresh TOTP step.
    clock.advance(5 * 60_000);
  });

  /** A fresh identity like C10001 (same password, no factors), signed in. */
  async function signedInClone(): Promise<{ client: TestClient }> {
    const username = `R${String(60000 + ++clones)}`;
    await copyOfIdentity(server.db, { username, mobile: null });
    const client = server.client();
    expect((await client.login<Json>(username)).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    return { client };
  }

  /** A client holding only the session cookie `token`. */
  const holding = (token: string) => {
    const client = server.client();
    client.cookies.set(COOKIE, token);
    return client;
  };

  /**
   * Runs `change` with the client's cookie jar and checks the token moved on: a new session
   * cookie, the old token refused (401) and gone from the database, the new one signed in.
   */
  async function expectRenewed(
    client: TestClient,
    change: () => Promise<{ status: number; setCookies: string[] }>,
  ) {
    const before = client.cookie(COOKIE)!;
    expect(before).toBeDefined();
    const res = await change();
    expect(res.status).toBeLessThan(300);
    expect(res.setCookies.some((c) => c.startsWith(`${COOKIE}=`) && !c.startsWith(`${COOKIE}=;`))).toBe(true);
    const after = client.cookie(COOKIE)!;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect((await get(holding(before), 'profile/enrolled-factors')).status).toBe(401);
    expect(
      await server.db
        .selectFrom('sessions')
        .select('id_hash')
        .where('id_hash', '=', hashSessionToken(before))
        .execute(),
    ).toEqual([]);
    expect((await get(client, 'profile/enrolled-factors')).status).toBe(200);
    expect((await get<Json>(client, 'anonymous/current-user')).body).toMatchObject({ isAuthenticated: true });
  }

  it('a password change issues a new token for the current session; the old one is dead', async () => {
    const { client } = await signedInClone();
    const newPassword = 'Quiet-Meadow-Lantern-88';
    await expectRenewed(client, () =>
      post(client, 'profile/change-password', {
        currentPassword: DEMO_PASSWORD,
        newPassword,
        confirmNewPassword: newPassword,
      }),
    );
    // The session goes on under the new token (a password-checked change works with it).
    const again = await post(client, 'profile/change-password', {
      currentPassword: newPassword,
      newPassword: DEMO_PASSWORD + '-x',
      confirmNewPassword: DEMO_PASSWORD + '-x',
    });
    expect(again.status).toBe(204);
  });

  it('a refused password change keeps the token', async () => {
    const { client } = await signedInClone();
    const before = client.cookie(COOKIE);
    const refused = await post(client, 'profile/change-password', {
      currentPassword: 'Not-The-Password-2026',
      newPassword: 'Quiet-Meadow-Lantern-88',
      confirmNewPassword: 'Quiet-Meadow-Lantern-88',
    });
    expect(refused.status).toBe(422);
    expect(client.cookie(COOKIE)).toBe(before);
    expect((await get(client, 'profile/enrolled-factors')).status).toBe(200);
  });

  it('enabling and changing the authenticator app each issue a new token', async () => {
    const { client } = await signedInClone();
    const enrol = async () => {
      const key = await get<{ setupKey: string }>(client, 'profile/change-authenticator-app/setup-key');
      const secret = base32Decode(key.body.setupKey.replace(/\s/g, ''));
      return post(client, 'profile/change-authenticator-app', {
        currentPassword: DEMO_PASSWORD,
        code: hotp(secret, totpStep(clock.now())),
      });
    };
    await expectRenewed(client, enrol);
    clock.advance(60_000);
    await expectRenewed(client, enrol);
  });

  it('enabling the SMS factor and moving it to another mobile each issue a new token', async () => {
    const { client } = await signedInClone();
    const verify = async (mobile: string, enrolSmsFactor: boolean) => {
      const start = await post<Json>(client, 'profile/change-mobile/start', {
        currentPassword: DEMO_PASSWORD,
        mobile,
        enrolSmsFactor,
      });
      expect(start.body).toMatchObject({ isSmsVerificationRequired: true });
      return post(client, 'profile/change-mobile/verify-mobile', { code: await latestCode(client, mobile) });
    };
    await expectRenewed(client, () => verify('+61 400 060 001', true));
    expect((await get<string[]>(client, 'profile/enrolled-factors')).body).toContain('SMS');
    clock.advance(5 * 60_000);
    await expectRenewed(client, () => verify('+61 400 060 002', false));
    const sms = await server.db
      .selectFrom('identity_factors')
      .select('mobile')
      .where('factor_type', '=', 'SMS')
      .where('mobile', '=', '+61 400 060 002')
      .execute();
    expect(sms).toHaveLength(1);
  });
});
