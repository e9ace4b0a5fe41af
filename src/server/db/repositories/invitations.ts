// Invitation records: found by the SHA-256 of their code (the code itself is never stored), read
// with the app and facility they grant, and used once.
import type { Kysely } from 'kysely';
import type { Insertable } from 'kysely';
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
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
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
      'inv.created_at',
      'inv.expires_at',
      'inv.used_at',
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
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    usedAt: r.used_at,
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

export type NewInvitation = Insertable<InvitationsTable>;

export async function insertInvitation(db: Kysely<Database>, invitation: NewInvitation): Promise<void> {
  await db.insertInto('invitations').values(invitation).execute();
}

/**
 * Marks the invitation used by `identityId`, only if it is unused and unexpired at `now`, in one
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
    .where('expires_at', '>', input.now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Names the identity a claimed invitation created (once that identity exists). */
export async function setInvitationUser(db: Kysely<Database>, id: string, identityId: string): Promise<void> {
  await db.updateTable('invitations').set({ used_by_identity_id: identityId }).where('id', '=', id).execute();
}
