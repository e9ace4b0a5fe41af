// The factor enrolment step over real HTTP (C10003: MFA required, nothing enrolled): email code
// sent when the step starts, SMS, authenticator app, security questions, one-transaction submit
// that passes MFA for the sign-in, the order the server enforces, and refusals that change nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { createSecretBox } from '../../src/server/adapters/secret-box';
import { normaliseSecurityAnswer } from '../../src/server/domain/factors/factors';
import {
  CODE_INCORRECT_MESSAGE,
  ENROL_EMAIL_FIRST_MESSAGE,
  MOBILE_FORMAT_MESSAGE,
  QUESTION_UNKNOWN_MESSAGE,
  QUESTIONS_SAME_MESSAGE,
  RESEND_TOO_SOON_MESSAGE,
  SECURITY_QUESTIONS_MESSAGE,
  SMS_UNAVAILABLE_CUSTOMER_MESSAGE,
  SMS_UNAVAILABLE_MESSAGE,
  TOTP_ALREADY_USED_MESSAGE,
} from '../../src/server/domain/factors/messages';
import { base32Decode, hotp, totpStep } from '../../src/server/domain/factors/totp';
import { hashSessionToken } from '../../src/server/domain/sessions';
import { snapshot, startServer, TEST_DATA_KEY, type TestServer } from './support/server';
import { targets } from './support/targets';
import { get, latestCode, outbox, post, signInToStep, type Json } from './support/factors';

const EMAIL = 'c10003@example.com';
const MOBILE = '+61 400 000 003';
const QUESTIONS = {
  question1: 'DRIVERS_LICENCE',
  answer1: 'NSW 1234',
  question2: 'MEDICARE',
  answer2: '2123 45670 1',
};

