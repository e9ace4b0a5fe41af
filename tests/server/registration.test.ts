// Registration from an invitation over real HTTP: the demo invitations (a new account with an
// authenticator app, a facility added to C10001), SMS and email factors, the one neutral refusal
// (unknown code, other email, used, expired), single use under 10 parallel submissions, a crash
// injected mid-submission, refusals that change nothing, and the invite CLI.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { cryptoRandom } from '../../src/server/adapters/random';
import {
  CODE_INCORRECT_MESSAGE,
  SMS_UNAVAILABLE_CUSTOMER_MESSAGE,
} from '../../src/server/domain/factors/messages';
import { base32Decode, hotp, totpStep } from '../../src/server/domain/factors/totp';
import { CAPTCHA_INCORRECT_MESSAGE, INCORRECT_CREDENTIALS_MESSAGE } from '../../src/server/domain/messages';
import { PASSWORD_MISMATCH_MESSAGE } from '../../src/server/domain/password-policy';
import { invitationCodeHash } from '../../src/server/domain/registration/invitations';
import {
  CUSTOMER_USERNAME_MESSAGE,
  DETAILS_REQUIRED_MESSAGE,
  EXISTING_IDENTITY_ONLY_MESSAGE,
  INVITATION_INVALID_MESSAGE,
  INVITATION_NAME_REQUIRED_MESSAGE,
  NAME_NOT_EDITABLE_MESSAGE,
  REGISTRATION_NOT_STARTED_MESSAGE,
  TOO_MANY_USERNAMES_MESSAGE,
  USERNAME_TAKEN_MESSAGE,
} from '../../src/server/domain/registration/messages';
import { MAX_USERNAME_CHECKS } from '../../src/server/domain/registration/service';
import { runInviteCommand } from '../../scripts/invite';
import { get, latestCode, outbox, post, type Json } from './support/factors';
import { API, DEMO_PASSWORD, startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

const CAPTCHA = 'E2E42';
const NEW_EMAIL = 'new.customer@example.com';
const NEW_PASSWORD = 'Quiet-Harbour-Morning-4821';
const QUESTIONS = {
  question1: 'DRIVERS_LICENCE',
  answer1: 'NSW 99887',
  question2: 'MEDICARE',
  answer2: '2123 45670 1',
};

describe.each(targets)('registration on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-03-02T09:00:05Z');

  beforeAll(async () => {
    server = await startServer(target, { env: { CAPTCHA_FIXED_ANSWER: CAPTCHA }, deps: { clock } });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    clock.advance(5 * 60_000);
    await server.app.services.factors.smsGateway.setAvailable(true);
  });

  /** A client whose session holds a fresh captcha (the fixed answer). */
  async function withCaptcha(client = server.client()): Promise<TestClient> {
    const image = await client.get('/captcha.jpg?1');
    expect(image.status).toBe(200);
    return client;
  }

  async function start(email: string, inviteCode: string, client?: TestClient) {
    const c = await withCaptcha(client);
    const res = await post(c, 'anonymous/registration/start', { email, inviteCode, captchaCode: CAPTCHA });
    return { client: c, res };
  }

  /** A new invitation through the CLI's own function; answers its code (read from the outbox). */
  async function invite(args: string[]): Promise<string> {
    const lines: string[] = [];
    const created = await runInviteCommand(args, {
      db: server.db,
      clock,
      random: cryptoRandom,
      mail: server.app.services.factors.mail,
      publicUrl: server.config.publicUrl,
      out: (line) => lines.push(line),
    });
    expect(lines[0]).toContain(`sent to ${created.email}`);
    return created.code;
  }

  const identityNamed = (username: string) =>
    server.db
      .selectFrom('identities')
      .selectAll()
      .where(sql<string>`lower(username)`, '=', username.toLowerCase())
      .executeTakeFirst();

  /** Rows a refused call must not change. */
  async function state() {
    const [identities, credentials, invitations, grants, factors, answers] = await Promise.all([
      server.db.selectFrom('identities').select(['id', 'username']).orderBy('id').execute(),
      server.db
        .selectFrom('credentials')
        .select(['identity_id', 'password_hash'])
        .orderBy('identity_id')
        .execute(),
      server.db
        .selectFrom('invitations')
        .select(['id', 'used_at', 'used_by_identity_id'])
        .orderBy('id')
        .execute(),
      server.db.selectFrom('access_grants').select(['id']).orderBy('id').execute(),
      server.db.selectFrom('identity_factors').select(['id']).orderBy('id').execute(),
      server.db
        .selectFrom('security_answers')
        .select(['identity_id', 'position'])
        .orderBy('identity_id')
        .execute(),
    ]);
    return { identities, credentials, invitations, grants, factors, answers };
  }

  /** Start, details, email factor and questions: ready for submit-new. */
  async function readyToSubmit(email: string, code: string, username: string, name?: string) {
    const { client, res } = await start(email, code);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const details = await post(client, 'anonymous/registration/collect-details', {
      username,
      ...(name ? { name } : {}),
    });
    expect(details.status, JSON.stringify(details.body)).toBe(200);
    expect((await post(client, 'anonymous/registration/enrol-email')).status).toBe(204);
    expect((await post(client, 'anonymous/registration/enrol-security-questions', QUESTIONS)).status).toBe(
      204,
    );
    return client;
  }

  it('looks up no more than 10 usernames a registration: then it has to start again', async () => {
    const code = await invite([
      '--email',
      'tess@example.com',
      '--app',
      'LOANS',
      '--facility',
      'F001',
      '--name',
      'Tess Ray',
    ]);
    const { client, res } = await start('tess@example.com', code);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tries = [];
    for (let i = 0; i < MAX_USERNAME_CHECKS; i++)
      tries.push(await post(client, 'anonymous/registration/collect-details', { username: `C1000${i}` }));
    // Each said whether the username is taken (C10001 is).
    for (const t of tries) expect([200, 422]).toContain(t.status);
    expect(tries[1]!.body).toMatchObject({
      errors: [{ fieldName: 'username', message: USERNAME_TAKEN_MESSAGE }],
    });
    const more = await post(client, 'anonymous/registration/collect-details', { username: 'C20077' });
    expect(more.body).toEqual({ message: TOO_MANY_USERNAMES_MESSAGE, reroute: '/registration' });
    // The registration is gone: nothing more to look up without starting again.
    const after = await post(client, 'anonymous/registration/collect-details', { username: 'C20078' });
    expect(after.body).toMatchObject({ reroute: '/registration' });
  });

  it('INVITE-NEW-0001 registers with an authenticator app and is signed in', async () => {
    const stored = await server.db.selectFrom('invitations').selectAll().execute();
    // The codes are stored only as their hashes.
    expect(JSON.stringify(stored)).not.toContain('INVITE-NEW-0001');
    expect(stored.map((i) => i.code_hash)).toContain(invitationCodeHash('INVITE-NEW-0001'));

    const { client, res } = await start(NEW_EMAIL.toUpperCase(), ' invite-new-0001 ');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      productName: 'Loans',
      facilityName: expect.any(String),
      facilityAliasOrCode: expect.any(String),
      roles: [],
      customerNumber: 'C10009',
      name: 'Nora Newman',
      birthDate: '1993-02-11',
      username: null,
      email: NEW_EMAIL,
      mobile: null,
      existingIdentity: false,
      isStaff: false,
      isPrimaryAffiliateEmailDomain: false,
      isSecondaryAffiliateEmailDomain: false,
    });

    // Nothing past start before the details are collected.
    const early = await get(client, 'anonymous/registration/setup-key');
    expect(early.status).toBe(422);
    expect(early.body).toMatchObject({ message: DETAILS_REQUIRED_MESSAGE });

    // A customer with a customer number keeps the invitation's name; the username is theirs to choose.
    const badName = await post(client, 'anonymous/registration/collect-details', {
      username: 'C10009',
      name: 'X',
    });
    expect(badName.status).toBe(422);
    expect(badName.body).toMatchObject({
      errors: [{ fieldName: 'name', message: NAME_NOT_EDITABLE_MESSAGE }],
    });
    const badForm = await post(client, 'anonymous/registration/collect-details', { username: 'nora' });
    expect(badForm.status).toBe(422);
    expect(badForm.body).toMatchObject({
      errors: [{ fieldName: 'username', message: CUSTOMER_USERNAME_MESSAGE }],
    });
    const taken = await post(client, 'anonymous/registration/collect-details', { username: 'c10001' });
    expect(taken.status).toBe(422);
    expect(taken.body).toMatchObject({
      errors: [{ fieldName: 'username', message: USERNAME_TAKEN_MESSAGE }],
    });
    const details = await post<Json>(client, 'anonymous/registration/collect-details', {
      username: 'c10009',
    });
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({ username: 'C10009', name: 'Nora Newman' });

    // The setup key and the QR code show one secret; a code of it verifies the app.
    const [key, qr] = await Promise.all([
      get<{ setupKey: string }>(client, 'anonymous/registration/setup-key'),
      get<string>(client, 'anonymous/registration/qr-code'),
    ]);
    expect(key.status).toBe(200);
    expect(qr.body).toMatch(/^data:image\/png;base64,/);
    const secret = base32Decode(key.body.setupKey.replace(/\s/g, ''));
    const again = await get<{ setupKey: string }>(client, 'anonymous/registration/setup-key');
    expect(again.body.setupKey).toBe(key.body.setupKey);
    const step = totpStep(clock.now());
    const wrong = await post(client, 'anonymous/registration/verify-authenticator-app', {
      code: hotp(secret, step + 5),
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ message: CODE_INCORRECT_MESSAGE });
    const verified = await post(client, 'anonymous/registration/verify-authenticator-app', {
      code: hotp(secret, step),
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);

    expect((await post(client, 'anonymous/registration/enrol-security-questions', QUESTIONS)).status).toBe(
      204,
    );
    const mismatch = await post(client, 'anonymous/registration/submit-new', {
      password: NEW_PASSWORD,
      confirmPassword: `${NEW_PASSWORD}x`,
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toMatchObject({
      errors: [{ fieldName: 'confirmPassword', message: PASSWORD_MISMATCH_MESSAGE }],
    });
    const anonymousCookie = client.cookie('sam_session');
    const submitted = await post<Json>(client, 'anonymous/registration/submit-new', {
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
      currentUser: { username: 'C10009', name: 'Nora Newman', email: NEW_EMAIL, isAuthenticated: true },
    });
    // A new session (no fixation), signed in.
    expect(client.cookie('sam_session')).not.toBe(anonymousCookie);
    expect((await get<Json>(client, 'anonymous/current-user')).body).toMatchObject({
      username: 'C10009',
      type: 'AUTHENTICATED',
    });

    const identity = (await identityNamed('C10009'))!;
    expect(identity).toMatchObject({ customer_number: 'C10009', birth_date: '1993-02-11', is_staff: false });
    const factors = await server.db
      .selectFrom('identity_factors')
      .select(['factor_type', 'secret_sealed'])
      .where('identity_id', '=', identity.id)
      .orderBy('factor_type')
      .execute();
    expect(factors.map((f) => f.factor_type)).toEqual(['AUTHENTICATOR_APP', 'EMAIL']);
    expect(factors[0]!.secret_sealed).not.toContain(key.body.setupKey.replace(/\s/g, ''));
    const grants = await server.db
      .selectFrom('access_grants as g')
      .innerJoin('facilities as f', 'f.id', 'g.facility_id')
      .select(['g.app_code', 'f.code'])
      .where('g.identity_id', '=', identity.id)
      .execute();
    expect(grants).toEqual([{ app_code: 'LOANS', code: 'F001' }]);
    const invitation = await server.db
      .selectFrom('invitations')
      .selectAll()
      .where('code_hash', '=', invitationCodeHash('INVITE-NEW-0001'))
      .executeTakeFirstOrThrow();
    expect(invitation.used_by_identity_id).toBe(identity.id);
    const events = await server.db
      .selectFrom('identity_events')
      .select(['type', 'variant', 'description'])
      .where('identity_id', '=', identity.id)
      .execute();
    expect(events).toEqual([
      { type: 'REGISTERED', variant: 'success', description: expect.stringContaining('Loans') },
    ]);

    // Signing in again asks for the authenticator app it enrolled.
    const later = await server.client().login('C10009', NEW_PASSWORD);
    expect(later.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'MFA' });

    // Used: the code is refused with the neutral message from now on.
    const reused = await start(NEW_EMAIL, 'INVITE-NEW-0001');
    expect(reused.res.status).toBe(422);
    expect(reused.res.body).toEqual({ message: INVITATION_INVALID_MESSAGE });
  });

  it('refuses an unknown code, another email, a wrong captcha and an expired invitation alike', async () => {
    const code = await invite(['--email', 'pat@example.com', '--app', 'LOANS', '--facility', 'F002']);
    const before = await state();
    for (const [email, inviteCode] of [
      ['someone.else@example.com', code],
      ['pat@example.com', 'NOT-A-CODE'],
      ['c10001@example.com', 'INVITE-NEW-0001'],
    ] as const) {
      const { res } = await start(email, inviteCode);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: INVITATION_INVALID_MESSAGE });
    }
    const client = await withCaptcha();
    const badCaptcha = await post(client, 'anonymous/registration/start', {
      email: 'pat@example.com',
      inviteCode: code,
      captchaCode: 'WRONG',
    });
    expect(badCaptcha.status).toBe(422);
    expect(badCaptcha.body).toMatchObject({ message: CAPTCHA_INCORRECT_MESSAGE });
    // The challenge is used up: the right answer needs a new image.
    const noCaptcha = await post(client, 'anonymous/registration/start', {
      email: 'pat@example.com',
      inviteCode: code,
      captchaCode: CAPTCHA,
    });
    expect(noCaptcha.status).toBe(422);
    expect(noCaptcha.body).toMatchObject({ message: CAPTCHA_INCORRECT_MESSAGE });

    // Held, then expired mid-wizard: the next step reroutes to the start.
    const { client: held, res } = await start('pat@example.com', code);
    expect(res.status).toBe(200);
    // The invitation runs out while the wizard is open (the session itself is still live).
    await server.db
      .updateTable('invitations')
      .set({ expires_at: new Date(clock.now().getTime() + 1000) })
      .where('code_hash', '=', invitationCodeHash(code))
      .execute();
    clock.advance(2000);
    const late = await post(held, 'anonymous/registration/collect-details', { username: 'C20001' });
    expect(late.status).toBe(422);
    expect(late.body).toEqual({ message: INVITATION_INVALID_MESSAGE, reroute: '/registration' });
    const expired = await start('pat@example.com', code);
    expect(expired.res.body).toEqual({ message: INVITATION_INVALID_MESSAGE });
    const after = await state();
    expect({ ...after, invitations: [] }).toEqual({ ...before, invitations: [] });
    expect(after.invitations.map((i) => i.used_at)).toEqual(before.invitations.map((i) => i.used_at));
  });

  it('bad inputs and skipped steps are refused and change nothing', async () => {
    const code = await invite([
      '--email',
      'quinn@example.com',
      '--app',
      'LOANS',
      '--facility',
      'F001',
      '--name',
      'Quinn Ray',
    ]);
    const before = await state();
    const stranger = server.client();
    const notStarted = await post(stranger, 'anonymous/registration/collect-details', { username: 'C20002' });
    expect(notStarted.status).toBe(422);
    expect(notStarted.body).toEqual({ message: REGISTRATION_NOT_STARTED_MESSAGE, reroute: '/registration' });

    const invalid = await post(stranger, 'anonymous/registration/start', {
      email: 'nope',
      inviteCode: '',
      captchaCode: CAPTCHA,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      errors: expect.arrayContaining([
        { fieldName: 'email', message: 'Invalid email format' },
        { fieldName: 'inviteCode', message: 'Required field' },
      ]),
    });
    const tooLong = await post(stranger, 'anonymous/registration/start', {
      email: 'quinn@example.com',
      inviteCode: 'X'.repeat(101),
      captchaCode: CAPTCHA,
    });
    expect(tooLong.status).toBe(400);

    const { client } = await start('quinn@example.com', code);
    const unknownField = await post(client, 'anonymous/registration/collect-details', {
      username: 'C20002',
      admin: true,
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body).toMatchObject({
      errors: [{ fieldName: 'admin', message: 'Unknown field: admin' }],
    });
    const short = await post(client, 'anonymous/registration/collect-details', { username: 'C' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({
      errors: [{ fieldName: 'username', message: 'Size cannot be less than 2' }],
    });
    const noQuestions = await post(client, 'anonymous/registration/submit-new', {
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(noQuestions.status).toBe(422);
    expect(
      (await post(client, 'anonymous/registration/collect-details', { username: 'C20002' })).status,
    ).toBe(200);
    expect(
      (
        await post(client, 'anonymous/registration/enrol-security-questions', {
          ...QUESTIONS,
          question2: 'DRIVERS_LICENCE',
        })
      ).status,
    ).toBe(422);
    expect((await post(client, 'anonymous/registration/enrol-security-questions', QUESTIONS)).status).toBe(
      204,
    );
    const weak = await post(client, 'anonymous/registration/submit-new', {
      password: 'short1',
      confirmPassword: 'short1',
    });
    expect(weak.status).toBe(400);
    const personal = await post(client, 'anonymous/registration/submit-new', {
      password: 'Quinn-Ray-Password-2026',
      confirmPassword: 'Quinn-Ray-Password-2026',
    });
    expect(personal.status).toBe(422);
    expect(personal.body).toMatchObject({ errors: [{ fieldName: 'password' }] });
    const existingOnly = await post(client, 'anonymous/registration/submit-existing', {
      username: 'C10001',
      password: DEMO_PASSWORD,
    });
    expect(existingOnly.status).toBe(422);
    expect(await state()).toEqual(before);
  });

  it('an invitation creates exactly one account under 10 parallel submissions', async () => {
    const code = await invite(['--email', 'rush@example.com', '--app', 'LOANS', '--facility', 'F002']);
    const clients: TestClient[] = [];
    for (let i = 0; i < 10; i++)
      clients.push(await readyToSubmit('rush@example.com', code, 'C20003', 'Rush Hour'));
    const results = await Promise.all(
      clients.map((c) =>
        post(c, 'anonymous/registration/submit-new', {
          password: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 422)).toBe(true);
    for (const r of results.filter((r) => r.status === 422)) {
      expect(r.body).toEqual({ message: INVITATION_INVALID_MESSAGE, reroute: '/registration' });
    }
    const identities = await server.db
      .selectFrom('identities')
      .select('id')
      .where('email', '=', 'rush@example.com')
      .execute();
    expect(identities).toHaveLength(1);
  });

  it('a crash mid-submission leaves no partial identity, and the submission can be repeated', async () => {
    const code = await invite(['--email', 'crash@example.com', '--app', 'PAYROLL']);
    const client = await readyToSubmit('crash@example.com', code, 'C20004', 'Casey Crash');
    const before = await state();
    // The crash: the database fails the statement that stores the security answers, after the
    // identity, its password and its factors were written in the same transaction.
    await sql
      .raw(
        `create function registration_crash() returns trigger language plpgsql as $$
         begin raise exception 'injected crash'; end $$`,
      )
      .execute(server.db);
    await sql
      .raw(
        `create trigger registration_crash before insert on security_answers
         for each row execute function registration_crash()`,
      )
      .execute(server.db);
    try {
      const crashed = await post(client, 'anonymous/registration/submit-new', {
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(crashed.status).toBe(500);
    } finally {
      await sql.raw('drop trigger registration_crash on security_answers').execute(server.db);
      await sql.raw('drop function registration_crash()').execute(server.db);
    }
    expect(await state()).toEqual(before);
    expect(await identityNamed('C20004')).toBeUndefined();

    const retried = await post<Json>(client, 'anonymous/registration/submit-new', {
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ currentUser: { username: 'C20004' } });
  });

  it('a staff invitee is identity verified only when they keep the name the bank invited', async () => {
    // Staff may edit the name at collect-details; the bank's records vouch only for its own.
    // Each invitee has a customer number of their own: one number belongs to one live account.
    const staffInvite = (email: string, customerNumber: string) =>
      invite([
        '--email',
        email,
        '--app',
        'LOANS',
        '--facility',
        'F001',
        '--staff',
        '--customer-number',
        customerNumber,
        '--name',
        'Robin Vale',
      ]);
    let next = 91;
    const register = async (email: string, username: string, name?: string) => {
      const invitation = await staffInvite(email, `C200${next++}`);
      const client = await readyToSubmit(email, invitation, username, name);
      const done = await post(client, 'anonymous/registration/submit-new', {
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      return (await identityNamed(username))!;
    };

    const renamed = await register('robin.renamed@example.com', 'robin.renamed', 'Someone Else');
    expect(renamed).toMatchObject({
      name: 'Someone Else',
      customer_number: 'C20091',
      identity_verified: false,
    });
    // The invitation's name, only spaced differently, is the same name.
    const kept = await register('robin.kept@example.com', 'robin.kept', '  Robin   Vale ');
    expect(kept).toMatchObject({ name: 'Robin Vale', identity_verified: true });
    const untouched = await register('robin.untouched@example.com', 'robin.untouched');
    expect(untouched).toMatchObject({ name: 'Robin Vale', identity_verified: true });
  });

  it('a customer invitation stored without a name (before one was required) lets the invitee enter it', async () => {
    // Section 5 fixes the name of a non-staff invitee with a customer number; an invitation that
    // carries none would otherwise stop the registration at collect-details for good.
    const inviteCode = 'LEGACY-NAMELESS-0001';
    const email = 'legacy.nameless@example.com';
    await server.db
      .insertInto('invitations')
      .values({
        id: randomUUID(),
        code_hash: invitationCodeHash(inviteCode),
        email,
        app_code: 'PAYROLL',
        facility_id: null,
        roles: JSON.stringify([]) as never,
        customer_number: 'C20061',
        name: null,
        birth_date: null,
        username: null,
        mobile: null,
        is_staff: false,
        existing_identity_id: null,
        created_at: clock.now(),
        expires_at: new Date(clock.now().getTime() + 7 * 86_400_000),
      })
      .execute();
    const { client, res } = await start(email, inviteCode);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ customerNumber: 'C20061', name: null, isStaff: false });

    const before = await state();
    const noName = await post(client, 'anonymous/registration/collect-details', { username: 'C20061' });
    expect(noName.status).toBe(422);
    expect(noName.body).toEqual({
      message: 'Required field',
      errors: [{ fieldName: 'name', message: 'Required field' }],
    });
    const early = await get(client, 'anonymous/registration/setup-key');
    expect(early.body).toMatchObject({ message: DETAILS_REQUIRED_MESSAGE });
    expect(await state()).toEqual(before);

    const details = await post<Json>(client, 'anonymous/registration/collect-details', {
      username: 'C20061',
      name: '  Lee   Gacy ',
    });
    expect(details.status, JSON.stringify(details.body)).toBe(200);
    expect(details.body).toMatchObject({ username: 'C20061', name: 'Lee Gacy', customerNumber: 'C20061' });
    expect((await post(client, 'anonymous/registration/enrol-email')).status).toBe(204);
    expect((await post(client, 'anonymous/registration/enrol-security-questions', QUESTIONS)).status).toBe(
      204,
    );
    const done = await post(client, 'anonymous/registration/submit-new', {
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    // The name is the invitee's own, not the bank's: not identity verified.
    expect(await identityNamed('C20061')).toMatchObject({
      name: 'Lee Gacy',
      customer_number: 'C20061',
      is_staff: false,
      identity_verified: false,
    });
  });

  it('the invite CLI refuses a customer invitation without a name, which the invitee could not enter', async () => {
    const before = await state();
    const customer = [
      '--email',
      'cli.nameless@example.com',
      '--app',
      'PAYROLL',
      '--customer-number',
      'C20062',
    ];
    await expect(invite(customer)).rejects.toThrow(INVITATION_NAME_REQUIRED_MESSAGE);
    await expect(invite([...customer, '--name', '   '])).rejects.toThrow(/name/);
    expect(await state()).toEqual(before);
    expect(await outbox(server.client(), '?to=cli.nameless@example.com')).toEqual([]);
    // Staff enter their own name; an existing account keeps its own.
    await invite([...customer, '--staff']);
    await invite([
      '--email',
      'cli.existing@example.com',
      '--app',
      'PAYROLL',
      '--customer-number',
      'C10001',
      '--existing',
      'C10001',
    ]);
    const code = await invite([...customer, '--name', 'Cleo Named']);
    const { res } = await start('cli.nameless@example.com', code);
    expect(res.body).toMatchObject({ customerNumber: 'C20062', name: 'Cleo Named', isStaff: false });
  });

  it('SMS: a code to the mobile enrols it; a gateway outage answers 503 with the customer message', async () => {
    const code = await invite(['--email', 'sam.sms@example.com', '--app', 'LOANS', '--facility', 'F001']);
    const { client } = await start('sam.sms@example.com', code);
    expect(
      (await post(client, 'anonymous/registration/collect-details', { username: 'C20005', name: 'Sam Sms' }))
        .status,
    ).toBe(200);
    const enrolled = await post<Json>(client, 'anonymous/registration/enrol-sms', '+61 400 111 222');
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);
    expect(enrolled.body).toMatchObject({ mobile: '+61 400 111 222' });
    const [sms] = await outbox(client, `?to=${encodeURIComponent('+61 400 111 222')}&limit=1`);
    expect(sms).toMatchObject({ channel: 'SMS' });
    const verified = await post<Json>(client, 'anonymous/registration/verify-mobile', {
      code: await latestCode(client, '+61 400 111 222'),
    });
    expect(verified.status).toBe(200);
    expect((await post(client, 'anonymous/registration/enrol-security-questions', QUESTIONS)).status).toBe(
      204,
    );
    const done = await post(client, 'anonymous/registration/submit-new', {
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const identity = (await identityNamed('C20005'))!;
    expect(identity.mobile).toBe('+61 400 111 222');
    const types = await server.db
      .selectFrom('identity_factors')
      .select('factor_type')
      .where('identity_id', '=', identity.id)
      .orderBy('factor_type')
      .execute();
    expect(types.map((t) => t.factor_type)).toEqual(['EMAIL', 'SMS']);

    const code2 = await invite(['--email', 'sam.down@example.com', '--app', 'LOANS', '--facility', 'F001']);
    const { client: c2 } = await start('sam.down@example.com', code2);
    expect(
      (await post(c2, 'anonymous/registration/collect-details', { username: 'C20006', name: 'Sam Down' }))
        .status,
    ).toBe(200);
    await server.app.services.factors.smsGateway.setAvailable(false);
    const down = await post(c2, 'anonymous/registration/enrol-sms', '+61 400 111 333');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ customerMessage: SMS_UNAVAILABLE_CUSTOMER_MESSAGE });
  });

  it('INVITE-EXIST-0001 adds LOANS F003 to C10001 after its password; a wrong one counts', async () => {
    await server.db.deleteFrom('failed_auth_counts').execute();
    const { client, res } = await start('c10001@example.com', 'INVITE-EXIST-0001');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      existingIdentity: true,
      productName: 'Loans',
      facilityAliasOrCode: expect.any(String),
    });
    const newOnly = await post(client, 'anonymous/registration/collect-details', { username: 'C10001' });
    expect(newOnly.status).toBe(422);
    expect(newOnly.body).toMatchObject({ message: EXISTING_IDENTITY_ONLY_MESSAGE });

    const wrong = await post(client, 'anonymous/registration/submit-existing', {
      username: 'C10001',
      password: 'nope',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ message: INCORRECT_CREDENTIALS_MESSAGE });
    const counted = await client.get<number>(`${API}anonymous/login/failed-auth-count?username=C10001`);
    expect(counted.body).toBe(1);

    const ok = await post<Json>(client, 'anonymous/registration/submit-existing', {
      username: 'c10001',
      password: DEMO_PASSWORD,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
      currentUser: { username: 'C10001', isAuthenticated: true },
    });
    const targetsRes = await get<Array<{ facilityCode: string | null }>>(
      client,
      'current-user/handoff-targets?appCode=LOANS',
    );
    expect(targetsRes.status).toBe(200);
    expect(targetsRes.body.map((t) => t.facilityCode).sort()).toEqual(['F001', 'F002', 'F003']);
    const events = await server.db
      .selectFrom('identity_events as e')
      .innerJoin('identities as i', 'i.id', 'e.identity_id')
      .select(['e.type'])
      .where('i.username', '=', 'C10001')
      .execute();
    expect(events.map((e) => e.type)).toContain('ACCESS_ADDED_FROM_INVITATION');
  });

  it('checks no more of 20 parallel wrong existing-account passwords than the session has tries', async () => {
    await server.db.deleteFrom('failed_auth_counts').execute();
    const code = await invite([
      '--email',
      'c10002@example.com',
      '--app',
      'LOANS',
      '--facility',
      'F002',
      '--existing',
      'C10002',
    ]);
    const { client, res } = await start('c10002@example.com', code);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ existingIdentity: true });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(client, 'anonymous/registration/submit-existing', { username: 'C10002', password: `nope-${i}` }),
      ),
    );
    // A password is checked only with one of the session's 5 tries reserved; the rest wait (429)
    // or find the session ended. Each check counts towards the account.
    expect(answers.map((a) => a.status).filter((s) => ![422, 429, 401].includes(s))).toEqual([]);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    const counted = await client.get<number>(`${API}anonymous/login/failed-auth-count?username=C10002`);
    expect(counted.body).toBeGreaterThan(0);
    expect(counted.body).toBeLessThanOrEqual(5);
    await server.db.deleteFrom('failed_auth_counts').execute();
  });

  it('the invite CLI refuses unknown apps and facilities and creates nothing', async () => {
    const before = await state();
    await expect(invite(['--email', 'x@example.com', '--app', 'NOPE'])).rejects.toThrow(/No application/);
    await expect(
      invite(['--email', 'x@example.com', '--app', 'LOANS', '--facility', 'F999']),
    ).rejects.toThrow(/no facility/);
    await expect(invite(['--email', 'not-an-email', '--app', 'LOANS'])).rejects.toThrow(/email/);
    await expect(invite(['--app', 'LOANS'])).rejects.toThrow(/required/);
    expect(await state()).toEqual(before);
    // The email carries the registration link and the code.
    const code = await invite([
      '--email',
      'mail.check@example.com',
      '--app',
      'LOANS',
      '--facility',
      'F001',
      '--role',
      'Loan officer:FACILITY:F001',
    ]);
    const [mail] = await outbox(server.client(), '?to=mail.check@example.com&limit=1');
    expect(mail!.subject).toBe('Your invitation to Loans');
    expect(mail!.text).toContain(`${server.config.publicUrl}/registration`);
    expect(mail!.text).toContain(code);
    const { res } = await start('mail.check@example.com', code);
    expect(res.body).toMatchObject({
      roles: [{ name: 'Loan officer', scopeType: 'FACILITY', scope: 'F001' }],
    });
  });

  // The CLI is a second process: it can share a PostgreSQL database with the running server, but an
  // embedded PGlite database opens in one process only, so this case exists for PostgreSQL alone
  // (registered only there: not a skipped test on PGlite).
  if (target.name === 'postgres')
    it('`npm run invite` creates a working invitation in the database', async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'invite-cli-'));
      try {
        const { stdout } = await promisify(execFile)(
          process.execPath,
          [
            '--import',
            'tsx',
            'scripts/invite.ts',
            '--email',
            'cli.user@example.com',
            '--app',
            'PAYROLL',
            '--print-code',
          ],
          {
            env: {
              PATH: process.env.PATH ?? '',
              NODE_ENV: 'test',
              DATA_DIR: dataDir,
              DATABASE_URL: server.handle.url!,
              PUBLIC_URL: 'http://127.0.0.1:9',
            },
          },
        );
        expect(stdout).toContain('sent to cli.user@example.com for Payroll');
        const code = /Invitation code: (\S+)/.exec(stdout)?.[1];
        expect(code).toBeDefined();
        const { res } = await start('cli.user@example.com', code!);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ productName: 'Payroll', existingIdentity: false });
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
});
