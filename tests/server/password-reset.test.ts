// The anonymous password reset over real HTTP: no enumeration at start, the order the server
// enforces (email code, account, second factor, then the password), single-use codes under
// parallel submission, the reset's effects (password, trusted devices, sessions, history, notice)
// and that it never signs in or skips MFA at the next sign-in.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import type { MailSender, OutgoingEmail } from '../../src/server/adapters/mail';
import {
  CODE_INCORRECT_MESSAGE,
  SMS_UNAVAILABLE_CUSTOMER_MESSAGE,
} from '../../src/server/domain/factors/messages';
import { CODE_USED_MESSAGE } from '../../src/server/domain/factors/verification';
import { CAPTCHA_INCORRECT_MESSAGE } from '../../src/server/domain/messages';
import {
  ANSWER_INCORRECT_MESSAGE,
  CHOOSE_LISTED_ACCOUNT_MESSAGE,
  FACTOR_REQUIRED_MESSAGE,
  PASSWORD_RESET_EVENT,
  QUESTION_NOT_ASKED_MESSAGE,
  RESET_NOT_STARTED_MESSAGE,
  RESET_NOTICE_SUBJECT,
  RESET_UNAVAILABLE_MESSAGE,
  SMS_ONLY_UNAVAILABLE_MESSAGE,
  TOO_MANY_RESET_FAILURES_MESSAGE,
} from '../../src/server/domain/password-reset/messages';
import { maskMobile } from '../../src/server/domain/password-reset/service';
import { SMS_ONLY_UNAVAILABLE_MESSAGE as CONTRACT_SMS_ONLY_UNAVAILABLE_MESSAGE } from '../../src/contract/reset';
import { PASSWORD_COMMON_MESSAGE, PASSWORD_MISMATCH_MESSAGE } from '../../src/server/domain/password-policy';
import {
  API,
  DEMO_PASSWORD,
  snapshot,
  startServer,
  type TestClient,
  type TestServer,
} from './support/server';
import { targets } from './support/targets';
import { addAnsweredQuestion, patchResetState } from '../../src/server/db/repositories/password-reset';
import { sql } from 'kysely';
import { get, latestCode, outbox, post, totpAt, wrongTotp, type Json } from './support/factors';

const RESET = 'anonymous/password-reset';
const NEW_PASSWORD = 'Quiet-Meadow-Lantern-77';
const C10005_MOBILE = '+61 400 000 005';

