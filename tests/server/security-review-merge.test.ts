// Security review, merge accounts: another account is proven by its password alone, so nothing
// of it that is a second factor may end up passable by whoever merged it. Over real HTTP:
// - the attack: A (the attacker's, with SMS) shares an email with B (the victim's, authenticator
//   app only) and knows B's password; A merges B keeping B's username. A's SMS factor used to move
//   into B, so B's MFA could be skipped to SMS and passed with A's phone (DIRECT_LOGIN as B). Now
//   the survivor keeps exactly its own factors and the attack ends at B's own app;
// - nor does an SMS code A was sent earlier in the same sign-in (left unused, A passing with its
//   app): the merge voids the session's codes when the session moves to another identity;
// - a survivor that must use MFA (the stricter setting wins) but has no factor of its own goes to
//   factor enrolment, not to a factor of the retired account;
// - keeping one's own username, the retired account's factors and answers are removed, not moved;
// - generate-merge-details, when a selected account's username is kept (the merged account is
//   then reached only through its own second factor), shows mobile, phone and date of birth only
//   where they are the signed-in identity's own; kept under one's own username, it shows the merged
//   account as it will be, the selected accounts' details included.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { createSecretBox } from '../../src/server/adapters/secret-box';
import {
  DEMO_PASSWORD,
  startServer,
  TEST_DATA_KEY,
  type TestClient,
  type TestServer,
} from './support/server';
import { copyOfIdentity } from './support/identities';
import { targets } from './support/targets';
import { get, latestCode, outbox, post, signInToStep, totpAt, type Json } from './support/factors';

const M = 'forced-actions/merge-identities';
/** The victim's authenticator app secret (base32). */
const VICTIM_SECRET = 'KRSXG5CTMVRXEZLUKN2XAZLSKNSWG4TF';

