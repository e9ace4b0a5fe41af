// The identity's history (identity_events): one writer for every area, one reader for the pages
// that show it. Writers pass their transaction so an event is recorded with the change or not at all.
import { sql, type Kysely } from 'kysely';
import type { Database, IdentityEventVariant } from '../schema';
import { noteIdentityEvent } from '../../observability/context';

export interface IdentityEvent {
  identityId: string;
  eventDate: Date;
  /** The identity that acted (the user, or an admin); null for the System or an app. */
  actorIdentityId?: string | null;
  actorAppCode?: string | null;
  /** Event code; see domain/history.ts for its text. */
  type: string;
  variant?: IdentityEventVariant;
  description?: string | null;
  ticket?: { code: string; url: string } | null;
}

export async function recordIdentityEvent(db: Kysely<Database>, event: IdentityEvent): Promise<void> {
  const { id } = await db
    .insertInto('identity_events')
    .values({
      identity_id: event.identityId,
      event_date: event.eventDate,
      actor_identity_id: event.actorIdentityId ?? null,
      actor_app_code: event.actorAppCode ?? null,
      type: event.type,
      variant: event.variant ?? 'info',
      description: event.description ?? null,
      ticket_code: event.ticket?.code ?? null,
      ticket_url: event.ticket?.url ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The audit log's line, written once the request's transaction proves committed.
  noteIdentityEvent({
    id: String(id),
    type: event.type,
    identityId: event.identityId,
    actorIdentityId: event.actorIdentityId ?? null,
    actorAppCode: event.actorAppCode ?? null,
    ticketCode: event.ticket?.code ?? null,
  });
}

export interface IdentityEventRow {
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

/** One page of the identity's history, newest first, with the total count. */
export async function identityHistory(
  db: Kysely<Database>,
  identityId: string,
  page: { number: number; size: number },
): Promise<{ rows: IdentityEventRow[]; totalElements: number }> {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('identity_events as e')
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
      .where('e.identity_id', '=', identityId)
      .orderBy('e.event_date', 'desc')
      .orderBy('e.id', 'desc')
      .limit(page.size)
      .offset(page.number * page.size)
      .execute(),
    db
      .selectFrom('identity_events')
      .select(sql<string>`count(*)`.as('total'))
      .where('identity_id', '=', identityId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, totalElements: Number(total.total) };
}
