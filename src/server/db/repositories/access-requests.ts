// Access requests and their history (migration 0010). Writers take the caller's transaction so a
// request, its grant and its history entries land together or not at all.
import { sql, type Kysely } from 'kysely';
import type { Database, IdentityEventVariant } from '../schema';
import { containsPattern, referenceConditions, totalFromPage } from './admin';

export interface AccessRequestEvent {
  accessRequestId: string;
  eventDate: Date;
  actorIdentityId?: string | null;
  actorAppCode?: string | null;
  type: string;
  variant?: IdentityEventVariant;
  isApiCall?: boolean;
  description?: string | null;
  ticket?: { code: string; url: string } | null;
}

export async function recordAccessRequestEvent(
  db: Kysely<Database>,
  event: AccessRequestEvent,
): Promise<void> {
  await db
    .insertInto('access_request_events')
    .values({
      access_request_id: event.accessRequestId,
      event_date: event.eventDate,
      actor_identity_id: event.actorIdentityId ?? null,
      actor_app_code: event.actorAppCode ?? null,
      type: event.type,
      variant: event.variant ?? 'info',
      is_api_call: event.isApiCall ?? false,
      description: event.description ?? null,
      ticket_code: event.ticket?.code ?? null,
      ticket_url: event.ticket?.url ?? null,
    })
    .execute();
}

export type AccessRequestStatusValue = 'PENDING' | 'APPROVED' | 'REJECTED';

export interface AccessRequestRow {
  id: string;
  code: string;
  status: AccessRequestStatusValue;
  created_at: Date;
  app_code: string;
  app_name: string;
  facility_code: string | null;
  facility_name: string | null;
  requester_id: string;
  requester_username: string;
  requester_name: string | null;
}

function summaries(db: Kysely<Database>) {
  return db
    .selectFrom('access_requests as r')
    .innerJoin('apps as a', 'a.code', 'r.app_code')
    .innerJoin('identities as i', 'i.id', 'r.requester_identity_id')
    .leftJoin('facilities as f', 'f.id', 'r.facility_id');
}

const STATUSES: readonly AccessRequestStatusValue[] = ['PENDING', 'APPROVED', 'REJECTED'];

/**
 * One page of access requests, newest first; `query` matches (anywhere, case-insensitively) the
 * code, status, app (code or name), facility (code or name) or requester (username or name). Every
 * condition of the match is one an index answers (migration 0022): the code through its trigram
 * index, the statuses that match (known here) through access_requests_status, and the apps,
 * facilities and requesters that match (referenceConditions) through the request's column that
 * names them. The filter is on access_requests alone, and its foreign keys give every request its
 * one app and requester, so the count reads no other table: the rows it counts are the rows
 * listed. The page is cut before the joins, so a later page joins its own rows only.
 */
export async function listAccessRequests(
  db: Kysely<Database>,
  page: { number: number; size: number; query: string },
): Promise<{ rows: AccessRequestRow[]; totalElements: number }> {
  const pattern = page.query ? containsPattern(page.query) : null;
  const lowered = page.query.toLowerCase();
  const statuses = STATUSES.filter((status) => status.toLowerCase().includes(lowered));
  const referring =
    pattern === null
      ? []
      : await referenceConditions(db, pattern, [
          ['r.app_code', 'app'],
          ['r.facility_id', 'facility'],
          ['r.requester_identity_id', 'identity'],
        ]);
  const filtered = db
    .selectFrom('access_requests as r')
    .$if(pattern !== null, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb(sql`lower(r.code)`, 'like', pattern),
          ...(statuses.length > 0 ? [eb('r.status', 'in', statuses)] : []),
          ...referring,
        ]),
      ),
    );
  const offset = page.number * page.size;
  const pageRows = filtered
    .selectAll('r')
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(page.size)
    .offset(offset);
  const rows = await db
    .selectFrom(pageRows.as('r'))
    .innerJoin('apps as a', 'a.code', 'r.app_code')
    .innerJoin('identities as i', 'i.id', 'r.requester_identity_id')
    .leftJoin('facilities as f', 'f.id', 'r.facility_id')
    .select([
      'r.id',
      'r.code',
      'r.status',
      'r.created_at',
      'a.code as app_code',
      'a.name as app_name',
      'f.code as facility_code',
      'f.name as facility_name',
      'i.id as requester_id',
      'i.username as requester_username',
      'i.name as requester_name',
    ])
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .execute();
  const totalElements =
    totalFromPage(offset, rows.length, page.size) ??
    Number((await filtered.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow()).total);
  return { rows, totalElements };
}

export async function findAccessRequest(
  db: Kysely<Database>,
  id: string,
): Promise<(AccessRequestRow & { decided_at: Date | null }) | undefined> {
  return summaries(db)
    .select([
      'r.id',
      'r.code',
      'r.status',
      'r.created_at',
      'r.decided_at',
      'a.code as app_code',
      'a.name as app_name',
      'f.code as facility_code',
      'f.name as facility_name',
      'i.id as requester_id',
      'i.username as requester_username',
      'i.name as requester_name',
    ])
    .where('r.id', '=', id)
    .executeTakeFirst();
}

