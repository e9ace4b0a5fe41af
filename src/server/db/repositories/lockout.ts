// The failure limit's rows (failed_auth_counts' not_before and locked_at; domain/lockout.ts says
// what they mean) and the lock and unlock entries of the identity's history.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema';
import type { SignInAttemptRecord } from './sign-in';

/**
 * What failed_auth_counts is keyed by: a keyed hash (HMAC-SHA-256 under a key derived from the
 * data key) of the normalised username as typed, never the typed text itself. People type
 * passwords into the username box; the table keeps a row for every name typed, known or not, so
 * it must not keep what was typed (domain/lockout.ts makes the key: `usernameKeyer`).
 */
export type UsernameKey = string & { readonly __usernameKey: unique symbol };

/** History event codes of the failure limit (identity_events.type). */
export const ACCOUNT_LOCKED_EVENT = 'ACCOUNT_LOCKED';
export const ACCOUNT_UNLOCKED_EVENT = 'ACCOUNT_UNLOCKED';

/**
 * How long an account's check in flight (reserveAccountTries) holds its try: after it, a try that
 * a server stopped in the middle of a check left behind no longer counts. As for a session's tries.
 */
export const ACCOUNT_TRY_LAPSE_MS = 30_000;

/** The row's checks in flight, those older than ACCOUNT_TRY_LAPSE_MS left out (database clock). */
export function liveInFlight(row: string): RawBuilder<number> {
  return sql<number>`(case
    when ${sql.ref(`${row}.in_flight_at`)} > clock_timestamp() - ${ACCOUNT_TRY_LAPSE_MS}::int * interval '1 millisecond'
    then ${sql.ref(`${row}.in_flight`)} else 0 end)`;
}

export interface FailureGateRow {
  username_key: string;
  count: number;
  /** When the last failure (or, at sign-in, the last attempt's reservation) was counted. */
  last_failed_at: Date;
  not_before: Date | null;
  locked_at: Date | null;
}

/** What one more failure does to a username's row: the wait it imposes and, maybe, the lock. */
export interface Penalty {
  /** Normalised username: the identity whose history records a lock. */
  username: string;
  /** Its row's key. */
  key: UsernameKey;
  now: Date;
  /** No attempt before this time; null: no wait. Never shortens a wait already set. */
  notBefore: Date | null;
  /** Lock now (this time); null: not (an existing lock stays). */
  lockedAt: Date | null;
  /** The history entry's text when this failure locks the account. */
  lockDescription: string;
}

export async function failureGateRows(
  db: Kysely<Database>,
  keys: readonly UsernameKey[],
): Promise<FailureGateRow[]> {
  if (keys.length === 0) return [];
  return db
    .selectFrom('failed_auth_counts')
    .select(['username_key', 'count', 'last_failed_at', 'not_before', 'locked_at'])
    .where('username_key', 'in', [...keys])
    .execute();
}

/**
 * Common table expressions `penalised` and `lock_event` of a statement that applies `p` to a row
 * that exists (the failure was counted before): the wait only grows, a lock is never lifted, and
 * the lock is written into the history of the live identity with that username, if there is one.
 * An unknown username runs the very same statement; the history insert simply finds no identity.
 *
 * `for update` in the subquery: on PostgreSQL, a failure that waits behind a concurrent one which
 * locks the account must read the lock that one committed. A plain subquery keeps the value of its
 * own snapshot (the update re-checks its target row, not the subquery's), so both failures saw
 * 'not locked before' and wrote the ACCOUNT_LOCKED entry twice. Locking the row in the subquery
 * waits for that commit and reads the row as it then is.
 */
export function penaltyCtes(p: Penalty): RawBuilder<unknown> {
  return sql`
    penalised as (
      update failed_auth_counts f
      set not_before = greatest(f.not_before, ${p.notBefore}::timestamptz),
          locked_at = coalesce(f.locked_at, ${p.lockedAt}::timestamptz)
      from (
        select username_key, locked_at as old_locked_at from failed_auth_counts where username_key = ${p.key}
        for update
      ) o
      where f.username_key = o.username_key
      returning (o.old_locked_at is null and f.locked_at is not null) as newly_locked
    ),
    lock_event as (
      insert into identity_events (identity_id, event_date, type, variant, description)
      select i.id, ${p.now}::timestamptz, ${ACCOUNT_LOCKED_EVENT}, 'danger', ${p.lockDescription}
      from penalised
      join identities i on lower(i.username) = ${p.username} and i.retired_at is null
      where penalised.newly_locked
      returning identity_id
    )`;
}

