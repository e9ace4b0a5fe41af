// The operations the crash driver interrupts, each from a fresh prepared point: rows written
// straight into the database while the server is down (a new identity, pair or invitation per
// run, so one seeded database serves every run), the wizard driven over HTTP up to its final call,
// and a fingerprint of every row the operation could touch, with what differs from run to run
// (ids, names, times, salts) replaced by placeholders so that runs compare with each other.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';
import { usernameKeyer } from '../../src/server/domain/lockout';
import { invitationCodeHash } from '../../src/server/domain/registration/invitations';
import { CrashClient, expectStatus, type Reply } from './http';

export const DEMO_PASSWORD = 'Harbour-Lights-2026';
export const NEW_PASSWORD = 'Quiet-Harbour-Morning-4821';
export const CAPTCHA_ANSWER = 'E2E42';
const QUESTIONS = {
  question1: 'DRIVERS_LICENCE',
  answer1: 'NSW 99887',
  question2: 'MEDICARE',
  answer2: '2123 45670 1',
};

type Db = Kysely<Database>;

/** One run of one operation: its rows, its browser, and what the fingerprint looks at. */
export interface Run {
  readonly op: Operation;
  readonly n: number;
  /** Role name → identity id (registration adds 'new' once the identity exists). */
  readonly ids: Record<string, string>;
  readonly usernames: Record<string, string>;
  readonly emails: string[];
  readonly invitationId?: string;
  readonly inviteCode?: string;
  /** The password hash written at preparation (credentials show '<prepared>' or '<changed>'). */
  readonly preparedHash: string;
  client: CrashClient;
  /** What the wizard handed over on the way (e.g. the code the final call sends). */
  code?: string;
  /**
   * The browser's cookies (hashed) when the final call was sent: the session rows it could reach
   * then. Looked at rather than its cookies now, which depend on whether the answer arrived
   * before the kill (a committed registration's new session cookie may never reach it).
   */
  cookieHashes?: string[];
}

export interface Operation {
  readonly name: string;
  /** Writes the run's rows (server down). */
  prepare(db: Db, n: number, baseUrl: string): Promise<Run>;
  /** Drives the wizard over HTTP up to (not including) the final call. */
  drive(run: Run): Promise<void>;
  /** The final call; its success answers. */
  final(run: Run): Promise<Reply<unknown>>;
  readonly finalStatus: number;
  /** Proves over HTTP that the operation took effect (after the after-state was seen). */
  verify(run: Run): Promise<void>;
}

const pad = (n: number) => String(n).padStart(5, '0');

async function templateIdentity(db: Db) {
  const source = await db
    .selectFrom('identities')
    .selectAll()
    .where('username', '=', 'C10001')
    .executeTakeFirstOrThrow();
  const credential = await db
    .selectFrom('credentials')
    .select('password_hash')
    .where('identity_id', '=', source.id)
    .executeTakeFirstOrThrow();
  return { source, hash: credential.password_hash };
}

/** A customer like C10001 (demo password, no factors, not identity verified), optionally with LOANS grants. */
async function insertCustomer(
  db: Db,
  username: string,
  email: string,
  facilities: string[] = [],
): Promise<{ id: string; hash: string }> {
  const { source, hash } = await templateIdentity(db);
  const id = randomUUID();
  const now = new Date();
  await db
    .insertInto('identities')
    .values({
      ...source,
      id,
      username,
      email,
      customer_number: username,
      identity_verified: false,
      created_at: now,
      updated_at: now,
      retired_at: null,
      jwt_valid_after: null,
    })
    .execute();
  await db
    .insertInto('credentials')
    .values({ identity_id: id, password_hash: hash, changed_at: now })
    .execute();
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
  return { id, hash };
}

async function expectOutcome(what: string, reply: Reply<{ outcome?: string }>, outcome?: string) {
  expectStatus(what, reply, 200);
  if (outcome ? reply.body.outcome !== outcome : !reply.body.outcome) {
    throw new Error(`${what}: unexpected answer ${reply.text.slice(0, 300)}`);
  }
}

// ---- the operations ------------------------------------------------------------------------------

const M = 'forced-actions/merge-identities';

