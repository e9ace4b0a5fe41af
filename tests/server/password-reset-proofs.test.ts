// What a password reset has proven does not outlive the account it proved: over real HTTP, a
// completed email code (and second factor) stops counting RESET_PROOF_WINDOW_MS after the email
// code, however the session is kept alive; and a proof whose account changed behind the reset's
// back (the address, the password, the app, the mobile, the answers) counts no more.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { RESET_NOT_STARTED_MESSAGE } from '../../src/server/domain/password-reset/messages';
import { RESET_PROOF_WINDOW_MS } from '../../src/server/domain/password-reset/service';
import { latestCode, post, totpAt, type Json } from './support/factors';
import { startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

const RESET = 'anonymous/password-reset';
const INTRUDER_PASSWORD = 'Quiet-Meadow-Lantern-77';
/** The window a bank would accept: 15 minutes from the email code (README, Password reset). */
const WINDOW_MS = 15 * 60_000;
const START_OVER = { message: RESET_NOT_STARTED_MESSAGE, reroute: '/password-reset' };

interface Account {
  id: string;
  username: string;
  email: string;
}

describe.each(targets)('password reset proofs on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-05-04T09:00:05Z');

  beforeAll(async () => {
    server = await startServer(target, { deps: { clock } });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    // Past the resend interval and onto a fresh TOTP step.
    clock.advance(5 * 60_000);
  });

  let accounts = 0;
  /**
   * A customer like C10001 (same password, no grants) with a fresh username and email, and the
   * factors asked for: C10004's authenticator app, an SMS factor, C10005's security answers.
   */
  async function customer(
    options: { app?: boolean; sms?: boolean; answers?: boolean; email?: string; extra?: Json } = {},
  ): Promise<Account> {
    const db = server.db;
    const username = `R${String(++accounts).padStart(5, '0')}`;
    const email = options.email ?? `${username.toLowerCase()}@example.com`;
    const source = await db
      .selectFrom('identities')
      .selectAll()
      .where('username', '=', 'C10001')
      .executeTakeFirstOrThrow();
    const id = randomUUID();
    const now = clock.now();
    await db
      .insertInto('identities')
      .values({
        ...source,
        id,
        username,
        email,
        mobile: null,
        customer_number: username,
        identity_verified: false,
        created_at: now,
        updated_at: now,
        ...options.extra,
      })
      .execute();
    const credentials = await db
      .selectFrom('credentials')
      .select('password_hash')
      .where('identity_id', '=', source.id)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('credentials')
      .values({ identity_id: id, password_hash: credentials.password_hash, changed_at: now })
      .execute();
    if (options.app) {
      const app = await db
        .selectFrom('identity_factors')
        .innerJoin('identities', 'identities.id', 'identity_factors.identity_id')
        .select('identity_factors.secret_sealed')
        .where('identities.username', '=', 'C10004')
        .where('identity_factors.factor_type', '=', 'AUTHENTICATOR_APP')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('identity_factors')
        .values({
          id: randomUUID(),
          identity_id: id,
          factor_type: 'AUTHENTICATOR_APP',
          mobile: null,
          secret_sealed: app.secret_sealed,
          enrolled_at: now,
        })
        .execute();
    }
    if (options.sms) {
      const mobile = `+61 411 000 ${String(accounts).padStart(3, '0')}`;
      await db.updateTable('identities').set({ mobile }).where('id', '=', id).execute();
      await db
        .insertInto('identity_factors')
        .values({
          id: randomUUID(),
          identity_id: id,
          factor_type: 'SMS',
          mobile,
          secret_sealed: null,
          enrolled_at: now,
        })
        .execute();
    }
    if (options.answers) {
      const answers = await db
        .selectFrom('security_answers')
        .innerJoin('identities', 'identities.id', 'security_answers.identity_id')
        .select([
          'security_answers.position',
          'security_answers.question_code',
          'security_answers.answer_hash',
        ])
        .where('identities.username', '=', 'C10005')
        .execute();
      await db
        .insertInto('security_answers')
        .values(answers.map((a) => ({ ...a, identity_id: id, set_at: now })))
        .execute();
    }
    return { id, username, email };
  }

  const mobileOf = async (account: Account) =>
    (
      await server.db
        .selectFrom('identity_factors')
        .select('mobile')
        .where('identity_id', '=', account.id)
        .where('factor_type', '=', 'SMS')
        .executeTakeFirstOrThrow()
    ).mobile!;

  const passwordHashOf = async (account: Account) =>
    (
      await server.db
        .selectFrom('credentials')
        .select('password_hash')
        .where('identity_id', '=', account.id)
        .executeTakeFirstOrThrow()
    ).password_hash;

  /** Anonymous sessions whose reset names the account. */
  const resetSessionsOf = async (account: Account) =>
    (
      await server.db
        .selectFrom('sessions')
        .select('id_hash')
        .where('type', '=', 'ANONYMOUS')
        .where(
          sql<boolean>`(data -> 'passwordReset' -> 'candidateIds') @> ${JSON.stringify([account.id])}::jsonb`,
        )
        .execute()
    ).length;

  /** A browser whose reset has verified the email code (and chosen `account` among several). */
  async function emailProven(account: Account, client = server.client()): Promise<TestClient> {
    await client.get(`/captcha.jpg?${Date.now()}`);
    const started = await post(client, `${RESET}/start`, {
      email: account.email,
      captchaCode: server.captcha.last,
    });
    expect(started.status).toBe(204);
    await server.app.services.passwordReset.idle();
    const verified = await post<Json>(client, `${RESET}/verify-email`, {
      code: await latestCode(client, account.email),
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    if (verified.body.username === null) {
      const chosen = await post(client, `${RESET}/select-user`, account.username);
      expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    }
    return client;
  }

  /** The reset at set-password: email code, then the second factor the account has (app first). */
  async function readyToSubmit(
    account: Account,
    factor: 'none' | 'app' | 'sms' | 'answers',
  ): Promise<TestClient> {
    const client = await emailProven(account);
    if (factor === 'app') {
      const ok = await post(client, `${RESET}/verify-authenticator-app`, { code: totpAt(clock) });
      expect(ok.status, JSON.stringify(ok.body)).toBe(204);
    } else if (factor === 'sms') {
      expect((await post(client, `${RESET}/send-sms`)).status).toBe(204);
      const mobile = await mobileOf(account);
      const ok = await post(client, `${RESET}/verify-mobile`, { code: await latestCode(client, mobile) });
      expect(ok.status, JSON.stringify(ok.body)).toBe(204);
    } else if (factor === 'answers') {
      for (const [question, answer] of [
        ['DRIVERS_LICENCE', 'DL10005'],
        ['MEDICARE', 'MC10005'],
      ]) {
        const ok = await post(client, `${RESET}/verify-security-question`, { question, answer });
        expect(ok.status, JSON.stringify(ok.body)).toBe(204);
      }
    }
    return client;
  }

  const submit = (client: TestClient, password = INTRUDER_PASSWORD) =>
    post(client, `${RESET}/submit`, { password, confirmPassword: password });

  it('the window is 15 minutes from the email code', () => {
    expect(RESET_PROOF_WINDOW_MS).toBe(WINDOW_MS);
  });

  it('a completed reset kept alive past the window starts over; within it, it goes through', async () => {
    const account = await customer({ app: true });
    const before = await passwordHashOf(account);
    const client = await readyToSubmit(account, 'app');
    // The intruder keeps the session alive (the idle timeout is 30 minutes) with select-user.
    for (let minutes = 0; minutes < 15; minutes += 5) {
      clock.advance(5 * 60_000);
      expect((await post(client, `${RESET}/select-user`, account.username)).status).toBe(200);
    }
    clock.advance(60_000);
    const late = await submit(client);
    expect(late.status).toBe(422);
    expect(late.body).toEqual(START_OVER);
    expect(await passwordHashOf(account)).toBe(before);
    // The reset is out of the session: keeping on does not bring it back.
    expect((await post(client, `${RESET}/select-user`, account.username)).body).toEqual(START_OVER);
    expect(await resetSessionsOf(account)).toBe(0);

    // Just inside the window the same reset works (and a select-user beyond it is refused too).
    const inTime = await readyToSubmit(account, 'app');
    clock.advance(WINDOW_MS - 1000);
    expect((await submit(inTime)).status).toBe(204);
    const stale = await emailProven(account);
    clock.advance(WINDOW_MS + 1000);
    expect((await post(stale, `${RESET}/select-user`, account.username)).body).toEqual(START_OVER);
  });

  // Changes made behind the reset's back (an admin's script, a change that did not end the
  // session): what the proof was checked against is checked again.
  const behindTheBack: Array<{
    name: string;
    account: { app?: boolean; sms?: boolean; answers?: boolean };
    factor: 'none' | 'app' | 'sms' | 'answers';
    change: (account: Account) => Promise<unknown>;
  }> = [
    {
      name: 'the address the code went to',
      account: {},
      factor: 'none',
      change: (a) =>
        server.db
          .updateTable('identities')
          .set({ email: 'elsewhere.r@example.com' })
          .where('id', '=', a.id)
          .execute(),
    },
    {
      name: 'the password',
      account: {},
      factor: 'none',
      change: (a) =>
        server.db
          .updateTable('credentials')
          .set({ changed_at: clock.now() })
          .where('identity_id', '=', a.id)
          .execute(),
    },
    {
      name: 'the authenticator app',
      account: { app: true },
      factor: 'app',
      change: (a) =>
        server.db
          .updateTable('identity_factors')
          .set({ enrolled_at: clock.now() })
          .where('identity_id', '=', a.id)
          .where('factor_type', '=', 'AUTHENTICATOR_APP')
          .execute(),
    },
    {
      name: 'the SMS factor’s mobile',
      account: { sms: true },
      factor: 'sms',
      change: (a) =>
        server.db
          .updateTable('identity_factors')
          .set({ mobile: '+61 499 999 999' })
          .where('identity_id', '=', a.id)
          .where('factor_type', '=', 'SMS')
          .execute(),
    },
    {
      name: 'the security answers',
      account: { answers: true },
      factor: 'answers',
      change: (a) =>
        server.db
          .updateTable('security_answers')
          .set({ set_at: clock.now() })
          .where('identity_id', '=', a.id)
          .execute(),
    },
  ];

  for (const { name, account: options, factor, change } of behindTheBack) {
    it(`a proof stops counting when ${name} changed since`, async () => {
      const account = await customer(options);
      const client = await readyToSubmit(account, factor);
      const before = await passwordHashOf(account);
      clock.advance(1000);
      await change(account);
      const refused = await submit(client);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(START_OVER);
      expect(await passwordHashOf(account)).toBe(before);
      // Taken out of the session: the reset does not come back if the change is undone.
      expect(await resetSessionsOf(account)).toBe(0);
    });
  }
});
