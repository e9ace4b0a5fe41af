// Profile self-service over real HTTP on PGlite and PostgreSQL: every change needs the current
// password (a wrong one changes nothing and counts), bad input is refused with field errors, a
// new email or mobile counts only once its code is verified, an authenticator app is replaced
// only once a code of the new one matches, changes are recorded in the identity's history with a
// notice to the old address, and signing out of all devices ends the other browsers' sessions and
// makes earlier JWTs invalid for the apps that ask /jwt/valid-after.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { latestTodayIsoDate } from '../../src/contract/profile';
import { ManualClock } from '../../src/server/adapters/clock';
import { startTreasuryDemo, type TreasuryDemo } from '../../src/server/demo/sp/treasury';
import type { Database } from '../../src/server/db/schema';
import { base32Decode, hotp, totpStep } from '../../src/server/domain/factors/totp';
import { IDENTITY_VERIFIED_WARNING } from '../../src/server/domain/profile/messages';
import { DEMO_PASSWORD, startServer, usernameKey, type TestClient, type TestServer } from './support/server';
import { copyOfIdentity } from './support/identities';
import { targets } from './support/targets';
import { get, latestCode, outbox, post, totpAt, wrongTotp, type Json } from './support/factors';

const WRONG = 'Not-The-Password-2026';

/** What a profile change could touch, without the failure counters a wrong password must move. */
async function profileState(db: Kysely<Database>, identityId: string) {
  const [identity, credentials, factors, answers, devices, events, pending] = await Promise.all([
    db.selectFrom('identities').selectAll().where('id', '=', identityId).executeTakeFirstOrThrow(),
    db.selectFrom('credentials').selectAll().where('identity_id', '=', identityId).execute(),
    db
      .selectFrom('identity_factors')
      .selectAll()
      .where('identity_id', '=', identityId)
      .orderBy('factor_type')
      .execute(),
    db.selectFrom('security_answers').selectAll().where('identity_id', '=', identityId).execute(),
    db.selectFrom('trusted_devices').selectAll().where('identity_id', '=', identityId).execute(),
    db.selectFrom('identity_events').selectAll().where('identity_id', '=', identityId).execute(),
    db.selectFrom('profile_pending_changes').selectAll().where('identity_id', '=', identityId).execute(),
  ]);
  return { identity, credentials, factors, answers, devices, events, pending };
}

const patch = (client: TestClient, json: unknown) =>
  client.request<Json>('PATCH', '/rest/ui/profile', { json });