/** Signed in as a customer whose email another account shares; the merge wizard at confirm. */
export const merge: Operation = {
  name: 'merge',
  async prepare(db, n, baseUrl) {
    const a = `MA${pad(n)}`;
    const b = `MB${pad(n)}`;
    const email = `merge${n}@example.com`;
    const first = await insertCustomer(db, a, email, ['F001']);
    const second = await insertCustomer(db, b, email.toUpperCase(), ['F002']);
    return {
      op: merge,
      n,
      ids: { a: first.id, b: second.id },
      usernames: { a, b },
      emails: [email],
      preparedHash: first.hash,
      client: new CrashClient(baseUrl),
    };
  },
  async drive(run) {
    const c = run.client;
    const login = await c.login(run.usernames.a!, DEMO_PASSWORD);
    expectStatus('merge sign-in', login, 200);
    if (login.body.forcedAction !== 'DUPLICATE_ACCOUNTS') throw new Error(`merge sign-in: ${login.text}`);
    expectStatus(
      'select-accounts',
      await c.post(`${M}/select-accounts`, { identities: [{ id: run.ids.b, password: DEMO_PASSWORD }] }),
      200,
    );
    expectStatus(
      'preferred-username',
      await c.post(`${M}/preferred-username`, { username: run.usernames.a }),
      204,
    );
    expectStatus('generate-merge-details', await c.post(`${M}/generate-merge-details`), 200);
  },
  final: (run) => run.client.post(`${M}/confirm`),
  finalStatus: 200,
  async verify(run) {
    const c = run.client;
    await expectOutcome('continue-sign-in', await c.get(`${M}/continue-sign-in`), 'DIRECT_LOGIN');
    const retired = await new CrashClient(c.baseUrl).login(run.usernames.b!, DEMO_PASSWORD);
    expectStatus('sign-in of the merged account', retired, 422);
    const again = await new CrashClient(c.baseUrl).login(run.usernames.a!, DEMO_PASSWORD);
    await expectOutcome('sign-in of the survivor', again, 'DIRECT_LOGIN');
  },
};

const REG = 'anonymous/registration';

/** A new customer's invitation (like INVITE-NEW-0001) at the registration's final submit. */
export const registration: Operation = {
  name: 'registration',
  async prepare(db, n, baseUrl) {
    const template = await db
      .selectFrom('invitations')
      .selectAll()
      .where('code_hash', '=', invitationCodeHash('INVITE-NEW-0001'))
      .executeTakeFirstOrThrow();
    const inviteCode = `CRASH-REG-${pad(n)}`;
    const email = `registration${n}@example.com`;
    const customerNumber = `C5${String(n).padStart(4, '0')}`;
    const id = randomUUID();
    const now = new Date();
    await db
      .insertInto('invitations')
      .values({
        ...template,
        id,
        code_hash: invitationCodeHash(inviteCode),
        email,
        customer_number: customerNumber,
        created_at: now,
        expires_at: new Date(now.getTime() + 7 * 86_400_000),
        used_at: null,
        used_by_identity_id: null,
        roles: JSON.stringify(template.roles) as never,
      })
      .execute();
    return {
      op: registration,
      n,
      ids: {},
      usernames: { new: customerNumber },
      emails: [email],
      invitationId: id,
      inviteCode,
      preparedHash: '',
      client: new CrashClient(baseUrl),
    };
  },
  async drive(run) {
    const c = run.client;
    await c.captcha();
    const start = await c.post(`${REG}/start`, {
      email: run.emails[0],
      inviteCode: run.inviteCode,
      captchaCode: CAPTCHA_ANSWER,
    });
    expectStatus('registration start', start, 200);
    expectStatus(
      'collect-details',
      await c.post(`${REG}/collect-details`, { username: run.usernames.new }),
      200,
    );
    expectStatus('enrol-email', await c.post(`${REG}/enrol-email`), 204);
    expectStatus('enrol-security-questions', await c.post(`${REG}/enrol-security-questions`, QUESTIONS), 204);
  },
  final: (run) =>
    run.client.post(`${REG}/submit-new`, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }),
  finalStatus: 200,
  async verify(run) {
    const login = await new CrashClient(run.client.baseUrl).login(run.usernames.new!, NEW_PASSWORD);
    await expectOutcome('sign-in of the registered account', login);
  },
};

const RESET = 'anonymous/password-reset';

/** A customer without second factors, email code verified: the reset at set-password. */
export const reset: Operation = {
  name: 'reset',
  async prepare(db, n, baseUrl) {
    const username = `RS${pad(n)}`;
    const email = `reset${n}@example.com`;
    const { id, hash } = await insertCustomer(db, username, email);
    return {
      op: reset,
      n,
      ids: { user: id },
      usernames: { user: username },
      emails: [email],
      preparedHash: hash,
      client: new CrashClient(baseUrl),
    };
  },
  async drive(run) {
    const c = run.client;
    await c.captcha();
    expectStatus(
      'reset start',
      await c.post(`${RESET}/start`, { email: run.emails[0], captchaCode: CAPTCHA_ANSWER }),
      204,
    );
    const code = await c.latestCode(run.emails[0]!);
    expectStatus('reset verify-email', await c.post(`${RESET}/verify-email`, { code }), 200);
  },
  final: (run) =>
    run.client.post(`${RESET}/submit`, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }),
  finalStatus: 204,
  async verify(run) {
    const login = await new CrashClient(run.client.baseUrl).login(run.usernames.user!, NEW_PASSWORD);
    await expectOutcome('sign-in with the reset password', login);
  },
};

