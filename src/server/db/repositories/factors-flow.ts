// Session-data writes of the factor flows. Each is one statement that merges into the stored
// JSON (never a read-modify-write of the whole document), so concurrent requests of one session
// cannot erase each other's keys or counts.
import { sql, type Kysely } from 'kysely';
import type { Database, FactorEnrolmentState, SessionData } from '../schema';

/** Shallow-merges `patch` into the session's data; false when the session is gone. */
export async function mergeSessionData(
  db: Kysely<Database>,
  idHash: string,
  patch: Partial<SessionData>,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ data: sql<string>`data || ${JSON.stringify(patch)}::jsonb` })
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export type FailureCounterName = 'factorFailures' | 'reenterPasswordFailures' | 'mergePasswordFailures';
type Counter = FailureCounterName | 'usernameChecks';

/**
 * Milliseconds after which tries in flight that were never given back no longer count: their
 * check cannot still be running (a password or code check takes well under a second), so the
 * server that held them stopped mid-check (a crash, a kill). Without this the session would
 * have lost those tries for good.
 */
export const TRY_RESERVATION_LAPSE_MS = 30_000;

/**
 * Takes `tries` of the session's remaining tries for the checks about to be made, in one
 * statement, while at least one is free: the failures counted so far and the tries in flight
 * stay under `max` when the request starts. A request that makes several checks at once (merge
 * proves every selected account) takes one per check, so it may end past `max` by at most
 * `tries - 1`, as it would alone. False when no try is free (or the session is gone). Give them
 * back with releaseSessionTry once the checks are answered.
 *
 * The tries in flight carry the time of the latest reservation (`<counter>InFlightAt`, the
 * database's clock); when that is older than TRY_RESERVATION_LAPSE_MS they are taken to be
 * abandoned and start again from none.
 */
export async function reserveSessionTry(
  db: Kysely<Database>,
  idHash: string,
  counter: FailureCounterName,
  max: number,
  tries = 1,
): Promise<boolean> {
  const inFlight = `${counter}InFlight`;
  const inFlightAt = `${counter}InFlightAt`;
  const nowMs = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
  const live = sql<number>`case
      when coalesce((data ->> ${inFlightAt})::bigint, 0) > ${nowMs} - ${TRY_RESERVATION_LAPSE_MS}
      then coalesce((data ->> ${inFlight})::int, 0) else 0 end`;
  const result = await sql<{ ok: number }>`
    update sessions
    set data = data || jsonb_build_object(${inFlight}::text, ${live} + ${tries}::int,
                                          ${inFlightAt}::text, ${nowMs})
    where id_hash = ${idHash}
      and coalesce((data ->> ${counter})::int, 0) + ${live} < ${max}
    returning 1 as ok
  `.execute(db);
  return result.rows.length === 1;
}

/** Gives back tries taken by reserveSessionTry (after the checks' failures, if any, are counted). */
export async function releaseSessionTry(
  db: Kysely<Database>,
  idHash: string,
  counter: Counter,
  tries = 1,
): Promise<void> {
  const inFlight = `${counter}InFlight`;
  const inFlightAt = `${counter}InFlightAt`;
  // The last one out removes the keys: a session with nothing in flight reads as before.
  await sql`
    update sessions
    set data = case
      when coalesce((data ->> ${inFlight})::int, 0) <= ${tries}::int
        then data - ${inFlight}::text - ${inFlightAt}::text
      else jsonb_set(data, ${`{${inFlight}}`}::text[],
                     to_jsonb((data ->> ${inFlight})::int - ${tries}::int))
    end
    where id_hash = ${idHash}
  `.execute(db);
}

/** Adds one to a counter in the session's data and answers the new value (0 when the session is gone). */
export async function incrementSessionCounter(
  db: Kysely<Database>,
  idHash: string,
  counter: Counter,
): Promise<number> {
  const result = await sql<{ value: number }>`
    update sessions
    set data = jsonb_set(data, ${`{${counter}}`}::text[],
                         to_jsonb(coalesce((data ->> ${counter})::int, 0) + 1))
    where id_hash = ${idHash}
    returning (data ->> ${counter})::int as value
  `.execute(db);
  return result.rows[0]?.value ?? 0;
}

/** Merges `patch` into the session's `enrolment` object (the factor enrolment wizard's state). */
export async function mergeEnrolmentState(
  db: Kysely<Database>,
  idHash: string,
  patch: Partial<FactorEnrolmentState>,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({
      data: sql<string>`jsonb_set(data, '{enrolment}',
        coalesce(data -> 'enrolment', '{}'::jsonb) || ${JSON.stringify(patch)}::jsonb)`,
    })
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Stores `sealed` as the session's new authenticator secret unless one is already there, and
 * answers the one stored: the setup key and the QR code, fetched in parallel, show one secret.
 */
export async function ensureEnrolmentSecret(
  db: Kysely<Database>,
  idHash: string,
  sealed: string,
): Promise<string | undefined> {
  const claimed = await sql<{ sealed: string }>`
    update sessions
    set data = jsonb_set(data, '{enrolment}',
      coalesce(data -> 'enrolment', '{}'::jsonb) || jsonb_build_object('appSecretSealed', ${sealed}::text))
    where id_hash = ${idHash} and coalesce(data -> 'enrolment' ->> 'appSecretSealed', '') = ''
    returning data -> 'enrolment' ->> 'appSecretSealed' as sealed
  `.execute(db);
  if (claimed.rows[0]) return claimed.rows[0].sealed;
  const existing = await sql<{ sealed: string | null }>`
    select data -> 'enrolment' ->> 'appSecretSealed' as sealed from sessions where id_hash = ${idHash}
  `.execute(db);
  return existing.rows[0]?.sealed ?? undefined;
}
