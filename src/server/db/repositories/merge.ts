// Queries and statements of the merge wizard (domain/merge). The merge itself runs in one
// transaction: `lockIdentities` first (every identity concerned, `for update`, in id order, so two
// merges over the same accounts queue behind each other instead of deadlocking), then the moves.
import { sql, type Kysely } from 'kysely';
import type { Database, Identity, MergeWizardState } from '../schema';

/** Other live identities of the realm whose email equals the identity's, case-insensitively. */
export async function identitiesSharingEmail(db: Kysely<Database>, identity: Identity): Promise<Identity[]> {
  if (!identity.email) return [];
  return db
    .selectFrom('identities')
    .selectAll()
    .where(sql<boolean>`lower(email) = lower(${identity.email})`)
    .where('realm_code', '=', identity.realm_code)
    .where('retired_at', 'is', null)
    .where('id', '!=', identity.id)
    .orderBy('username')
    .execute();
}

export async function hasIdentitySharingEmail(db: Kysely<Database>, identity: Identity): Promise<boolean> {
  if (!identity.email) return false;
  const row = await db
    .selectFrom('identities')
    .select('id')
    .where(sql<boolean>`lower(email) = lower(${identity.email})`)
    .where('realm_code', '=', identity.realm_code)
    .where('retired_at', 'is', null)
    .where('id', '!=', identity.id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a live identity of the realm other than `except` uses `email` (case-insensitively). */
export async function emailUsedByOthers(
  db: Kysely<Database>,
  input: { email: string; realmCode: string; except: readonly string[] },
): Promise<boolean> {
  let query = db
    .selectFrom('identities')
    .select('id')
    .where(sql<boolean>`lower(email) = lower(${input.email})`)
    .where('realm_code', '=', input.realmCode)
    .where('retired_at', 'is', null);
  if (input.except.length > 0) query = query.where('id', 'not in', [...input.except]);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

export async function liveIdentitiesByIds(db: Kysely<Database>, ids: readonly string[]): Promise<Identity[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('identities')
    .selectAll()
    .where('id', 'in', [...ids])
    .where('retired_at', 'is', null)
    .orderBy('id')
    .execute();
}

export interface PasswordHashRow {
  identity_id: string;
  password_hash: string;
}

/** Each identity's password hash, and when it was set (a change since selection ends the proof). */
export async function passwordHashesOf(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, { hash: string; changedAt: Date }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('credentials')
    .select(['identity_id', 'password_hash', 'changed_at'])
    .where('identity_id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.identity_id, { hash: r.password_hash, changedAt: r.changed_at }]));
}

export interface GrantedFacilityRow {
  id: string;
  code: string;
  name: string;
  app_name: string;
}

/** The facilities any of the identities is granted, each once, by app then facility code. */
export async function grantedFacilities(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<GrantedFacilityRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('access_grants as g')
    .innerJoin('facilities as f', 'f.id', 'g.facility_id')
    .innerJoin('apps as a', 'a.code', 'g.app_code')
    .select(['f.id', 'f.code', 'f.name', 'a.name as app_name'])
    .distinct()
    .where('g.identity_id', 'in', [...ids])
    .orderBy('a.name')
    .orderBy('f.code')
    .execute();
}

/** Replaces the session's merge wizard state (one statement; other session keys untouched). */
export async function putMergeState(
  db: Kysely<Database>,
  idHash: string,
  state: MergeWizardState,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ data: sql<string>`jsonb_set(data, '{merge}', ${JSON.stringify(state)}::jsonb)` })
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** One more wrong password of another account in this session; answers the new count. */
export async function countMergePasswordFailures(
  db: Kysely<Database>,
  idHash: string,
  by: number,
): Promise<number> {
  const result = await sql<{ value: number }>`
    update sessions
    set data = jsonb_set(data, '{mergePasswordFailures}',
                         to_jsonb(coalesce((data ->> 'mergePasswordFailures')::int, 0) + ${by}::int))
    where id_hash = ${idHash}
    returning (data ->> 'mergePasswordFailures')::int as value
  `.execute(db);
  return result.rows[0]?.value ?? 0;
}

// ---- Statements of the merge transaction ---------------------------------------------------------

/** Locks the identities in id order and answers them (retired ones included, so the caller can tell). */
export async function lockIdentities(trx: Kysely<Database>, ids: readonly string[]): Promise<Identity[]> {
  return trx
    .selectFrom('identities')
    .selectAll()
    .where('id', 'in', [...ids])
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Copies the others' grants to the survivor (a grant it already has counts once), then drops theirs. */
export async function moveAccessGrants(
  trx: Kysely<Database>,
  survivorId: string,
  otherIds: readonly string[],
): Promise<void> {
  await sql`
    insert into access_grants (id, identity_id, app_code, facility_id, created_at)
    select gen_random_uuid(), ${survivorId}::uuid, g.app_code, g.facility_id, min(g.created_at)
    from access_grants g
    where g.identity_id = any(${[...otherIds]}::uuid[])
    group by g.app_code, g.facility_id
    on conflict do nothing
  `.execute(trx);
  await trx
    .deleteFrom('access_grants')
    .where('identity_id', 'in', [...otherIds])
    .execute();
}

export async function moveRoles(
  trx: Kysely<Database>,
  survivorId: string,
  otherIds: readonly string[],
): Promise<void> {
  await sql`
    insert into identity_roles (identity_id, role_code)
    select distinct ${survivorId}::uuid, r.role_code
    from identity_roles r
    where r.identity_id = any(${[...otherIds]}::uuid[])
    on conflict do nothing
  `.execute(trx);
  await trx
    .deleteFrom('identity_roles')
    .where('identity_id', 'in', [...otherIds])
    .execute();
}

/**
 * Removes the others' second factors: authenticator apps, SMS and email factors, and security
 * answers. None of them moves to the survivor, which keeps exactly its own: a merge is proven by
 * the others' passwords alone, and a factor moved in would let whoever proved only a password
 * pass the survivor's second factor with their own phone or app (their trusted devices go with
 * revokeAccess).
 */
export async function removeSecondFactors(trx: Kysely<Database>, otherIds: readonly string[]): Promise<void> {
  await trx
    .deleteFrom('identity_factors')
    .where('identity_id', 'in', [...otherIds])
    .execute();
  await trx
    .deleteFrom('security_answers')
    .where('identity_id', 'in', [...otherIds])
    .execute();
}

export interface PendingAccessRequestRow {
  id: string;
  code: string;
  app_code: string;
  app_name: string;
  facility_id: string | null;
  facility_name: string | null;
  requester_identity_id: string;
}

/**
 * The PENDING access requests of the identities, oldest first, locked (`for update`): which of the
 * others' move to the survivor and which are closed (domain/access-requests's
 * movePendingAccessRequests). The identities are locked already, so no request of theirs is filed
 * or decided meanwhile (both lock the requester first).
 */
export async function pendingAccessRequestsOf(
  trx: Kysely<Database>,
  ids: readonly string[],
): Promise<PendingAccessRequestRow[]> {
  return trx
    .selectFrom('access_requests as r')
    .innerJoin('apps as a', 'a.code', 'r.app_code')
    .leftJoin('facilities as f', 'f.id', 'r.facility_id')
    .select([
      'r.id',
      'r.code',
      'r.app_code',
      'a.name as app_name',
      'r.facility_id',
      'f.name as facility_name',
      'r.requester_identity_id',
    ])
    .where('r.requester_identity_id', 'in', [...ids])
    .where('r.status', '=', 'PENDING')
    .orderBy('r.created_at')
    .orderBy('r.id')
    .forUpdate('r')
    .execute();
}

/** A pending request becomes the survivor's (its app and facility open for the survivor alone). */
export async function moveAccessRequest(
  trx: Kysely<Database>,
  accessRequestId: string,
  survivorId: string,
): Promise<void> {
  await trx
    .updateTable('access_requests')
    .set({ requester_identity_id: survivorId })
    .where('id', '=', accessRequestId)
    .where('status', '=', 'PENDING')
    .execute();
}

/** The others' history becomes the survivor's. */
export async function moveHistory(
  trx: Kysely<Database>,
  survivorId: string,
  otherIds: readonly string[],
): Promise<void> {
  await trx
    .updateTable('identity_events')
    .set({ identity_id: survivorId })
    .where('identity_id', 'in', [...otherIds])
    .execute();
}

/** Ends what let the others in: their trusted devices, sessions (but this one) and passwords. */
export async function revokeAccess(
  trx: Kysely<Database>,
  otherIds: readonly string[],
  keepSessionIdHash: string,
): Promise<void> {
  await trx
    .deleteFrom('trusted_devices')
    .where('identity_id', 'in', [...otherIds])
    .execute();
  await trx
    .deleteFrom('sessions')
    .where('identity_id', 'in', [...otherIds])
    .where('id_hash', '!=', keepSessionIdHash)
    .execute();
  await trx
    .deleteFrom('credentials')
    .where('identity_id', 'in', [...otherIds])
    .execute();
}

/**
 * Retires the others. Their handed-off JWTs stop counting too: /jwt/valid-after answers
 * tokenValid false for every token issued before now.
 */
export async function retireIdentities(
  trx: Kysely<Database>,
  otherIds: readonly string[],
  now: Date,
): Promise<void> {
  await trx
    .updateTable('identities')
    .set({ retired_at: now, updated_at: now, jwt_valid_after: now })
    .where('id', 'in', [...otherIds])
    .execute();
}

/**
 * Moves the session to the survivor and stores the finished wizard in it, with the forced steps
 * the sign-in has passed as the survivor (`passed`: see MergeService.confirm). When the survivor is
 * another identity than the session's (`identityChanged`), what the session holds of the signed-in
 * identity's second factor goes too: its MFA and factor-enrolment progress, and every one-time code
 * it was sent (voided as codes.ts's voidCode does). A code sent to the retired account's phone or
 * address must not pass the survivor's MFA.
 */
export async function finishMergeSession(
  trx: Kysely<Database>,
  idHash: string,
  survivorId: string,
  state: MergeWizardState,
  passed: readonly string[],
  identityChanged: boolean,
): Promise<void> {
  const data = sql<string>`jsonb_set(jsonb_set(data, '{merge}', ${JSON.stringify(state)}::jsonb), '{passed}', ${JSON.stringify(passed)}::jsonb)`;
  await trx
    .updateTable('sessions')
    .set({
      identity_id: survivorId,
      data: identityChanged ? sql<string>`${data} - 'mfa' - 'enrolment'` : data,
    })
    .where('id_hash', '=', idHash)
    .execute();
  if (identityChanged) {
    await trx
      .updateTable('one_time_codes')
      .set({ expires_at: new Date(0), last_sent_at: new Date(0) })
      .where('session_id_hash', '=', idHash)
      .execute();
  }
}