/** Signed in, new address entered, its code at hand: the change-email wizard's verification. */
export const profileEmail: Operation = {
  name: 'profile-email',
  async prepare(db, n, baseUrl) {
    const username = `PE${pad(n)}`;
    const email = `profile-email${n}@example.com`;
    const { id, hash } = await insertCustomer(db, username, email);
    return {
      op: profileEmail,
      n,
      ids: { user: id },
      usernames: { user: username },
      emails: [email, `changed-email${n}@example.com`],
      preparedHash: hash,
      client: new CrashClient(baseUrl),
    };
  },
  async drive(run) {
    const c = run.client;
    await expectOutcome('profile sign-in', await c.login(run.usernames.user!, DEMO_PASSWORD), 'DIRECT_LOGIN');
    expectStatus(
      'change-email start',
      await c.post('profile/change-email/start', { currentPassword: DEMO_PASSWORD, email: run.emails[1] }),
      204,
    );
    // The code is read now; the final call sends it.
    run.code = await c.latestCode(run.emails[1]!);
  },
  final: (run) => run.client.post('profile/change-email/verify-email', { code: run.code }),
  finalStatus: 200,
  async verify(run) {
    const user = await run.client.get<{ email?: string }>('anonymous/current-user');
    expectStatus('current user', user, 200);
    if (user.body.email !== run.emails[1]) throw new Error(`email not changed: ${user.text.slice(0, 300)}`);
  },
};

/** Signed in: the profile's change-password. */
export const profilePassword: Operation = {
  name: 'profile-password',
  async prepare(db, n, baseUrl) {
    const username = `PP${pad(n)}`;
    const email = `profile-password${n}@example.com`;
    const { id, hash } = await insertCustomer(db, username, email);
    return {
      op: profilePassword,
      n,
      ids: { user: id },
      usernames: { user: username },
      emails: [email],
      preparedHash: hash,
      client: new CrashClient(baseUrl),
    };
  },
  async drive(run) {
    const c = run.client;
    await expectOutcome('profile sign-in', await c.login(run.usernames.user!, DEMO_PASSWORD), 'DIRECT_LOGIN');
  },
  final: (run) =>
    run.client.post('profile/change-password', {
      currentPassword: DEMO_PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmNewPassword: NEW_PASSWORD,
    }),
  finalStatus: 204,
  async verify(run) {
    const login = await new CrashClient(run.client.baseUrl).login(run.usernames.user!, NEW_PASSWORD);
    await expectOutcome('sign-in with the new password', login, 'DIRECT_LOGIN');
  },
};

export const OPERATIONS: readonly Operation[] = [merge, registration, reset, profileEmail, profilePassword];

// ---- fingerprint -----------------------------------------------------------------------------------

const SYNTHETIC_ID_TABLES = new Set([
  'access_grants',
  'identity_factors',
  'trusted_devices',
  'identity_events',
  'sign_in_attempts',
]);

/**
 * Every row the run's operation could write, normalised. Sessions are looked at as the browser
 * saw them when it sent the final call (the rows its cookies reached then: type and data) plus
 * how many each identity has.
 */
/** The crashed servers' data key (DATA_ENCRYPTION_KEY): the failure rows are keyed by it. */
export const CRASH_DATA_KEY = Buffer.alloc(32, 11);
const usernameKeyOf = usernameKeyer(CRASH_DATA_KEY);

