// Invitation records: found by the SHA-256 of their code (the code itself is never stored), read
// with the app and facility they grant, used once, or revoked by an admin before that; an admin's
// names its creator.
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, InvitationsTable } from '../schema';

export interface InvitationRow {
  id: string;
  email: string;
  appCode: string | null;
  appName: string | null;
  facilityId: string | null;
  facilityCode: string | null;
  facilityName: string | null;
  facilityAlias: string | null;
  roles: Array<{ name: string; scopeType: string | null; scope: string | null }>;
  customerNumber: string | null;
  name: string | null;
  birthDate: string | null;
  username: string | null;
  mobile: string | null;
  isStaff: boolean;
  existingIdentityId: string | null;
  existingUsername: string | null;
  /**
   * A new account's invitation whose customer number a live (unretired) identity holds now: its
   * registration would make a second holder, so it registers no one.
   */
  customerNumberHeld: boolean;
  createdAt: Date;
  /**
   * When the code stops registering anyone: its expiry, or its revocation when that came first
   * (to the invitee a revoked code is one that ended, and is refused alike).
   */
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
}

function selectInvitation(db: Kysely<Database>) {
  return db
    .selectFrom('invitations as inv')
    .leftJoin('apps as app', 'app.code', 'inv.app_code')
    .leftJoin('facilities as f', 'f.id', 'inv.facility_id')
    .leftJoin('identities as existing', 'existing.id', 'inv.existing_identity_id')
    .select([
      'inv.id',
      'inv.email',
      'inv.app_code',
      'app.name as app_name',
      'inv.facility_id',
      'f.code as facility_code',
      'f.name as facility_name',
      'f.alias as facility_alias',
      'inv.roles',
      'inv.customer_number',
      'inv.name',
      'inv.birth_date',
      'inv.username',
      'inv.mobile',
      'inv.is_staff',
      'inv.existing_identity_id',
      'existing.username as existing_username',
      sql<boolean>`inv.existing_identity_id is null and inv.customer_number is not null and exists (
        select from identities holder
        where holder.customer_number = inv.customer_number and holder.retired_at is null
      )`.as('customer_number_held'),
      'inv.created_at',
      'inv.expires_at',
      'inv.used_at',
      'inv.revoked_at',
    ]);
}

type SelectedRow = Awaited<ReturnType<ReturnType<typeof selectInvitation>['executeTakeFirstOrThrow']>>;

function toRow(r: SelectedRow): InvitationRow {
  return {
    id: r.id,
    email: r.email,
    appCode: r.app_code,
    appName: r.app_name,
    facilityId: r.facility_id,
    facilityCode: r.facility_code,
    facilityName: r.facility_name,
    facilityAlias: r.facility_alias,
    roles: r.roles,
    customerNumber: r.customer_number,
    name: r.name,
    birthDate: r.birth_date,
    username: r.username,
    mobile: r.mobile,
    isStaff: r.is_staff,
    existingIdentityId: r.existing_identity_id,
    existingUsername: r.existing_username,
    customerNumberHeld: r.customer_number_held === true,
    createdAt: r.created_at,
    expiresAt: r.revoked_at && r.revoked_at < r.expires_at ? r.revoked_at : r.expires_at,
    usedAt: r.used_at,
    revokedAt: r.revoked_at,
  };
}

export async function findInvitationByCodeHash(
  db: Kysely<Database>,
  codeHash: string,
): Promise<InvitationRow | undefined> {
  const row = await selectInvitation(db).where('inv.code_hash', '=', codeHash).executeTakeFirst();
  return row ? toRow(row) : undefined;
}

export async function findInvitationById(
  db: Kysely<Database>,
  id: string,
): Promise<InvitationRow | undefined> {
  const row = await selectInvitation(db).where('inv.id', '=', id).executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/**
 * Whether a live (unretired) identity other than `except` holds this customer number. Customer
 * numbers are one customer's each: identities_customer_number_live (migration 0024) keeps them so.
 */
export async function customerNumberHeld(
  db: Kysely<Database>,
  customerNumber: string,
  except: string | null = null,
): Promise<boolean> {
  let query = db
    .selectFrom('identities')
    .select('id')
    .where('customer_number', '=', customerNumber)
    .where('retired_at', 'is', null);
  if (except) query = query.where('id', '<>', except);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** The index that keeps a customer number to one live identity (migration 0024). */
export const CUSTOMER_NUMBER_INDEX = 'identities_customer_number_live';

export type NewInvitation = Insertable<InvitationsTable>;

export async function insertInvitation(db: Kysely<Database>, invitation: NewInvitation): Promise<void> {
  await db.insertInto('invitations').values(invitation).execute();
}

/**
 * Marks the invitation used by `identityId`, only if it is unused, unrevoked and unexpired at `now`, in one
 * statement: of any number of concurrent submissions exactly one claims it (the others wait on
 * the row and then find it used).
 */
export async function claimInvitation(
  db: Kysely<Database>,
  input: { id: string; identityId: string | null; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ used_at: input.now, used_by_identity_id: input.identityId })
    .where('id', '=', input.id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', input.now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Names the identity a claimed invitation created (once that identity exists). */
export async function setInvitationUser(db: Kysely<Database>, id: string, identityId: string): Promise<void> {
  await db.updateTable('invitations').set({ used_by_identity_id: identityId }).where('id', '=', id).execute();
}

/** Where an invitation stands, its row locked until the transaction ends (an admin's revoke). */
export async function lockInvitationState(
  db: Kysely<Database>,
  id: string,
): Promise<{ usedAt: Date | null; expiresAt: Date; revokedAt: Date | null } | undefined> {
  const row = await db
    .selectFrom('invitations')
    .select(['used_at', 'expires_at', 'revoked_at'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row && { usedAt: row.used_at, expiresAt: row.expires_at, revokedAt: row.revoked_at };
}

/**
 * An admin revokes the invitation at `now`, only if it is unused, unrevoked and unexpired then (its
 * expiry is kept); false otherwise.
 */
export async function revokeInvitation(
  db: Kysely<Database>,
  input: { id: string; adminIdentityId: string; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ revoked_at: input.now, revoked_by_identity_id: input.adminIdentityId })
    .where('id', '=', input.id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', input.now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface InvitationRevocation {
  revokedAt: Date;
  /** The revoking admin's username; null once that identity is gone. */
  revokedBy: string | null;
}

/** The revocations among these invitations, by invitation id (unrevoked ones are absent). */
export async function invitationRevocations(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, InvitationRevocation>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('invitations as inv')
    .leftJoin('identities as admin', 'admin.id', 'inv.revoked_by_identity_id')
    .select(['inv.id', 'inv.revoked_at', 'admin.username as revoked_by'])
    .where('inv.id', 'in', [...ids])
    .where('inv.revoked_at', 'is not', null)
    .execute();
  return new Map(
    rows.flatMap((r) => (r.revoked_at ? [[r.id, { revokedAt: r.revoked_at, revokedBy: r.revoked_by }]] : [])),
  );
}

/**
 * The usernames of the admins who created these invitations, by invitation id; absent for an
 * invitation no admin made (the CLI's, the seed's, those made before creators were kept) and for
 * one whose admin is gone.
 */
export async function invitationCreators(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('invitations as inv')
    .innerJoin('identities as admin', 'admin.id', 'inv.created_by_identity_id')
    .select(['inv.id', 'admin.username as created_by'])
    .where('inv.id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.created_by]));
}
