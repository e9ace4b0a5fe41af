// The kinds of caller a route sweep sends every call as: nobody signed in, a sign-in stopped at each
// forced step, and signed-in users with each kind of standing (customer, staff, admin,
// VIEW_ACCESS_REQUESTS, READ_ONLY alone). A Caller keeps one session and signs in again only when a
// call has ended it or moved it on (logout, a completed step, too many wrong codes), which it reads
// from the sessions table, not from the answers.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { FORCED_ACTIONS, type ForcedAction } from '../../../src/contract/entities';
import type { Database } from '../../../src/server/db/schema';
import { hashSessionToken } from '../../../src/server/domain/sessions';
import { sessionCookieName } from '../../../src/server/http/session-cookie';
import { pathOf } from './saml';
import { API, DEMO_PASSWORD, type TestClient, type TestServer } from './server';

export type SignedInKind = 'customer' | 'staff' | 'admin' | 'viewer' | 'readOnly';
export type CallerKind = 'anonymous' | 'visitor' | `pending:${ForcedAction}` | SignedInKind;

/** What a signed-in caller is: the current user's isStaff, isAdmin and roles. */
export interface SignedInAs {
  readonly isStaff: boolean;
  readonly isAdmin: boolean;
  readonly roles: readonly string[];
}

/**
 * Where a caller's session stands: no session at all, an anonymous one (a visitor part-way through
 * a password reset), pending at a forced step, or signed in as someone.
 */
export type Standing =
  | { readonly type: 'NONE' }
  | { readonly type: 'ANONYMOUS' }
  | { readonly type: 'AUTHENTICATION_PENDING'; readonly step: ForcedAction }
  | ({ readonly type: 'AUTHENTICATED' } & SignedInAs);

export interface CallerProfile {
  readonly kind: CallerKind;
  /** Who signs in (null: nobody; a visitor starts a password reset for this caller's account). */
  readonly username: string | null;
  readonly standing: Standing;
  /** Sign in from this app's demo service provider (its SAML request becomes the context). */
  readonly fromApp?: 'LOANS';
  /** How the demo data (or addSweepIdentities) gives the caller its standing. */
  readonly note: string;
}

/** The email a visitor starts its password reset for (C10001's). */
export const VISITOR_RESET_EMAIL = 'c10001@example.com';

/** A staff member who is not an admin: no demo identity is one, so the sweep adds it. */
export const SWEEP_STAFF_USERNAME = 'sweep.staff';
/** Holds READ_ONLY and nothing else: in the demo data only admin1 holds it (with ADMIN). */
export const SWEEP_READ_ONLY_USERNAME = 'sweep.reader';

const PENDING: Record<ForcedAction, Omit<CallerProfile, 'kind' | 'standing'>> = {
  CHANGE_EXPIRED_PASSWORD: { username: 'C10002', note: 'password expired' },
  FACTOR_ENROLMENT: { username: 'C10003', note: 'MFA required, nothing enrolled' },
  MFA: { username: 'C10004', note: 'authenticator app enrolled' },
  DUPLICATE_ACCOUNTS: { username: 'C10006', note: 'shares dup@example.com with C10007' },
  SELECT_FACILITY: {
    username: 'C10008',
    fromApp: 'LOANS',
    note: 'three LOANS facilities, arriving from LOANS',
  },
};

const signedIn = (as: SignedInAs): Standing => ({ type: 'AUTHENTICATED', ...as });

