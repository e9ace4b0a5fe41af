// The dev outbox: where email and SMS go outside production when no SMTP server or SMS gateway
// is configured, so every one-time code can be read at /dev/outbox. It lives in the database, so
// all instances of the server share it.
import type { Kysely } from 'kysely';
import type { Clock } from './clock';
import { insertOutboxMessage, listOutboxMessages, type OutboxMessageRow } from '../db/repositories/outbox';
import type { CodeChannelKind, Database } from '../db/schema';

export interface OutboxEntry {
  channel: CodeChannelKind;
  to: string;
  subject: string | null;
  text: string;
  /** The one-time code the message carries, if any. */
  code: string | null;
}

export class Outbox {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async record(entry: OutboxEntry): Promise<void> {
    await insertOutboxMessage(this.db, {
      channel: entry.channel,
      recipient: entry.to,
      subject: entry.subject,
      body: entry.text,
      code: entry.code,
      created_at: this.clock.now(),
    });
  }

  list(filter: { to?: string; channel?: CodeChannelKind; limit?: number }): Promise<OutboxMessageRow[]> {
    return listOutboxMessages(this.db, {
      ...(filter.to ? { recipient: filter.to } : {}),
      ...(filter.channel ? { channel: filter.channel } : {}),
      limit: filter.limit ?? 100,
    });
  }
}
