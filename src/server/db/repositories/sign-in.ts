// Failed-attempt counters, the sign-in attempt log, and the two statements of a password sign-in.
//
// A sign-in runs exactly two statements around the argon2id verification: `openSignInAttempt`
// (realm, counter reservation, identity, roles) and either `completeSignIn` (success: previous
// attempt, counter reset, attempt logged, old session ended, new session started) or
// `recordFailedSignIn` (failure; repositories/lockout.ts). Each is a single statement, hence its own transaction: on the
// embedded PGlite every statement costs a fixed ~0.3 ms of the one event-loop thread that also
// serves HTTP, and that is what the bench:login budget measures.
import { sql, type Kysely } from 'kysely';
import type { Database, FactorKind, Identity } from '../schema';
import { liveInFlight, type UsernameKey } from './lockout';
import type { SessionRow } from './sessions';

/** Takes back one increment (never below zero). */
export async function decrementFailedCount(db: Kysely<Database>, key: UsernameKey): Promise<void> {
  await db
    .updateTable('failed_auth_counts')
    .set({ count: sql<number>`greatest(failed_auth_counts.count - 1, 0)` })
    .where('username_key', '=', key)
    .execute();
}

export async function failedCount(db: Kysely<Database>, key: UsernameKey): Promise<number> {
  const row = await db
    .selectFrom('failed_auth_counts')
    .select('count')
    .where('username_key', '=', key)
    .executeTakeFirst();
  return row?.count ?? 0;
}

export interface SignInAttemptRecord {
  identityId: string | null;
  /**
   * The identity's normalised username; for an attempt that names no identity, the key of what
   * was typed (UsernameKey), so the log never keeps a password typed into the username box.
   */
  username: string;
  realmCode: string;
  attemptedAt: Date;
  ipAddress: string | null;
  cityName: string | null;
  countryName: string | null;
  continentName: string | null;
  isSuccessful: boolean;
}

/** What the forced-step rules need to know about the identity, when it was read with the sign-in. */
export interface SignInPrefetch {
  factors: FactorKind[];
  securityAnswers: number;
  /** Another live identity of the realm has the same email (case-insensitively). */
  sharesEmail: boolean;
}

export interface OpenedSignInAttempt {
  realmCode: string;
  authEnabled: boolean;
  /**
   * The failed count including this attempt's reservation; null when sign-in is disabled or the
   * username may not try now (see `blocked`).
   */
  reservedCount: number | null;
  /** The username's lock and wait as they were before this statement (domain/lockout.ts). */
  blocked: { lockedAt: Date | null; notBefore: Date | null; count: number; lastFailedAt: Date | null };
  identity: Identity | null;
  passwordHash: string | null;
  roles: string[];
  /** What the forced-step rules ask about the identity, read by the same statement. */
  prefetch: SignInPrefetch | null;
}

// The identity's columns come with `i.*`; ours are prefixed so none can collide with them.
type OpenedRow = {
  signin_realm_code: string;
  signin_auth_enabled: boolean;
  signin_reserved_count: number | null;
  signin_locked_at: Date | null;
  signin_not_before: Date | null;
  signin_count: number | null;
  signin_last_failed_at: Date | null;
  signin_password_hash: string | null;
  signin_roles: string[];
  signin_factors: FactorKind[] | null;
  signin_answers: number | null;
  signin_shares_email: boolean | null;
} & { [K in keyof Identity]: Identity[K] | null };

/**
 * One statement: finds the realm (the default one when `realmCode` is null); if it allows sign-in,
 * reserves one failed attempt for the username (UPSERT count + 1); and looks the username up in
 * it, with password hash and roles. Undefined when the realm does not exist.
 */