describe.each(targets)('factor enrolment on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-03-02T09:00:05Z');

  beforeAll(async () => {
    server = await startServer(target, { deps: { clock } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const c10003 = async () =>
    server.db.selectFrom('identities').selectAll().where('username', '=', 'C10003').executeTakeFirstOrThrow();

  beforeEach(async () => {
    // C10003 back to nothing enrolled.
    clock.advance(5 * 60_000);
    const { id } = await c10003();
    await server.db.deleteFrom('identity_factors').where('identity_id', '=', id).execute();
    await server.db.deleteFrom('security_answers').where('identity_id', '=', id).execute();
    await server.db.updateTable('identities').set({ mobile: null }).where('id', '=', id).execute();
    await server.db.deleteFrom('failed_auth_counts').execute();
    await server.app.services.factors.smsGateway.setAvailable(true);
  });

  it('C10003 enrols email, SMS and security questions, and signs in without MFA', async () => {
    const client = server.client();
    await signInToStep(client, 'C10003', 'FACTOR_ENROLMENT');
    expect((await get(client, 'forced-actions/factor-enrolment/mfa-required')).body).toBe(true);

    // The email code went out when the step started.
    const [email] = await outbox(client, `?to=${EMAIL}&limit=1`);
    expect(email).toMatchObject({ channel: 'EMAIL', to: EMAIL, subject: 'Your verification code' });
    expect(email!.text).toContain(email!.code);
    expect(email!.text).toContain('10 minutes');

    const wrong = await post(client, 'forced-actions/factor-enrolment/verify-email', {
      code: email!.code === '000000' ? '000001' : '000000',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ message: CODE_INCORRECT_MESSAGE });
    const verified = await post(client, 'forced-actions/factor-enrolment/verify-email', {
      code: email!.code,
    });
    expect(verified.status).toBe(204);

    const local = await post(client, 'forced-actions/factor-enrolment/enrol-sms', '0400 000 003');
    expect(local.status).toBe(422);
    expect(local.body).toEqual({
      message: MOBILE_FORMAT_MESSAGE,
      errors: [{ fieldName: 'mobile', message: MOBILE_FORMAT_MESSAGE }],
    });
    const enrolSms = await post(client, 'forced-actions/factor-enrolment/enrol-sms', '  +61  400 000 003 ');
    expect(enrolSms.status).toBe(200);
    expect(enrolSms.body).toBe(MOBILE);
    const smsCode = await latestCode(client, MOBILE);
    expect(
      (await post(client, 'forced-actions/factor-enrolment/verify-mobile', { code: smsCode })).status,
    ).toBe(204);

    const same = await post(client, 'forced-actions/factor-enrolment/submit', {
      ...QUESTIONS,
      question2: 'DRIVERS_LICENCE',
    });
    expect(same.status).toBe(422);
    expect(same.body).toEqual({
      message: SECURITY_QUESTIONS_MESSAGE,
      errors: [{ fieldName: 'question2', message: QUESTIONS_SAME_MESSAGE }],
    });
    const unknown = await post(client, 'forced-actions/factor-enrolment/submit', {
      ...QUESTIONS,
      question1: 'PET',
    });
    expect(unknown.body).toMatchObject({
      errors: [{ fieldName: 'question1', message: QUESTION_UNKNOWN_MESSAGE }],
    });
    expect(await server.db.selectFrom('identity_factors').selectAll().execute()).toHaveLength(4);

    const done = await post(client, 'forced-actions/factor-enrolment/submit', QUESTIONS);
    expect(done.status).toBe(200);
    // Enrolment proved the factors: no MFA step after it.
    expect(done.body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
      currentUser: { username: 'C10003', type: 'AUTHENTICATED', mobile: MOBILE },
    });
    expect(done.setCookies.some((c) => c.startsWith('sam_reauth='))).toBe(true);

    const identity = await c10003();
    expect(identity.mobile).toBe(MOBILE);
    const factors = await server.db
      .selectFrom('identity_factors')
      .select(['factor_type', 'mobile'])
      .where('identity_id', '=', identity.id)
      .orderBy('factor_type')
      .execute();
    expect(factors).toEqual([
      { factor_type: 'EMAIL', mobile: null },
      { factor_type: 'SMS', mobile: MOBILE },
    ]);
    const answers = await server.db
      .selectFrom('security_answers')
      .selectAll()
      .where('identity_id', '=', identity.id)
      .orderBy('position')
      .execute();
    expect(answers.map((a) => [a.position, a.question_code])).toEqual([
      [1, 'DRIVERS_LICENCE'],
      [2, 'MEDICARE'],
    ]);
    // Nothing but an argon2id PHC string (parameters, 16-byte salt, 32-byte hash): no room for the
    // answer itself. (A 'not.toContain' on the random base64 would fail about once in 7,000 runs.)
    for (const a of answers)
      expect(a.answer_hash).toMatch(
        /^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
      );
    // Compared after trimming and case folding.
    const facts = server.app.services.factors.factors;
    expect(await facts.checkSecurityAnswer(identity.id, 'DRIVERS_LICENCE', '  nsw   1234 ')).toBe(true);
    expect(await facts.checkSecurityAnswer(identity.id, 'MEDICARE', '2123 45670 2')).toBe(false);

    // The next sign-in asks for the SMS factor just enrolled.
    const next = server.client();
    await signInToStep(next, 'C10003', 'MFA');
    expect((await post(next, 'forced-actions/mfa/start')).body).toEqual({
      nextFactor: 'SMS',
      smsUnavailableMessage: null,
    });
  });

  it('choosing email goes straight to security questions; MFA then asks for email', async () => {
    const client = server.client();
    await signInToStep(client, 'C10003', 'FACTOR_ENROLMENT');
    const code = await latestCode(client, EMAIL);
    await post(client, 'forced-actions/factor-enrolment/verify-email', { code });
    const done = await post(client, 'forced-actions/factor-enrolment/submit', QUESTIONS);
    expect(done.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });

    const next = server.client();
    await signInToStep(next, 'C10003', 'MFA');
    expect((await post(next, 'forced-actions/mfa/start')).body).toEqual({
      nextFactor: 'EMAIL',
      smsUnavailableMessage: null,
    });
  });

  it('with the SMS gateway down, enrol-sms answers 503 with the customer message and submit still works', async () => {
    const client = server.client();
    await signInToStep(client, 'C10003', 'FACTOR_ENROLMENT');
    await post(client, 'forced-actions/factor-enrolment/verify-email', {
      code: await latestCode(client, EMAIL),
    });
    await server.app.services.factors.smsGateway.setAvailable(false);
    const sms = await post(client, 'forced-actions/factor-enrolment/enrol-sms', MOBILE);
    expect(sms.status).toBe(503);
    expect(sms.body).toEqual({
      message: SMS_UNAVAILABLE_MESSAGE,
      customerMessage: SMS_UNAVAILABLE_CUSTOMER_MESSAGE,
    });
    expect((await post(client, 'forced-actions/factor-enrolment/send-sms')).status).toBe(503);
    expect((await post(client, 'forced-actions/factor-enrolment/submit', QUESTIONS)).body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
    });
  });

  it('enforces the order: nothing before the email is verified', async () => {
    const client = server.client();
    await signInToStep(client, 'C10003', 'FACTOR_ENROLMENT');
    for (const [path, body] of [
      ['forced-actions/factor-enrolment/enrol-sms', MOBILE],
      ['forced-actions/factor-enrolment/submit', QUESTIONS],
    ] as const) {
      const res = await post(client, path, body);
      expect(res.status, path).toBe(422);
      expect(res.body).toEqual({ message: ENROL_EMAIL_FIRST_MESSAGE });
    }
    const { id } = await c10003();
    expect(
      await server.db.selectFrom('security_answers').selectAll().where('identity_id', '=', id).execute(),
    ).toEqual([]);
    // A code is sent when the step starts, so an immediate resend is refused.
    const resend = await post(client, 'forced-actions/factor-enrolment/send-email');
    expect(resend.status).toBe(422);
    expect(resend.body).toEqual({ message: RESEND_TOO_SOON_MESSAGE });
    clock.advance(30_000);
    expect((await post(client, 'forced-actions/factor-enrolment/send-email')).status).toBe(204);
  });

  it('enrols an authenticator app through setup key, QR code and a code', async () => {
    const client = server.client();
    await signInToStep(client, 'C10003', 'FACTOR_ENROLMENT');
    await post(client, 'forced-actions/factor-enrolment/verify-email', {
      code: await latestCode(client, EMAIL),
    });
    // Fetched together, they show one secret.
    const [key1, qr, key2] = await Promise.all([
      get<{ setupKey: string }>(client, 'forced-actions/factor-enrolment/setup-key'),
      get<string>(client, 'forced-actions/factor-enrolment/qr-code'),
      get<{ setupKey: string }>(client, 'forced-actions/factor-enrolment/setup-key'),
    ]);
    expect(key1.body.setupKey).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    expect(key2.body.setupKey).toBe(key1.body.setupKey);
    expect(qr.body).toMatch(/^data:image\/png;base64,/);
    const secret = key1.body.setupKey.replace(/ /g, '');
    const row = await server.db
      .selectFrom('sessions')
      .select('data')
      .where('id_hash', '=', hashSessionToken(client.cookie('sam_session')!))
      .executeTakeFirstOrThrow();
    const sealed = row.data.enrolment?.appSecretSealed;
    expect(sealed).toBeDefined();
    expect(sealed).not.toContain(secret);
    expect(createSecretBox(TEST_DATA_KEY).open(sealed!)).toBe(secret);

    const step = totpStep(clock.now());
    const code = hotp(base32Decode(secret), step);
    expect(
      (await post(client, 'forced-actions/factor-enrolment/verify-authenticator-app', { code })).status,
    ).toBe(204);
    expect((await post(client, 'forced-actions/factor-enrolment/submit', QUESTIONS)).body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
    });
    const app = await server.db
      .selectFrom('identity_factors')
      .selectAll()
      .where('factor_type', '=', 'AUTHENTICATOR_APP')
      .where('identity_id', '=', (await c10003()).id)
      .executeTakeFirstOrThrow();
    expect(createSecretBox(TEST_DATA_KEY).open(app.secret_sealed!)).toBe(secret);
    expect(app.last_used_step).toBe(step);

    // MFA at the next sign-in asks for the app, and the enrolment's code cannot be used again.
    const next = server.client();
    await signInToStep(next, 'C10003', 'MFA');
    expect((await post(next, 'forced-actions/mfa/start')).body).toMatchObject({
      nextFactor: 'AUTHENTICATOR_APP',
    });
    const replay = await post(next, 'forced-actions/mfa/verify-authenticator-app', { code });
    expect(replay.body).toMatchObject({ message: TOTP_ALREADY_USED_MESSAGE });
    clock.advance(30_000);
    const fresh = hotp(base32Decode(secret), totpStep(clock.now()));
    expect((await post(next, 'forced-actions/mfa/verify-authenticator-app', { code: fresh })).status).toBe(
      200,
    );
  });

  it('refuses other steps and sessions, and bad input changes nothing', async () => {
    expect((await get(server.client(), 'forced-actions/factor-enrolment/mfa-required')).status).toBe(401);
    const mfa = server.client();
    await signInToStep(mfa, 'C10004', 'MFA');
    expect((await get(mfa, 'forced-actions/factor-enrolment/mfa-required')).status).toBe(403);
    expect((await post(mfa, 'forced-actions/factor-enrolment/submit', QUESTIONS)).status).toBe(403);

    const client = server.client();
    await signInToStep(client, 'C10003', 'FACTOR_ENROLMENT');
    await post(client, 'forced-actions/factor-enrolment/verify-email', {
      code: await latestCode(client, EMAIL),
    });
    const tables = async () => ({
      ...(await snapshot(server.db)),
      factors: await server.db.selectFrom('identity_factors').selectAll().execute(),
      answers: await server.db.selectFrom('security_answers').selectAll().execute(),
    });
    const before = await tables();
    const bad: Array<[string, unknown]> = [
      ['forced-actions/factor-enrolment/enrol-sms', { mobile: MOBILE }],
      ['forced-actions/factor-enrolment/enrol-sms', ''],
      ['forced-actions/factor-enrolment/enrol-sms', '+61 400 000 003 000 000'],
      ['forced-actions/factor-enrolment/submit', { ...QUESTIONS, answer1: 'abc' }],
      ['forced-actions/factor-enrolment/submit', { question1: 'DRIVERS_LICENCE', answer1: 'NSW 1234' }],
      ['forced-actions/factor-enrolment/submit', { ...QUESTIONS, extra: 1 }],
      ['forced-actions/factor-enrolment/verify-mobile', { code: '' }],
    ];
    for (const [path, body] of bad) {
      const res = await post<Json>(client, path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.errors).toEqual(expect.any(Array));
    }
    expect(await tables()).toEqual(before);
  });

  it('normalises security answers: trimmed, spaces collapsed, case-folded', () => {
    expect(normaliseSecurityAnswer('  NSW\t 1234 ')).toBe('nsw 1234');
    expect(normaliseSecurityAnswer('Ｍｅｄｉｃａｒｅ')).toBe('medicare');
  });
});
