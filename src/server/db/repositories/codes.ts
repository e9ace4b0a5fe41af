// One-time codes: one row per session and purpose. A resend replaces the code in place, so the
// row keeps its send count (and the session keeps its failure count) across resends.
import { sql, type Kysely } from 'kysely';
import type { CodeChannelKind, Database } from '../schema';

export interface CodeRow {
  destination: string;
  code_hash: string;
  channel: CodeChannelKind;
  send_count: number;
  last_sent_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export async function findCode(
  db: Kysely<Database>,
  sessionIdHash: string,
  purpose: string,
): Promise<CodeRow | undefined> {
  return db
    .selectFrom('one_time_codes')
    .select(['destination', 'code_hash', 'channel', 'send_count', 'last_sent_at', 'expires_at', 'used_at'])
    .where('session_id_hash', '=', sessionIdHash)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
}

export interface NewCode {
  sessionIdHash: string;
  purpose: string;
  identityId: string | null;
  channel: CodeChannelKind;
  destination: string;
  codeHash: string;
  now: Date;
  expiresAt: Date;
}

/**
 * Stores a new code for the session and purpose, in one statement that also enforces the resend
 * rules: an existing row is only replaced when its last send is at or before `sentBefore` and it
 * has been sent fewer than `maxSends` times. Answers the stored row, or undefined when refused.
 * A row whose code was used (verified) ended its step: the next code of the purpose starts a new
 * step (a second email change in the session), with a count of its own.
 */
export async function putCode(
  db: Kysely<Database>,
  code: NewCode,
  rules: { sentBefore: Date; maxSends: number },
): Promise<{ send_count: number } | undefined> {
  const result = await sql<{ send_count: number }>`
    insert into one_time_codes
      (session_id_hash, purpose, identity_id, channel, destination, code_hash, send_count,
       first_sent_at, last_sent_at, expires_at, used_at)
    values
      (${code.sessionIdHash}, ${code.purpose}, ${code.identityId}::uuid, ${code.channel},
       ${code.destination}, ${code.codeHash}, 1, ${code.now}::timestamptz, ${code.now}::timestamptz,
       ${code.expiresAt}::timestamptz, null)
    on conflict (session_id_hash, purpose) do update set
      identity_id = excluded.identity_id,
      channel = excluded.channel,
      destination = excluded.destination,
      code_hash = excluded.code_hash,
      send_count = case when one_time_codes.used_at is null then one_time_codes.send_count + 1 else 1 end,
      last_sent_at = excluded.last_sent_at,
      expires_at = excluded.expires_at,
      used_at = null
    where one_time_codes.used_at is not null
      or (one_time_codes.last_sent_at <= ${rules.sentBefore}::timestamptz
        and one_time_codes.send_count < ${rules.maxSends})
    returning send_count
  `.execute(db);
  return result.rows[0];
}

/**
 * After a send failed: the code can never be used, and the next attempt is not throttled (the
 * send still counts towards the maximum, so a failing channel cannot be retried forever).
 */
export async function voidCode(db: Kysely<Database>, sessionIdHash: string, purpose: string): Promise<void> {
  await db
    .updateTable('one_time_codes')
    .set({ expires_at: new Date(0), last_sent_at: new Date(0) })
    .where('session_id_hash', '=', sessionIdHash)
    .where('purpose', '=', purpose)
    .execute();
}

/**
 * Uses the code if it matches, is unused and unexpired, in one statement: of concurrent
 * submissions of one code exactly one wins. Answers the destination it was sent to.
 */
export async function consumeCode(
  db: Kysely<Database>,
  input: { sessionIdHash: string; purpose: string; codeHash: string; now: Date },
): Promise<{ destination: string } | undefined> {
  return db
    .updateTable('one_time_codes')
    .set({ used_at: input.now })
    .where('session_id_hash', '=', input.sessionIdHash)
    .where('purpose', '=', input.purpose)
    .where('code_hash', '=', input.codeHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', input.now)
    .returning('destination')
    .executeTakeFirst();
}
