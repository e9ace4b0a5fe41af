// The DUPLICATE_ACCOUNTS step over real HTTP: the rule, skip before and after the cutoff, password
// proof per account (counted towards that account), the None path with a verified new email, a
// partial merge that needs a new email, and the merge itself: union of access, retired accounts
// that can no longer sign in, history, a failure after any statement leaving nothing changed, and
// concurrent merges over the same accounts of which one wins.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MERGE_ERROR_FIELDS } from '../../src/contract/merge';
import { INCORRECT_CREDENTIALS_MESSAGE } from '../../src/server/domain/messages';
import {
  ACCOUNT_GONE_MESSAGE,
  ACCOUNT_LOCKED_MESSAGE,
  EMAIL_CODE_ONLY_MESSAGE,
  MERGE_NOTICE_SUBJECT,
  EMAIL_IN_USE_MESSAGE,
  EMAIL_NOT_VERIFIED_MESSAGE,
  EMAIL_SAME_MESSAGE,
  IDV_CONFLICT_MESSAGE,
  MERGE_VALIDATION_MESSAGE,
  NOT_FINISHED_MESSAGE,
  PASSWORD_INCORRECT_MESSAGE,
  SELECT_ACCOUNTS_FIRST_MESSAGE,
  SKIP_CLOSED_MESSAGE,
  USERNAME_NOT_CHOSEN_MESSAGE,
  USERNAME_NOT_OFFERED_MESSAGE,
} from '../../src/server/domain/merge/messages';
import { MERGE_EVENT, RETIRED_EVENT } from '../../src/server/domain/merge/service';
import { API, DEMO_PASSWORD, startServer, type TestClient, type TestServer } from './support/server';
import { copyOfIdentity } from './support/identities';
import { targets } from './support/targets';
import { get, latestCode, outbox, post, signInToStep, type Json } from './support/factors';

const M = 'forced-actions/merge-identities';
const fieldError = (fieldName: string, message: string) => ({
  message: MERGE_VALIDATION_MESSAGE,
  errors: [{ fieldName, message }],
});

/** Failure injection: the statement number after which the merge transaction throws (0: none). */
let failAfter = 0;
class InjectedFailure extends Error {}

