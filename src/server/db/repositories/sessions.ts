// Session rows and captcha challenges. Rows are found by the SHA-256 of the cookie token.
import type { Kysely } from 'kysely';
import type { Database, SessionContext, SessionData, SessionType } from '../schema';

export interface SessionRow {
  idHash: string;
  identityId: string | null;
  type: SessionType;
  context: SessionContext;
  data: SessionData;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  absoluteExpiresAt: Date;
}

export async function insertSession(db: Kysely<Database>, s: SessionRow): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id_hash: s.idHash,
      identity_id: s.identityId,
      type: s.type,
      context: JSON.stringify(s.context),
      data: JSON.stringify(s.data),
      created_at: s.createdAt,
      last_seen_at: s.lastSeenAt,
      expires_at: s.expiresAt,
      absolute_expires_at: s.absoluteExpiresAt,
    })
    .execute();
}

/**
 * The session row the id hash names, expired or not: the caller compares its expiry times with
 * the clock (so that the read does not depend on the time and can be cached, read-cache.ts).
 */
export async function findSession(db: Kysely<Database>, idHash: string): Promise<SessionRow | undefined> {
  const row = await db.selectFrom('sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
  if (!row) return undefined;
  return {
    idHash: row.id_hash,
    identityId: row.identity_id,
    type: row.type,
    context: row.context,
    data: row.data,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    absoluteExpiresAt: row.absolute_expires_at,
  };
}

export async function touchSession(db: Kysely<Database>, idHash: string, lastSeenAt: Date, expiresAt: Date) {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: lastSeenAt, expires_at: expiresAt })
    .where('id_hash', '=', idHash)
    .execute();
}

/**
 * Moves a pending sign-in on (another forced step, or authenticated). Only a session that is still
 * pending moves: answers false when it is not (ended, or moved on by a concurrent request).
 */
export async function updateSessionState(
  db: Kysely<Database>,
  idHash: string,
  state: { type: SessionType; data: SessionData; newIdHash?: string },
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({
      type: state.type,
      data: JSON.stringify(state.data),
      // A new token's hash: the session's rows follow it (foreign keys on update cascade).
      ...(state.newIdHash ? { id_hash: state.newIdHash } : {}),
    })
    .where('id_hash', '=', idHash)
    .where('type', '=', 'AUTHENTICATION_PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteSession(db: Kysely<Database>, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

export async function deleteExpiredSessions(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Stores the session's one pending captcha, replacing an earlier one. */
export async function putCaptchaChallenge(
  db: Kysely<Database>,
  sessionIdHash: string,
  answerHash: string,
  expiresAt: Date,
): Promise<void> {
  await db
    .insertInto('captcha_challenges')
    .values({ session_id_hash: sessionIdHash, answer_hash: answerHash, expires_at: expiresAt })
    .onConflict((oc) =>
      oc.column('session_id_hash').doUpdateSet({ answer_hash: answerHash, expires_at: expiresAt }),
    )
    .execute();
}

/**
 * Removes and answers the session's captcha in one statement, so of two concurrent attempts only
 * one can use it.
 */
export async function takeCaptchaChallenge(db: Kysely<Database>, sessionIdHash: string) {
  return db
    .deleteFrom('captcha_challenges')
    .where('session_id_hash', '=', sessionIdHash)
    .returning(['answer_hash', 'expires_at'])
    .executeTakeFirst();
}
