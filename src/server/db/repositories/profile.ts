// Profile self-service statements: the pending change of a session (a new email, mobile or
// authenticator secret waiting for its code), the identity's editable fields, and the JWT
// 'valid after' time that sign out of all devices moves forward.
import type { Kysely } from 'kysely';
import type { Database, IdentityUpdate, ProfilePendingKind } from '../schema';

export interface PendingChange {
  value: string;
  enrolSms: boolean;
}

/** Starts (or restarts) the session's pending change of `kind`. */
export async function putPendingChange(
  db: Kysely<Database>,
  input: {
    sessionIdHash: string;
    identityId: string;
    kind: ProfilePendingKind;
    value: string;
    enrolSms?: boolean;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('profile_pending_changes')
    .values({
      session_id_hash: input.sessionIdHash,
      identity_id: input.identityId,
      kind: input.kind,
      value: input.value,
      enrol_sms: input.enrolSms ?? false,
      created_at: input.now,
    })
    .onConflict((oc) =>
      oc.columns(['session_id_hash', 'kind']).doUpdateSet({
        identity_id: input.identityId,
        value: input.value,
        enrol_sms: input.enrolSms ?? false,
        created_at: input.now,
      }),
    )
    .execute();
}

/**
 * Stores `value` as the session's pending change of `kind` unless one is already there, and answers
 * the stored one: the setup key and QR code, fetched in parallel, show one secret.
 */
export async function ensurePendingChange(
  db: Kysely<Database>,
  input: { sessionIdHash: string; identityId: string; kind: ProfilePendingKind; value: string; now: Date },
): Promise<string> {
  await db
    .insertInto('profile_pending_changes')
    .values({
      session_id_hash: input.sessionIdHash,
      identity_id: input.identityId,
      kind: input.kind,
      value: input.value,
      created_at: input.now,
    })
    .onConflict((oc) => oc.columns(['session_id_hash', 'kind']).doNothing())
    .execute();
  const row = await pendingChange(db, input.sessionIdHash, input.identityId, input.kind);
  if (!row) throw new Error('The pending change vanished while it was being stored');
  return row.value;
}

export async function pendingChange(
  db: Kysely<Database>,
  sessionIdHash: string,
  identityId: string,
  kind: ProfilePendingKind,
): Promise<PendingChange | undefined> {
  const row = await db
    .selectFrom('profile_pending_changes')
    .select(['value', 'enrol_sms'])
    .where('session_id_hash', '=', sessionIdHash)
    .where('identity_id', '=', identityId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row ? { value: row.value, enrolSms: row.enrol_sms } : undefined;
}

export async function deletePendingChange(
  db: Kysely<Database>,
  sessionIdHash: string,
  kind: ProfilePendingKind,
): Promise<boolean> {
  const result = await db
    .deleteFrom('profile_pending_changes')
    .where('session_id_hash', '=', sessionIdHash)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function updateIdentity(
  db: Kysely<Database>,
  identityId: string,
  patch: IdentityUpdate & { updated_at: Date },
): Promise<void> {
  await db.updateTable('identities').set(patch).where('id', '=', identityId).execute();
}

export async function setJwtValidAfter(db: Kysely<Database>, identityId: string, at: Date): Promise<void> {
  await db.updateTable('identities').set({ jwt_valid_after: at }).where('id', '=', identityId).execute();
}

/** The identity's JWT 'valid after' time; undefined when there is no such identity. */
export async function jwtValidAfterOf(
  db: Kysely<Database>,
  identityId: string,
): Promise<{ validAfter: Date | null } | undefined> {
  const row = await db
    .selectFrom('identities')
    .select('jwt_valid_after')
    .where('id', '=', identityId)
    .executeTakeFirst();
  return row ? { validAfter: row.jwt_valid_after } : undefined;
}

/** Ends every session of the identity (the caller's transaction). */
export async function endSessionsOf(db: Kysely<Database>, identityId: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('identity_id', '=', identityId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