describe.each(targets)('merge accounts on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target, {
      deps: {
        mergeObserver: (n) => {
          if (n === failAfter) throw new InjectedFailure(`injected after statement ${n}`);
        },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    failAfter = 0;
    await server.db.deleteFrom('failed_auth_counts').execute();
    await setCutoff(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
  });

  const setCutoff = (value: string) =>
    server.db
      .updateTable('properties')
      .set({ value })
      .where('name', '=', 'skip-merge-accounts-cutoff-date')
      .execute();

  const idOf = async (username: string) =>
    (
      await server.db
        .selectFrom('identities')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  /** A new customer with C10006's password, the given email and LOANS grants at the facilities. */
  async function customer(
    username: string,
    email: string,
    facilities: string[],
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    const db = server.db;
    const now = new Date();
    const id = await copyOfIdentity(
      db,
      { username, email, customer_number: username, identity_verified: false, ...extra },
      { now },
    );
    for (const code of facilities) {
      const facility = await db
        .selectFrom('facilities')
        .select('id')
        .where('app_code', '=', 'LOANS')
        .where('code', '=', code)
        .executeTakeFirstOrThrow();
      await db
        .insertInto('access_grants')
        .values({
          id: randomUUID(),
          identity_id: id,
          app_code: 'LOANS',
          facility_id: facility.id,
          created_at: now,
        })
        .execute();
    }
    return id;
  }

  async function startMerge(username: string): Promise<TestClient> {
    const client = server.client();
    await signInToStep(client, username, 'DUPLICATE_ACCOUNTS');
    return client;
  }

  /** Signs in as `username` and takes the wizard up to (not including) confirm. */
  async function readyToConfirm(username: string, other: string, preferred = username): Promise<TestClient> {
    const client = await startMerge(username);
    const select = await post(client, `${M}/select-accounts`, {
      identities: [{ id: await idOf(other), password: DEMO_PASSWORD }],
    });
    expect(select.status, JSON.stringify(select.body)).toBe(200);
    expect((await post(client, `${M}/preferred-username`, { username: preferred })).status).toBe(204);
    return client;
  }

  const handoffTargets = async (client: TestClient) =>
    (
      await get<Array<{ appCode: string; facilityCode: string | null }>>(
        client,
        'current-user/accessible-apps',
      )
    ).body;

  /** Every row the merge could touch, in a stable order. */
  async function dump(): Promise<Record<string, string[]>> {
    const tables = [
      'identities',
      'credentials',
      'identity_roles',
      'access_grants',
      'identity_factors',
      'security_answers',
      'trusted_devices',
      'identity_events',
      'failed_auth_counts',
    ] as const;
    const out: Record<string, string[]> = {};
    for (const table of tables) {
      const rows = await server.db.selectFrom(table).selectAll().execute();
      out[table] = rows.map((r) => JSON.stringify(r)).sort();
    }
    // Sessions are touched (last seen) by every request; their owner and data are what matter.
    const sessions = await server.db
      .selectFrom('sessions')
      .select(['id_hash', 'identity_id', 'type', 'data'])
      .execute();
    out.sessions = sessions.map((r) => JSON.stringify(r)).sort();
    return out;
  }

  it('C10006 is asked to merge C10007, which shares its email; merging gives the union of access', async () => {
    const client = await startMerge('C10006');
    const c10007 = await idOf('C10007');
    const list = await get(client, M);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id: c10007, username: 'C10007', name: 'Liam Walsh', isIdvConflict: false }]);

    // A wrong password is a field error on that account's password, counted towards C10007.
    const wrong = await post(client, `${M}/select-accounts`, {
      identities: [{ id: c10007, password: 'not-the-password-1' }],
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.identityPassword(c10007), PASSWORD_INCORRECT_MESSAGE),
    );
    const failed = await server
      .client()
      .get<number>(`${API}anonymous/login/failed-auth-count?username=C10007`);
    expect(failed.body).toBe(1);

    // Steps out of order are refused.
    expect((await post(client, `${M}/confirm`)).body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.identities, SELECT_ACCOUNTS_FIRST_MESSAGE),
    );
    expect((await get(client, `${M}/continue-sign-in`)).body).toMatchObject({
      message: NOT_FINISHED_MESSAGE,
    });

    const select = await post(client, `${M}/select-accounts`, {
      identities: [{ id: c10007, password: DEMO_PASSWORD }],
    });
    expect(select.status).toBe(200);
    expect(select.body).toEqual({ changeEmail: false });
    // The right password clears the account's failed count.
    expect(
      (await server.client().get<number>(`${API}anonymous/login/failed-auth-count?username=C10007`)).body,
    ).toBe(0);

    expect((await post(client, `${M}/generate-merge-details`)).body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.preferredUsername, USERNAME_NOT_CHOSEN_MESSAGE),
    );
    const usernames = await get(client, `${M}/preferred-usernames`);
    expect(usernames.body).toEqual([{ username: 'C10006' }, { username: 'C10007' }]);
    expect((await post(client, `${M}/preferred-username`, { username: 'C10001' })).body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.preferredUsername, USERNAME_NOT_OFFERED_MESSAGE),
    );
    expect((await post(client, `${M}/preferred-username`, { username: 'C10006' })).status).toBe(204);

    const details = await post<Json>(client, `${M}/generate-merge-details`);
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({
      username: 'C10006',
      name: 'Liam Walsh',
      email: 'dup@example.com',
      mobile: '+61 400 000 006',
      birthDate: '1983-04-17',
    });
    expect(
      (details.body.accessibleFacilities as Array<{ appName: string; code: string }>).map((f) => f.code),
    ).toEqual(['F001', 'F003']);

    const confirm = await post(client, `${M}/confirm`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toEqual({ preferredUsername: 'C10006', mergedUsernames: ['C10007'] });

    const done = await get<Json>(client, `${M}/continue-sign-in`);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
      currentUser: { username: 'C10006', isAuthenticated: true },
    });
    const targetsAfter = await handoffTargets(client);
    expect(
      targetsAfter
        .filter((t) => t.appCode === 'LOANS')
        .map((t) => t.facilityCode)
        .sort(),
    ).toEqual(['F001', 'F003']);

    // The merged username can no longer sign in; the survivor signs in without the step.
    const retired = await server.client().login('C10007');
    expect(retired.status).toBe(422);
    expect(retired.body).toEqual({ message: INCORRECT_CREDENTIALS_MESSAGE });
    const again = await server.client().login<Json>('C10006');
    expect(again.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });

    const events = await server.db
      .selectFrom('identity_events')
      .select(['identity_id', 'type', 'actor_identity_id', 'description'])
      .where('type', 'in', [MERGE_EVENT, RETIRED_EVENT])
      .execute();
    const c10006 = await idOf('C10006');
    expect(events).toEqual(
      expect.arrayContaining([
        {
          identity_id: c10006,
          type: MERGE_EVENT,
          actor_identity_id: c10006,
          description: 'Merged C10007 into C10006.',
        },
        {
          identity_id: c10007,
          type: RETIRED_EVENT,
          actor_identity_id: c10006,
          description: 'Merged into C10006; this account was retired.',
        },
      ]),
    );
  });

  /** Gives the identity an SMS factor on `mobile` and makes its second factor required. */
  async function withSmsMfa(id: string, mobile: string): Promise<void> {
    await server.db
      .updateTable('identities')
      .set({ mfa_required: true, mobile })
      .where('id', '=', id)
      .execute();
    await server.db
      .insertInto('identity_factors')
      .values({
        id: randomUUID(),
        identity_id: id,
        factor_type: 'SMS',
        mobile,
        secret_sealed: null,
        enrolled_at: new Date(),
      })
      .execute();
  }

  /** Signs in with its SMS code as second factor, up to the merge step. */
  async function mergeAfterMfa(username: string, mobile: string): Promise<TestClient> {
    const client = server.client();
    await signInToStep(client, username, 'MFA');
    expect((await post(client, 'forced-actions/mfa/start')).body).toMatchObject({ nextFactor: 'SMS' });
    const passed = await post(client, 'forced-actions/mfa/verify-mobile', {
      code: await latestCode(client, mobile),
      trustDevice: false,
    });
    expect(passed.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'DUPLICATE_ACCOUNTS' });
    return client;
  }

  it("keeping the other account's username owes that account's second factor: the one passed does not carry over", async () => {
    const email = 'mfa-dup@example.com';
    const mine = await customer('S40001', email, ['F001']);
    const theirs = await customer('S40002', email, ['F002']);
    await withSmsMfa(mine, '+61 400 040 001');
    await withSmsMfa(theirs, '+61 400 040 002');

    // Keeping the other account: the sign-in is that account's, so its MFA is asked.
    const client = await mergeAfterMfa('S40001', '+61 400 040 001');
    expect(
      (await post(client, `${M}/select-accounts`, { identities: [{ id: theirs, password: DEMO_PASSWORD }] }))
        .status,
    ).toBe(200);
    expect((await post(client, `${M}/preferred-username`, { username: 'S40002' })).status).toBe(204);
    expect((await post(client, `${M}/confirm`)).status).toBe(200);
    const next = await get<Json>(client, `${M}/continue-sign-in`);
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({
      outcome: 'FORCED_ACTION',
      forcedAction: 'MFA',
      currentUser: { username: 'S40002', isAuthenticated: false },
    });
    // Still pending: the signed-in calls are refused.
    expect((await get(client, 'current-user/accessible-apps')).status).toBe(403);
  });

  it('keeping its own username, the sign-in keeps the second factor it passed', async () => {
    const email = 'mfa-own@example.com';
    const mine = await customer('S40003', email, ['F001']);
    const theirs = await customer('S40004', email, ['F002']);
    await withSmsMfa(mine, '+61 400 040 003');
    await withSmsMfa(theirs, '+61 400 040 004');
    const client = await mergeAfterMfa('S40003', '+61 400 040 003');
    await post(client, `${M}/select-accounts`, { identities: [{ id: theirs, password: DEMO_PASSWORD }] });
    expect((await post(client, `${M}/preferred-username`, { username: 'S40003' })).status).toBe(204);
    expect((await post(client, `${M}/confirm`)).status).toBe(200);
    expect((await get<Json>(client, `${M}/continue-sign-in`)).body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
      currentUser: { username: 'S40003', isAuthenticated: true },
    });
  });

  it("tells the accounts' address of the merge, once it is committed", async () => {
    await customer('S40007', 'Notice@Example.com', ['F001']);
    await customer('S40008', 'notice@example.com', ['F002']);
    const client = await readyToConfirm('S40007', 'S40008', 'S40008');
    expect((await outbox(client, '?to=notice%40example.com')).map((m) => m.subject)).not.toContain(
      MERGE_NOTICE_SUBJECT,
    );
    expect((await post(client, `${M}/confirm`)).status).toBe(200);
    // The outbox matches the address whatever its case.
    const sent = (await outbox(client, '?to=notice%40example.com')).filter(
      (m) => m.subject === MERGE_NOTICE_SUBJECT,
    );
    // One notice: the two accounts' addresses are one address.
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('Your account S40007 was merged into S40008 on ');
    expect(sent[0]!.text).toContain('Sign in as S40008 from now on: the other username no longer signs in.');
    expect(sent[0]!.text).toContain('someone may know your password');
  });

  it('an account whose password changed after it was selected is not merged, and nothing changes', async () => {
    const mine = await customer('S40005', 'changed@example.com', ['F001']);
    const theirs = await customer('S40006', 'changed@example.com', ['F002']);
    const client = await readyToConfirm('S40005', 'S40006');
    // Its owner changes the password (the time of the change is what counts).
    await server.db
      .updateTable('credentials')
      .set({ changed_at: new Date(Date.now() + 1_000) })
      .where('identity_id', '=', theirs)
      .execute();
    const before = await dump();
    const confirm = await post(client, `${M}/confirm`);
    expect(confirm.status).toBe(422);
    expect(confirm.body).toEqual(fieldError(MERGE_ERROR_FIELDS.identities, ACCOUNT_GONE_MESSAGE('S40006')));
    expect(await dump()).toEqual(before);
    expect(mine).not.toBe(theirs);
  });

  it('skip continues the sign-in before the cutoff, and the step is asked again at the next sign-in', async () => {
    await customer('S20001', 'skip@example.com', ['F001']);
    await customer('S20002', 'SKIP@example.com', ['F002']);
    const client = await startMerge('S20001');
    const skip = await get<Json>(client, `${M}/skip`);
    expect(skip.status).toBe(200);
    expect(skip.body).toMatchObject({ outcome: 'DIRECT_LOGIN', currentUser: { username: 'S20001' } });
    await startMerge('S20001');

    // After the cutoff (today counts as after), skip is refused and the session stays pending.
    await setCutoff(new Date().toISOString().slice(0, 10));
    const late = await startMerge('S20002');
    const refused = await get(late, `${M}/skip`);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: SKIP_CLOSED_MESSAGE });
    expect((await get(late, M)).status).toBe(200);
  });

  it('None: the account gets a new, verified email and the duplicate is gone for both', async () => {
    await customer('N20001', 'none@example.com', ['F001']);
    await customer('N20002', 'none@example.com', ['F002']);
    const client = await startMerge('N20001');
    const select = await post(client, `${M}/select-accounts`, { identities: [] });
    expect(select.body).toEqual({ changeEmail: true });
    expect((await get(client, `${M}/preferred-usernames`)).body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.identities, SELECT_ACCOUNTS_FIRST_MESSAGE),
    );
    expect((await post(client, `${M}/change-email`, { email: 'NONE@example.com' })).body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.email, EMAIL_SAME_MESSAGE),
    );
    expect((await post(client, `${M}/verify-email`, { code: '123456' })).body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.email, EMAIL_NOT_VERIFIED_MESSAGE),
    );
    // Another account's address gets a code like any other: that it is in use is told only to
    // whoever reads its mail, at verification, which sends the wizard back to change email.
    expect((await post(client, `${M}/change-email`, { email: 'c10001@example.com' })).status).toBe(204);
    const taken = await latestCode(client, 'c10001@example.com');
    expect((await post(client, `${M}/verify-email`, { code: taken })).body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.email, EMAIL_IN_USE_MESSAGE),
    );
    expect((await post(client, `${M}/verify-email`, { code: taken })).body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.email, EMAIL_NOT_VERIFIED_MESSAGE),
    );
    // No resend wait for the next address.
    const change = await post(client, `${M}/change-email`, { email: 'n20001.new@example.com' });
    expect(change.status).toBe(204);
    const code = await latestCode(client, 'n20001.new@example.com');
    expect((await post(client, `${M}/verify-email`, { code })).status).toBe(204);
    const row = await server.db
      .selectFrom('identities')
      .select('email')
      .where('username', '=', 'N20001')
      .executeTakeFirstOrThrow();
    expect(row.email).toBe('n20001.new@example.com');
    const done = await get<Json>(client, `${M}/continue-sign-in`);
    expect(done.body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
      currentUser: { email: 'n20001.new@example.com' },
    });
    expect((await server.client().login<Json>('N20002')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
  });

  it('a partial merge needs a verified new email; the unselected account keeps the old one', async () => {
    await customer('P20001', 'three@example.com', ['F001']);
    await customer('P20002', 'three@example.com', ['F002']);
    await customer('P20003', 'three@example.com', ['F003']);
    const client = await startMerge('P20001');
    expect((await get<unknown[]>(client, M)).body.length).toBe(2);
    const select = await post(client, `${M}/select-accounts`, {
      identities: [{ id: await idOf('P20002'), password: DEMO_PASSWORD }],
    });
    expect(select.body).toEqual({ changeEmail: true });
    expect((await get(client, `${M}/preferred-usernames`)).body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.email, EMAIL_NOT_VERIFIED_MESSAGE),
    );
    // The address of the account left out is not free for the merged one.
    await server.db
      .updateTable('identities')
      .set({ email: 'taken@example.com' })
      .where('username', '=', 'C10008')
      .execute();
    expect((await post(client, `${M}/change-email`, { email: 'taken@example.com' })).status).toBe(204);
    const taken = await latestCode(client, 'taken@example.com');
    expect((await post(client, `${M}/verify-email`, { code: taken })).body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.email, EMAIL_IN_USE_MESSAGE),
    );
    expect((await get(client, `${M}/preferred-usernames`)).body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.email, EMAIL_NOT_VERIFIED_MESSAGE),
    );
    expect((await post(client, `${M}/change-email`, { email: 'p.merged@example.com' })).status).toBe(204);
    const code = await latestCode(client, 'p.merged@example.com');
    expect((await post(client, `${M}/verify-email`, { code })).status).toBe(204);
    expect((await get(client, `${M}/preferred-usernames`)).body).toEqual([
      { username: 'P20001' },
      { username: 'P20002' },
    ]);
    expect((await post(client, `${M}/preferred-username`, { username: 'P20002' })).status).toBe(204);
    expect((await post<Json>(client, `${M}/generate-merge-details`)).body).toMatchObject({
      username: 'P20002',
      email: 'p.merged@example.com',
    });
    expect((await post(client, `${M}/confirm`)).body).toEqual({
      preferredUsername: 'P20002',
      mergedUsernames: ['P20001'],
    });
    // The session now belongs to the survivor.
    const done = await get<Json>(client, `${M}/continue-sign-in`);
    expect(done.body).toMatchObject({ outcome: 'DIRECT_LOGIN', currentUser: { username: 'P20002' } });
    const rows = await server.db
      .selectFrom('identities')
      .select(['username', 'email', 'retired_at', 'jwt_valid_after'])
      .where('username', 'like', 'P2000%')
      .orderBy('username')
      .execute();
    expect(rows.map((r) => [r.username, r.email, r.retired_at !== null])).toEqual([
      ['P20001', 'three@example.com', true],
      ['P20002', 'p.merged@example.com', false],
      ['P20003', 'three@example.com', false],
    ]);
    // The retired account's handed-off JWTs stop counting from its retirement (/jwt/valid-after).
    expect(rows.map((r) => r.jwt_valid_after?.getTime() ?? null)).toEqual([
      rows[0]!.retired_at!.getTime(),
      null,
      null,
    ]);
    expect((await server.client().login<Json>('P20003')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    expect((await server.client().login('P20001')).status).toBe(422);
  });

  it('an identity-verified account of a different person cannot be selected', async () => {
    await customer('V20001', 'verified@example.com', [], { identity_verified: true });
    const other = await customer('V20002', 'verified@example.com', [], { identity_verified: true });
    const client = await startMerge('V20001');
    expect((await get(client, M)).body).toEqual([
      { id: other, username: 'V20002', name: 'Olivia Bennett', isIdvConflict: true },
    ]);
    const select = await post(client, `${M}/select-accounts`, {
      identities: [{ id: other, password: DEMO_PASSWORD }],
    });
    expect(select.status).toBe(422);
    expect(select.body).toEqual(fieldError(MERGE_ERROR_FIELDS.idvConflict, IDV_CONFLICT_MESSAGE));
  });

  it('an account at the failure limit is not tried; wrong passwords end the session at the limit', async () => {
    await customer('L20001', 'limit@example.com', []);
    const other = await customer('L20002', 'limit@example.com', []);
    const client = await startMerge('L20001');
    for (let i = 0; i < 3; i++) {
      const res = await post(client, `${M}/select-accounts`, {
        identities: [{ id: other, password: `wrong-password-${i}` }],
      });
      expect(res.body).toEqual(
        fieldError(MERGE_ERROR_FIELDS.identityPassword(other), PASSWORD_INCORRECT_MESSAGE),
      );
    }
    // Even the right password is not checked now: this screen has no captcha.
    const locked = await post(client, `${M}/select-accounts`, {
      identities: [{ id: other, password: DEMO_PASSWORD }],
    });
    expect(locked.body).toEqual(
      fieldError(MERGE_ERROR_FIELDS.identityPassword(other), ACCOUNT_LOCKED_MESSAGE),
    );
    await server.db.deleteFrom('failed_auth_counts').execute();
    await post(client, `${M}/select-accounts`, { identities: [{ id: other, password: 'wrong-password-3' }] });
    const ended = await post(client, `${M}/select-accounts`, {
      identities: [{ id: other, password: 'wrong-password-4' }],
    });
    expect(ended.status).toBe(422);
    expect(ended.body).toMatchObject({ reroute: '/' });
    expect((await get(client, M)).status).toBe(401);
  });

  it('checks no more of 20 parallel wrong passwords in one session than the session has tries', async () => {
    await customer('L30001', 'burst@example.com', []);
    const other = await customer('L30002', 'burst@example.com', []);
    const client = await startMerge('L30001');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(client, `${M}/select-accounts`, {
          identities: [{ id: other, password: `wrong-password-${i}` }],
        }),
      ),
    );
    // A password is checked only with one of the session's 5 tries reserved; the rest wait (429)
    // or find the session ended. Each check counts towards the other account.
    expect(answers.map((a) => a.status).filter((s) => ![422, 429, 401].includes(s))).toEqual([]);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    const counted = await client.get<number>(`${API}anonymous/login/failed-auth-count?username=L30002`);
    expect(counted.body).toBeGreaterThan(0);
    expect(counted.body).toBeLessThanOrEqual(5);
  });

  it('a failure after any statement of the merge leaves the database exactly as it was', async () => {
    const first = await customer('F20001', 'fail@example.com', ['F001']);
    const second = await customer('F20002', 'fail@example.com', ['F002', 'F003']);
    const db = server.db;
    const now = new Date();
    // A session of the account to be retired, started before it has an SMS factor (MFA).
    const secondsSession = server.client();
    await signInToStep(secondsSession, 'F20002', 'DUPLICATE_ACCOUNTS');
    // Something of every kind the merge moves or removes (the factor and answers are removed: a
    // retired account's second factors never move to the survivor).
    await db.insertInto('identity_roles').values({ identity_id: second, role_code: 'READ_ONLY' }).execute();
    await db
      .insertInto('identity_factors')
      .values({
        id: randomUUID(),
        identity_id: second,
        factor_type: 'SMS',
        mobile: '+61 400 000 099',
        secret_sealed: null,
        enrolled_at: now,
      })
      .execute();
    await db
      .insertInto('security_answers')
      .values([
        { identity_id: second, position: 1, question_code: 'MEDICARE', answer_hash: 'x', set_at: now },
        { identity_id: second, position: 2, question_code: 'DRIVERS_LICENCE', answer_hash: 'y', set_at: now },
      ])
      .execute();
    await db
      .insertInto('identity_events')
      .values({ identity_id: second, event_date: now, type: 'PROFILE_NAME_CHANGED', variant: 'info' })
      .execute();
    await db
      .insertInto('trusted_devices')
      .values({
        id: randomUUID(),
        identity_id: second,
        token_hash: randomUUID(),
        browser_family: null,
        browser_major: null,
        browser_minor: null,
        os_family: null,
        os_version: null,
        city_name: null,
        country_name: null,
        continent_name: null,
        created_at: now,
        last_active_at: now,
        expires_at: new Date(now.getTime() + 86_400_000),
      })
      .execute();

    const client = await readyToConfirm('F20001', 'F20002', 'F20001');
    const before = await dump();
    let statements = 0;
    for (let n = 1; n < 100; n++) {
      failAfter = n;
      const res = await post(client, `${M}/confirm`);
      if (res.status === 200) {
        statements = n - 1;
        break;
      }
      expect(res.status, `failure after statement ${n}`).toBe(500);
      expect(await dump(), `failure after statement ${n}`).toEqual(before);
    }
    // Lock, the passwords' change times, 2 per grants and roles, 2 removing factors and answers,
    // history, 3 revocations, retirement, the resets, the survivor, 2 events, the session.
    expect(statements).toBeGreaterThanOrEqual(15);

    const survivor = await db
      .selectFrom('access_grants')
      .select('facility_id')
      .where('identity_id', '=', first)
      .execute();
    expect(survivor.length).toBe(3);
    expect(
      await db.selectFrom('access_grants').selectAll().where('identity_id', '=', second).execute(),
    ).toEqual([]);
    expect(
      (
        await db.selectFrom('identity_roles').select('role_code').where('identity_id', '=', first).execute()
      ).map((r) => r.role_code),
    ).toContain('READ_ONLY');
    // The survivor keeps exactly its own second factors (none); the retired account's are gone.
    expect(
      await db
        .selectFrom('identity_factors')
        .select('factor_type')
        .where('identity_id', 'in', [first, second])
        .execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('security_answers')
        .select('position')
        .where('identity_id', 'in', [first, second])
        .execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('trusted_devices').selectAll().where('identity_id', '=', second).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('credentials').selectAll().where('identity_id', '=', second).execute(),
    ).toEqual([]);
    const history = await db
      .selectFrom('identity_events')
      .select('type')
      .where('identity_id', '=', first)
      .execute();
    expect(history.map((h) => h.type).sort()).toEqual([MERGE_EVENT, 'PROFILE_NAME_CHANGED']);
    // The retired account's own session was ended.
    expect((await get(secondsSession, M)).status).toBe(401);
  });

  it('of two concurrent merges over the same accounts one succeeds and nothing is half-merged', async () => {
    const a = await customer('R20001', 'race@example.com', ['F001']);
    const b = await customer('R20002', 'race@example.com', ['F002']);
    const fromA = await readyToConfirm('R20001', 'R20002');
    const fromB = await readyToConfirm('R20002', 'R20001');
    const results = await Promise.all([
      post(fromA, `${M}/confirm`),
      post(fromB, `${M}/confirm`),
      post(fromA, `${M}/confirm`),
    ]);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length, JSON.stringify(results.map((r) => r.body))).toBe(1);
    for (const s of statuses) expect([200, 401, 422]).toContain(s);

    const rows = await server.db
      .selectFrom('identities')
      .select(['id', 'retired_at'])
      .where('id', 'in', [a, b])
      .execute();
    const live = rows.filter((r) => r.retired_at === null);
    expect(live.length).toBe(1);
    const survivorId = live[0]!.id;
    const retiredId = survivorId === a ? b : a;
    const grants = await server.db
      .selectFrom('access_grants')
      .select(['identity_id'])
      .where('identity_id', 'in', [a, b])
      .execute();
    expect(grants.map((g) => g.identity_id)).toEqual([survivorId, survivorId]);
    const events = await server.db
      .selectFrom('identity_events')
      .select(['identity_id', 'type'])
      .where('identity_id', 'in', [a, b])
      .where('type', 'in', [MERGE_EVENT, RETIRED_EVENT])
      .execute();
    expect(events.sort((x, y) => x.type.localeCompare(y.type))).toEqual([
      { identity_id: survivorId, type: MERGE_EVENT },
      { identity_id: retiredId, type: RETIRED_EVENT },
    ]);
  });

  it('verifies only the new email: the SMS and authenticator-app code calls say so', async () => {
    await customer('K20001', 'codes@example.com', []);
    await customer('K20002', 'codes@example.com', []);
    const client = await startMerge('K20001');
    for (const [path, body] of [
      ['send-sms', undefined],
      ['verify-mobile', { code: '123456' }],
      ['verify-authenticator-app', { code: '123456' }],
    ] as const) {
      const res = await post(client, `${M}/${path}`, body);
      expect(res.status, path).toBe(422);
      expect(res.body).toEqual({ message: EMAIL_CODE_ONLY_MESSAGE });
    }
  });

  it('is only for a session whose step is DUPLICATE_ACCOUNTS', async () => {
    const client = server.client();
    expect((await client.login<Json>('C10001')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    expect((await get(client, M)).status).toBe(403);
    expect((await get(server.client(), M)).status).toBe(401);
  });
});
