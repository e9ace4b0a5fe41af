// Races of the failure limit that only PostgreSQL can have: several connections (or instances)
// write the same failed_auth_counts row at once. PGlite runs one statement at a time, so this file
// exists for PostgreSQL alone (registered only there: not a skipped test on PGlite).
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDefaultUser } from '../../src/server/db/database';
import { ACCOUNT_LOCKED_EVENT, applyPenalty } from '../../src/server/db/repositories/lockout';
import { startServer, usernameKey, type TestServer } from './support/server';
import { someoneWaitsForALock } from './support/locks';
import { targets } from './support/targets';

describe.each(targets.filter((t) => t.name === 'postgres'))(
  'the failure limit on $name, racing',
  (target) => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startServer(target);
    });
    afterAll(async () => {
      await server?.close();
    });

    async function lockEventsOf(username: string): Promise<number> {
      const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from identity_events e join identities i on i.id = e.identity_id
      where lower(i.username) = ${username} and e.type = ${ACCOUNT_LOCKED_EVENT}
    `.execute(server.db);
      return rows[0]?.n ?? 0;
    }

    it('writes one ACCOUNT_LOCKED entry when a failure waits behind another that locked the account', async () => {
      const username = 'c10008';
      const key = usernameKey(server, username);
      const now = new Date();
      await server.db
        .insertInto('failed_auth_counts')
        .values({ username_key: key, count: 9, last_failed_at: now })
        .onConflict((oc) => oc.column('username_key').doUpdateSet({ count: 9, locked_at: null }))
        .execute();
      expect(await lockEventsOf(username)).toBe(0);

      // The first failure locks the account and has not committed yet...
      const first = new pg.Client({ connectionString: withDefaultUser(server.handle.url!) });
      await first.connect();
      try {
        await first.query('begin');
        await first.query('update failed_auth_counts set locked_at = $1 where username_key = $2', [now, key]);
        // ...while the second, which would lock it too, reaches the same row and waits.
        const second = applyPenalty(server.db, {
          username,
          key,
          now: new Date(now.getTime() + 1),
          notBefore: null,
          lockedAt: new Date(now.getTime() + 1),
          lockDescription: 'Locked after 10 incorrect passwords or codes in a row.',
        });
        await expect
          .poll(() => someoneWaitsForALock(server.db), { timeout: 10_000, interval: 20 })
          .toBe(true);
        await first.query('commit');

        // The second finds the account locked already: it did not lock it, and writes no entry.
        expect(await second).toEqual({ newlyLocked: false, identityId: null });
        expect(await lockEventsOf(username)).toBe(0);
        const row = await server.db
          .selectFrom('failed_auth_counts')
          .select('locked_at')
          .where('username_key', '=', key)
          .executeTakeFirstOrThrow();
        expect(row.locked_at?.getTime()).toBe(now.getTime());
      } finally {
        await first.end();
      }
    });

    it("logs a wrong password without waiting on any identity's row, known or unknown username", async () => {
      // Another transaction holds every identity row (an admin's bulk change, a merge's lock).
      const other = new pg.Client({ connectionString: withDefaultUser(server.handle.url!) });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('select id from identities for update');
        // Both refusals come back while those locks are held: the log locks no identity's row.
        const [known, unknown] = await Promise.all([
          server.client().login('C10009', 'Not-The-Password-2026'),
          server.client().login('nobody-by-this-name', 'Not-The-Password-2026'),
        ]);
        expect([known.status, unknown.status]).toEqual([422, 422]);
        expect(await someoneWaitsForALock(server.db)).toBe(false);
      } finally {
        await other.query('rollback');
        await other.end();
      }
      const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_constraint
      where conrelid = 'sign_in_attempts'::regclass and contype = 'f'
    `.execute(server.db);
      expect(rows[0]!.n).toBe(0);
    });
  },
);
