// Test accounts made by copying a demo identity: the copy has the source's password (the demo
// password) and its details, with the changes given; no grants, roles, factors or sessions come
// with it. A customer number belongs to one live account (migration 0024), so the copy has none
// unless the changes give it one.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema';

type IdentityRow = Insertable<Database['identities']>;

/** Inserts the copy of `sourceUsername` (default C10001) and answers its id. */
export async function copyOfIdentity(
  db: Kysely<Database>,
  changes: Partial<IdentityRow> & { username: string },
  { sourceUsername = 'C10001', now }: { sourceUsername?: string; now?: Date } = {},
): Promise<string> {
  const source = await db
    .selectFrom('identities')
    .selectAll()
    .where('username', '=', sourceUsername)
    .executeTakeFirstOrThrow();
  const credentials = await db
    .selectFrom('credentials')
    .select(['password_hash', 'changed_at'])
    .where('identity_id', '=', source.id)
    .executeTakeFirstOrThrow();
  const id = crypto.randomUUID();
  await db
    .insertInto('identities')
    .values({
      ...source,
      id,
      email: `${changes.username.toLowerCase()}@example.com`,
      customer_number: null,
      retired_at: null,
      ...(now ? { created_at: now, updated_at: now } : {}),
      ...changes,
    })
    .execute();
  await db
    .insertInto('credentials')
    .values({
      identity_id: id,
      password_hash: credentials.password_hash,
      changed_at: now ?? credentials.changed_at,
    })
    .execute();
  return id;
}
