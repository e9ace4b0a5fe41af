// The dev outbox: messages that would have gone out by SMTP or the SMS gateway, kept in the
// database so every instance behind a load balancer writes to and shows the same list.
import type { Kysely } from 'kysely';
import type { CodeChannelKind, Database } from '../schema';

export interface OutboxMessageRow {
  id: number;
  channel: CodeChannelKind;
  recipient: string;
  subject: string | null;
  body: string;
  code: string | null;
  created_at: Date;
}

export async function insertOutboxMessage(
  db: Kysely<Database>,
  message: Omit<OutboxMessageRow, 'id'>,
): Promise<number> {
  const row = await db
    .insertInto('outbox_messages')
    .values(message)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Newest first; `recipient` matches case-insensitively and ignoring spaces (mobiles are typed with them). */
export async function listOutboxMessages(
  db: Kysely<Database>,
  filter: { recipient?: string; channel?: CodeChannelKind; limit: number },
): Promise<OutboxMessageRow[]> {
  let query = db.selectFrom('outbox_messages').selectAll();
  if (filter.recipient) {
    const wanted = filter.recipient.replace(/\s+/g, '').toLowerCase();
    query = query.where((eb) =>
      eb(eb.fn('replace', [eb.fn('lower', ['recipient']), eb.val(' '), eb.val('')]), '=', wanted),
    );
  }
  if (filter.channel) query = query.where('channel', '=', filter.channel);
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}