describe.each(targets)('profile on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-03-02T09:00:05Z');

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
  beforeEach(() => {
    // Past the 30-second resend interval, onto a fresh TOTP step.
    clock.advance(5 * 60_000);
  });

  const identityId = async (username: string) =>
    (
      await server.db
        .selectFrom('identities')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  /** A fresh identity like C10001 but not identity verified (same password, no grants or factors). */
  let clones = 0;
  const freshIdentity = async (): Promise<string> => {
    const username = `P${String(++clones).padStart(5, '0')}`;
    await copyOfIdentity(server.db, { username, identity_verified: false });
    return username;
  };

  const signedIn = async (username: string): Promise<TestClient> => {
    const client = server.client();
    const res = await client.login<Json>(username);
    expect(res.body.outcome, JSON.stringify(res.body)).toBe('DIRECT_LOGIN');
    return client;
  };

  const eventsOf = async (id: string) =>
    server.db
      .selectFrom('identity_events')
      .select(['type', 'description', 'actor_identity_id', 'ticket_code', 'ticket_url', 'variant'])
      .where('identity_id', '=', id)
      .orderBy('id')
      .execute();

  it('refuses every change with a wrong current password: 422 on currentPassword, nothing changed, failures counted', async () => {
    const client = await signedIn('C10001');
    const id = await identityId('C10001');
    const before = await profileState(server.db, id);
    const attempts: Array<[string, string, Json]> = [
      ['PATCH', 'profile', { currentPassword: WRONG, name: 'Someone Else' }],
      ['PATCH', 'profile', { currentPassword: WRONG, phone: '+61 2 9999 0000' }],
      ['PATCH', 'profile', { currentPassword: WRONG, birthDate: '1990-01-01' }],
      [
        'POST',
        'profile/change-password',
        {
          currentPassword: WRONG,
          newPassword: 'Quiet-Meadow-Lantern-88',
          confirmNewPassword: 'Quiet-Meadow-Lantern-88',
        },
      ],
      [
        'POST',
        'profile/change-security-questions',
        {
          currentPassword: WRONG,
          question1: 'DRIVERS_LICENCE',
          answer1: 'abcd1234',
          question2: 'MEDICARE',
          answer2: 'efgh5678',
        },
      ],
      ['POST', 'profile/change-mobile/remove', { currentPassword: WRONG }],
      ['POST', 'profile/change-email/start', { currentPassword: WRONG, email: 'new@example.com' }],
      ['POST', 'profile/change-mobile/start', { currentPassword: WRONG, mobile: '+61 400 111 222' }],
      ['POST', 'profile/unenrol-sms', { currentPassword: WRONG }],
      ['POST', 'profile/unenrol-authenticator-app', { currentPassword: WRONG }],
      ['POST', 'profile/change-authenticator-app', { currentPassword: WRONG, code: '123456' }],
    ];
    for (const [method, path, json] of attempts) {
      // A session of its own each time: five wrong passwords in one session end it.
      const attempt = await signedIn('C10001');
      const res = await attempt.request<Json>(method, `/rest/ui/${path}`, { json });
      expect(res.status, `${method} ${path}`).toBe(422);
      expect(res.body.errors).toEqual([
        { fieldName: 'currentPassword', message: 'The password is incorrect.' },
      ]);
      // Counted like a wrong password at sign-in (the captcha comes from the third).
      const failed = await server.db
        .selectFrom('failed_auth_counts')
        .select('count')
        .where('username_key', '=', usernameKey(server, 'c10001'))
        .executeTakeFirstOrThrow();
      expect(failed.count).toBe(1);
      await server.db.deleteFrom('failed_auth_counts').execute();
    }
    expect(await profileState(server.db, id)).toEqual(before);
    expect(await outbox(client, '?to=new@example.com')).toEqual([]);
  });

  it('ends the session after too many wrong current passwords', async () => {
    const client = await signedIn(await freshIdentity());
    let last: Json = {};
    for (let i = 0; i < 5; i++) {
      last = (await patch(client, { currentPassword: WRONG, phone: '02 9999 0000' })).body;
    }
    expect(last).toMatchObject({ reroute: '/' });
    expect((await get(client, 'profile/enrolled-factors')).status).toBe(401);
    await server.db.deleteFrom('failed_auth_counts').execute();
  });

  it('refuses bad input with field errors and changes nothing', async () => {
    const client = await signedIn('C10001');
    const id = await identityId('C10001');
    const before = await profileState(server.db, id);
    const cases: Array<[Json, string]> = [
      [{ currentPassword: DEMO_PASSWORD, name: 'x'.repeat(101) }, 'name'],
      [{ currentPassword: DEMO_PASSWORD, name: '' }, 'name'],
      [{ currentPassword: DEMO_PASSWORD, birthDate: '2001-13-40' }, 'birthDate'],
      [{ currentPassword: DEMO_PASSWORD, birthDate: '02/03/2001' }, 'birthDate'],
      [{ currentPassword: DEMO_PASSWORD, birthDate: '2999-01-01' }, 'birthDate'],
      [{ currentPassword: DEMO_PASSWORD, birthDate: '1899-12-31' }, 'birthDate'],
      [{ currentPassword: DEMO_PASSWORD, phone: '+61 2 9999 0000 0000 00' }, 'phone'],
      [{ currentPassword: DEMO_PASSWORD, phone: '1', extra: true }, 'extra'],
    ];
    for (const [json, field] of cases) {
      const res = await patch(client, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((res.body.errors as Array<{ fieldName: string }>).map((e) => e.fieldName)).toContain(field);
    }
    // Two fields at once, or none, is not one change.
    expect((await patch(client, { currentPassword: DEMO_PASSWORD, name: 'A', phone: '1' })).status).toBe(400);
    expect((await patch(client, { currentPassword: DEMO_PASSWORD })).status).toBe(400);
    // Well-formed but not a phone number: 422 on the field.
    const letters = await patch(client, { currentPassword: DEMO_PASSWORD, phone: 'call me maybe' });
    expect(letters.status).toBe(422);
    expect(letters.body.errors).toMatchObject([{ fieldName: 'phone' }]);
    const email = await post(client, 'profile/change-email/start', {
      currentPassword: DEMO_PASSWORD,
      email: 'not-an-email',
    });
    expect(email.status).toBe(400);
    const mobile = await post(client, 'profile/change-mobile/start', {
      currentPassword: DEMO_PASSWORD,
      mobile: '0400 000 000',
    });
    expect(mobile.status).toBe(422);
    expect(mobile.body.errors).toMatchObject([{ fieldName: 'mobile' }]);
    expect(await profileState(server.db, id)).toEqual(before);
  });

  it('updates name, date of birth (and clears it) and phone, answering the updated user, with history', async () => {
    const username = await freshIdentity();
    const client = await signedIn(username);
    const id = await identityId(username);
    const name = await patch(client, { currentPassword: DEMO_PASSWORD, name: '  Ava   Thompson-Reid ' });
    expect(name.status).toBe(200);
    expect(name.body).toMatchObject({ username, name: 'Ava Thompson-Reid' });
    const dob = await patch(client, { currentPassword: DEMO_PASSWORD, birthDate: '1984-02-29' });
    expect(dob.body).toMatchObject({ birthDate: '1984-02-29' });
    // Today where it is already tomorrow for the server (a user east of it, in the morning) is
    // taken; a day later than today anywhere is not.
    const latestToday = latestTodayIsoDate();
    const east = await patch(client, { currentPassword: DEMO_PASSWORD, birthDate: latestToday });
    expect(east.status).toBe(200);
    expect(east.body).toMatchObject({ birthDate: latestToday });
    const dayAfter = new Date(Date.parse(`${latestToday}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((await patch(client, { currentPassword: DEMO_PASSWORD, birthDate: dayAfter })).status).toBe(400);
    const cleared = await patch(client, { currentPassword: DEMO_PASSWORD, birthDate: null });
    expect(cleared.body).toMatchObject({ birthDate: null });
    const phone = await patch(client, { currentPassword: DEMO_PASSWORD, phone: '+64 2 8888 8888' });
    expect(phone.body).toMatchObject({ phone: '+64 2 8888 8888' });
    const noPhone = await patch(client, { currentPassword: DEMO_PASSWORD, phone: '' });
    expect(noPhone.body).toMatchObject({ phone: null });
    const current = await get(client, 'anonymous/current-user');
    expect(current.body).toMatchObject({ name: 'Ava Thompson-Reid', birthDate: null, phone: null });
    const events = await eventsOf(id);
    expect(events.map((e) => e.type)).toEqual([
      'PROFILE_NAME_CHANGED',
      'PROFILE_BIRTH_DATE_CHANGED',
      'PROFILE_BIRTH_DATE_CHANGED',
      'PROFILE_BIRTH_DATE_CHANGED',
      'PROFILE_PHONE_CHANGED',
      'PROFILE_PHONE_CHANGED',
    ]);
    expect(events[0]).toMatchObject({
      actor_identity_id: id,
      description: expect.stringContaining('Ava Thompson-Reid'),
    });
  });

  it('keeps name and date of birth of an identity-verified user, with the spec warning', async () => {
    const client = await signedIn('C10010');
    expect((await get(client, 'profile/identity-verified')).body).toBe(true);
    for (const json of [{ name: 'Changed' }, { birthDate: '1970-01-01' }]) {
      const res = await patch(client, { currentPassword: DEMO_PASSWORD, ...json });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([
        { fieldName: Object.keys(json)[0], message: IDENTITY_VERIFIED_WARNING },
      ]);
    }
    // The phone is still theirs to change.
    expect((await patch(client, { currentPassword: DEMO_PASSWORD, phone: '02 9000 0000' })).status).toBe(200);
  });

  it('each email change of a session has its own five codes: a verified code ends its step', async () => {
    const client = await signedIn('C10001');
    const change = async (email: string) => {
      const start = await post(client, 'profile/change-email/start', {
        currentPassword: DEMO_PASSWORD,
        email,
      });
      expect(start.status, `${email}: ${JSON.stringify(start.body)}`).toBe(204);
      const verified = await post(client, 'profile/change-email/verify-email', {
        code: await latestCode(client, email),
      });
      expect(verified.status).toBe(200);
    };
    // Six changes, one code each: the sixth was refused ('… Sign in again …') when the session's
    // five sends counted across changes.
    for (let n = 1; n <= 6; n++) await change(`changed-${n}@example.com`);
    // Within one change the limit holds: four resends after the start, then no more.
    await post(client, 'profile/change-email/start', {
      currentPassword: DEMO_PASSWORD,
      email: 'changed-7@example.com',
    });
    for (let sent = 2; sent <= 5; sent++) {
      clock.advance(31_000);
      expect((await post(client, 'profile/change-email/send-email')).status, `send ${sent}`).toBe(204);
    }
    clock.advance(31_000);
    expect((await post(client, 'profile/change-email/send-email')).status).toBe(422);
  });

  it('changes the email only once the code sent to the new address is verified; cancel forgets it', async () => {
    const client = await signedIn('C10001');
    const id = await identityId('C10001');
    const oldEmail = (await profileState(server.db, id)).identity.email;
    const start = await post(client, 'profile/change-email/start', {
      currentPassword: DEMO_PASSWORD,
      email: 'ava.new@example.com',
    });
    expect(start.status).toBe(204);
    // Not yet: the account keeps its email until the code is verified.
    expect((await get(client, 'anonymous/current-user')).body).toMatchObject({ email: oldEmail });
    const sent = await latestCode(client, 'ava.new@example.com');
    const wrong = await post(client, 'profile/change-email/verify-email', {
      code: sent === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toMatchObject([{ fieldName: 'code' }]);
    expect((await profileState(server.db, id)).identity.email).toBe(oldEmail);

    clock.advance(31_000);
    expect((await post(client, 'profile/change-email/send-email')).status).toBe(204);
    const code = await latestCode(client, 'ava.new@example.com');
    const verified = await post(client, 'profile/change-email/verify-email', { code });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ email: 'ava.new@example.com' });
    // A notice went to the old address.
    const [notice] = await outbox(client, `?to=${encodeURIComponent(oldEmail ?? '')}&limit=1`);
    expect(notice).toMatchObject({ subject: 'Your email was changed', code: null });
    expect(notice?.text).toContain('ava.new@example.com');
    expect((await eventsOf(id)).at(-1)).toMatchObject({ type: 'EMAIL_CHANGED' });

    // A started change that is cancelled leaves nothing to verify.
    clock.advance(31_000);
    await post(client, 'profile/change-email/start', {
      currentPassword: DEMO_PASSWORD,
      email: 'other@example.com',
    });
    const otherCode = await latestCode(client, 'other@example.com');
    expect((await post(client, 'profile/change-email/cancel')).status).toBe(204);
    const afterCancel = await post(client, 'profile/change-email/verify-email', { code: otherCode });
    expect(afterCancel.status).toBe(422);
    expect((await profileState(server.db, id)).identity.email).toBe('ava.new@example.com');
  });

  it('changes the mobile after its SMS code, enables and disables the SMS factor, removes the mobile', async () => {
    const client = await signedIn('C10001');
    const id = await identityId('C10001');
    const start = await post(client, 'profile/change-mobile/start', {
      currentPassword: DEMO_PASSWORD,
      mobile: '+61 400 123 456',
    });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ isSmsVerificationRequired: true, mobile: '+61 400 123 456' });
    expect((await profileState(server.db, id)).identity.mobile).toBe('+61 400 000 001');
    const changed = await post(client, 'profile/change-mobile/verify-mobile', {
      code: await latestCode(client, '+61 400 123 456'),
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ mobile: '+61 400 123 456' });
    expect((await get(client, 'profile/enrolled-factors')).body).toEqual([]);

    // The enable-SMS wizard: same calls with enrolSmsFactor.
    clock.advance(31_000);
    const enrol = await post(client, 'profile/change-mobile/start', {
      currentPassword: DEMO_PASSWORD,
      mobile: '+61 400 123 456',
      enrolSmsFactor: true,
    });
    expect(enrol.body).toMatchObject({ isSmsVerificationRequired: true });
    await post(client, 'profile/change-mobile/verify-mobile', {
      code: await latestCode(client, '+61 400 123 456'),
    });
    expect((await get(client, 'profile/enrolled-factors')).body).toEqual(['SMS']);

    expect((await post(client, 'profile/unenrol-sms', { currentPassword: DEMO_PASSWORD })).status).toBe(204);
    expect((await get(client, 'profile/enrolled-factors')).body).toEqual([]);
    const again = await post(client, 'profile/unenrol-sms', { currentPassword: DEMO_PASSWORD });
    expect(again.status).toBe(422);

    const removed = await post(client, 'profile/change-mobile/remove', { currentPassword: DEMO_PASSWORD });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ mobile: null });
    expect((await eventsOf(id)).map((e) => e.type).slice(-4)).toEqual([
      'MOBILE_CHANGED',
      'SMS_FACTOR_ENABLED',
      'SMS_FACTOR_DISABLED',
      'MOBILE_REMOVED',
    ]);
  });

  it('answers 503 with the customer message when SMS is unavailable, and starts nothing', async () => {
    const username = await freshIdentity();
    const client = await signedIn(username);
    const id = await identityId(username);
    await server.app.services.factors.smsGateway.setAvailable(false);
    try {
      const res = await post(client, 'profile/change-mobile/start', {
        currentPassword: DEMO_PASSWORD,
        mobile: '+61 400 765 432',
      });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        message: 'SMS verification codes are currently unavailable.',
        customerMessage:
          'SMS verification codes are currently unavailable. You may try to enrol mobile as a factor at a later date.',
      });
      expect((await profileState(server.db, id)).pending).toEqual([]);
    } finally {
      await server.app.services.factors.smsGateway.setAvailable(true);
    }
  });

  it('enables an authenticator app, then replaces it: the old app works until the new one is verified', async () => {
    const client = await signedIn('C10001');
    const id = await identityId('C10001');
    const setup = await get<{ setupKey: string }>(client, 'profile/change-authenticator-app/setup-key');
    const qr = await get<string>(client, 'profile/change-authenticator-app/qr-code');
    expect(qr.body).toMatch(/^data:image\/png;base64,/);
    const secret = base32Decode(setup.body.setupKey.replace(/\s/g, ''));
    const codeOf = (s: Buffer) => hotp(s, totpStep(clock.now()));

    const wrong = await post(client, 'profile/change-authenticator-app', {
      currentPassword: DEMO_PASSWORD,
      code: wrongTotp(clock, setup.body.setupKey.replace(/\s/g, '')),
    });
    expect(wrong.status).toBe(422);
    expect((await get(client, 'profile/enrolled-factors')).body).toEqual([]);
    const enabled = await post(client, 'profile/change-authenticator-app', {
      currentPassword: DEMO_PASSWORD,
      code: codeOf(secret),
    });
    expect(enabled.status).toBe(204);
    expect((await get(client, 'profile/enrolled-factors')).body).toEqual(['AUTHENTICATOR_APP']);

    // Editing mode: a new secret is shown; the enrolled app still signs in until it is verified.
    clock.advance(60_000);
    const next = await get<{ setupKey: string }>(client, 'profile/change-authenticator-app/setup-key');
    expect(next.body.setupKey).not.toBe(setup.body.setupKey);
    const newSecret = base32Decode(next.body.setupKey.replace(/\s/g, ''));
    expect(await server.app.services.factors.factors.checkAuthenticatorApp(id, codeOf(secret))).toBe('ok');
    clock.advance(30_000);
    const changed = await post(client, 'profile/change-authenticator-app', {
      currentPassword: DEMO_PASSWORD,
      code: codeOf(newSecret),
    });
    expect(changed.status).toBe(204);
    clock.advance(30_000);
    expect(await server.app.services.factors.factors.checkAuthenticatorApp(id, codeOf(secret))).toBe(
      'incorrect',
    );
    expect(await server.app.services.factors.factors.checkAuthenticatorApp(id, codeOf(newSecret))).toBe('ok');

    expect(
      (await post(client, 'profile/unenrol-authenticator-app', { currentPassword: DEMO_PASSWORD })).status,
    ).toBe(204);
    expect((await get(client, 'profile/enrolled-factors')).body).toEqual([]);
    expect((await eventsOf(id)).map((e) => e.type).slice(-3)).toEqual([
      'AUTHENTICATOR_APP_ENABLED',
      'AUTHENTICATOR_APP_CHANGED',
      'AUTHENTICATOR_APP_DISABLED',
    ]);
  });

  it('changes security questions (answers hashed) and refuses unknown or equal questions', async () => {
    const client = await signedIn('C10001');
    const id = await identityId('C10001');
    const same = await post(client, 'profile/change-security-questions', {
      currentPassword: DEMO_PASSWORD,
      question1: 'MEDICARE',
      answer1: 'abcd',
      question2: 'MEDICARE',
      answer2: 'efgh',
    });
    expect(same.status).toBe(422);
    expect(same.body.errors).toMatchObject([{ fieldName: 'question2' }]);
    const short = await post(client, 'profile/change-security-questions', {
      currentPassword: DEMO_PASSWORD,
      question1: 'DRIVERS_LICENCE',
      answer1: 'abc',
      question2: 'MEDICARE',
      answer2: 'efgh',
    });
    expect(short.status).toBe(400);
    const ok = await post(client, 'profile/change-security-questions', {
      currentPassword: DEMO_PASSWORD,
      question1: 'DRIVERS_LICENCE',
      answer1: 'Licence 12345',
      question2: 'MEDICARE',
      answer2: 'Medicare 678',
    });
    expect(ok.status).toBe(204);
    expect(
      await server.app.services.factors.factors.checkSecurityAnswer(id, 'DRIVERS_LICENCE', 'licence  12345'),
    ).toBe(true);
    const stored = await server.db
      .selectFrom('security_answers')
      .select('answer_hash')
      .where('identity_id', '=', id)
      .execute();
    expect(stored.every((a) => a.answer_hash.startsWith('$argon2id$'))).toBe(true);
  });

  it('new security questions revoke the trusted devices, as other factor changes do', async () => {
    // The answers are a reset factor: a browser trusted before they changed is trusted no more.
    const username = await freshIdentity();
    const id = await identityId(username);
    const client = await signedIn(username);
    await server.app.services.factors.trustedDevices.trust({
      identityId: id,
      userAgent: 'test',
      ipAddress: null,
    });
    expect((await get<Json[]>(client, 'profile/trusted-devices/active')).body).toHaveLength(1);
    const ok = await post(client, 'profile/change-security-questions', {
      currentPassword: DEMO_PASSWORD,
      question1: 'DRIVERS_LICENCE',
      answer1: 'Licence 24680',
      question2: 'MEDICARE',
      answer2: 'Medicare 1357',
    });
    expect(ok.status).toBe(204);
    expect((await get<Json[]>(client, 'profile/trusted-devices/active')).body).toEqual([]);
    expect(
      await server.db.selectFrom('trusted_devices').select('id').where('identity_id', '=', id).execute(),
    ).toEqual([]);
    expect((await eventsOf(id)).at(-1)).toMatchObject({
      type: 'SECURITY_QUESTIONS_CHANGED',
      variant: 'warning',
    });
  });

  it('changes the password (policy, confirmation) and ends the other sessions', async () => {
    const username = await freshIdentity();
    const client = await signedIn(username);
    const other = await signedIn(username);
    const mismatch = await post(client, 'profile/change-password', {
      currentPassword: DEMO_PASSWORD,
      newPassword: 'Quiet-Meadow-Lantern-88',
      confirmNewPassword: 'Quiet-Meadow-Lantern-89',
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toMatchObject([{ fieldName: 'confirmNewPassword' }]);
    const common = await post(client, 'profile/change-password', {
      currentPassword: DEMO_PASSWORD,
      newPassword: 'Password12345678',
      confirmNewPassword: 'Password12345678',
    });
    expect(common.status).toBe(422);
    expect(common.body.errors).toMatchObject([{ fieldName: 'newPassword' }]);
    const short = await post(client, 'profile/change-password', {
      currentPassword: DEMO_PASSWORD,
      newPassword: 'short1',
      confirmNewPassword: 'short1',
    });
    expect(short.status).toBe(400);
    const ok = await post(client, 'profile/change-password', {
      currentPassword: DEMO_PASSWORD,
      newPassword: 'Quiet-Meadow-Lantern-88',
      confirmNewPassword: 'Quiet-Meadow-Lantern-88',
    });
    expect(ok.status).toBe(204);
    expect((await get(client, 'profile/enrolled-factors')).status).toBe(200);
    expect((await get(other, 'profile/enrolled-factors')).status).toBe(401);
    expect((await server.client().login<Json>(username, 'Quiet-Meadow-Lantern-88')).body.outcome).toBe(
      'DIRECT_LOGIN',
    );
  });

  it('lists, deletes one of and clears the trusted devices', async () => {
    const trusted = async () => {
      const client = server.client();
      await client.login('C10004');
      const res = await post(client, 'forced-actions/mfa/verify-authenticator-app', {
        code: totpAt(clock),
        trustDevice: true,
      });
      expect(res.status).toBe(200);
      clock.advance(30_000);
      return client;
    };
    const first = await trusted();
    await trusted();
    const devices = await get<Json[]>(first, 'profile/trusted-devices/active');
    expect(devices.body).toHaveLength(2);
    const [one] = devices.body;
    const notFound = await first.request(
      'DELETE',
      `/rest/ui/profile/trusted-devices/${'0'.repeat(8)}-0000-4000-8000-000000000000`,
    );
    expect(notFound.status).toBe(404);
    expect(
      (await first.request('DELETE', `/rest/ui/profile/trusted-devices/${String(one?.id)}`)).status,
    ).toBe(204);
    expect((await get<Json[]>(first, 'profile/trusted-devices/active')).body).toHaveLength(1);
    expect((await post(first, 'profile/trusted-devices/clear')).status).toBe(204);
    expect((await get<Json[]>(first, 'profile/trusted-devices/active')).body).toEqual([]);
    const types = (await eventsOf(await identityId('C10004'))).map((e) => e.type);
    expect(types.slice(-2)).toEqual(['TRUSTED_DEVICE_REMOVED', 'TRUSTED_DEVICES_CLEARED']);
  });

  it('answers the salary number to staff only', async () => {
    const staff = await signedIn('admin1');
    expect((await get(staff, 'profile/salary-number')).body).toEqual({ salaryNumber: '100001' });
    const customer = await signedIn('C10001');
    expect((await get(customer, 'profile/salary-number')).status).toBe(403);
  });

  it('needs an authenticated session', async () => {
    const anonymous = server.client();
    expect((await get(anonymous, 'profile/enrolled-factors')).status).toBe(401);
    expect((await patch(anonymous, { currentPassword: DEMO_PASSWORD, phone: '1' })).status).toBe(401);
    expect((await post(anonymous, 'current-user/single-logout', {})).status).toBe(401);
  });

  it('a change of password makes the JWTs handed out before it stop counting', async () => {
    const framed = server.client();
    await framed.get('/sso/jwt/TREASURY', { requestedWith: false });
    const login = await framed.login<Json>('admin1', undefined, { type: 'JWT', appCode: 'TREASURY' });
    const token = login.body.jwt as string;
    const id = await identityId('admin1');
    const ask = () =>
      server.client().get<Json>(`/jwt/valid-after/${id}`, {
        requestedWith: false,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await ask()).body).toMatchObject({ tokenValid: true });
    clock.advance(2_000);
    const client = await signedIn('admin1');
    const change = (currentPassword: string, newPassword: string) =>
      post(client, 'profile/change-password', {
        currentPassword,
        newPassword,
        confirmNewPassword: newPassword,
      });
    expect((await change(DEMO_PASSWORD, 'Quiet-Harbour-Lantern-2031')).status).toBe(204);
    expect((await ask()).body).toEqual({ sub: id, validAfter: clock.now().toISOString(), tokenValid: false });
    // Back to the demo password, and no valid-after time, for the tests after this one.
    expect((await change('Quiet-Harbour-Lantern-2031', DEMO_PASSWORD)).status).toBe(204);
    await server.db.updateTable('identities').set({ jwt_valid_after: null }).where('id', '=', id).execute();
  });

  it('signs out of all devices: other sessions end, the ticket is recorded, earlier JWTs stop counting', async () => {
    // A JWT handed to TREASURY before the sign-out.
    const framed = server.client();
    await framed.get('/sso/jwt/TREASURY', { requestedWith: false });
    const login = await framed.login<Json>('admin1', undefined, { type: 'JWT', appCode: 'TREASURY' });
    expect(login.body.outcome).toBe('JWT');
    const token = login.body.jwt as string;
    const id = await identityId('admin1');
    const ask = (bearer: string, sub = id) =>
      server.client().get<Json>(`/jwt/valid-after/${sub}`, {
        requestedWith: false,
        headers: { authorization: `Bearer ${bearer}` },
      });
    expect((await ask(token)).body).toEqual({ sub: id, validAfter: null, tokenValid: true });
    expect((await ask(token, await identityId('C10001'))).status).toBe(401);
    expect((await ask(`${token.slice(0, -4)}AAAA`)).status).toBe(401);
    expect((await server.client().get(`/jwt/valid-after/${id}`, { requestedWith: false })).status).toBe(401);

    const client = await signedIn('admin1');
    const other = await signedIn('admin1');
    const badTicket = await post(client, 'current-user/single-logout', { ticketCode: 'not a ticket' });
    expect(badTicket.status).toBe(422);
    expect((await get(other, 'profile/enrolled-factors')).status).toBe(200);

    clock.advance(2_000);
    const res = await post(client, 'current-user/single-logout', { ticketCode: 'SUP-999999' });
    expect(res.status).toBe(204);
    expect(res.setCookies.some((c) => /^sam_session=;/.test(c) || /^sam_session=.*Max-Age=0/i.test(c))).toBe(
      true,
    );
    expect((await get(other, 'profile/enrolled-factors')).status).toBe(401);
    expect((await get(client, 'profile/enrolled-factors')).status).toBe(401);
    expect((await get(framed, 'anonymous/current-user')).body).toMatchObject({ isAuthenticated: false });
    const sessions = await server.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('identity_id', '=', id)
      .execute();
    expect(sessions).toEqual([]);

    const answer = await ask(token);
    expect(answer.body).toEqual({ sub: id, validAfter: clock.now().toISOString(), tokenValid: false });
    const event = (await eventsOf(id)).at(-1);
    expect(event).toMatchObject({
      type: 'SIGNED_OUT_OF_ALL_DEVICES',
      actor_identity_id: id,
      variant: 'warning',
    });
    // The demo data configures a Jira browse URL: the ticket is linked.
    expect(event).toMatchObject({
      ticket_code: 'SUP-999999',
      ticket_url: 'https://jira.example.com/browse/SUP-999999',
    });
  });
});

describe.each(targets)('the TREASURY demo checks valid-after on $name', (target) => {
  // The system clock: the demo verifies the token's expiry against real time.
  let server: TestServer;
  let demo: TreasuryDemo;

  beforeAll(async () => {
    server = await startServer(target);
    demo = await startTreasuryDemo({
      host: '127.0.0.1',
      port: 0,
      publicUrl: server.config.publicUrl,
      jwksUrl: `${server.baseUrl}/.well-known/jwks.json`,
    });
  });
  afterAll(async () => {
    await demo?.close();
    await server?.close();
  });

  it('accepts a token until the user signs out of all devices, then refuses it', async () => {
    const framed = server.client();
    await framed.get('/sso/jwt/TREASURY', { requestedWith: false });
    const login = await framed.login<Json>('admin1', undefined, { type: 'JWT', appCode: 'TREASURY' });
    const verify = async () => {
      const res = await fetch(`http://127.0.0.1:${demo.port}/demo-sp/TREASURY/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: login.body.jwt }),
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    expect((await verify()).status).toBe(200);

    const client = server.client();
    await client.login('admin1');
    expect((await post(client, 'current-user/single-logout', {})).status).toBe(204);
    expect(await verify()).toEqual({
      status: 401,
      body: { reason: 'The user signed out of all devices after this token was issued' },
    });
  });
});
