// The admin's invitation list: invitations with their app and facility, searched and paged.
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
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
export const containsPattern = (text: string) =>
  `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A paged list's total when its page tells it (a page short of full, or an empty first page), else
 * undefined: the matching rows must be counted. Most searches find less than a page and so skip
 * the count.
 */
export function totalFromPage(offset: number, rows: number, size: number): number | undefined {
  return rows < size && (rows > 0 || offset === 0) ? offset + rows : undefined;
}

/**
 * What a list's search matches in the tables its rows refer to: the apps and facilities by code or
 * name, the identities by username or name (each an expression of an index: identities_search for
 * the identities; apps and facilities are small).
 */
const REFERENCED = {
  app: (pattern: string) =>
    sql`select code from apps where lower(code) like ${pattern} or lower(name) like ${pattern}`,
  facility: (pattern: string) =>
    sql`select id from facilities where lower(code) like ${pattern} or lower(name) like ${pattern}`,
  identity: (pattern: string) =>
    sql`select id from identities where lower(username) like ${pattern} or lower(name) like ${pattern}`,
} as const;
export type Referenced = keyof typeof REFERENCED;

/** The most keys of one referenced table a search passes as a list. */
export const MATCHED_KEYS_MAX = 1000;

/**
 * The search's conditions on the columns that refer to other tables, each `column in (keys)` with
 * the keys that match, looked up first (one statement for them all). With the keys known the
 * planner knows how many rows each condition selects, and reads them through the column's index;
 * given the lookup as a subquery instead, it guesses, and on a rare match walks the whole list in
 * its order. A table with no match adds no condition; one with more than MATCHED_KEYS_MAX matches
 * is given as the subquery after all (so many match that the walk in order is the right plan).
 */
export async function referenceConditions(
  db: Kysely<Database>,
  pattern: string,
  columns: ReadonlyArray<readonly [column: string, table: Referenced]>,
): Promise<RawBuilder<SqlBool>[]> {
  const { rows } = await sql<{ n: number; key: string }>`${sql.join(
    columns.map(
      ([, table], n) =>
        sql`(select ${n}::int as n, m.key::text as key
              from (${REFERENCED[table](pattern)}) as m(key) limit ${MATCHED_KEYS_MAX + 1})`,
    ),
    sql` union all `,
  )}`.execute(db);
  return columns.flatMap(([column, table], n) => {
    const keys = rows.filter((row) => row.n === n).map((row) => row.key);
    if (keys.length > MATCHED_KEYS_MAX)
      return [sql<SqlBool>`${sql.ref(column)} = any(array(${REFERENCED[table](pattern)}))`];
    return keys.length > 0 ? [sql<SqlBool>`${sql.ref(column)} in (${sql.join(keys)})`] : [];
  });
}

/**
 * One page of invitations, newest first; `query` matches (anywhere, case-insensitively) the email,
 * name or customer number, or the code or name of the app or facility. Every condition of the
 * match is one an index answers (migration 0022): the invitation's own columns through the trigram
 * index of those expressions, the apps and facilities that match (referenceConditions) through
 * invitations_app and invitations_facility. The filter is on invitations alone, so the count reads
 * no other table; and the page is cut before the join, so a later page joins its own rows only.
 */
export async function listAdminInvitations(
  db: Kysely<Database>,
  page: { number: number; size: number; query: string },
): Promise<{ rows: AdminInvitationRow[]; totalElements: number }> {
  const pattern = page.query ? containsPattern(page.query) : null;
  const referring =
    pattern === null
      ? []
      : await referenceConditions(db, pattern, [
          ['inv.app_code', 'app'],
          ['inv.facility_id', 'facility'],
        ]);
  const filtered = db
    .selectFrom('invitations as inv')
    .$if(pattern !== null, (qb) =>
      qb.where((eb) =>
        eb.or([
          ...['inv.email', 'inv.name', 'inv.customer_number'].map((column) =>
            eb(sql`lower(${sql.ref(column)})`, 'like', pattern),
          ),
          ...referring,
        ]),
      ),
    );
  const offset = page.number * page.size;
  const pageRows = filtered
    .selectAll('inv')
    .orderBy('inv.created_at', 'desc')
    .orderBy('inv.id', 'desc')
    .limit(page.size)
    .offset(offset);
  const rows = await db
    .selectFrom(pageRows.as('inv'))
    .leftJoin('apps as a', 'a.code', 'inv.app_code')
    .leftJoin('facilities as f', 'f.id', 'inv.facility_id')
    .select(columns)
    .orderBy('inv.created_at', 'desc')
    .orderBy('inv.id', 'desc')
    .execute();
  const totalElements =
    totalFromPage(offset, rows.length, page.size) ??
    Number((await filtered.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow()).total);
  return { rows, totalElements };
}

export async function findAdminInvitation(
  db: Kysely<Database>,
  id: string,
): Promise<AdminInvitationRow | undefined> {
  return invitations(db).select(columns).where('inv.id', '=', id).executeTakeFirst();
}
