// The identity history store that merge, reset, registration, profile and admin share: events are
// read newest first with their actor and app, paged, and a ticket is all or nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityHistory, recordIdentityEvent } from '../../src/server/db/repositories/history';
import { startServer, type TestServer } from './support/server';
import { targets } from './support/targets';

describe.each(targets)('identity history on $name', (target) => {
  let server: TestServer;
  let ids: Record<string, string>;

  beforeAll(async () => {
    server = await startServer(target);
    const rows = await server.db.selectFrom('identities').select(['id', 'username']).execute();
    ids = Object.fromEntries(rows.map((r) => [r.username, r.id]));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the events newest first, with actor, app, ticket and the total', async () => {
    const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 9, minute));
    await recordIdentityEvent(server.db, { identityId: ids.C10001!, eventDate: at(1), type: 'SIGN_UP' });
    await recordIdentityEvent(server.db, {
      identityId: ids.C10001!,
      eventDate: at(3),
      actorIdentityId: ids.admin1!,
      type: 'SIGNED_OUT_OF_ALL_DEVICES',
      variant: 'warning',
      description: 'Line one\nLine two',
      ticket: { code: 'SUP-123456', url: 'https://jira.example.com/browse/SUP-123456' },
    });
    await recordIdentityEvent(server.db, {
      identityId: ids.C10001!,
      eventDate: at(2),
      actorAppCode: 'LOANS',
      type: 'ACCESS_GRANTED',
      variant: 'success',
    });
    await recordIdentityEvent(server.db, { identityId: ids.C10002!, eventDate: at(4), type: 'OTHER' });

    const first = await identityHistory(server.db, ids.C10001!, { number: 0, size: 2 });
    expect(first.totalElements).toBe(3);
    expect(first.rows.map((r) => r.type)).toEqual(['SIGNED_OUT_OF_ALL_DEVICES', 'ACCESS_GRANTED']);
    expect(first.rows[0]).toMatchObject({
      actor_id: ids.admin1,
      actor_username: 'admin1',
      actor_app_code: null,
      variant: 'warning',
      description: 'Line one\nLine two',
      ticket_code: 'SUP-123456',
    });
    expect(first.rows[1]).toMatchObject({ actor_id: null, actor_app_code: 'LOANS', actor_app_name: 'Loans' });
    const second = await identityHistory(server.db, ids.C10001!, { number: 1, size: 2 });
    expect(second.rows.map((r) => [r.type, r.actor_id, r.actor_app_code])).toEqual([['SIGN_UP', null, null]]);
  });

  it('refuses a ticket code without its url', async () => {
    await expect(
      server.db
        .insertInto('identity_events')
        .values({
          identity_id: ids.C10001!,
          event_date: new Date(),
          type: 'X',
          variant: 'info',
          ticket_code: 'SUP-1',
          ticket_url: null,
        })
        .execute(),
    ).rejects.toThrow(/check constraint/);
  });
});