export async function fingerprint(db: Db, run: Run): Promise<string> {
  const ids = { ...run.ids };
  if (run.op === registration) {
    const created = await db
      .selectFrom('identities')
      .select('id')
      .where(sql<string>`lower(username)`, '=', run.usernames.new!.toLowerCase())
      .executeTakeFirst();
    if (created) ids.new = created.id;
  }
  const idList = Object.values(ids);
  const usernames = Object.values(run.usernames).map((u) => u.toLowerCase());
  const hashes = run.cookieHashes ?? run.client.cookieHashes();
  const none = ['00000000-0000-0000-0000-000000000000'];
  const inIds = idList.length > 0 ? idList : none;
  const inHashes = hashes.length > 0 ? hashes : ['-'];

  const byIdentity = <T extends keyof Database & string>(table: T) =>
    db
      .selectFrom(table as 'credentials')
      .selectAll()
      .where('identity_id', 'in', inIds)
      .execute() as Promise<Array<Record<string, unknown>>>;

  const tables: Record<string, Array<Record<string, unknown>>> = {
    identities: await db.selectFrom('identities').selectAll().where('id', 'in', inIds).execute(),
    credentials: await byIdentity('credentials'),
    identity_roles: await byIdentity('identity_roles'),
    access_grants: await byIdentity('access_grants'),
    identity_factors: await byIdentity('identity_factors'),
    security_answers: await byIdentity('security_answers'),
    trusted_devices: await byIdentity('trusted_devices'),
    identity_events: await byIdentity('identity_events'),
    profile_pending_changes: await byIdentity('profile_pending_changes'),
    sign_in_attempts: await db
      .selectFrom('sign_in_attempts')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('identity_id', 'in', inIds),
          eb('username', 'in', [...usernames, ...usernames.map(usernameKeyOf)]),
        ]),
      )
      .execute(),
    // A check in flight holds one of its account's tries (in_flight, Lockout.withTries), in a row
    // of its own when the account had none: like a session's tries in flight, part of no change.
    failed_auth_counts: await db
      .selectFrom('failed_auth_counts')
      .select(['username_key', 'count', 'last_failed_at', 'not_before', 'locked_at'])
      .where('username_key', 'in', usernames.map(usernameKeyOf))
      .where((eb) =>
        eb.or([eb('count', '>', 0), eb('locked_at', 'is not', null), eb('not_before', 'is not', null)]),
      )
      .execute(),
    browser_sessions: await db
      .selectFrom('sessions')
      .select(['identity_id', 'type', 'data'])
      .where('id_hash', 'in', inHashes)
      .execute(),
    sessions_per_identity: await db
      .selectFrom('sessions')
      .select(['identity_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('identity_id', 'in', inIds)
      .groupBy('identity_id')
      .execute(),
    one_time_codes: await db
      .selectFrom('one_time_codes')
      .selectAll()
      .where((eb) => eb.or([eb('session_id_hash', 'in', inHashes), eb('identity_id', 'in', inIds)]))
      .execute(),
    invitations: run.invitationId
      ? await db
          .selectFrom('invitations')
          .select(['used_at', 'used_by_identity_id'])
          .where('id', '=', run.invitationId)
          .execute()
      : [],
  };

  const replacements: Array<[RegExp, string]> = [];
  for (const [role, id] of Object.entries(ids)) replacements.push([new RegExp(id, 'g'), `<id:${role}>`]);
  for (const [role, name] of Object.entries(run.usernames))
    replacements.push([new RegExp(`\\b${name}\\b`, 'gi'), `<user:${role}>`]);
  for (const [i, email] of run.emails.entries())
    replacements.push([new RegExp(email.replace(/[.]/g, '\\.'), 'gi'), `<email:${i}>`]);
  for (const hash of hashes) replacements.push([new RegExp(hash, 'g'), '<cookie>']);

  // Proving the current password (profile changes) is a step of its own, the same write as POST
  // reenter-password: it refreshes the session's re-enter-password clock whether or not the change
  // that follows commits. It is not part of the change, so it is left out. So are the tries a
  // password or code check holds while it runs (`<counter>InFlight` and `...At`): a kill during
  // the check leaves them taken, and they lapse after 30 s (TRY_RESERVATION_LAPSE_MS, checked in
  // tests/server/failure-limit.test.ts); they are not part of any change either.
  for (const row of tables.browser_sessions!) {
    const {
      passwordConfirmedAt: _at,
      reenterPasswordFailures: _failures,
      ...rest
    } = row.data as Record<string, unknown>;
    row.data = Object.fromEntries(Object.entries(rest).filter(([key]) => !/InFlight(At)?$/.test(key)));
  }

  const out: Record<string, string[]> = {};
  for (const [table, rows] of Object.entries(tables)) {
    out[table] = rows
      .map((row) => {
        const copy: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(row)) {
          if (key === 'id' && SYNTHETIC_ID_TABLES.has(table)) continue;
          if (key === 'password_hash') copy[key] = value === run.preparedHash ? '<prepared>' : '<changed>';
          else if (value instanceof Date) copy[key] = '<time>';
          else copy[key] = value;
        }
        let text = JSON.stringify(copy);
        for (const [pattern, placeholder] of replacements) text = text.replace(pattern, placeholder);
        return text
          .replace(/\$argon2id\$[^"]*/g, '<argon2>')
          .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
          .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
          .replace(/\b[0-9a-f]{64}\b/g, '<hex>');
      })
      .sort();
  }
  return JSON.stringify(out, null, 1);
}