describe.each(targets)('password reset on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-04-01T09:00:05Z');

  beforeAll(async () => {
    server = await startServer(target, { deps: { clock } });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    clock.advance(5 * 60_000);
    await server.db.deleteFrom('failed_auth_counts').execute();
    await server.app.services.factors.smsGateway.setAvailable(true);
    await server.db.updateTable('realms').set({ auth_enabled: true }).execute();
  });

  /** Draws a captcha for the client's session and starts a reset with its answer. */
  async function start(client: TestClient, email: string, captchaCode?: string) {
    const image = await client.get(`/captcha.jpg?${Date.now()}`);
    expect(image.status).toBe(200);
    const res = await post(client, `${RESET}/start`, {
      email,
      captchaCode: captchaCode ?? server.captcha.last,
    });
    await server.app.services.passwordReset.idle();
    return res;
  }

  async function verifiedEmail(client: TestClient, email: string, to = email) {
    expect((await start(client, email)).status).toBe(204);
    const res = await post<Json>(client, `${RESET}/verify-email`, { code: await latestCode(client, to) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  const submit = (client: TestClient, password = NEW_PASSWORD, confirmPassword = password) =>
    post(client, `${RESET}/submit`, { password, confirmPassword });

  const credentialsOf = async (username: string) =>
    server.db
      .selectFrom('credentials')
      .innerJoin('identities', 'identities.id', 'credentials.identity_id')
      .select(['credentials.password_hash', 'identities.id'])
      .where('identities.username', '=', username)
      .executeTakeFirstOrThrow();

  const failedCount = async (username: string) =>
    (await server.client().get<number>(`${API}anonymous/login/failed-auth-count?username=${username}`)).body;

  it('answers a known and an unknown email the same way; only the address on record gets a code', async () => {
    const known = server.client();
    const unknown = server.client();
    const a = await start(known, 'C10008@Example.com');
    const b = await start(unknown, 'nobody-here@example.com');
    expect(a.status).toBe(204);
    expect(b.status).toBe(a.status);
    expect(b.text).toBe(a.text);
    expect(b.headers.get('content-type')).toBe(a.headers.get('content-type'));
    expect(b.setCookies.length).toBe(a.setCookies.length);

    // The code went to the address on record (not the typed spelling); nothing to the unknown one.
    const sent = await outbox(known, '?to=c10008%40example.com');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('Your verification code');
    expect(await outbox(known, '?to=nobody-here%40example.com')).toHaveLength(0);
    // Both wrote a code row (the same work); only one can ever be matched.
    const rows = await server.db
      .selectFrom('one_time_codes')
      .select(['destination', 'identity_id'])
      .where('purpose', '=', 'password-reset:email')
      .execute();
    expect(rows.map((r) => r.destination).sort()).toEqual(['c10008@example.com', 'nobody-here@example.com']);

    // A wrong code is refused alike; a resend is answered alike.
    for (const client of [known, unknown]) {
      const wrong = await post(client, `${RESET}/verify-email`, { code: '000000' });
      expect(wrong.status).toBe(422);
      expect(wrong.body).toEqual({
        message: CODE_INCORRECT_MESSAGE,
        errors: [{ fieldName: 'code', message: CODE_INCORRECT_MESSAGE }],
      });
    }
    clock.advance(31_000);
    const r1 = await post(known, `${RESET}/send-email`);
    const r2 = await post(unknown, `${RESET}/send-email`);
    expect([r1.status, r1.text]).toEqual([r2.status, r2.text]);
    expect(r1.status).toBe(204);
  });

  it('requires the captcha on every start and answers 503 when the realm is closed', async () => {
    const client = server.client();
    await client.get('/captcha.jpg?1');
    const before = await snapshot(server.db);
    const missing = await post(client, `${RESET}/start`, { email: 'c10001@example.com' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ errors: [{ fieldName: 'captchaCode', message: 'Required field' }] });
    const wrong = await post(client, `${RESET}/start`, { email: 'c10001@example.com', captchaCode: 'NOPE1' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ message: CAPTCHA_INCORRECT_MESSAGE });
    // A used-up captcha does not work a second time.
    const replay = await post(client, `${RESET}/start`, {
      email: 'c10001@example.com',
      captchaCode: server.captcha.last,
    });
    expect(replay.status).toBe(422);
    expect(await outbox(client, '?to=c10001%40example.com')).toHaveLength(0);
    const after = await snapshot(server.db);
    expect(after.identities).toEqual(before.identities);
    expect(after.credentials).toEqual(before.credentials);

    await server.db.updateTable('realms').set({ auth_enabled: false }).execute();
    const closed = await start(client, 'c10001@example.com');
    expect(closed.status).toBe(503);
    expect(closed.body).toMatchObject({ message: RESET_UNAVAILABLE_MESSAGE });
  });

  it('refuses every later step before its turn, changing nothing', async () => {
    const fresh = server.client();
    await fresh.get('/captcha.jpg?1');
    const before = await credentialsOf('C10004');
    for (const [path, body] of [
      ['verify-email', { code: '123456' }],
      ['select-user', 'C10004'],
      ['verify-authenticator-app', { code: '123456' }],
      ['send-sms', undefined],
      ['verify-security-question', { question: 'MEDICARE', answer: 'anything' }],
      ['submit', { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }],
    ] as const) {
      const res = await post(fresh, `${RESET}/${path}`, body);
      expect(res.status, path).toBe(422);
      expect(res.body).toEqual({ message: RESET_NOT_STARTED_MESSAGE, reroute: '/password-reset' });
    }

    // Started but the email code not verified yet: still refused.
    const started = server.client();
    expect((await start(started, 'c10004@example.com')).status).toBe(204);
    const early = await submit(started);
    expect(early.status).toBe(422);
    expect(early.body).toMatchObject({ reroute: '/password-reset' });

    // Email verified, but the authenticator app (or another enrolled factor) not yet.
    const details = await post<Json>(started, `${RESET}/verify-email`, {
      code: await latestCode(started, 'c10004@example.com'),
    });
    expect(details.body).toMatchObject({ username: 'C10004', isAuthAppEnrolled: true });
    const noFactor = await submit(started);
    expect(noFactor.status).toBe(422);
    expect(noFactor.body).toEqual({ message: FACTOR_REQUIRED_MESSAGE });
    // No security questions to skip to: answering one is refused.
    const skip = await post(started, `${RESET}/verify-security-question`, {
      question: 'MEDICARE',
      answer: 'x',
    });
    expect(skip.status).toBe(422);
    expect(skip.body).toMatchObject({ message: QUESTION_NOT_ASKED_MESSAGE });
    expect(await credentialsOf('C10004')).toEqual(before);
  });

  it('gives exactly one success to 10 parallel uses of one email code', async () => {
    const client = server.client();
    expect((await start(client, 'c10008@example.com')).status).toBe(204);
    const code = await latestCode(client, 'c10008@example.com');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(client, `${RESET}/verify-email`, { code })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The others are told the code is used, or, beyond the session's 5 tries in flight, to try
    // again in a second (429): none is checked twice.
    expect(statuses.filter((s) => s === 422 || s === 429)).toHaveLength(9);
    for (const refused of answers.filter((a) => a.status === 422))
      expect(refused.body).toMatchObject({ message: CODE_USED_MESSAGE });
    // Double submissions of the right code are not guesses.
    expect(await failedCount('C10008')).toBe(0);
  });

  it('C10004: email code and authenticator app reset the password; MFA is still asked at sign-in', async () => {
    const other = server.client();
    const otherSignIn = await other.login('C10004');
    expect(otherSignIn.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'MFA' });
    const { id } = await credentialsOf('C10004');
    await server.app.services.factors.trustedDevices.trust({
      identityId: id,
      userAgent: 'test',
      ipAddress: null,
    });

    const client = server.client();
    const details = await verifiedEmail(client, 'c10004@example.com');
    expect(details).toEqual({
      email: 'c10004@example.com',
      username: 'C10004',
      identities: [],
      challenges: [],
      mobile: null,
      isAuthAppEnrolled: true,
      isSmsFactorEnrolled: false,
      isSmsGatewayAvailable: true,
      isSecurityQuestionsEnrolled: false,
    });
    const wrong = await post(client, `${RESET}/verify-authenticator-app`, { code: wrongTotp(clock) });
    expect(wrong.status).toBe(422);
    expect(await failedCount('C10004')).toBe(1);
    const ok = await post(client, `${RESET}/verify-authenticator-app`, { code: totpAt(clock) });
    expect(ok.status).toBe(204);

    const weak = await submit(client, 'Password12345678');
    expect(weak.status).toBe(422);
    expect(weak.body).toMatchObject({
      errors: [{ fieldName: 'password', message: PASSWORD_COMMON_MESSAGE }],
    });
    const mismatch = await submit(client, NEW_PASSWORD, 'Something-else-2026');
    expect(mismatch.body).toMatchObject({ message: PASSWORD_MISMATCH_MESSAGE });

    const done = await submit(client);
    expect(done.status).toBe(204);
    // Not signed in by the reset.
    expect((await get(client, 'anonymous/current-user')).body).toMatchObject({ isAuthenticated: false });
    // Works once.
    const again = await submit(client, 'Another-Fresh-Secret-88');
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ reroute: '/password-reset' });

    // The other session and the trusted device are gone; the event and the notice are recorded.
    expect((await get(other, 'anonymous/current-user')).body).toMatchObject({ isAuthenticated: false });
    expect(
      await server.db.selectFrom('trusted_devices').where('identity_id', '=', id).selectAll().execute(),
    ).toEqual([]);
    const events = await server.db
      .selectFrom('identity_events')
      .selectAll()
      .where('identity_id', '=', id)
      .where('type', '=', PASSWORD_RESET_EVENT)
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.actor_identity_id).toBe(id);
    const [notice] = await outbox(client, '?to=c10004%40example.com&limit=1');
    expect(notice!.subject).toBe(RESET_NOTICE_SUBJECT);

    // The old password no longer signs in; the new one does, and MFA is still asked.
    expect((await server.client().login('C10004')).status).toBe(422);
    const signIn = await server.client().login('C10004', NEW_PASSWORD);
    expect(signIn.status).toBe(200);
    expect(signIn.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'MFA' });
  });

  it('C10005: by SMS, then with the gateway off by security questions; SMS-only accounts wait', async () => {
    const client = server.client();
    const details = await verifiedEmail(client, 'c10005@example.com');
    expect(details).toMatchObject({
      username: 'C10005',
      mobile: maskMobile(C10005_MOBILE),
      challenges: ['DRIVERS_LICENCE', 'MEDICARE'],
      isAuthAppEnrolled: false,
      isSmsFactorEnrolled: true,
      isSmsGatewayAvailable: true,
      isSecurityQuestionsEnrolled: true,
    });
    expect(details.mobile).toBe('+** *** *** 005');
    expect((await post(client, `${RESET}/send-sms`)).status).toBe(204);
    const ok = await post(client, `${RESET}/verify-mobile`, {
      code: await latestCode(client, C10005_MOBILE),
    });
    expect(ok.status).toBe(204);
    expect((await submit(client)).status).toBe(204);
    expect((await server.client().login('C10005', NEW_PASSWORD)).body).toMatchObject({ forcedAction: 'MFA' });

    // Gateway off: SMS is refused with the customer message; the questions are the way.
    await server.app.services.factors.smsGateway.setAvailable(false);
    const second = server.client();
    const offDetails = await verifiedEmail(second, 'c10005@example.com');
    expect(offDetails).toMatchObject({ isSmsFactorEnrolled: true, isSmsGatewayAvailable: false });
    const sms = await post(second, `${RESET}/send-sms`);
    expect(sms.status).toBe(503);
    expect(sms.body).toMatchObject({ customerMessage: SMS_UNAVAILABLE_CUSTOMER_MESSAGE });
    const wrong = await post(second, `${RESET}/verify-security-question`, {
      question: 'DRIVERS_LICENCE',
      answer: 'not it',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({
      errors: [{ fieldName: 'answer', message: ANSWER_INCORRECT_MESSAGE }],
    });
    expect(await failedCount('C10005')).toBe(1);
    expect(
      (
        await post(second, `${RESET}/verify-security-question`, {
          question: 'DRIVERS_LICENCE',
          answer: ' dl10005 ',
        })
      ).status,
    ).toBe(204);
    // One of two questions is not enough.
    const half = await submit(second, 'Copper-Kettle-Harvest-31');
    expect(half.body).toEqual({ message: FACTOR_REQUIRED_MESSAGE });
    expect(
      (await post(second, `${RESET}/verify-security-question`, { question: 'MEDICARE', answer: 'MC10005' }))
        .status,
    ).toBe(204);
    expect((await submit(second, 'Copper-Kettle-Harvest-31')).status).toBe(204);
    expect((await server.client().login('C10005', 'Copper-Kettle-Harvest-31')).body).toMatchObject({
      forcedAction: 'MFA',
    });

    // An account whose only second factor is SMS cannot reset while SMS is down. The details say
    // so (what the wizard's set-password step reads to show the message instead of a form), and
    // submit refuses with the contract's words, the ones that step shows.
    const { id } = await credentialsOf('C10005');
    await server.db.deleteFrom('security_answers').where('identity_id', '=', id).execute();
    const third = server.client();
    expect(await verifiedEmail(third, 'c10005@example.com')).toMatchObject({
      username: 'C10005',
      isSmsFactorEnrolled: true,
      isSmsGatewayAvailable: false,
      isAuthAppEnrolled: false,
      isSecurityQuestionsEnrolled: false,
    });
    const before = await credentialsOf('C10005');
    const refused = await submit(third, 'Silver-Harbour-Morning-42');
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: CONTRACT_SMS_ONLY_UNAVAILABLE_MESSAGE });
    expect(SMS_ONLY_UNAVAILABLE_MESSAGE).toBe(CONTRACT_SMS_ONLY_UNAVAILABLE_MESSAGE);
    expect(await credentialsOf('C10005')).toEqual(before);
  });

  it('C10001 (no second factor): the email code alone resets; bad input changes nothing', async () => {
    const client = server.client();
    const before = await credentialsOf('C10001');
    const bad = await post(client, `${RESET}/start`, { email: 'not-an-email', captchaCode: 'X', extra: 1 });
    expect(bad.status).toBe(400);
    const details = await verifiedEmail(client, 'c10001@example.com');
    expect(details).toMatchObject({
      username: 'C10001',
      isAuthAppEnrolled: false,
      isSmsFactorEnrolled: false,
    });
    for (const body of [{ password: 'short1', confirmPassword: 'short1' }, { password: NEW_PASSWORD }]) {
      expect((await post(client, `${RESET}/submit`, body)).status).toBe(400);
    }
    expect(await credentialsOf('C10001')).toEqual(before);
    expect((await submit(client)).status).toBe(204);
    const signIn = await server.client().login('C10001', NEW_PASSWORD);
    expect(signIn.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    expect((await server.client().login('C10001', DEMO_PASSWORD)).status).toBe(422);
  });

  it('dup@example.com: the accounts sharing the email are listed and one is chosen', async () => {
    const client = server.client();
    const details = await verifiedEmail(client, 'dup@example.com');
    expect(details).toMatchObject({
      username: null,
      identities: [
        { username: 'C10006', name: 'Liam Walsh' },
        { username: 'C10007', name: 'Liam Walsh' },
      ],
    });
    // Nothing to submit for before an account is chosen.
    expect((await submit(client)).body).toMatchObject({ reroute: '/password-reset' });
    const unknown = await post(client, `${RESET}/select-user`, 'C10001');
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ message: CHOOSE_LISTED_ACCOUNT_MESSAGE });
    const chosen = await post<Json>(client, `${RESET}/select-user`, 'c10007');
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({ username: 'C10007', identities: [{}, {}] });
    expect((await submit(client)).status).toBe(204);
    expect((await server.client().login('C10007', NEW_PASSWORD)).status).toBe(200);
    expect((await server.client().login('C10006', DEMO_PASSWORD)).status).toBe(200);
  });

  it('writes a proof only for the account it was checked against, not one selected since', async () => {
    const client = server.client();
    await verifiedEmail(client, 'dup@example.com');
    const ids = Object.fromEntries(
      (
        await server.db
          .selectFrom('identities')
          .select(['id', 'username'])
          .where('username', 'in', ['C10006', 'C10007'])
          .execute()
      ).map((r) => [r.username, r.id]),
    );
    expect((await post(client, `${RESET}/select-user`, 'C10006')).status).toBe(200);
    const row = await server.db
      .selectFrom('sessions')
      .select(['id_hash', 'data'])
      .where(sql<string>`data -> 'passwordReset' ->> 'identityId'`, '=', ids.C10006!)
      .executeTakeFirstOrThrow();
    const { flowId } = row.data.passwordReset!;
    // A check of C10006's answer or code was under way when the browser chose C10007.
    expect((await post(client, `${RESET}/select-user`, 'C10007')).status).toBe(200);
    const at = clock.now().toISOString();
    const answer = { at, setAt: at };
    expect(
      await addAnsweredQuestion(server.db, row.id_hash, flowId, ids.C10006!, 'DRIVERS_LICENCE', answer),
    ).toBe(false);
    expect(
      await patchResetState(
        server.db,
        row.id_hash,
        flowId,
        { factorProof: { factor: 'AUTHENTICATOR_APP', at, enrolment: 'app' } },
        ids.C10006,
      ),
    ).toBe(false);
    const after = await server.db
      .selectFrom('sessions')
      .select('data')
      .where('id_hash', '=', row.id_hash)
      .executeTakeFirstOrThrow();
    const state = after.data.passwordReset!;
    expect(state.identityId).toBe(ids.C10007);
    expect(state.answers).toEqual({});
    expect(state.factorProof).toBeNull();
    // For the account now chosen, the same writes go through.
    expect(
      await addAnsweredQuestion(server.db, row.id_hash, flowId, ids.C10007!, 'DRIVERS_LICENCE', answer),
    ).toBe(true);
  });

  it('ends the session at the failure limit; a wrong email code counts for the session, not the account', async () => {
    const client = server.client();
    expect((await start(client, 'c10008@example.com')).status).toBe(204);
    for (let i = 0; i < 4; i++) {
      expect((await post(client, `${RESET}/verify-email`, { code: '999999' })).status).toBe(422);
    }
    const last = await post(client, `${RESET}/verify-email`, { code: '999999' });
    expect(last.body).toEqual({ message: TOO_MANY_RESET_FAILURES_MESSAGE, reroute: '/password-reset' });
    // Knowing an address is not enough to lock its account, captcha after captcha.
    expect(await failedCount('C10008')).toBe(0);
    // The session is gone: the right code no longer helps.
    const code = await latestCode(client, 'c10008@example.com');
    expect((await post(client, `${RESET}/verify-email`, { code })).body).toMatchObject({
      reroute: '/password-reset',
    });
  });

  it('a signed-in browser is signed out by starting a reset', async () => {
    const client = server.client();
    expect((await client.login('C10008')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    expect((await start(client, 'c10008@example.com')).status).toBe(204);
    expect((await get(client, 'anonymous/current-user')).body).toMatchObject({ isAuthenticated: false });
    const res = await post(client, `${RESET}/verify-email`, {
      code: await latestCode(client, 'c10008@example.com'),
    });
    expect(res.status).toBe(200);
  });
});