/**
 * Takes one try of each key's account for a check about to run, in one statement: none for a
 * locked account, one that waits (not_before), or one whose failures and checks in flight
 * already reach the lock (`lockAfter`; 0: no lock). Answers the keys that got their try; a key
 * without a row gets one (count 0).
 */
export async function reserveAccountTries(
  db: Kysely<Database>,
  keys: readonly UsernameKey[],
  now: Date,
  lockAfter: number,
): Promise<UsernameKey[]> {
  const result = await sql<{ username_key: UsernameKey }>`
    insert into failed_auth_counts as f (username_key, count, last_failed_at, in_flight, in_flight_at)
    select k, 0, ${now}::timestamptz, 1, clock_timestamp() from unnest(${[...keys]}::text[]) as k
    on conflict (username_key) do update
      set in_flight = ${liveInFlight('f')} + 1, in_flight_at = clock_timestamp()
      where f.locked_at is null
        and (f.not_before is null or f.not_before <= ${now}::timestamptz)
        and (${lockAfter}::int = 0 or f.count + ${liveInFlight('f')} < ${lockAfter}::int)
    returning username_key
  `.execute(db);
  return result.rows.map((r) => r.username_key);
}

/**
 * Gives back the tries reserveAccountTries took (after the check's failure, if any, is counted);
 * a row left with nothing to remember (no failure, wait, lock or check in flight) goes.
 */
export async function releaseAccountTries(db: Kysely<Database>, keys: readonly UsernameKey[]): Promise<void> {
  await sql`
    update failed_auth_counts set in_flight = greatest(in_flight - 1, 0)
    where username_key = any(${[...keys]}::text[])
  `.execute(db);
  await sql`
    delete from failed_auth_counts
    where username_key = any(${[...keys]}::text[])
      and count = 0 and in_flight = 0 and locked_at is null and not_before is null
  `.execute(db);
}

/** One more failure for the username; answers the count including it. */
export async function incrementFailedCount(
  db: Kysely<Database>,
  key: UsernameKey,
  now: Date,
): Promise<number> {
  const result = await sql<{ count: number }>`
    insert into failed_auth_counts (username_key, count, last_failed_at)
    values (${key}, 1, ${now}::timestamptz)
    on conflict (username_key) do update
      set count = failed_auth_counts.count + 1, last_failed_at = excluded.last_failed_at
    returning count
  `.execute(db);
  return result.rows[0]?.count ?? 1;
}

/**
 * Applies a counted failure's penalty; answers whether it locked the account just now, and the
 * identity whose history says so (null: the username names none).
 */
export async function applyPenalty(
  db: Kysely<Database>,
  p: Penalty,
): Promise<{ newlyLocked: boolean; identityId: string | null }> {
  const result = await sql<{ newly_locked: boolean; identity_id: string | null }>`
    with ${penaltyCtes(p)}
    select newly_locked, (select identity_id from lock_event limit 1) as identity_id from penalised
  `.execute(db);
  const row = result.rows[0];
  return { newlyLocked: row?.newly_locked ?? false, identityId: row?.identity_id ?? null };
}

/**
 * A wrong password at sign-in, in one statement: logs the attempt and applies the penalty of the
 * failure its reservation counted (the count was raised when the attempt opened). The attempt of
 * a username that names no identity is logged under the username's key (`attempt.username`).
 * Answers whether this failure locked the account (not one that a concurrent failure locked).
 */
export async function recordFailedSignIn(
  db: Kysely<Database>,
  attempt: SignInAttemptRecord,
  penalty: Penalty,
): Promise<{ newlyLocked: boolean }> {
  const a = attempt;
  const result = await sql<{ newly_locked: boolean | null }>`
    with logged as (
      insert into sign_in_attempts
        (identity_id, username, realm_code, attempted_at, ip_address, city_name, country_name, continent_name, is_successful)
      values
        (${a.identityId}::uuid, ${a.username}, ${a.realmCode}, ${a.attemptedAt}::timestamptz, ${a.ipAddress},
         ${a.cityName}, ${a.countryName}, ${a.continentName}, false)
    ),
    ${penaltyCtes(penalty)}
    select (select bool_or(newly_locked) from penalised) as newly_locked
  `.execute(db);
  return { newlyLocked: result.rows[0]?.newly_locked === true };
}

/** Forgets the username's failures after a success, unless it is locked (only unlock lifts that). */
export async function clearUnlockedFailures(db: Kysely<Database>, key: UsernameKey): Promise<void> {
  await db
    .deleteFrom('failed_auth_counts')
    .where('username_key', '=', key)
    .where('locked_at', 'is', null)
    .execute();
}

