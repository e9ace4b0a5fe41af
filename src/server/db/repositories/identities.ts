// Queries about identities: the sign-in lookup and what the current-user answer needs.
import { sql, type Kysely } from 'kysely';
import type { Database, Identity } from '../schema';

export interface SignInCandidate {
  identity: Identity;
  passwordHash: string | null;
}

/** The active identity with this normalised username in this realm, with its password hash. */
export async function findSignInCandidate(
  db: Kysely<Database>,
  realmCode: string,
  normalisedUsername: string,
): Promise<SignInCandidate | undefined> {
  const row = await db
    .selectFrom('identities as i')
    .leftJoin('credentials as c', 'c.identity_id', 'i.id')
    .selectAll('i')
    .select('c.password_hash')
    .where((eb) => eb(eb.fn('lower', ['i.username']), '=', normalisedUsername))
    .where('i.realm_code', '=', realmCode)
    .where('i.retired_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const { password_hash, ...identity } = row;
  return { identity, passwordHash: password_hash };
}

export async function findIdentity(db: Kysely<Database>, id: string): Promise<Identity | undefined> {
  return db
    .selectFrom('identities')
    .selectAll()
    .where('id', '=', id)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
}

export async function rolesOf(db: Kysely<Database>, identityId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('identity_roles')
    .select('role_code')
    .where('identity_id', '=', identityId)
    .orderBy('role_code')
    .execute();
  return rows.map((r) => r.role_code);
}

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