export const CALLER_PROFILES: readonly CallerProfile[] = [
  { kind: 'anonymous', username: null, standing: { type: 'NONE' }, note: 'no session cookie' },
  {
    kind: 'visitor',
    username: null,
    standing: { type: 'ANONYMOUS' },
    note: "anonymous session, password reset started for C10001's email",
  },
  ...FORCED_ACTIONS.map((step): CallerProfile => ({
    kind: `pending:${step}`,
    standing: { type: 'AUTHENTICATION_PENDING', step },
    ...PENDING[step],
  })),
  {
    kind: 'customer',
    username: 'C10001',
    standing: signedIn({ isStaff: false, isAdmin: false, roles: [] }),
    note: 'customer, no roles',
  },
  {
    kind: 'staff',
    username: SWEEP_STAFF_USERNAME,
    standing: signedIn({ isStaff: true, isAdmin: false, roles: [] }),
    note: 'staff, not admin, no roles; added by the sweep',
  },
  {
    kind: 'admin',
    username: 'admin1',
    standing: signedIn({ isStaff: true, isAdmin: true, roles: ['ADMIN', 'READ_ONLY'] }),
    note: 'staff admin, roles ADMIN and READ_ONLY',
  },
  {
    kind: 'viewer',
    username: 'auditor1',
    standing: signedIn({ isStaff: false, isAdmin: false, roles: ['VIEW_ACCESS_REQUESTS'] }),
    note: 'holds VIEW_ACCESS_REQUESTS',
  },
  {
    kind: 'readOnly',
    username: SWEEP_READ_ONLY_USERNAME,
    standing: signedIn({ isStaff: false, isAdmin: false, roles: ['READ_ONLY'] }),
    note: 'holds READ_ONLY alone; added by the sweep',
  },
];

/**
 * Adds the two identities the demo data lacks: a staff member who is not an admin, and a holder of
 * READ_ONLY alone. Both sign in with the demo password (C10010's hash is copied) and have no forced
 * steps, no grants and an email of their own.
 */