/**
 * Support's unlock: forgets the username's failures, waits and lock, and when it was locked and
 * belongs to an identity, writes that into its history. Answers whether there was a lock.
 */
export async function unlockUsername(
  db: Kysely<Database>,
  input: {
    key: UsernameKey;
    identityId: string | null;
    now: Date;
    actorIdentityId: string | null;
    description: string;
  },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('failed_auth_counts')
      .where('username_key', '=', input.key)
      .returning(['locked_at'])
      .executeTakeFirst();
    const wasLocked = removed?.locked_at != null;
    if (wasLocked && input.identityId) {
      await trx
        .insertInto('identity_events')
        .values({
          identity_id: input.identityId,
          event_date: input.now,
          actor_identity_id: input.actorIdentityId,
          actor_app_code: null,
          type: ACCOUNT_UNLOCKED_EVENT,
          variant: 'success',
          description: input.description,
          ticket_code: null,
          ticket_url: null,
        })
        .execute();
    }
    return wasLocked;
  });
}

/** The live identity with this (normalised) username. */
export async function identityByUsername(
  db: Kysely<Database>,
  username: string,
): Promise<{ id: string; username: string } | undefined> {
  return db
    .selectFrom('identities')
    .select(['id', 'username'])
    .where(sql<string>`lower(username)`, '=', username)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
}

/** Unlocked failure counts idle this long are forgotten: failures count "in a row" within it. */
export const FAILURES_FORGOTTEN_AFTER_MS = 30 * 24 * 3600_000;
/** Sign-in attempts of usernames that match no identity are kept this long, for the audit. */
export const UNKNOWN_ATTEMPTS_KEPT_MS = 90 * 24 * 3600_000;
/**
 * An identity's own sign-in attempts are kept this long (13 months: a year of history plus a
 * month's slack for a yearly review), except its latest, which the next sign-in answers as the
 * previous attempt however old it is.
 */
export const KNOWN_ATTEMPTS_KEPT_MS = 396 * 24 * 3600_000;
/** Rows one delete statement of the sweep removes at most: short statements, short row locks. */
export const SWEEP_BATCH_ROWS = 5_000;

/**
 * Deletes the rows of `table` (aliased `a` in `where`) that `where` selects, SWEEP_BATCH_ROWS per
 * statement until a batch comes back short; answers how many went.
 */
async function deleteInBatches(
  db: Kysely<Database>,
  table: 'failed_auth_counts' | 'sign_in_attempts',
  key: 'username_key' | 'id',
  where: RawBuilder<unknown>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await sql`
      delete from ${sql.table(table)} where ${sql.ref(key)} in (
        select a.${sql.ref(key)} from ${sql.table(table)} a where ${where} limit ${SWEEP_BATCH_ROWS}
      )
    `.execute(db);
    const removed = Number(result.numAffectedRows ?? 0);
    total += removed;
    if (removed < SWEEP_BATCH_ROWS) return total;
  }
}

/**
 * The periodic sweep of the failure limit's rows and of the attempt log, so that no table grows
 * without bound, in batches of SWEEP_BATCH_ROWS (the first sweep of a big backlog is many short
 * statements, not one that holds its locks for minutes):
 * - unlocked counts idle for FAILURES_FORGOTTEN_AFTER_MS (a lock stays until support lifts it);
 * - attempts of unknown usernames older than UNKNOWN_ATTEMPTS_KEPT_MS;
 * - an identity's attempts older than `knownKeptMs`, but never its latest.
 */
export async function sweepFailureRecords(
  db: Kysely<Database>,
  now: Date,
  knownKeptMs: number = KNOWN_ATTEMPTS_KEPT_MS,
): Promise<{ counts: number; unknownAttempts: number; knownAttempts: number }> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const counts = await deleteInBatches(
    db,
    'failed_auth_counts',
    'username_key',
    sql`a.locked_at is null and a.last_failed_at < ${before(FAILURES_FORGOTTEN_AFTER_MS)}::timestamptz`,
  );
  const unknownAttempts = await deleteInBatches(
    db,
    'sign_in_attempts',
    'id',
    sql`a.identity_id is null and a.attempted_at < ${before(UNKNOWN_ATTEMPTS_KEPT_MS)}::timestamptz`,
  );
  const knownAttempts = await deleteInBatches(
    db,
    'sign_in_attempts',
    'id',
    sql`a.identity_id is not null and a.attempted_at < ${before(knownKeptMs)}::timestamptz
      and a.id <> (
        select l.id from sign_in_attempts l
        where l.identity_id = a.identity_id
        order by l.attempted_at desc, l.id desc
        limit 1
      )`,
  );
  return { counts, unknownAttempts, knownAttempts };
}