export async function accessRequestIdOf(
  db: Kysely<Database>,
  appCode: string,
  code: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('access_requests')
    .select('id')
    .where('app_code', '=', appCode)
    .where('code', '=', code)
    .executeTakeFirst();
  return row?.id;
}

export async function accessRequestExists(db: Kysely<Database>, id: string): Promise<boolean> {
  const row = await db.selectFrom('access_requests').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export interface AccessRequestEventRow {
  event_date: Date;
  type: string;
  variant: IdentityEventVariant;
  description: string | null;
  ticket_code: string | null;
  ticket_url: string | null;
  actor_id: string | null;
  actor_username: string | null;
  actor_app_code: string | null;
  actor_app_name: string | null;
}

/** One page of an access request's history, newest first, with the total count. */
export async function accessRequestHistory(
  db: Kysely<Database>,
  accessRequestId: string,
  page: { number: number; size: number; apiCallsOnly?: boolean },
): Promise<{ rows: AccessRequestEventRow[]; totalElements: number }> {
  const apiCallsOnly = page.apiCallsOnly ?? false;
  const [rows, total] = await Promise.all([
    db
      .selectFrom('access_request_events as e')
      .leftJoin('identities as actor', 'actor.id', 'e.actor_identity_id')
      .leftJoin('apps as app', 'app.code', 'e.actor_app_code')
      .select([
        'e.event_date',
        'e.type',
        'e.variant',
        'e.description',
        'e.ticket_code',
        'e.ticket_url',
        'actor.id as actor_id',
        'actor.username as actor_username',
        'app.code as actor_app_code',
        'app.name as actor_app_name',
      ])
      .where('e.access_request_id', '=', accessRequestId)
      .$if(apiCallsOnly, (qb) => qb.where('e.is_api_call', '=', true))
      .orderBy('e.event_date', 'desc')
      .orderBy('e.id', 'desc')
      .limit(page.size)
      .offset(page.number * page.size)
      .execute(),
    db
      .selectFrom('access_request_events')
      .select(sql<string>`count(*)`.as('total'))
      .where('access_request_id', '=', accessRequestId)
      .$if(apiCallsOnly, (qb) => qb.where('is_api_call', '=', true))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, totalElements: Number(total.total) };
}

/**
 * The request's requester, locked (`for key share`) before the request itself: the order of a merge,
 * which locks its accounts (`for update`, merge.ts's lockIdentities) and then moves their pending
 * requests. A decision thus waits for a merge of its requester, or the merge for the decision,
 * instead of each holding what the other needs. Undefined when there is no such request. The
 * requester is read again with the request's lock (lockAccessRequest): a merge that committed
 * between the two reads has moved the request to another account.
 */
export async function lockRequesterOf(
  trx: Kysely<Database>,
  accessRequestId: string,
): Promise<{ id: string; retired_at: Date | null } | undefined> {
  const request = await trx
    .selectFrom('access_requests')
    .select('requester_identity_id')
    .where('id', '=', accessRequestId)
    .executeTakeFirst();
  if (!request) return undefined;
  return trx
    .selectFrom('identities')
    .select(['id', 'retired_at'])
    .where('id', '=', request.requester_identity_id)
    .forKeyShare()
    .executeTakeFirst();
}

/** What a decision needs of a request, read under a row lock so two admins cannot both decide it. */
export interface LockedAccessRequest {
  id: string;
  code: string;
  status: AccessRequestStatusValue;
  app_code: string;
  app_name: string;
  facility_id: string | null;
  facility_name: string | null;
  requester_identity_id: string;
  requester_email: string | null;
  requester_name: string | null;
}

export async function lockAccessRequest(
  trx: Kysely<Database>,
  id: string,
): Promise<LockedAccessRequest | undefined> {
  return trx
    .selectFrom('access_requests as r')
    .innerJoin('apps as a', 'a.code', 'r.app_code')
    .innerJoin('identities as i', 'i.id', 'r.requester_identity_id')
    .leftJoin('facilities as f', 'f.id', 'r.facility_id')
    .select([
      'r.id',
      'r.code',
      'r.status',
      'r.app_code',
      'a.name as app_name',
      'r.facility_id',
      'f.name as facility_name',
      'r.requester_identity_id',
      'i.email as requester_email',
      'i.name as requester_name',
    ])
    .where('r.id', '=', id)
    .forUpdate('r')
    .executeTakeFirst();
}

/** Moves a PENDING request to its decision; false when it was no longer pending. */
export async function setAccessRequestDecision(
  trx: Kysely<Database>,
  id: string,
  status: 'APPROVED' | 'REJECTED',
  decidedAt: Date,
): Promise<boolean> {
  const result = await trx
    .updateTable('access_requests')
    .set({ status, decided_at: decidedAt })
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Grants the identity the app (at the facility): what approving a request does, at once for apps
 * that approve immediately and on an admin's decision for the manual workflow. A grant the
 * identity holds already (given meanwhile by an invitation or a merge) is kept as it is: the one
 * insert with `on conflict do nothing` that registration and merge use, so that a grant committed
 * by another transaction between a check and an insert cannot fail the approval with a unique
 * violation (a 500 that rolled the decision back).
 */
export { grantAccess } from './registration';
