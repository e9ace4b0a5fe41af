// Trusted devices: found by the SHA-256 of the browser's cookie token, never by the token.
import type { Kysely } from 'kysely';
import type { Database, TrustedDevicesTable } from '../schema';
import type { Selectable } from 'kysely';

export type TrustedDeviceRow = Selectable<TrustedDevicesTable>;

export async function insertTrustedDevice(db: Kysely<Database>, row: TrustedDeviceRow): Promise<void> {
  await db.insertInto('trusted_devices').values(row).execute();
}

/**
 * Marks the device active now if the token is the identity's and has not expired; answers
 * whether it was.
 */
export async function touchTrustedDevice(
  db: Kysely<Database>,
  input: { identityId: string; tokenHash: string; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('trusted_devices')
    .set({ last_active_at: input.now })
    .where('token_hash', '=', input.tokenHash)
    .where('identity_id', '=', input.identityId)
    .where('expires_at', '>', input.now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function activeTrustedDevices(
  db: Kysely<Database>,
  identityId: string,
  now: Date,
): Promise<TrustedDeviceRow[]> {
  return db
    .selectFrom('trusted_devices')
    .selectAll()
    .where('identity_id', '=', identityId)
    .where('expires_at', '>', now)
    .orderBy('last_active_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function deleteTrustedDevices(db: Kysely<Database>, identityId: string): Promise<number> {
  const result = await db
    .deleteFrom('trusted_devices')
    .where('identity_id', '=', identityId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteTrustedDevice(
  db: Kysely<Database>,
  identityId: string,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('trusted_devices')
    .where('identity_id', '=', identityId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function deleteExpiredTrustedDevices(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom('trusted_devices').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