export async function openSignInAttempt(
  db: Kysely<Database>,
  input: {
    realmCode: string | null;
    /** Normalised username, to find the identity. */
    username: string;
    /** Its failure row's key. */
    key: UsernameKey;
    now: Date;
    lockAfter?: number;
    inFlightMs?: number;
  },
): Promise<OpenedSignInAttempt | undefined> {
  const lockAfter = input.lockAfter ?? 0;
  // A reservation of the lock's last attempt older than this is no longer taken to be in flight.
  const staleBefore = new Date(input.now.getTime() - (input.inFlightMs ?? 60_000));
  const realmFilter = input.realmCode === null ? sql`is_default` : sql`code = ${input.realmCode}`;
  const result = await sql<OpenedRow>`
    with realm as (
      select code, auth_enabled from realms where ${realmFilter}
    ),
    reserved as (
      insert into failed_auth_counts (username_key, count, last_failed_at)
      select ${input.key}::text, 1, ${input.now}::timestamptz from realm where realm.auth_enabled
      on conflict (username_key) do update
        set count = failed_auth_counts.count + 1, last_failed_at = excluded.last_failed_at
        -- The failure limit: no attempt while locked, waiting, or while the lock's last one is out.
        where failed_auth_counts.locked_at is null
          and (failed_auth_counts.not_before is null or failed_auth_counts.not_before <= excluded.last_failed_at)
          and (${lockAfter}::int = 0
            -- Code and password checks in flight elsewhere (Lockout.withTries) count as failures.
            or failed_auth_counts.count + ${liveInFlight('failed_auth_counts')} < ${lockAfter}::int
            or (failed_auth_counts.last_failed_at <= ${staleBefore}::timestamptz
              and ${liveInFlight('failed_auth_counts')} = 0))
      returning count
    ),
    gate as (
      select locked_at, not_before, count, last_failed_at from failed_auth_counts where username_key = ${input.key}
    )
    select
      realm.code as signin_realm_code,
      realm.auth_enabled as signin_auth_enabled,
      (select count from reserved) as signin_reserved_count,
      (select locked_at from gate) as signin_locked_at,
      (select not_before from gate) as signin_not_before,
      (select count from gate) as signin_count,
      (select last_failed_at from gate) as signin_last_failed_at,
      c.password_hash as signin_password_hash,
      array(select r.role_code from identity_roles r where r.identity_id = i.id order by r.role_code)
        as signin_roles,
      -- For the forced-step rules (factor enrolment, MFA, duplicate accounts), so that a sign-in
      -- without forced steps stays at two statements.
      array(select f.factor_type from identity_factors f where f.identity_id = i.id order by f.factor_type)
        as signin_factors,
      (select count(*)::int from security_answers a where a.identity_id = i.id) as signin_answers,
      (i.email is not null and exists (
        select 1 from identities o
        where lower(o.email) = lower(i.email) and o.realm_code = i.realm_code
          and o.retired_at is null and o.id <> i.id
      )) as signin_shares_email,
      i.*
    from realm
    left join identities i
      on lower(i.username) = ${input.username} and i.realm_code = realm.code and i.retired_at is null
    left join credentials c on c.identity_id = i.id
  `.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  const {
    signin_realm_code,
    signin_auth_enabled,
    signin_reserved_count,
    signin_locked_at,
    signin_not_before,
    signin_count,
    signin_last_failed_at,
    signin_password_hash,
    signin_roles,
    signin_factors,
    signin_answers,
    signin_shares_email,
    ...identity
  } = row;
  return {
    realmCode: signin_realm_code,
    authEnabled: signin_auth_enabled,
    reservedCount: signin_reserved_count,
    blocked: {
      lockedAt: signin_locked_at,
      notBefore: signin_not_before,
      count: signin_count ?? 0,
      lastFailedAt: signin_last_failed_at,
    },
    identity: identity.id === null ? null : (identity as Identity),
    passwordHash: signin_password_hash,
    roles: signin_roles ?? [],
    prefetch:
      identity.id === null
        ? null
        : {
            factors: signin_factors ?? [],
            securityAnswers: signin_answers ?? 0,
            sharesEmail: signin_shares_email ?? false,
          },
  };
}

export interface PreviousAttemptRow {
  attempted_at: Date;
  ip_address: string | null;
  city_name: string | null;
  country_name: string | null;
  continent_name: string | null;
  is_successful: boolean;
}

/**
 * One statement (so one transaction) after a correct password: reads the identity's previous
 * attempt (the statement's snapshot does not see the attempt it logs), clears the username's
 * failed count, logs the successful attempt, ends the session the request came with and starts
 * the new one.
 */
export async function completeSignIn(
  db: Kysely<Database>,
  input: {
    attempt: SignInAttemptRecord & { identityId: string };
    /** The failure row of the username as typed. */
    failureKey: UsernameKey;
    endSessionHash: string | null;
    session: SessionRow;
    /**
     * False while forced steps are owed: the reservation is given back but earlier failures stay
     * until the sign-in completes (so guessing MFA codes never starts from a clean count).
     */
    clearFailures?: boolean;
    /** The browser's User-Agent, kept with the session for the admin's identity page. */
    userAgent?: string | null;
  },
): Promise<PreviousAttemptRow | undefined> {
  const { attempt: a, session: s } = input;
  const ended =
    input.endSessionHash === null
      ? sql`select 1`
      : sql`delete from sessions where id_hash = ${input.endSessionHash}`;
  const result = await sql<PreviousAttemptRow>`
    with previous as (
      select attempted_at, ip_address, city_name, country_name, continent_name, is_successful
      from sign_in_attempts
      where identity_id = ${a.identityId}::uuid
      order by attempted_at desc, id desc
      limit 1
    ),
    cleared as (${
      input.clearFailures === false
        ? sql`update failed_auth_counts set count = greatest(count - 1, 0) where username_key = ${input.failureKey}`
        : sql`delete from failed_auth_counts where username_key = ${input.failureKey}`
    }),
    logged as (
      insert into sign_in_attempts
        (identity_id, username, realm_code, attempted_at, ip_address, city_name, country_name, continent_name, is_successful)
      values
        (${a.identityId}::uuid, ${a.username}, ${a.realmCode}, ${a.attemptedAt}::timestamptz, ${a.ipAddress},
         ${a.cityName}, ${a.countryName}, ${a.continentName}, true)
    ),
    ended as (${ended}),
    started as (
      insert into sessions
        (id_hash, identity_id, type, context, data, created_at, last_seen_at, expires_at, absolute_expires_at, user_agent)
      values
        (${s.idHash}, ${s.identityId}::uuid, ${s.type}, ${JSON.stringify(s.context)}::jsonb,
         ${JSON.stringify(s.data)}::jsonb, ${s.createdAt}::timestamptz, ${s.lastSeenAt}::timestamptz,
         ${s.expiresAt}::timestamptz, ${s.absoluteExpiresAt}::timestamptz, ${input.userAgent?.slice(0, 512) ?? null})
    )
    select * from previous
  `.execute(db);
  return result.rows[0];
}
