// The admin's invitation list: invitations with their app and facility, searched and paged.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';

export interface AdminInvitationRow {
  id: string;
  email: string;
  app_code: string | null;
  app_name: string | null;
  facility_code: string | null;
  facility_name: string | null;
  name: string | null;
  customer_number: string | null;
  is_staff: boolean;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

function invitations(db: Kysely<Database>) {
  return db
    .selectFrom('invitations as inv')
    .leftJoin('apps as a', 'a.code', 'inv.app_code')
    .leftJoin('facilities as f', 'f.id', 'inv.facility_id');
}

const columns = [
  'inv.id',
  'inv.email',
  'a.code as app_code',
  'a.name as app_name',
  'f.code as facility_code',
  'f.name as facility_name',
  'inv.name',
  'inv.customer_number',
  'inv.is_staff',
  'inv.created_at',
  'inv.expires_at',
  'inv.used_at',
] as const;

/** Escapes LIKE wildcards so a search for '50%' finds the text '50%'. */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listAdminInvitations(
  db: Kysely<Database>,
  page: { number: number; size: number; query: string },
): Promise<{ rows: AdminInvitationRow[]; totalElements: number }> {
  const pattern = page.query ? containsPattern(page.query) : null;
  const filtered = invitations(db).$if(pattern !== null, (qb) =>
    qb.where((eb) =>
      eb.or(
        ['inv.email', 'inv.name', 'inv.customer_number', 'a.code', 'a.name', 'f.code', 'f.name'].map(
          (column) => eb(sql`lower(${sql.ref(column)})`, 'like', pattern),
        ),
      ),
    ),
  );
  const [rows, total] = await Promise.all([
    filtered
      .select(columns)
      .orderBy('inv.created_at', 'desc')
      .orderBy('inv.id', 'desc')
      .limit(page.size)
      .offset(page.number * page.size)
      .execute(),
    filtered.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, totalElements: Number(total.total) };
}

export async function findAdminInvitation(
  db: Kysely<Database>,
  id: string,
): Promise<AdminInvitationRow | undefined> {
  return invitations(db).select(columns).where('inv.id', '=', id).executeTakeFirst();
}
