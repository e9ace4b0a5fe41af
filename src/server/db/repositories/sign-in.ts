// Failed-attempt counters, the sign-in attempt log, and the two statements of a password sign-in.
//
// A sign-in runs exactly two statements around the argon2id verification: `openSignInAttempt`
// (realm, counter reservation, identity, roles) and either `completeSignIn` (success: previous
// attempt, counter reset, attempt logged, old session ended, new session started) or
// `recordSignInAttempt` (failure). Each is a single statement, hence its own transaction: on the
// embedded PGlite every statement costs a fixed ~0.3 ms of the one event-loop thread that also
// serves HTTP, and that is what the bench:login budget measures.
import { sql, type Kysely } from 'kysely';
import type { Database, Identity } from '../schema';
import type { SessionRow } from './sessions';

/** Takes back one increment (never below zero). */
export async function decrementFailedCount(db: Kysely<Database>, username: string): Promise<void> {
  await db
    .updateTable('failed_auth_counts')
    .set({ count: sql<number>`greatest(failed_auth_counts.count - 1, 0)` })
    .where('username', '=', username)
    .execute();
}

export async function failedCount(db: Kysely<Database>, username: string): Promise<number> {
  const row = await db
    .selectFrom('failed_auth_counts')
    .select('count')
    .where('username', '=', username)
    .executeTakeFirst();
  return row?.count ?? 0;
}

export interface SignInAttemptRecord {
  identityId: string | null;
  username: string;
  realmCode: string;
  attemptedAt: Date;
  ipAddress: string | null;
  cityName: string | null;
  countryName: string | null;
  continentName: string | null;
  isSuccessful: boolean;
}

export async function recordSignInAttempt(db: Kysely<Database>, attempt: SignInAttemptRecord): Promise<void> {
  await db
    .insertInto('sign_in_attempts')
    .values({
      identity_id: attempt.identityId,
      username: attempt.username,
      realm_code: attempt.realmCode,
      attempted_at: attempt.attemptedAt,
      ip_address: attempt.ipAddress,
      city_name: attempt.cityName,
      country_name: attempt.countryName,
      continent_name: attempt.continentName,
      is_successful: attempt.isSuccessful,
    })
    .execute();
}

export interface OpenedSignInAttempt {
  realmCode: string;
  authEnabled: boolean;
  /** The failed count including this attempt's reservation; null when sign-in is disabled. */
  reservedCount: number | null;
  identity: Identity | null;
  passwordHash: string | null;
  roles: string[];
}

// The identity's columns come with `i.*`; ours are prefixed so none can collide with them.
type OpenedRow = {
  signin_realm_code: string;
  signin_auth_enabled: boolean;
  signin_reserved_count: number | null;
  signin_password_hash: string | null;
  signin_roles: string[];
} & { [K in keyof Identity]: Identity[K] | null };

/**
 * One statement: finds the realm (the default one when `realmCode` is null); if it allows sign-in,
 * reserves one failed attempt for the username (UPSERT count + 1); and looks the username up in
 * it, with password hash and roles. Undefined when the realm does not exist.
 */
export async function openSignInAttempt(
  db: Kysely<Database>,
  input: { realmCode: string | null; username: string; now: Date },
): Promise<OpenedSignInAttempt | undefined> {
  const realmFilter = input.realmCode === null ? sql`is_default` : sql`code = ${input.realmCode}`;
  const result = await sql<OpenedRow>`
    with realm as (
      select code, auth_enabled from realms where ${realmFilter}
    ),
    reserved as (
      insert into failed_auth_counts (username, count, last_failed_at)
      select ${input.username}::text, 1, ${input.now}::timestamptz from realm where realm.auth_enabled
      on conflict (username) do update
        set count = failed_auth_counts.count + 1, last_failed_at = excluded.last_failed_at
      returning count
    )
    select
      realm.code as signin_realm_code,
      realm.auth_enabled as signin_auth_enabled,
      (select count from reserved) as signin_reserved_count,
      c.password_hash as signin_password_hash,
      array(select r.role_code from identity_roles r where r.identity_id = i.id order by r.role_code)
        as signin_roles,
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
    signin_password_hash,
    signin_roles,
    ...identity
  } = row;
  return {
    realmCode: signin_realm_code,
    authEnabled: signin_auth_enabled,
    reservedCount: signin_reserved_count,
    identity: identity.id === null ? null : (identity as Identity),
    passwordHash: signin_password_hash,
    roles: signin_roles ?? [],
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
    endSessionHash: string | null;
    session: SessionRow;
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
    cleared as (
      delete from failed_auth_counts where username = ${a.username}
    ),
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
        (id_hash, identity_id, type, context, data, created_at, last_seen_at, expires_at, absolute_expires_at)
      values
        (${s.idHash}, ${s.identityId}::uuid, ${s.type}, ${JSON.stringify(s.context)}::jsonb,
         ${JSON.stringify(s.data)}::jsonb, ${s.createdAt}::timestamptz, ${s.lastSeenAt}::timestamptz,
         ${s.expiresAt}::timestamptz, ${s.absoluteExpiresAt}::timestamptz)
    )
    select * from previous
  `.execute(db);
  return result.rows[0];
}
