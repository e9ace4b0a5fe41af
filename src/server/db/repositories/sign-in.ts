// Failed-attempt counters and the sign-in attempt log.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';

/**
 * Adds one to the username's failed count and answers the new count, atomically (one UPSERT),
 * so concurrent attempts each see a distinct count.
 */
export async function incrementFailedCount(
  db: Kysely<Database>,
  username: string,
  now: Date,
): Promise<number> {
  const row = await db
    .insertInto('failed_auth_counts')
    .values({ username, count: 1, last_failed_at: now })
    .onConflict((oc) =>
      oc.column('username').doUpdateSet({
        count: sql<number>`failed_auth_counts.count + 1`,
        last_failed_at: now,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

/** Takes back one increment (never below zero). */
export async function decrementFailedCount(db: Kysely<Database>, username: string): Promise<void> {
  await db
    .updateTable('failed_auth_counts')
    .set({ count: sql<number>`greatest(failed_auth_counts.count - 1, 0)` })
    .where('username', '=', username)
    .execute();
}

export async function resetFailedCount(db: Kysely<Database>, username: string): Promise<void> {
  await db.deleteFrom('failed_auth_counts').where('username', '=', username).execute();
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

export async function latestSignInAttempt(db: Kysely<Database>, identityId: string) {
  return db
    .selectFrom('sign_in_attempts')
    .selectAll()
    .where('identity_id', '=', identityId)
    .orderBy('attempted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