describe.each(targets)('password reset statements on $name', (target) => {
  // What the server does before its answer is what its time can tell: a resend for a known email
  // must run the statements a resend for an unknown one runs, no more (bench/enumeration times
  // the start; this pins the resend's work, which has no benchmark of its own).
  let server: TestServer;
  const clock = new ManualClock('2026-04-01T09:00:05Z');
  /** Statements the server ran, and 'ANSWER' where a response's head was written. */
  const log: string[] = [];

  beforeAll(async () => {
    server = await startServer(target, { deps: { clock } });
    const executor = server.db.getExecutor();
    const execute = executor.executeQuery.bind(executor);
    executor.executeQuery = ((query) => {
      log.push(query.sql.replace(/\s+/g, ' '));
      return execute(query);
    }) as typeof executor.executeQuery;
    server.app.server.prependListener('request', (_request, response) => {
      const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => typeof response;
      response.writeHead = ((...args: unknown[]) => {
        log.push('ANSWER');
        return writeHead(...args);
      }) as typeof response.writeHead;
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The statements a resend ran before its answer. */
  async function resendStatements(email: string): Promise<string[]> {
    const client = server.client();
    await client.get('/captcha.jpg?1');
    const started = await post(client, `${RESET}/start`, { email, captchaCode: server.captcha.last });
    expect(started.status).toBe(204);
    await server.app.services.passwordReset.idle();
    clock.advance(31_000);
    log.length = 0;
    const res = await post(client, `${RESET}/send-email`);
    expect(res.status).toBe(204);
    const answered = log.indexOf('ANSWER');
    expect(answered).toBeGreaterThan(0);
    // The rate limit's counter (and its occasional clean-up) is every call's, and not the reset's.
    const before = log.slice(0, answered).filter((q) => !q.includes('"rate_limits"'));
    await server.app.services.passwordReset.idle();
    return before;
  }

  it('a resend runs the same statements before its answer for a known and an unknown email', async () => {
    const known = await resendStatements('c10001@example.com');
    const unknown = await resendStatements('nobody-known-here@example.com');
    expect(known).toEqual(unknown);
    // Neither looks the accounts up before answering.
    expect(known.some((q) => q.includes('from "identities"'))).toBe(false);
  });
});

describe.each(targets)('password reset timing on $name', (target) => {
  // An SMTP server that takes a second per message: the start must not wait for it, or the time
  // of the answer would tell a known email from an unknown one.
  const MAIL_DELAY_MS = 1_000;
  const sent: OutgoingEmail[] = [];
  const slowMail: MailSender = {
    kind: 'smtp',
    send: async (email) => {
      await new Promise((resolve) => setTimeout(resolve, MAIL_DELAY_MS));
      sent.push(email);
    },
  };
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target, { deps: { mail: slowMail } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a known email without waiting for its email; the email still goes out', async () => {
    const timed = async (email: string) => {
      const client = server.client();
      await client.get('/captcha.jpg?1');
      const started = performance.now();
      const res = await post(client, `${RESET}/start`, { email, captchaCode: server.captcha.last });
      return { res, ms: performance.now() - started };
    };
    const known = await timed('c10001@example.com');
    const unknown = await timed('nobody-at-all@example.com');
    expect([known.res.status, unknown.res.status]).toEqual([204, 204]);
    expect(known.ms).toBeLessThan(MAIL_DELAY_MS / 2);
    expect(unknown.ms).toBeLessThan(MAIL_DELAY_MS / 2);
    await server.app.services.passwordReset.idle();
    expect(sent.map((m) => m.to)).toEqual(['c10001@example.com']);
  });
});
