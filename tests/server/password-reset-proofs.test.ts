// What a password reset has proven does not outlive the account it proved: over real HTTP, a
// completed email code (and second factor) stops counting RESET_PROOF_WINDOW_MS after the email
// code, however the session is kept alive; every remedy of the account's owner (new password,
// email, factor, sign-out of all devices, a merge) ends the anonymous sessions of resets naming the
// account; a proof whose account changed behind the reset's back (the address, the password, the
// app, the mobile, the answers) counts no more; and a locked account is not reset.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { argon2idHasher, type PasswordHasher } from '../../src/server/domain/passwords';
import { ACCOUNT_LOCKED_MESSAGE } from '../../src/server/domain/lockout';
import { RESET_NOT_STARTED_MESSAGE } from '../../src/server/domain/password-reset/messages';
import { RESET_PROOF_WINDOW_MS } from '../../src/server/domain/password-reset/service';
import { get, latestCode, post, signInToStep, totpAt, type Json } from './support/factors';
import { DEMO_PASSWORD, startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

const RESET = 'anonymous/password-reset';
const INTRUDER_PASSWORD = 'Quiet-Meadow-Lantern-77';
const OWNER_PASSWORD = 'Copper-Kettle-Harvest-31';
/** The window a bank would accept: 15 minutes from the email code (README, Password reset). */
const WINDOW_MS = 15 * 60_000;
const START_OVER = { message: RESET_NOT_STARTED_MESSAGE, reroute: '/password-reset' };
const QUESTIONS = {
  question1: 'DRIVERS_LICENCE',
  answer1: 'Licence 24680',
  question2: 'MEDICARE',
  answer2: 'Medicare 1357',
};

interface Account {
  id: string;
  username: string;
  email: string;
}

describe.each(targets)('password reset proofs on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-05-04T09:00:05Z');
  /** Runs after a new password is hashed, before it is stored (what may happen meanwhile). */
  let afterHash: (() => Promise<void>) | null = null;
  const hasher: PasswordHasher = {
    hash: async (password) => {
      const hashed = await argon2idHasher.hash(password);
      await afterHash?.();
      return hashed;
    },
    verify: (passwordHash, password) => argon2idHasher.verify(passwordHash, password),
  };

  beforeAll(async () => {
    server = await startServer(target, { deps: { clock, hasher } });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    // Past the resend interval and onto a fresh TOTP step.
    clock.advance(5 * 60_000);
    afterHash = null;
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

  /** The account's owner, signed in (through MFA with the app when it has one). */
  async function signedIn(account: Account, password = DEMO_PASSWORD): Promise<TestClient> {
    const client = server.client();
    const res = await client.login<Json>(account.username, password);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (res.body.outcome === 'FORCED_ACTION' && res.body.forcedAction === 'MFA') {
      clock.advance(30_000);
      const mfa = await post<Json>(client, 'forced-actions/mfa/verify-authenticator-app', {
        code: totpAt(clock),
        trustDevice: false,
      });
      expect(mfa.body, JSON.stringify(mfa.body)).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    } else {
      expect(res.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    }
    return client;
  }

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

  it('the brief intruder: the owner changes email and password and signs out everywhere; the reset is over', async () => {
    const account = await customer({ app: true });
    const bystander = await customer();
    const intruder = await readyToSubmit(account, 'app');
    const unrelated = await readyToSubmit(bystander, 'none');

    const owner = await signedIn(account);
    const newEmail = `${account.username.toLowerCase()}.new@example.com`;
    expect(
      (await post(owner, 'profile/change-email/start', { currentPassword: DEMO_PASSWORD, email: newEmail }))
        .status,
    ).toBe(204);
    const emailed = await post(owner, 'profile/change-email/verify-email', {
      code: await latestCode(owner, newEmail),
    });
    expect(emailed.status).toBe(200);
    // The email change alone ended the intruder's reset session.
    expect(await resetSessionsOf(account)).toBe(0);
    expect(
      (
        await post(owner, 'profile/change-password', {
          currentPassword: DEMO_PASSWORD,
          newPassword: OWNER_PASSWORD,
          confirmNewPassword: OWNER_PASSWORD,
        })
      ).status,
    ).toBe(204);
    expect((await post(owner, 'current-user/single-logout', {})).status).toBe(204);
    const owners = await passwordHashOf(account);

    clock.advance(60_000);
    const refused = await submit(intruder);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(START_OVER);
    expect(await passwordHashOf(account)).toBe(owners);
    expect((await server.client().login<Json>(account.username, INTRUDER_PASSWORD)).status).toBe(422);
    // A reset of another account is none of this.
    expect((await submit(unrelated)).status).toBe(204);
  });

  // Each remedy of the owner, alone, ends the anonymous sessions of resets naming the account.
  const remedies: Array<{
    name: string;
    account: { app?: boolean; sms?: boolean; answers?: boolean; extra?: Json };
    factor: 'none' | 'app' | 'sms' | 'answers';
    remedy: (account: Account) => Promise<void>;
  }> = [
    {
      name: 'a new password (profile)',
      account: {},
      factor: 'none',
      remedy: async (account) => {
        const owner = await signedIn(account);
        const res = await post(owner, 'profile/change-password', {
          currentPassword: DEMO_PASSWORD,
          newPassword: OWNER_PASSWORD,
          confirmNewPassword: OWNER_PASSWORD,
        });
        expect(res.status).toBe(204);
      },
    },
    {
      name: 'a new password (expired-password step)',
      account: { extra: { password_expired: true } },
      factor: 'none',
      remedy: async (account) => {
        const owner = server.client();
        await signInToStep(owner, account.username, 'CHANGE_EXPIRED_PASSWORD');
        const res = await post(owner, 'forced-actions/change-expired-password', {
          password: OWNER_PASSWORD,
          confirmPassword: OWNER_PASSWORD,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      },
    },
    {
      name: 'a new email (profile)',
      account: {},
      factor: 'none',
      remedy: async (account) => {
        const owner = await signedIn(account);
        const email = `${account.username.toLowerCase()}.moved@example.com`;
        await post(owner, 'profile/change-email/start', { currentPassword: DEMO_PASSWORD, email });
        const res = await post(owner, 'profile/change-email/verify-email', {
          code: await latestCode(owner, email),
        });
        expect(res.status).toBe(200);
      },
    },
    {
      name: 'signing out of all devices',
      account: {},
      factor: 'none',
      remedy: async (account) => {
        const owner = await signedIn(account);
        expect((await post(owner, 'current-user/single-logout', {})).status).toBe(204);
      },
    },
    {
      name: 'new security questions',
      account: { answers: true },
      factor: 'answers',
      remedy: async (account) => {
        const owner = await signedIn(account);
        const res = await post(owner, 'profile/change-security-questions', {
          currentPassword: DEMO_PASSWORD,
          ...QUESTIONS,
        });
        expect(res.status).toBe(204);
      },
    },
    {
      name: 'a new authenticator app',
      account: { app: true },
      factor: 'app',
      remedy: async (account) => {
        const owner = await signedIn(account);
        const setup = await get<{ setupKey: string }>(owner, 'profile/change-authenticator-app/setup-key');
        clock.advance(30_000);
        const res = await post(owner, 'profile/change-authenticator-app', {
          currentPassword: DEMO_PASSWORD,
          code: totpAt(clock, 0, setup.body.setupKey.replace(/\s/g, '')),
        });
        expect(res.status, JSON.stringify(res.body)).toBe(204);
      },
    },
    {
      name: 'the SMS factor disabled',
      account: { sms: true },
      factor: 'sms',
      remedy: async (account) => {
        // SMS at sign-in: the owner's own code, in the owner's own session.
        const owner = server.client();
        await signInToStep(owner, account.username, 'MFA');
        expect((await post(owner, 'forced-actions/mfa/start')).status).toBe(200);
        const mfa = await post<Json>(owner, 'forced-actions/mfa/verify-mobile', {
          code: await latestCode(owner, await mobileOf(account)),
          trustDevice: false,
        });
        expect(mfa.body, JSON.stringify(mfa.body)).toMatchObject({ outcome: 'DIRECT_LOGIN' });
        const res = await post(owner, 'profile/unenrol-sms', { currentPassword: DEMO_PASSWORD });
        expect(res.status).toBe(204);
      },
    },
    {
      name: 'factor enrolment at sign-in',
      account: { extra: { mfa_required: true } },
      factor: 'none',
      remedy: async (account) => {
        const owner = server.client();
        await signInToStep(owner, account.username, 'FACTOR_ENROLMENT');
        const verified = await post(owner, 'forced-actions/factor-enrolment/verify-email', {
          code: await latestCode(owner, account.email),
        });
        expect(verified.status).toBe(204);
        const done = await post<Json>(owner, 'forced-actions/factor-enrolment/submit', {
          ...QUESTIONS,
        });
        expect(done.body, JSON.stringify(done.body)).toMatchObject({ outcome: 'DIRECT_LOGIN' });
      },
    },
  ];

  for (const { name, account: options, factor, remedy } of remedies) {
    it(`${name} ends the resets in progress for the account`, async () => {
      const account = await customer(options);
      const intruder = await readyToSubmit(account, factor);
      expect(await resetSessionsOf(account)).toBe(1);
      await remedy(account);
      expect(await resetSessionsOf(account)).toBe(0);
      const after = await passwordHashOf(account);
      const refused = await submit(intruder);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(START_OVER);
      expect(await passwordHashOf(account)).toBe(after);
    });
  }

  it('a merge that gives the account a new email ends the resets of the shared address', async () => {
    const shared = 'shared.r@example.com';
    const account = await customer({ email: shared });
    const other = await customer({ email: shared });
    const intruder = await readyToSubmit(account, 'none');
    const owner = server.client();
    await signInToStep(owner, account.username, 'DUPLICATE_ACCOUNTS');
    const M = 'forced-actions/merge-identities';
    expect((await post(owner, `${M}/select-accounts`, { identities: [] })).body).toEqual({
      changeEmail: true,
    });
    const email = `${account.username.toLowerCase()}.own@example.com`;
    expect((await post(owner, `${M}/change-email`, { email })).status).toBe(204);
    expect((await post(owner, `${M}/verify-email`, { code: await latestCode(owner, email) })).status).toBe(
      204,
    );
    expect(await resetSessionsOf(account)).toBe(0);
    expect(await resetSessionsOf(other)).toBe(0);
    const before = await passwordHashOf(account);
    expect((await submit(intruder)).body).toEqual(START_OVER);
    expect(await passwordHashOf(account)).toBe(before);
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

  it('a locked account is not reset: the lock and the password stay until support unlocks it', async () => {
    const account = await customer();
    const before = await passwordHashOf(account);
    const client = await readyToSubmit(account, 'none');
    const { lockout } = server.app.services.factors;
    for (let i = 0; i < lockout.policy.lockAfter; i++) await lockout.fail(account.username);
    expect(await lockout.lockedAt(account.username)).not.toBeNull();

    const refused = await submit(client);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: ACCOUNT_LOCKED_MESSAGE, reroute: '/' });
    expect(await passwordHashOf(account)).toBe(before);
    expect(await lockout.lockedAt(account.username)).not.toBeNull();
    // The reset's session ended with it.
    expect((await submit(client)).body).toEqual(START_OVER);
    expect((await server.client().login(account.username, INTRUDER_PASSWORD)).status).toBe(422);

    // Locked while the new password was being hashed: refused all the same, nothing written.
    const other = await customer();
    const otherBefore = await passwordHashOf(other);
    const racing = await readyToSubmit(other, 'none');
    afterHash = async () => {
      for (let i = 0; i < lockout.policy.lockAfter; i++) await lockout.fail(other.username);
    };
    const raced = await submit(racing);
    expect(raced.body).toEqual({ message: ACCOUNT_LOCKED_MESSAGE, reroute: '/' });
    expect(await passwordHashOf(other)).toBe(otherBefore);
    expect(await lockout.lockedAt(other.username)).not.toBeNull();
    expect((await submit(racing)).body).toEqual(START_OVER);
  });
});