describe.each(targets)('merge accounts moves no second factor, on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-03-02T09:00:05Z');
  let serial = 0;

  beforeAll(async () => {
    server = await startServer(target, { deps: { clock } });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    // Past every resend interval, onto a fresh TOTP step.
    clock.advance(5 * 60_000);
    await server.db.deleteFrom('failed_auth_counts').execute();
  });

  interface Account {
    email: string;
    mobile?: string | null;
    phone?: string | null;
    birthDate?: string | null;
    mfaRequired?: boolean;
    sms?: string;
    app?: string;
    answers?: boolean;
  }

  /** A new customer with the demo password and the given details and factors; answers id, username. */
  async function account(a: Account): Promise<{ id: string; username: string }> {
    const db = server.db;
    const username = `X${String(50000 + ++serial)}`;
    const now = clock.now();
    const id = await copyOfIdentity(
      db,
      {
        username,
        name: `Customer ${username}`,
        email: a.email,
        mobile: a.mobile ?? null,
        phone: a.phone ?? null,
        birth_date: a.birthDate ?? null,
        customer_number: username,
        identity_verified: false,
        mfa_required: a.mfaRequired ?? false,
      },
      { now },
    );
    const factor = (type: 'SMS' | 'AUTHENTICATOR_APP', mobile: string | null, secret: string | null) =>
      db
        .insertInto('identity_factors')
        .values({
          id: randomUUID(),
          identity_id: id,
          factor_type: type,
          mobile,
          secret_sealed: secret ? createSecretBox(TEST_DATA_KEY).seal(secret) : null,
          enrolled_at: now,
        })
        .execute();
    if (a.sms) await factor('SMS', a.sms, null);
    if (a.app) await factor('AUTHENTICATOR_APP', null, a.app);
    if (a.answers) {
      await db
        .insertInto('security_answers')
        .values([
          { identity_id: id, position: 1, question_code: 'MEDICARE', answer_hash: 'x', set_at: now },
          { identity_id: id, position: 2, question_code: 'DRIVERS_LICENCE', answer_hash: 'y', set_at: now },
        ])
        .execute();
    }
    return { id, username };
  }

  const factorsOf = async (id: string) =>
    (
      await server.db
        .selectFrom('identity_factors')
        .select(['factor_type', 'mobile'])
        .where('identity_id', '=', id)
        .orderBy('factor_type')
        .execute()
    ).map((f) => `${f.factor_type}${f.mobile ? ` ${f.mobile}` : ''}`);

  const answersOf = async (id: string) =>
    (
      await server.db
        .selectFrom('security_answers')
        .select('position')
        .where('identity_id', '=', id)
        .execute()
    ).length;

  /** Signs in as `username`, passes its SMS second factor, and stops at the merge step. */
  async function signInWithSms(username: string, mobile: string): Promise<TestClient> {
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

  /** Selects `other` with its password, keeps `preferred`, and confirms the merge. */
  async function merge(client: TestClient, other: string, preferred: string): Promise<Json> {
    const select = await post(client, `${M}/select-accounts`, {
      identities: [{ id: other, password: DEMO_PASSWORD }],
    });
    expect(select.status, JSON.stringify(select.body)).toBe(200);
    expect((await post(client, `${M}/preferred-username`, { username: preferred })).status).toBe(204);
    const details = await post<Json>(client, `${M}/generate-merge-details`);
    expect(details.status, JSON.stringify(details.body)).toBe(200);
    const confirm = await post(client, `${M}/confirm`);
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    return details.body;
  }

  it("the attack: keeping the victim's username, the attacker's SMS does not pass the victim's MFA", async () => {
    const email = 'shared.victim@example.com';
    const attackerMobile = '+61 400 050 001';
    const attacker = await account({ email, mobile: attackerMobile, mfaRequired: true, sms: attackerMobile });
    const victim = await account({
      email,
      mobile: '+61 400 050 002',
      phone: '02 5550 0002',
      birthDate: '1970-01-02',
      mfaRequired: true,
      app: VICTIM_SECRET,
    });

    const client = await signInWithSms(attacker.username, attackerMobile);
    const details = await merge(client, victim.id, victim.username);

    const next = await get<Json>(client, `${M}/continue-sign-in`);
    expect(next.body).toMatchObject({
      outcome: 'FORCED_ACTION',
      forcedAction: 'MFA',
      currentUser: { username: victim.username, isAuthenticated: false },
    });
    expect((await post(client, 'forced-actions/mfa/start')).body).toMatchObject({
      nextFactor: 'AUTHENTICATOR_APP',
    });
    // 'I don't have access': there is no other factor to go to, so no code goes to any phone.
    clock.advance(5 * 60_000);
    const sentBefore = (await outbox(client, `?to=${encodeURIComponent(attackerMobile)}`)).length;
    const skip = await post(client, 'forced-actions/mfa/skip');
    expect(skip.status).toBe(200);
    expect(skip.body).toMatchObject({ nextFactor: null });
    const resend = await post(client, 'forced-actions/mfa/send-sms');
    expect(resend.status).toBe(422);
    expect((await outbox(client, `?to=${encodeURIComponent(attackerMobile)}`)).length).toBe(sentBefore);
    const stolen = await post<Json>(client, 'forced-actions/mfa/verify-mobile', {
      code: await latestCode(client, attackerMobile),
      trustDevice: false,
    });
    expect(stolen.body).not.toMatchObject({ outcome: 'DIRECT_LOGIN' });
    expect(stolen.status).toBe(422);
    expect((await get(client, 'current-user/accessible-apps')).status).toBe(403);
    expect((await get<Json>(client, 'anonymous/current-user')).body).toMatchObject({
      username: victim.username,
      isAuthenticated: false,
    });

    // The victim keeps exactly its own factor; the attacker's SMS went with the retired account.
    expect(await factorsOf(victim.id)).toEqual(['AUTHENTICATOR_APP']);
    expect(await factorsOf(attacker.id)).toEqual([]);
    // The victim's mobile, phone and date of birth were not shown to who proved only its password.
    expect(details).toMatchObject({ username: victim.username, mobile: null, phone: null, birthDate: null });
    expect(JSON.stringify(details)).not.toContain('+61 400 050 002');
    expect(JSON.stringify(details)).not.toContain('1970-01-02');

    // The victim's own app still signs the victim in.
    const owner = server.client();
    await signInToStep(owner, victim.username, 'MFA');
    expect((await post(owner, 'forced-actions/mfa/start')).body).toMatchObject({
      nextFactor: 'AUTHENTICATOR_APP',
    });
    const ok = await post<Json>(owner, 'forced-actions/mfa/verify-authenticator-app', {
      code: totpAt(clock, 0, VICTIM_SECRET),
      trustDevice: false,
    });
    expect(ok.body).toMatchObject({ outcome: 'DIRECT_LOGIN', currentUser: { username: victim.username } });
  });

  it("a code the signed-in account was sent in this sign-in does not pass the survivor's MFA", async () => {
    const email = 'shared.leftover@example.com';
    const attackerMobile = '+61 400 050 031';
    const attackerSecret = 'MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U';
    const attacker = await account({
      email,
      mobile: attackerMobile,
      mfaRequired: true,
      sms: attackerMobile,
      app: attackerSecret,
    });
    const victim = await account({ email, mfaRequired: true, app: VICTIM_SECRET });

    // The attacker has an SMS code sent to their phone, leaves it unused and passes with the app.
    const client = server.client();
    await signInToStep(client, attacker.username, 'MFA');
    expect((await post(client, 'forced-actions/mfa/start')).body).toMatchObject({
      nextFactor: 'AUTHENTICATOR_APP',
    });
    expect((await post(client, 'forced-actions/mfa/skip')).body).toMatchObject({ nextFactor: 'SMS' });
    const unused = await latestCode(client, attackerMobile);
    expect((await post(client, 'forced-actions/mfa/start')).body).toMatchObject({
      nextFactor: 'AUTHENTICATOR_APP',
    });
    const passed = await post(client, 'forced-actions/mfa/verify-authenticator-app', {
      code: totpAt(clock, 0, attackerSecret),
      trustDevice: false,
    });
    expect(passed.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'DUPLICATE_ACCOUNTS' });

    await merge(client, victim.id, victim.username);
    expect((await get<Json>(client, `${M}/continue-sign-in`)).body).toMatchObject({
      forcedAction: 'MFA',
      currentUser: { username: victim.username, isAuthenticated: false },
    });
    const stolen = await post<Json>(client, 'forced-actions/mfa/verify-mobile', {
      code: unused,
      trustDevice: false,
    });
    expect(stolen.body).not.toMatchObject({ outcome: 'DIRECT_LOGIN' });
    expect(stolen.status).toBe(422);
    expect((await get<Json>(client, 'anonymous/current-user')).body).toMatchObject({
      username: victim.username,
      isAuthenticated: false,
    });
  });

  it('a survivor that must now use MFA but has no factor of its own is sent to factor enrolment', async () => {
    const email = 'shared.enrol@example.com';
    const mobile = '+61 400 050 011';
    const signedIn = await account({ email, mobile, mfaRequired: true, sms: mobile });
    const kept = await account({ email, mfaRequired: false });
    const client = await signInWithSms(signedIn.username, mobile);
    await merge(client, kept.id, kept.username);
    expect(await factorsOf(kept.id)).toEqual([]);
    const row = await server.db
      .selectFrom('identities')
      .select('mfa_required')
      .where('id', '=', kept.id)
      .executeTakeFirstOrThrow();
    expect(row.mfa_required).toBe(true);
    const next = await get<Json>(client, `${M}/continue-sign-in`);
    expect(next.body).toMatchObject({
      outcome: 'FORCED_ACTION',
      forcedAction: 'FACTOR_ENROLMENT',
      currentUser: { username: kept.username, isAuthenticated: false },
    });
    // And so does its next sign-in.
    await signInToStep(server.client(), kept.username, 'FACTOR_ENROLMENT');
  });

  it("keeping one's own username, the other account's factors and answers are removed, not moved", async () => {
    const email = 'shared.own@example.com';
    const mobile = '+61 400 050 021';
    const signedIn = await account({ email, mobile, phone: null, birthDate: '1980-05-06', sms: mobile });
    const other = await account({
      email,
      mobile: '+61 400 050 022',
      phone: '02 5550 0022',
      birthDate: '1980-05-06',
      app: VICTIM_SECRET,
      answers: true,
    });
    const client = await signInWithSms(signedIn.username, mobile);
    const details = await merge(client, other.id, signedIn.username);
    // The merged account as it will be: its own mobile and date of birth, the other account's phone
    // (the merged account's only phone), which is this user's once the merge is confirmed.
    expect(details).toMatchObject({ mobile, phone: '02 5550 0022', birthDate: '1980-05-06' });
    expect(await factorsOf(signedIn.id)).toEqual([`SMS ${mobile}`]);
    expect(await answersOf(signedIn.id)).toBe(0);
    expect(await factorsOf(other.id)).toEqual([]);
    expect(await answersOf(other.id)).toBe(0);
    expect((await get<Json>(client, `${M}/continue-sign-in`)).body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
      currentUser: { username: signedIn.username, isAuthenticated: true },
    });
    expect((await get<string[]>(client, 'profile/enrolled-factors')).body).toEqual(['SMS']);
  });
});
