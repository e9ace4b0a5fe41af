// GET /dev/outbox: the email and SMS messages the dev outbox holds, newest first, so people and
// automated journeys can read one-time codes. HTML for browsers; JSON to `Accept:
// application/json`. Never registered in production (the path then answers 404), and it answers
// 404 too when real transports are configured, as there is nothing of ours to show.
//
// JSON: { "messages": [ { "id": 12, "channel": "EMAIL" | "SMS", "to": "c10003@example.com",
//   "subject": "Your verification code" | null, "text": "...", "code": "123456" | null,
//   "sentAt": "2026-03-01T10:00:00.000Z" } ] }
// Query: `to` (an email address or mobile; case and spaces ignored), `channel` (EMAIL or SMS),
// `limit` (1 to 500, default 100).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { OutboxMessageRow } from '../../db/repositories/outbox';
import { refuse } from '../../domain/errors';

export const DEV_OUTBOX_PATH = '/dev/outbox';

export interface OutboxMessageJson {
  id: number;
  channel: 'EMAIL' | 'SMS';
  to: string;
  subject: string | null;
  text: string;
  code: string | null;
  sentAt: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function toJson(row: OutboxMessageRow): OutboxMessageJson {
  return {
    id: row.id,
    channel: row.channel,
    to: row.recipient,
    subject: row.subject,
    text: row.body,
    code: row.code,
    sentAt: row.created_at.toISOString(),
  };
}

function page(messages: OutboxMessageJson[], nonce: string): string {
  const rows = messages
    .map(
      (m) => `<tr>
  <td>${escapeHtml(new Date(m.sentAt).toISOString().replace('T', ' ').slice(0, 19))} UTC</td>
  <td>${m.channel}</td>
  <td>${escapeHtml(m.to)}</td>
  <td class="code">${m.code ? escapeHtml(m.code) : ''}</td>
  <td>${m.subject ? `<strong>${escapeHtml(m.subject)}</strong><br>` : ''}${escapeHtml(m.text).replace(/\n/g, '<br>')}</td>
</tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev outbox</title>
<style nonce="${nonce}">
  body { font-family: system-ui, sans-serif; margin: 2rem; color: #1a1b1e; }
  table { border-collapse: collapse; width: 100%; }
  th, td { border-bottom: 1px solid #dee2e6; padding: 0.5rem; text-align: left; vertical-align: top; }
  .code { font-family: ui-monospace, monospace; font-size: 1.25rem; letter-spacing: 0.1em; }
</style>
</head>
<body>
<main>
<h1>Dev outbox</h1>
<p>Email and SMS messages this server would have sent, newest first. Outside production only.</p>
${
  messages.length === 0
    ? '<p>No messages yet.</p>'
    : `<table>
<thead><tr><th scope="col">Sent</th><th scope="col">Channel</th><th scope="col">To</th><th scope="col">Code</th><th scope="col">Message</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}
</main>
</body>
</html>`;
}

export async function devOutboxRoutes(app: FastifyInstance): Promise<void> {
  const { config, factors } = app.services;
  if (config.isProduction) return;

  app.get(DEV_OUTBOX_PATH, async (request, reply: FastifyReply) => {
    if (factors.mail.kind !== 'outbox' && factors.sms.kind !== 'outbox') throw refuse.notFound();
    const query = request.query as Record<string, string | undefined>;
    const channel = query.channel?.toUpperCase();
    if (channel !== undefined && channel !== 'EMAIL' && channel !== 'SMS')
      throw refuse.invalid([{ fieldName: 'channel', message: 'Must be EMAIL or SMS' }]);
    const limit = query.limit === undefined ? 100 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500)
      throw refuse.invalid([{ fieldName: 'limit', message: 'Must be a whole number from 1 to 500' }]);
    const rows = await factors.outbox.list({
      ...(query.to ? { to: query.to.slice(0, 500) } : {}),
      ...(channel ? { channel } : {}),
      limit,
    });
    const messages = rows.map(toJson);
    reply.header('cache-control', 'no-store').header('vary', 'accept');
    if ((request.headers.accept ?? '').includes('application/json')) {
      return reply.type('application/json; charset=utf-8').send(JSON.stringify({ messages }));
    }
    return reply.type('text/html; charset=utf-8').send(page(messages, request.cspNonce));
  });
}
