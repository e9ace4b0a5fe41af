// Password reset: the identities an email belongs to, and the reset progress held in the
// anonymous session's data. Every progress write names the reset's flowId, so a request of an
// earlier reset in the same session (one the visitor restarted) can never change the new one.
import { sql, type Kysely } from 'kysely';
import type { Database, FactorKind, Identity, PasswordResetState, ResetAnswerProof } from '../schema';

/**
 * The live identities of the realm whose email is `email` (case-insensitive), by username: only the id and the address on
 * record, which is all a reset's start needs (a known email must cost the answer no more than an
 * unknown one: bench/enumeration).
 */
export async function identitiesByEmail(
  db: Kysely<Database>,
  realmCode: string,
  email: string,
): Promise<Pick<Identity, 'id' | 'email'>[]> {
  return db
    .selectFrom('identities')
    .select(['id', 'email'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('realm_code', '=', realmCode)
    .where('retired_at', 'is', null)
    .orderBy('username')
    .execute();
}

export async function identitiesByIds(db: Kysely<Database>, ids: readonly string[]): Promise<Identity[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('identities')
    .selectAll()
    .where('id', 'in', ids)
    .where('retired_at', 'is', null)
    .orderBy('username')
    .execute();
}

/** Starts (or restarts) the session's reset: the earlier one, if any, is replaced whole. */
export async function putResetState(
  db: Kysely<Database>,
  idHash: string,
  state: PasswordResetState,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ data: sql<string>`data || jsonb_build_object('passwordReset', ${JSON.stringify(state)}::jsonb)` })
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Merges `patch` into the reset `flowId`; false when that reset is no longer the session's. With
 * `forIdentity`, also false when the reset has moved on to another account since (select-user):
 * a proof is written only for the account it was checked against.
 */
export async function patchResetState(
  db: Kysely<Database>,
  idHash: string,
  flowId: string,
  patch: Partial<Omit<PasswordResetState, 'flowId'>>,
  forIdentity?: string,
): Promise<boolean> {
  let update = db
    .updateTable('sessions')
    .set({
      data: sql<string>`jsonb_set(data, '{passwordReset}', (data -> 'passwordReset') || ${JSON.stringify(patch)}::jsonb)`,
    })
    .where('id_hash', '=', idHash)
    .where(sql<string>`data -> 'passwordReset' ->> 'flowId'`, '=', flowId);
  if (forIdentity !== undefined)
    update = update.where(sql<string>`data -> 'passwordReset' ->> 'identityId'`, '=', forIdentity);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Adds a correctly answered question (and what it matched) to the reset, in one statement (two
 * answers sent at once both count), only while the reset is still about `identityId`, the account
 * whose answer was checked. Clears nothing else.
 */
export async function addAnsweredQuestion(
  db: Kysely<Database>,
  idHash: string,
  flowId: string,
  identityId: string,
  questionCode: string,
  proof: ResetAnswerProof,
): Promise<boolean> {
  const result = await sql<{ ok: number }>`
    update sessions
    set data = jsonb_set(data, '{passwordReset,answers}',
      coalesce(data -> 'passwordReset' -> 'answers', '{}'::jsonb)
        || jsonb_build_object(${questionCode}::text, ${JSON.stringify(proof)}::jsonb))
    where id_hash = ${idHash} and data -> 'passwordReset' ->> 'flowId' = ${flowId}
      and data -> 'passwordReset' ->> 'identityId' = ${identityId}
    returning 1 as ok
  `.execute(db);
  return result.rows.length === 1;
}

/**
 * Takes the reset `flowId` out of the session and answers it, in one statement: of concurrent
 * submissions exactly one gets it. Run in the transaction that sets the password, so a failed
 * change gives it back.
 */
export async function claimResetState(
  db: Kysely<Database>,
  idHash: string,
  flowId: string,
): Promise<PasswordResetState | undefined> {
  const result = await sql<{ state: PasswordResetState }>`
    update sessions s
    set data = s.data - 'passwordReset'
    from (select id_hash, data -> 'passwordReset' as state from sessions where id_hash = ${idHash} for update) old
    where s.id_hash = old.id_hash and old.state ->> 'flowId' = ${flowId}
    returning old.state as state
  `.execute(db);
  return result.rows[0]?.state;
}

/** Forgets the session's reset (a restart that found nothing to keep, or the end of one). */
export async function clearResetState(db: Kysely<Database>, idHash: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ data: sql<string>`data - 'passwordReset'` })
    .where('id_hash', '=', idHash)
    .execute();
}

/** The identities' credentials.changed_at (absent: no password), for the email code's proof. */
export async function passwordsChangedAt(
  db: Kysely<Database>,
  identityIds: readonly string[],
): Promise<Map<string, Date>> {
  if (identityIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('credentials')
    .select(['identity_id', 'changed_at'])
    .where('identity_id', 'in', identityIds)
    .execute();
  return new Map(rows.map((r) => [r.identity_id, r.changed_at]));
}

export interface ResetFactorRow {
  id: string;
  factor_type: FactorKind;
  mobile: string | null;
  enrolled_at: Date;
}

export interface ResetAnswerRow {
  question_code: string;
  set_at: Date;
}

/** The identity's factors, as a reset's app and SMS proofs are checked against them. */
export async function resetFactorsOf(db: Kysely<Database>, identityId: string): Promise<ResetFactorRow[]> {
  return db
    .selectFrom('identity_factors')
    .select(['id', 'factor_type', 'mobile', 'enrolled_at'])
    .where('identity_id', '=', identityId)
    .execute();
}

/** The identity's security questions and when their answers were set, by position. */
export async function resetAnswersOf(db: Kysely<Database>, identityId: string): Promise<ResetAnswerRow[]> {
  return db
    .selectFrom('security_answers')
    .select(['question_code', 'set_at'])
    .where('identity_id', '=', identityId)
    .orderBy('position')
    .execute();
}

/**
 * Ends the anonymous sessions whose password reset could still reach one of `identityIds` (it is
 * among the reset's candidates), in the caller's transaction. A change of the password, the email
 * or a factor, and a sign-out of all devices, end them with the identity's own sessions: what a
 * reset proved before the change (someone else's, perhaps) must not outlive it.
 */
export async function endResetSessionsOf(
  db: Kysely<Database>,
  identityIds: readonly string[],
): Promise<number> {
  if (identityIds.length === 0) return 0;
  // The conditions are those of the index sessions_reset_candidates (migration 0021).
  const result = await sql`
    delete from sessions
    where type = 'ANONYMOUS'
      and data ? 'passwordReset'
      and (data -> 'passwordReset' -> 'candidateIds') ?| ${[...identityIds]}::text[]
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
