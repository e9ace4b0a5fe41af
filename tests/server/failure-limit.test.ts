// The one failure limit (domain/lockout.ts) over real HTTP: every password and code check counts
// into one count per username (any case), which asks sign-in for the captcha from the 3rd
// failure, imposes growing waits (429 with Retry-After, a time in the database, moved here with
// the injected clock), and locks the account at the 10th failure in a row until support unlocks
// it (admin call or CLI). Unknown usernames get exactly the answers known ones get.
// Timing equality is measured in bench/enumeration, not asserted here.
import { sql } from 'kysely';
import { TRY_RESERVATION_LAPSE_MS } from '../../src/server/db/repositories/factors-flow';
import { hashSessionToken } from '../../src/server/domain/sessions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MERGE_ERROR_FIELDS } from '../../src/contract/merge';
import { ManualClock } from '../../src/server/adapters/clock';
import {
  KNOWN_ATTEMPTS_KEPT_MS,
  SWEEP_BATCH_ROWS,
  sweepFailureRecords,
} from '../../src/server/db/repositories/lockout';
import { loadConfig } from '../../src/server/config';
import { ACCOUNT_LOCKED_EVENT, ACCOUNT_UNLOCKED_EVENT } from '../../src/server/db/repositories/lockout';
import { CODE_INCORRECT_MESSAGE } from '../../src/server/domain/factors/messages';
import {
  ACCOUNT_LOCKED_MESSAGE,
  DEFAULT_LOCKOUT_POLICY,
  IN_FLIGHT_MS,
  LOCKED_HISTORY_TEXT,
  lockoutPolicyOf,
  locksAt,
  tryLaterMessage,
  UNLOCKED_BY_ADMIN_TEXT,
  UNLOCKED_BY_COMMAND_TEXT,
  waitAfter,
} from '../../src/server/domain/lockout';
import { PASSWORD_INCORRECT_MESSAGE } from '../../src/server/domain/merge/messages';
import { CAPTCHA_REQUIRED_MESSAGE, INCORRECT_CREDENTIALS_MESSAGE } from '../../src/server/domain/messages';
import { runUnlockCommand } from '../../scripts/unlock';
import {
  API,
  DEMO_PASSWORD,
  startServer,
  TEST_DATA_KEY,
  usernameKey,
  type TestClient,
  type TestResponse,
  type TestServer,
} from './support/server';
import { targets } from './support/targets';
import { latestCode, post, signInToStep, totpAt, wrongTotp, type Json } from './support/factors';

const CAPTCHA = 'LOCK9';
const WRONG = 'not-the-password-1';
const UNKNOWN = 'nobody.at.all';

describe('failure limit policy', () => {
  it('waits nothing up to the 3rd failure, then 1 s doubling up to the cap; locks at the 10th', () => {
    const policy = DEFAULT_LOCKOUT_POLICY;
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => waitAfter(policy, n))).toEqual([
      0, 0, 0, 1000, 2000, 4000, 8000, 16_000, 32_000,
    ]);
    expect(waitAfter(policy, 30)).toBe(300_000);
    expect(waitAfter(policy, 5000)).toBe(300_000);
    expect(locksAt(policy, 9)).toBe(false);
    expect(locksAt(policy, 10)).toBe(true);
  });

  it('reads its thresholds from the configuration; 0 turns waits and the lock off', () => {
    const defaults = lockoutPolicyOf(loadConfig({}));
    expect(defaults).toEqual(DEFAULT_LOCKOUT_POLICY);
    const off = lockoutPolicyOf(
      loadConfig({ LOCK_AFTER_FAILURES: '0', FAILURE_DELAY_SECONDS: '0', FAILURE_DELAY_MAX_SECONDS: '0' }),
    );
    expect(waitAfter(off, 9)).toBe(0);
    expect(locksAt(off, 1000)).toBe(false);
    const custom = lockoutPolicyOf(
      loadConfig({ LOCK_AFTER_FAILURES: '5', FAILURE_DELAY_SECONDS: '2', FAILURE_DELAY_MAX_SECONDS: '5' }),
    );
    expect([4, 5, 6].map((n) => waitAfter(custom, n))).toEqual([2000, 4000, 5000]);
    expect(locksAt(custom, 5)).toBe(true);
    expect(() => loadConfig({ LOCK_AFTER_FAILURES: '-1' })).toThrow(/LOCK_AFTER_FAILURES/);
  });
});