export async function addSweepIdentities(db: Kysely<Database>): Promise<void> {
  const template = await db
    .selectFrom('identities')
    .innerJoin('credentials', 'credentials.identity_id', 'identities.id')
    .select(['identities.realm_code', 'credentials.password_hash'])
    .where('identities.username', '=', 'C10010')
    .executeTakeFirstOrThrow();
  const now = new Date();
  const add = async (username: string, extra: { isStaff: boolean; salaryNumber: string | null }) => {
    const id = randomUUID();
    await db
      .insertInto('identities')
      .values({
        id,
        realm_code: template.realm_code,
        username,
        name: `Sweep ${username}`,
        email: `${username}@example.com`,
        mobile: null,
        phone: null,
        birth_date: null,
        customer_number: extra.isStaff ? null : username,
        is_staff: extra.isStaff,
        is_admin: false,
        salary_number: extra.salaryNumber,
        identity_verified: false,
        password_expired: false,
        mfa_required: false,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('credentials')
      .values({ identity_id: id, password_hash: template.password_hash, changed_at: now })
      .execute();
    return id;
  };
  await add(SWEEP_STAFF_USERNAME, { isStaff: true, salaryNumber: '190001' });
  const reader = await add(SWEEP_READ_ONLY_USERNAME, { isStaff: false, salaryNumber: null });
  await db.insertInto('identity_roles').values({ identity_id: reader, role_code: 'READ_ONLY' }).execute();
}

/** One caller kind on one server: hands out a client whose session stands where the profile says. */
export class Caller {
  #client: TestClient | null = null;
  #identityId: string | null = null;
  /** Sign-ins so far (the first one included). */
  signIns = 0;

  constructor(
    readonly server: TestServer,
    readonly profile: CallerProfile,
  ) {}

  get kind(): CallerKind {
    return this.profile.kind;
  }

  /**
   * A client standing where the profile says. Anonymous callers get a new cookie jar each time (a
   * call may start an anonymous session); the others keep theirs while its session still stands.
   */
  async client(): Promise<TestClient> {
    if (this.profile.standing.type === 'NONE') return this.server.client();
    if (this.#client && (await this.stands(this.#client))) return this.#client;
    this.#client = await this.#signIn();
    return this.#client;
  }

  /** Whether `client`'s session is live and stands where the profile says (read from the database). */
  async stands(client: TestClient): Promise<boolean> {
    const standing = this.profile.standing;
    if (standing.type === 'NONE') return client.cookies.size === 0;
    const token = client.cookie(sessionCookieName(this.server.config));
    if (!token) return false;
    const row = await this.server.db
      .selectFrom('sessions')
      .select(['identity_id', 'type', 'data', 'expires_at', 'absolute_expires_at'])
      .where('id_hash', '=', hashSessionToken(token))
      .executeTakeFirst();
    const now = Date.now();
    if (!row || row.type !== standing.type) return false;
    if (standing.type === 'ANONYMOUS' ? !row.data.passwordReset : row.identity_id !== this.#identityId) {
      return false;
    }
    if (row.expires_at.getTime() <= now || row.absolute_expires_at.getTime() <= now) return false;
    return standing.type !== 'AUTHENTICATION_PENDING' || row.data.forcedAction === standing.step;
  }

  async #signIn(): Promise<TestClient> {
    if (this.profile.standing.type === 'ANONYMOUS') return this.#startPasswordReset();
    const { server, profile } = this;
    const username = profile.username!;
    // Wrong codes and passwords sent by earlier calls count as failed sign-ins; past three, the
    // sign-in would need a captcha. The sweep is about access, not about that limit.
    await server.db
      .deleteFrom('failed_auth_counts')
      .where('username_key', '=', server.app.services.factors.lockout.keyOf(username))
      .execute();
    const client = server.client();
    if (profile.fromApp) {
      const start = await client.get(`/demo-sp/${profile.fromApp}/login`, { requestedWith: false });
      const location = start.headers.get('location');
      if (start.status !== 303 || !location)
        throw new Error(`${profile.kind}: demo SP answered ${start.status}`);
      const sso = await client.get(pathOf(location), { requestedWith: false });
      if (sso.status !== 303)
        throw new Error(`${profile.kind}: /saml/sso answered ${sso.status}: ${sso.text}`);
    }
    const res = await client.post<{
      outcome?: string;
      forcedAction?: string | null;
      currentUser?: SignedInAs & { type: string };
    }>(`${API}anonymous/login`, { username, password: DEMO_PASSWORD });
    const standing = profile.standing;
    const expected =
      standing.type === 'AUTHENTICATION_PENDING'
        ? { outcome: 'FORCED_ACTION', forcedAction: standing.step }
        : { outcome: 'DIRECT_LOGIN' };
    if (
      res.status !== 200 ||
      res.body.outcome !== expected.outcome ||
      ('forcedAction' in expected && res.body.forcedAction !== expected.forcedAction)
    ) {
      throw new Error(`${profile.kind}: sign-in as ${username} answered ${res.status} ${res.text}`);
    }
    if (standing.type === 'AUTHENTICATED') {
      // The profile must say what the server says the user is, or the matrix would test a fiction.
      const user = res.body.currentUser;
      const said = { isStaff: user?.isStaff, isAdmin: user?.isAdmin, roles: [...(user?.roles ?? [])].sort() };
      const meant = {
        isStaff: standing.isStaff,
        isAdmin: standing.isAdmin,
        roles: [...standing.roles].sort(),
      };
      if (JSON.stringify(said) !== JSON.stringify(meant)) {
        throw new Error(
          `${profile.kind}: ${username} is ${JSON.stringify(said)}, not ${JSON.stringify(meant)}`,
        );
      }
    }
    const identity = await server.db
      .selectFrom('identities')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    this.#identityId = identity.id;
    this.signIns += 1;
    if (!(await this.stands(client))) throw new Error(`${profile.kind}: the new session does not stand`);
    return client;
  }

  /** An anonymous session (from the captcha image) that has started a password reset. */
  async #startPasswordReset(): Promise<TestClient> {
    const { server, profile } = this;
    const client = server.client();
    const image = await client.get('/captcha.jpg?1', { requestedWith: false });
    if (image.status !== 200) throw new Error(`${profile.kind}: captcha answered ${image.status}`);
    const res = await client.post(`${API}anonymous/password-reset/start`, {
      email: VISITOR_RESET_EMAIL,
      captchaCode: server.captcha.last,
    });
    if (res.status !== 204)
      throw new Error(`${profile.kind}: reset start answered ${res.status} ${res.text}`);
    this.signIns += 1;
    if (!(await this.stands(client))) throw new Error(`${profile.kind}: the new session does not stand`);
    return client;
  }
}
