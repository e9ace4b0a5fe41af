// The registration wizard's writes: its state in the anonymous session (each write one statement
// that merges into the stored JSON, so concurrent requests of one session cannot erase each
// other's keys), and the rows a submission creates.
import { sql, type Kysely } from 'kysely';
import type { Database, RegistrationState } from '../schema';

/** Starts the session's registration afresh with the invitation (anything collected before goes). */
export async function holdInvitation(
  db: Kysely<Database>,
  idHash: string,
  invitationId: string,
): Promise<boolean> {
  const state: RegistrationState = { invitationId };
  const result = await db
    .updateTable('sessions')
    .set({ data: sql<string>`jsonb_set(data, '{registration}', ${JSON.stringify(state)}::jsonb)` })
    .where('id_hash', '=', idHash)
    .where('type', '=', 'ANONYMOUS')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Merges `patch` into the session's registration state, only while it holds `invitationId`. */
export async function mergeRegistrationState(
  db: Kysely<Database>,
  idHash: string,
  invitationId: string,
  patch: Partial<Omit<RegistrationState, 'invitationId'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({
      data: sql<string>`jsonb_set(data, '{registration}', (data -> 'registration') || ${JSON.stringify(patch)}::jsonb)`,
    })
    .where('id_hash', '=', idHash)
    .where(sql<boolean>`data -> 'registration' ->> 'invitationId' = ${invitationId}`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Stores `sealed` as the registration's authenticator secret unless one is there, and answers the
 * stored one: the setup key and QR code, fetched in parallel, show one secret.
 */
export async function ensureRegistrationSecret(
  db: Kysely<Database>,
  idHash: string,
  invitationId: string,
  sealed: string,
): Promise<string | undefined> {
  const claimed = await sql<{ sealed: string }>`
    update sessions
    set data = jsonb_set(data, '{registration}',
      (data -> 'registration') || jsonb_build_object('appSecretSealed', ${sealed}::text))
    where id_hash = ${idHash}
      and data -> 'registration' ->> 'invitationId' = ${invitationId}
      and coalesce(data -> 'registration' ->> 'appSecretSealed', '') = ''
    returning data -> 'registration' ->> 'appSecretSealed' as sealed
  `.execute(db);
  if (claimed.rows[0]) return claimed.rows[0].sealed;
  const existing = await sql<{ sealed: string | null }>`
    select data -> 'registration' ->> 'appSecretSealed' as sealed from sessions
    where id_hash = ${idHash} and data -> 'registration' ->> 'invitationId' = ${invitationId}
  `.execute(db);
  return existing.rows[0]?.sealed ?? undefined;
}

export async function usernameTaken(db: Kysely<Database>, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('identities')
    .select('id')
    .where(sql<string>`lower(username)`, '=', username.trim().toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** Adds the grant unless the identity already has it (a facility given twice is given once). */
export async function grantAccess(
  db: Kysely<Database>,
  grant: { id: string; identityId: string; appCode: string; facilityId: string | null; now: Date },
): Promise<boolean> {
  const result = await sql`
    insert into access_grants (id, identity_id, app_code, facility_id, created_at)
    values (${grant.id}::uuid, ${grant.identityId}::uuid, ${grant.appCode}, ${grant.facilityId}::uuid,
            ${grant.now}::timestamptz)
    on conflict do nothing
  `.execute(db);
  return Number(result.numAffectedRows ?? 0) === 1;
}

/** Whether the error is PostgreSQL's unique violation (SQLSTATE 23505) on `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown };
  if (e.code !== '23505') return false;
  return e.constraint === constraint || (typeof e.message === 'string' && e.message.includes(constraint));
}