describe.each(targets)('failure limit on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-03-02T09:00:05Z');

  beforeAll(async () => {
    server = await startServer(target, { env: { CAPTCHA_FIXED_ANSWER: CAPTCHA }, deps: { clock } });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    // Well past any wait, on fresh TOTP steps, nothing counted.
    clock.advance(60 * 60_000);
    await server.db.deleteFrom('failed_auth_counts').execute();
  });

  const failedCount = async (username: string) =>
    (
      await server
        .client()
        .get<number>(`${API}anonymous/login/failed-auth-count?username=${encodeURIComponent(username)}`)
    ).body;

  const row = (username: string) =>
    server.db
      .selectFrom('failed_auth_counts')
      .selectAll()
      .where('username_key', '=', usernameKey(server, username))
      .executeTakeFirst();

  const identityIdOf = async (username: string) =>
    (
      await server.db
        .selectFrom('identities')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  const events = async (identityId: string, type: string) =>
    server.db
      .selectFrom('identity_events')
      .select(['type', 'variant', 'description', 'actor_identity_id', 'event_date'])
      .where('identity_id', '=', identityId)
      .where('type', '=', type)
      .orderBy('id')
      .execute();

  /** A sign-in with a fresh captcha drawn for the client's session. */
  async function attempt(client: TestClient, username: string, password: string) {
    await client.get(`/captcha.jpg?${Date.now()}`);
    return client.login<Json>(username, password, { captchaCode: CAPTCHA });
  }

  const answer = (res: TestResponse<Json>) => ({
    status: res.status,
    body: res.body,
    retryAfter: res.headers.get('retry-after'),
  });

  /**
   * `n` wrong passwords for the username, each past any wait (the longest before the lock is 32 s)
   * and short of the 30-minute idle end of the tests' other sessions; answers what each was told.
   */
  async function failSignIns(username: string, n: number) {
    const answers = [];
    for (let i = 0; i < n; i++) {
      clock.advance(2 * 60_000);
      answers.push(answer(await attempt(server.client(), username, WRONG)));
    }
    return answers;
  }

  /**
   * Puts the username where `count` failures in a row leave it (a lock from the 10th), without
   * spending that many argon2id checks: the path there is the lock test's.
   */
  async function failedBefore(username: string, count: number) {
    const now = clock.now();
    const values = { count, last_failed_at: now, not_before: null, locked_at: count >= 10 ? now : null };
    await server.db
      .insertInto('failed_auth_counts')
      .values({ username_key: usernameKey(server, username), ...values })
      .onConflict((oc) => oc.column('username_key').doUpdateSet(values))
      .execute();
  }

  async function signedIn(username: string): Promise<TestClient> {
    const client = server.client();
    const res = await client.login<Json>(username);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return client;
  }

  it('one count for every spelling of a username; growing waits answered 429 with Retry-After, uncounted', async () => {
    const client = server.client();
    // The first three need no captcha and impose no wait.
    for (const spelling of ['c10001', 'C10001', '  C10001 ']) {
      const res = await client.login<Json>(spelling, WRONG);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: INCORRECT_CREDENTIALS_MESSAGE });
    }
    expect(await failedCount('C10001')).toBe(3);
    expect((await row('c10001'))?.not_before).toBeNull();
    expect((await client.login<Json>('c10001', DEMO_PASSWORD)).body).toMatchObject({
      message: CAPTCHA_REQUIRED_MESSAGE,
    });

    // The 4th failure: a 1 s wait, kept in the database as a time, not slept.
    const fourth = await attempt(client, 'C10001', WRONG);
    expect(fourth.body).toEqual({ message: INCORRECT_CREDENTIALS_MESSAGE });
    expect((await row('c10001'))?.not_before?.getTime()).toBe(clock.now().getTime() + 1000);

    // Inside the wait even the right password is refused, and nothing is counted.
    const early = await attempt(client, 'c10001', DEMO_PASSWORD);
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('1');
    expect(early.body).toEqual({ message: tryLaterMessage(1) });
    expect(await failedCount('c10001')).toBe(4);

    clock.advance(1000);
    expect((await attempt(client, 'C10001', WRONG)).status).toBe(422);
    clock.advance(1000);
    expect(answer(await attempt(client, 'C10001', WRONG))).toMatchObject({ status: 429, retryAfter: '1' });
    clock.advance(1000);
    expect((await attempt(client, 'c10001', WRONG)).status).toBe(422);
    expect(answer(await attempt(client, 'c10001', WRONG))).toEqual({
      status: 429,
      body: { message: tryLaterMessage(4) },
      retryAfter: '4',
    });
    expect(await failedCount('C10001')).toBe(6);

    // After the wait the right password signs in and everything is forgotten.
    clock.advance(4000);
    const ok = await attempt(client, 'C10001', DEMO_PASSWORD);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await row('c10001')).toBeUndefined();
  });

  it('locks at the 10th failure: the right password is refused, the history says so; an unknown username is answered alike', async () => {
    const id = await identityIdOf('C10001');
    const known = await failSignIns('C10001', 10);
    const unknown = await failSignIns(UNKNOWN, 10);
    expect(known.map((a) => a.status)).toEqual(Array(10).fill(422));
    expect(unknown).toEqual(known);

    clock.advance(24 * 60 * 60_000);
    const right = answer(await attempt(server.client(), 'c10001', DEMO_PASSWORD));
    const guess = answer(await attempt(server.client(), UNKNOWN, DEMO_PASSWORD));
    expect(right).toEqual({ status: 422, body: { message: ACCOUNT_LOCKED_MESSAGE }, retryAfter: null });
    expect(guess).toEqual(right);
    expect(await failedCount('C10001')).toBe(10);
    expect(await failedCount(UNKNOWN)).toBe(10);

    const locked = await events(id, ACCOUNT_LOCKED_EVENT);
    expect(locked).toHaveLength(1);
    expect(locked[0]).toMatchObject({
      variant: 'danger',
      description: LOCKED_HISTORY_TEXT(10),
      actor_identity_id: null,
    });
  });

  it("forgets unlocked counts idle for 30 days and unknown usernames' attempts after 90; keeps locks and identities' attempts", async () => {
    await failedBefore('C10009', 4);
    await failedBefore('nobody-idle', 2);
    await failedBefore('C10008', 10);
    await server.client().login('nobody-at-all', WRONG);
    // An unknown username's attempts are logged under its key.
    const attempts = async (username: string) =>
      (
        await server.db
          .selectFrom('sign_in_attempts')
          .select('id')
          .where('username', '=', usernameKey(server, username))
          .execute()
      ).length;
    expect(await attempts('nobody-at-all')).toBe(1);
    const ownBefore = await server.db
      .selectFrom('sign_in_attempts')
      .select('id')
      .where('identity_id', 'is not', null)
      .execute();

    await sweepFailureRecords(server.db, new Date(clock.now().getTime() + 29 * 86_400_000));
    expect(await failedCount('C10009')).toBe(4);
    await sweepFailureRecords(server.db, new Date(clock.now().getTime() + 31 * 86_400_000));
    expect(await failedCount('C10009')).toBe(0);
    expect(await failedCount('nobody-idle')).toBe(0);
    // A lock stays until support lifts it.
    expect(await failedCount('C10008')).toBe(10);
    expect(await attempts('nobody-at-all')).toBe(1);
    await sweepFailureRecords(server.db, new Date(clock.now().getTime() + 91 * 86_400_000));
    expect(await attempts('nobody-at-all')).toBe(0);
    const ownAfter = await server.db
      .selectFrom('sign_in_attempts')
      .select('id')
      .where('identity_id', 'is not', null)
      .execute();
    expect(ownAfter).toEqual(ownBefore);
    await server.db
      .deleteFrom('failed_auth_counts')
      .where('username_key', '=', usernameKey(server, 'c10008'))
      .execute();
  });

  it("keeps an identity's attempts 13 months but always its latest, and sweeps a backlog in batches", async () => {
    const now = clock.now();
    const day = 86_400_000;
    const idOf = async (username: string) => (await identityIdOf(username)) as string;
    const [c10002, c10003] = [await idOf('C10002'), await idOf('C10003')];
    const { realm_code: realm } = await server.db
      .selectFrom('identities')
      .select('realm_code')
      .where('id', '=', c10002)
      .executeTakeFirstOrThrow();
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * day);
    const attempt = (identityId: string | null, daysAgo: number, username: string) => ({
      identity_id: identityId,
      username,
      realm_code: realm,
      attempted_at: at(daysAgo),
      ip_address: null,
      city_name: null,
      country_name: null,
      continent_name: null,
      is_successful: identityId !== null,
    });
    await server.db.deleteFrom('sign_in_attempts').where('identity_id', 'in', [c10002, c10003]).execute();
    // C10002: attempts 500, 400 and 10 days old; C10003: one attempt, 500 days old (its latest).
    await server.db
      .insertInto('sign_in_attempts')
      .values([
        attempt(c10002, 500, 'c10002'),
        attempt(c10002, 400, 'c10002'),
        attempt(c10002, 10, 'c10002'),
        attempt(c10003, 500, 'c10003'),
      ])
      .execute();
    // A backlog of unknown usernames' attempts, more than one batch.
    await sql`
      insert into sign_in_attempts (identity_id, username, realm_code, attempted_at, is_successful)
      select null, 'backlog-' || n, ${realm}, ${at(100)}::timestamptz, false
      from generate_series(1, ${SWEEP_BATCH_ROWS + 7}) as n
    `.execute(server.db);
    const ages = async (identityId: string) =>
      (
        await server.db
          .selectFrom('sign_in_attempts')
          .select('attempted_at')
          .where('identity_id', '=', identityId)
          .orderBy('attempted_at')
          .execute()
      ).map((r) => Math.round((now.getTime() - r.attempted_at.getTime()) / day));

    const swept = await sweepFailureRecords(server.db, now);
    expect(swept.unknownAttempts).toBeGreaterThanOrEqual(SWEEP_BATCH_ROWS + 7);
    expect(swept.knownAttempts).toBe(2);
    expect(await ages(c10002)).toEqual([10]);
    // However old, the latest stays: the next sign-in shows it as the previous attempt.
    expect(await ages(c10003)).toEqual([500]);
    const backlog = await sql<{ n: number }>`
      select count(*)::int as n from sign_in_attempts where username like 'backlog-%'
    `.execute(server.db);
    expect(backlog.rows[0]!.n).toBe(0);
    expect(KNOWN_ATTEMPTS_KEPT_MS).toBe(396 * day);
  });

  it('admins unlock an account (POST admin/identities/{id}/unlock); others cannot; the history records it', async () => {
    const id = await identityIdOf('C10001');
    await failedBefore('c10001', 10);
    const admin = await signedIn('admin1');
    const adminId = await identityIdOf('admin1');
    const customer = await signedIn('C10008');
    const unlock = (client: TestClient, identityId: string) =>
      client.post<Json>(`${API}admin/identities/${identityId}/unlock`);

    expect((await unlock(server.client(), id)).status).toBe(401);
    expect((await unlock(customer, id)).status).toBe(403);
    expect((await unlock(admin, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await unlock(admin, 'not-an-id')).status).toBe(404);
    expect(await failedCount('C10001')).toBe(10);

    const res = await unlock(admin, id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ username: 'C10001', wasLocked: true });
    const unlocked = await events(id, ACCOUNT_UNLOCKED_EVENT);
    expect(unlocked).toMatchObject([
      { variant: 'success', description: UNLOCKED_BY_ADMIN_TEXT, actor_identity_id: adminId },
    ]);
    expect(await row('c10001')).toBeUndefined();
    expect((await server.client().login('C10001')).status).toBe(200);

    // Unlocking an account that is not locked changes nothing in the history.
    expect((await unlock(admin, id)).body).toEqual({ username: 'C10001', wasLocked: false });
    expect(await events(id, ACCOUNT_UNLOCKED_EVENT)).toHaveLength(1);
  });

  it('npm run unlock -- <username> lifts the lock in any case, also of a username without an account', async () => {
    const id = await identityIdOf('C10008');
    await failedBefore('C10008', 10);
    await failedBefore(UNKNOWN, 10);
    expect((await attempt(server.client(), 'C10008', DEMO_PASSWORD)).body).toEqual({
      message: ACCOUNT_LOCKED_MESSAGE,
    });

    const lines: string[] = [];
    const deps = { db: server.db, clock, dataKey: TEST_DATA_KEY, out: (line: string) => lines.push(line) };
    expect(await runUnlockCommand(['--', 'c10008'], deps)).toEqual({
      username: 'C10008',
      wasLocked: true,
      identityId: id,
    });
    expect(await runUnlockCommand([UNKNOWN.toUpperCase()], deps)).toMatchObject({
      username: UNKNOWN,
      wasLocked: true,
      identityId: null,
    });
    expect(lines).toEqual([
      'Unlocked C10008; its failed attempts are forgotten.',
      `Unlocked ${UNKNOWN} (no account has this username); its failed attempts are forgotten.`,
    ]);
    await expect(runUnlockCommand([], deps)).rejects.toThrow(/Usage: npm run unlock/);
    expect(await events(id, ACCOUNT_UNLOCKED_EVENT)).toMatchObject([
      { description: UNLOCKED_BY_COMMAND_TEXT, actor_identity_id: null },
    ]);
    expect((await server.client().login('c10008')).status).toBe(200);
    expect(await failedCount(UNKNOWN)).toBe(0);
  });

  it('lets no more than 10 of 40 parallel attempts reach the password check', async () => {
    const clients = Array.from({ length: 40 }, () => server.client());
    for (const client of clients) await client.get('/captcha.jpg?parallel');
    const results = await Promise.all(
      clients.map((client) => client.login<Json>('C10001', WRONG, { captchaCode: CAPTCHA })),
    );
    const checked = results.filter((r) => r.body.message === INCORRECT_CREDENTIALS_MESSAGE).length;
    // Each completed failure past the 3rd makes the next reservation wait: at least the first 4 go through.
    expect(checked).toBeGreaterThanOrEqual(4);
    expect(checked).toBeLessThanOrEqual(10);
    for (const r of results.filter((r) => r.body.message !== INCORRECT_CREDENTIALS_MESSAGE)) {
      expect([429, 422]).toContain(r.status);
      if (r.status === 422) expect(r.body).toEqual({ message: ACCOUNT_LOCKED_MESSAGE });
    }
    expect(await failedCount('C10001')).toBe(checked);
  });

  it("holds a count at the lock without the lock for a minute (the lock's last attempt in flight), then lets one through", async () => {
    // As a sign-in that reserved the 10th attempt and never finished (the server stopped) leaves it.
    await server.db
      .insertInto('failed_auth_counts')
      .values({
        username_key: usernameKey(server, 'c10001'),
        count: 10,
        last_failed_at: clock.now(),
        not_before: null,
        locked_at: null,
      })
      .execute();
    const inFlight = await attempt(server.client(), 'C10001', DEMO_PASSWORD);
    expect(inFlight.status).toBe(429);
    expect(inFlight.headers.get('retry-after')).toBe('1');
    expect((await attempt(server.client(), 'C10001', DEMO_PASSWORD)).status).toBe(429);
    clock.advance(IN_FLIGHT_MS);
    const through = await attempt(server.client(), 'C10001', DEMO_PASSWORD);
    expect(through.status, JSON.stringify(through.body)).toBe(200);
    expect(await row('c10001')).toBeUndefined();
  });

  it('re-enter password and the profile current password count into the same limit: captcha, then waits', async () => {
    const client = await signedIn('C10001');
    expect((await post(client, 'reenter-password', { currentPassword: WRONG })).status).toBe(422);
    expect((await post(client, 'reenter-password', { currentPassword: WRONG })).status).toBe(422);
    const profile = await client.request<Json>('PATCH', `${API}profile`, {
      json: { currentPassword: WRONG, name: 'Someone Else' },
    });
    expect(profile.status).toBe(422);
    expect(await failedCount('c10001')).toBe(3);
    // The next sign-in of the account asks for the captcha.
    expect((await server.client().login<Json>('C10001')).body).toMatchObject({
      message: CAPTCHA_REQUIRED_MESSAGE,
    });

    // The 4th failure imposes the 1 s wait on the signed-in session too: not checked, not counted.
    expect((await post(client, 'reenter-password', { currentPassword: WRONG })).status).toBe(422);
    const waiting = await post(client, 'reenter-password', { currentPassword: DEMO_PASSWORD });
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get('retry-after')).toBe('1');
    expect(await failedCount('c10001')).toBe(4);
    clock.advance(1000);
    expect((await post(client, 'reenter-password', { currentPassword: DEMO_PASSWORD })).status).toBe(204);
    expect(await failedCount('c10001')).toBe(0);
  });

  it('a locked account is refused at re-enter password with the locked text, and its session ends', async () => {
    const client = await signedIn('C10001');
    await failedBefore('c10001', 10);
    const res = await post(client, 'reenter-password', { currentPassword: DEMO_PASSWORD });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: ACCOUNT_LOCKED_MESSAGE, reroute: '/' });
    expect((await client.get<Json>(`${API}anonymous/current-user`)).body).toMatchObject({
      isAuthenticated: false,
    });
  });

  it('lets no more than 10 wrong codes sent at once from 20 sessions be checked: checks in flight count towards the lock', async () => {
    const clients = Array.from({ length: 20 }, () => server.client());
    for (const client of clients) {
      await signInToStep(client, 'C10004', 'MFA');
      expect((await post(client, 'forced-actions/mfa/start')).status).toBe(200);
    }
    expect(await failedCount('C10004')).toBe(0);
    const results = await Promise.all(
      clients.map((client) =>
        post(client, 'forced-actions/mfa/verify-authenticator-app', {
          code: wrongTotp(clock),
          trustDevice: false,
        }),
      ),
    );
    // A check answers the wrong code, or (the 10th failure) the lock; the rest were not checked.
    const incorrect = results.filter((r) => r.body.message === CODE_INCORRECT_MESSAGE).length;
    const locked = results.filter((r) => r.body.message === ACCOUNT_LOCKED_MESSAGE).length;
    for (const r of results.filter((r) => r.body.message !== CODE_INCORRECT_MESSAGE)) {
      expect([429, 422], JSON.stringify(r.body)).toContain(r.status);
      if (r.status === 422) expect(r.body).toEqual({ message: ACCOUNT_LOCKED_MESSAGE, reroute: '/' });
    }
    const checked = await failedCount('C10004');
    expect(incorrect).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(10);
    expect(checked).toBeGreaterThanOrEqual(incorrect);
    expect(checked).toBeLessThanOrEqual(incorrect + Math.min(locked, 1));
    // Every try was given back: no check is left in flight.
    expect((await row('C10004'))?.in_flight).toBe(0);
  });

  it("counts an account's checks in flight at sign-in too, until they lapse after 30 s (a killed server's)", async () => {
    // As a server stopped in the middle of ten checks leaves the row.
    await server.db
      .insertInto('failed_auth_counts')
      .values({
        username_key: usernameKey(server, 'C10001'),
        count: 0,
        last_failed_at: clock.now(),
        in_flight: 10,
        in_flight_at: sql<Date>`clock_timestamp()`,
      })
      .execute();
    const held = await attempt(server.client(), 'C10001', DEMO_PASSWORD);
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toBe('1');
    await server.db
      .updateTable('failed_auth_counts')
      .set({ in_flight_at: sql<Date>`clock_timestamp() - interval '31 seconds'` })
      .where('username_key', '=', usernameKey(server, 'C10001'))
      .execute();
    expect((await attempt(server.client(), 'C10001', DEMO_PASSWORD)).status).toBe(200);
  });

  it('MFA codes count too; earlier failures survive the password until the sign-in completes', async () => {
    const before = await failSignIns('C10004', 2);
    expect(before.map((a) => a.status)).toEqual([422, 422]);
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    // The right password with MFA owed keeps the two earlier failures (its own attempt is not one).
    expect(await failedCount('C10004')).toBe(2);
    expect((await post(client, 'forced-actions/mfa/start')).status).toBe(200);

    const wrong = () =>
      post(client, 'forced-actions/mfa/verify-authenticator-app', {
        code: wrongTotp(clock),
        trustDevice: false,
      });
    expect((await wrong()).body).toMatchObject({ message: CODE_INCORRECT_MESSAGE });
    expect(await failedCount('C10004')).toBe(3);
    expect((await server.client().login<Json>('C10004')).body).toMatchObject({
      message: CAPTCHA_REQUIRED_MESSAGE,
    });
    expect((await wrong()).status).toBe(422);

    // 4 failures: the right code must wait 1 s (not checked, so not used up either).
    const code = totpAt(clock);
    const early = await post(client, 'forced-actions/mfa/verify-authenticator-app', {
      code,
      trustDevice: false,
    });
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('1');
    clock.advance(1000);
    const ok = await post(client, 'forced-actions/mfa/verify-authenticator-app', {
      code: totpAt(clock),
      trustDevice: false,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // The sign-in is complete: its failures are forgotten.
    expect(await failedCount('C10004')).toBe(0);
  });

  it('tries held by a check that never ended (a killed server) lapse after 30 s', async () => {
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    const idHash = hashSessionToken(client.cookie('sam_session')!);
    // A server killed mid-check left all 5 of the session's tries taken, just now (database clock).
    const abandon = (agoMs: number) =>
      sql`update sessions
          set data = data || jsonb_build_object(
            'factorFailuresInFlight', 5,
            'factorFailuresInFlightAt',
            (extract(epoch from clock_timestamp()) * 1000)::bigint - ${agoMs}::bigint)
          where id_hash = ${idHash}`.execute(server.db);
    const wrong = () =>
      post(client, 'forced-actions/mfa/verify-authenticator-app', {
        code: wrongTotp(clock),
        trustDevice: false,
      });
    await abandon(0);
    expect((await wrong()).status).toBe(429);
    expect(await failedCount('C10004')).toBe(0);
    // Older than TRY_RESERVATION_LAPSE_MS: they no longer count; the code is checked (and counted),
    // and the session's data reads as before once the check gives its own try back.
    await abandon(TRY_RESERVATION_LAPSE_MS + 1_000);
    expect((await wrong()).body).toMatchObject({ message: CODE_INCORRECT_MESSAGE });
    expect(await failedCount('C10004')).toBe(1);
    const data = (
      await server.db
        .selectFrom('sessions')
        .select('data')
        .where('id_hash', '=', idHash)
        .executeTakeFirstOrThrow()
    ).data as Record<string, unknown>;
    expect(Object.keys(data).filter((key) => key.includes('InFlight'))).toEqual([]);
    expect(data.factorFailures).toBe(1);
  });

  it('a wrong code that locks the account ends the session with the locked text', async () => {
    await failedBefore('C10004', 9);
    const locksBefore = (await events(await identityIdOf('C10004'), ACCOUNT_LOCKED_EVENT)).length;
    // Nine failures: this password is the 10th attempt and it is right, so MFA is asked...
    clock.advance(2 * 60_000);
    const client = server.client();
    const res = await attempt(client, 'C10004', DEMO_PASSWORD);
    expect(res.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'MFA' });
    expect(await failedCount('C10004')).toBe(9);
    // ...and the wrong code is the 10th failure.
    const wrong = await post(client, 'forced-actions/mfa/verify-authenticator-app', {
      code: wrongTotp(clock),
      trustDevice: false,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ message: ACCOUNT_LOCKED_MESSAGE, reroute: '/' });
    expect(await events(await identityIdOf('C10004'), ACCOUNT_LOCKED_EVENT)).toHaveLength(locksBefore + 1);
    expect((await attempt(server.client(), 'C10004', DEMO_PASSWORD)).body).toEqual({
      message: ACCOUNT_LOCKED_MESSAGE,
    });
  });

  it("merge: each selected account's password counts for that account; a locked one is named so", async () => {
    const c10007 = await identityIdOf('C10007');
    const client = server.client();
    await signInToStep(client, 'C10006', 'DUPLICATE_ACCOUNTS');
    const select = (password: string) =>
      post(client, 'forced-actions/merge-identities/select-accounts', {
        identities: [{ id: c10007, password }],
      });
    for (let i = 0; i < 3; i++) {
      expect((await select(WRONG)).body).toMatchObject({
        errors: [
          { fieldName: MERGE_ERROR_FIELDS.identityPassword(c10007), message: PASSWORD_INCORRECT_MESSAGE },
        ],
      });
    }
    expect(await failedCount('C10007')).toBe(3);
    expect((await server.client().login<Json>('C10007')).body).toMatchObject({
      message: CAPTCHA_REQUIRED_MESSAGE,
    });

    await failedBefore('C10007', 10);
    expect((await select(DEMO_PASSWORD)).body).toMatchObject({
      errors: [{ fieldName: MERGE_ERROR_FIELDS.identityPassword(c10007), message: ACCOUNT_LOCKED_MESSAGE }],
    });
  });

  it('registration: the existing account password counts, and waits apply to it', async () => {
    const client = server.client();
    await client.get(`/captcha.jpg?${Date.now()}`);
    const started = await post(client, 'anonymous/registration/start', {
      email: 'c10001@example.com',
      inviteCode: 'INVITE-EXIST-0001',
      captchaCode: CAPTCHA,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const submit = (password: string) =>
      post(client, 'anonymous/registration/submit-existing', { username: 'C10001', password });
    for (let i = 0; i < 3; i++)
      expect((await submit(WRONG)).body).toEqual({ message: INCORRECT_CREDENTIALS_MESSAGE });
    expect(await failedCount('C10001')).toBe(3);
    expect((await server.client().login<Json>('c10001')).body).toMatchObject({
      message: CAPTCHA_REQUIRED_MESSAGE,
    });
    expect((await submit(WRONG)).status).toBe(422);
    const early = await submit(DEMO_PASSWORD);
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('1');
    expect(await failedCount('C10001')).toBe(4);
  });

  it('password reset: a wrong email code of a locked account is answered as for an unknown email', async () => {
    await failedBefore('C10008', 10);
    const answers = [];
    for (const email of ['c10008@example.com', 'nobody-here@example.com']) {
      const client = server.client();
      await client.get(`/captcha.jpg?${Date.now()}`);
      const start = await post(client, 'anonymous/password-reset/start', { email, captchaCode: CAPTCHA });
      await server.app.services.passwordReset.idle();
      const wrong = await post(client, 'anonymous/password-reset/verify-email', { code: '000000' });
      answers.push([start.status, start.body, wrong.status, wrong.body]);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.[3]).toMatchObject({ message: CODE_INCORRECT_MESSAGE });
    // The code went out, but the account's lock stands: only support lifts it. The wrong email
    // code counted for its session only.
    expect(await latestCode(server.client(), 'c10008@example.com')).toMatch(/^\d{6}$/);
    expect(await failedCount('C10008')).toBe(10);
  });
});
