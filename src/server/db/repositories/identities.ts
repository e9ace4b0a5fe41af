// Queries about identities: what the current-user answer needs.
import { sql, type Kysely } from 'kysely';
import { readThrough, type ReadCache } from '../read-cache';
import type { Database, Identity } from '../schema';

/** The identity and its roles in one round trip. */
export async function findIdentityWithRoles(
  db: Kysely<Database>,
  id: string,
): Promise<{ identity: Identity; roles: string[] } | undefined> {
  const row = await db
    .selectFrom('identities as i')
    .selectAll('i')
    .select(
      sql<
        string[]
      >`array(select r.role_code from identity_roles r where r.identity_id = i.id order by r.role_code)`.as(
        'roles',
      ),
    )
    .where('i.id', '=', id)
    .where('i.retired_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const { roles, ...identity } = row;
  return { identity, roles };
}

/** findIdentityWithRoles through PGlite's read cache (read-cache.ts) where there is one. */
export function findIdentityWithRolesCached(
  db: Kysely<Database>,
  cache: ReadCache | null,
  id: string,
): Promise<{ identity: Identity; roles: string[] } | undefined> {
  return readThrough(cache, `identity:${id}`, () => findIdentityWithRoles(db, id));
}
