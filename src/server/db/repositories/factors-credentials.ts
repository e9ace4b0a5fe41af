// Replacing a password: the statements a password change runs, in the caller's transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import { endResetSessionsOf } from './password-reset';

/**
 * Stores the new hash, clears the expired flag, revokes every trusted device, ends the identity's
 * other sessions and the anonymous sessions of password resets naming it, and makes the JWTs
 * handed out before now invalid for the apps that ask /jwt/valid-after (someone who knew the old
 * password, or was part way through resetting it, is signed out everywhere, applications too).
 */
export async function replacePassword(
  trx: Kysely<Database>,
  input: { identityId: string; passwordHash: string; now: Date; keepSessionIdHash: string | null },
): Promise<void> {
  await trx
    .updateTable('credentials')
    .set({ password_hash: input.passwordHash, changed_at: input.now })
    .where('identity_id', '=', input.identityId)
    .execute();
  await trx
    .updateTable('identities')
    .set({ password_expired: false, updated_at: input.now, jwt_valid_after: input.now })
    .where('id', '=', input.identityId)
    .execute();
  await trx.deleteFrom('trusted_devices').where('identity_id', '=', input.identityId).execute();
  let ended = trx.deleteFrom('sessions').where('identity_id', '=', input.identityId);
  if (input.keepSessionIdHash) ended = ended.where('id_hash', '!=', input.keepSessionIdHash);
  await ended.execute();
  await endResetSessionsOf(trx, [input.identityId]);
}
