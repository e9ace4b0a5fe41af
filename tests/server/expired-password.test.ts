// The change-expired-password step over real HTTP (C10002): the policy of section 9 (400, as the
// portal checks it first), the blocklist and the other refusals with their reasons (422), then the
// change in one transaction (trusted devices revoked, other sessions ended) and sign-in with the
// new password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD_BRAND_MESSAGE,
  PASSWORD_COMMON_MESSAGE,
  PASSWORD_MISMATCH_MESSAGE,
  PASSWORD_PERSONAL_MESSAGE,
  PASSWORD_SAME_MESSAGE,
} from '../../src/server/domain/password-policy';
import { INCORRECT_CREDENTIALS_MESSAGE } from '../../src/server/domain/messages';
import { DEMO_PASSWORD, snapshot, startServer, type TestServer } from './support/server';
import { targets } from './support/targets';
import { get, post, signInToStep, totpAt, type Json } from './support/factors';

const HINT = 'At least 14 characters with at least 1 letter and 1 number';
const NEW_PASSWORD = 'Quiet-Meadow-Lantern-77';

describe.each(targets)('change expired password on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  const change = (client: ReturnType<TestServer['client']>, password: string, confirmPassword = password) =>
    post(client, 'forced-actions/change-expired-password', { password, confirmPassword });

  it('refuses weak, blocklisted, mismatched and unchanged passwords with the reason, changing nothing', async () => {
    const client = server.client();
    await signInToStep(client, 'C10002', 'CHANGE_EXPIRED_PASSWORD');
    const tables = async () => ({
      ...(await snapshot(server.db)),
      devices: await server.db.selectFrom('trusted_devices').selectAll().execute(),
    });
    const before = await tables();

    // Section 9's rule is the contract's: the portal checks it, so the server answers 400.
    for (const weak of ['short1', 'onlylettersxxxxxxx', '12345678901234567']) {
      const res = await change(client, weak);
      expect(res.status, weak).toBe(400);
      expect(res.body).toMatchObject({ errors: [{ fieldName: 'password', message: HINT }] });
    }
    const missing = await post(client, 'forced-actions/change-expired-password', { password: NEW_PASSWORD });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      errors: [{ fieldName: 'confirmPassword', message: 'Required field' }],
    });

    const cases: Array<[string, string, string]> = [
      ['Password12345678', 'password', PASSWORD_COMMON_MESSAGE],
      ['Qwerty123456789!', 'password', PASSWORD_COMMON_MESSAGE],
      ['C10002-springtime-9', 'password', PASSWORD_PERSONAL_MESSAGE],
      ['Fletcher-family-2026', 'password', PASSWORD_PERSONAL_MESSAGE],
      ['Payroll-access-2026', 'password', PASSWORD_BRAND_MESSAGE],
      ['MyLoans-account-77', 'password', PASSWORD_BRAND_MESSAGE],
      ['Bank-of-mine-20266', 'password', PASSWORD_BRAND_MESSAGE],
      [DEMO_PASSWORD, 'password', PASSWORD_SAME_MESSAGE],
    ];
    for (const [password, field, message] of cases) {
      const res = await change(client, password);
      expect(res.status, password).toBe(422);
      expect(res.body, password).toEqual({ message, errors: [{ fieldName: field, message }] });
    }
    const mismatch = await change(client, NEW_PASSWORD, `${NEW_PASSWORD}x`);
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toEqual({
      message: PASSWORD_MISMATCH_MESSAGE,
      errors: [{ fieldName: 'confirmPassword', message: PASSWORD_MISMATCH_MESSAGE }],
    });
    expect(await tables()).toEqual(before);
    expect((await get<Json>(client, 'anonymous/current-user')).body.type).toBe('AUTHENTICATION_PENDING');
  });

  it('changes the password, continues the sign-in, and the new password signs in', async () => {
    // A second session of C10002 and a trusted device exist before the change.
    const elsewhere = server.client();
    await signInToStep(elsewhere, 'C10002', 'CHANGE_EXPIRED_PASSWORD');
    const { id } = await server.db
      .selectFrom('identities')
      .select('id')
      .where('username', '=', 'C10002')
      .executeTakeFirstOrThrow();
    await server.db
      .insertInto('trusted_devices')
      .values({
        id: '00000000-0000-4000-8000-000000000002',
        identity_id: id,
        token_hash: 'f'.repeat(64),
        browser_family: null,
        browser_major: null,
        browser_minor: null,
        os_family: null,
        os_version: null,
        city_name: null,
        country_name: null,
        continent_name: null,
        created_at: new Date(),
        last_active_at: new Date(),
        expires_at: new Date(Date.now() + 86_400_000),
      })
      .execute();

    const client = server.client();
    await signInToStep(client, 'C10002', 'CHANGE_EXPIRED_PASSWORD');
    const res = await change(client, NEW_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
      forcedAction: null,
      currentUser: { username: 'C10002', isAuthenticated: true, type: 'AUTHENTICATED' },
    });
    expect(res.setCookies.some((c) => c.startsWith('sam_reauth='))).toBe(true);

    const identity = await server.db
      .selectFrom('identities')
      .select('password_expired')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(identity.password_expired).toBe(false);
    expect(
      await server.db.selectFrom('trusted_devices').selectAll().where('identity_id', '=', id).execute(),
    ).toEqual([]);
    // The other session ended; this one lives on.
    expect((await get<Json>(elsewhere, 'anonymous/current-user')).body.type).toBe('ANONYMOUS');
    expect((await get<Json>(client, 'anonymous/current-user')).body.type).toBe('AUTHENTICATED');
    // The step is done: calling it again is refused.
    expect((await change(client, 'Another-Fresh-Phrase-88')).status).toBe(403);

    const old = await server.client().login('C10002');
    expect(old.status).toBe(422);
    expect(old.body).toEqual({ message: INCORRECT_CREDENTIALS_MESSAGE });
    const fresh = await server.client().login<Json>('C10002', NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ outcome: 'DIRECT_LOGIN', currentUser: { username: 'C10002' } });
  });

  it('refuses anonymous callers and sessions in another step', async () => {
    expect((await change(server.client(), NEW_PASSWORD)).status).toBe(401);
    const mfa = server.client();
    await signInToStep(mfa, 'C10004', 'MFA');
    expect((await change(mfa, NEW_PASSWORD)).status).toBe(403);
  });

  it('asks an account with a second factor for it before the new password: the old password alone changes nothing', async () => {
    await server.db
      .updateTable('identities')
      .set({ password_expired: true })
      .where('username', '=', 'C10004')
      .execute();
    try {
      const client = server.client();
      const login = await client.login<Json>('C10004');
      expect(login.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'MFA' });
      // Not yet: the step is MFA.
      expect((await change(client, NEW_PASSWORD)).status).toBe(403);
      expect((await post(client, 'forced-actions/mfa/start')).body).toMatchObject({
        nextFactor: 'AUTHENTICATOR_APP',
      });
      const verified = await post<Json>(client, 'forced-actions/mfa/verify-authenticator-app', {
        code: totpAt({ now: () => new Date() }),
        trustDevice: false,
      });
      expect(verified.body).toMatchObject({
        outcome: 'FORCED_ACTION',
        forcedAction: 'CHANGE_EXPIRED_PASSWORD',
      });
      expect((await change(client, 'Fresh-Harbour-Phrase-2040')).status).toBe(200);
    } finally {
      await server.db
        .updateTable('identities')
        .set({ password_expired: false })
        .where('username', '=', 'C10004')
        .execute();
    }
  });
});
