// The limits every PostgreSQL connection of the server carries (database.ts, POSTGRES_LIMITS), so
// that no request waits for ever: on a statement, a row lock, an idle transaction or a full pool.
// PGlite runs inside the process, one statement at a time, with none of these to wait on: this
// file exists for PostgreSQL alone (registered only there: not a skipped test on PGlite).
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPLICATION_NAME,
  openDatabase,
  openMigrationDatabase,
  POSTGRES_LIMITS,
  type AppDatabase,
} from '../../src/server/db/database';
import type { Database } from '../../src/server/db/schema';
import { targets, type DatabaseHandle } from './support/targets';

async function setting(db: Kysely<Database>, name: string): Promise<string> {
  const { rows } = await sql<{ value: string }>`select current_setting(${name}) as value`.execute(db);
  return rows[0]!.value;
}

describe.each(targets.filter((t) => t.name === 'postgres'))(
  'PostgreSQL connection limits on $name',
  (target) => {
    let handle: DatabaseHandle;
    const opened: AppDatabase[] = [];

    beforeAll(async () => {
      handle = await target.open();
    });
    afterAll(async () => {
      for (const database of opened) await database.destroy();
      await handle?.dispose();
    });

    async function open(options: {
      poolSize?: number;
      statementTimeoutMs?: number;
      connectTimeoutMs?: number;
    }) {
      const database = await openDatabase({ kind: 'postgres', url: handle.url!, ...options });
      opened.push(database);
      return database.db;
    }

    it('sets the statement, lock and idle-transaction timeouts and names the application', async () => {
      const db = await open({});
      expect(await setting(db, 'statement_timeout')).toBe(`${POSTGRES_LIMITS.statementTimeoutMs / 1000}s`);
      expect(await setting(db, 'lock_timeout')).toBe(`${POSTGRES_LIMITS.lockTimeoutMs / 1000}s`);
      expect(await setting(db, 'idle_in_transaction_session_timeout')).toBe(
        `${POSTGRES_LIMITS.idleInTransactionMs / 60_000}min`,
      );
      expect(await setting(db, 'application_name')).toBe(APPLICATION_NAME);
    });

    it('cancels a statement that runs past DATABASE_STATEMENT_TIMEOUT_MS; 0 leaves the server its own', async () => {
      const db = await open({ statementTimeoutMs: 200 });
      const started = performance.now();
      await expect(sql`select pg_sleep(5)`.execute(db)).rejects.toMatchObject({ code: '57014' });
      expect(performance.now() - started).toBeLessThan(3_000);
      // The connection is usable again afterwards.
      expect(await setting(db, 'statement_timeout')).toBe('200ms');

      const unlimited = await open({ statementTimeoutMs: 0 });
      expect(await setting(unlimited, 'statement_timeout')).toBe('0');
    });

    it('runs the migrations on a connection without the time limits, which are for requests', async () => {
      const requests = await openDatabase({ kind: 'postgres', url: handle.url! });
      opened.push(requests);
      const migrations = await openMigrationDatabase(requests);
      opened.push(migrations);
      expect(migrations.db).not.toBe(requests.db);
      expect(await setting(migrations.db, 'statement_timeout')).toBe('0');
      expect(await setting(migrations.db, 'lock_timeout')).toBe('0');
      // A statement longer than a request may take runs to its end.
      const requestsOnly = await open({ statementTimeoutMs: 100 });
      await expect(sql`select pg_sleep(0.3)`.execute(requestsOnly)).rejects.toMatchObject({ code: '57014' });
      await sql`select pg_sleep(0.3)`.execute(migrations.db);
    });

    it('gives up waiting for a row lock held by a stalled transaction', async () => {
      const db = await open({ poolSize: 2 });
      await sql`create table lock_probe (id int primary key, n int)`.execute(db);
      await sql`insert into lock_probe values (1, 0)`.execute(db);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const stalled = db.transaction().execute(async (trx) => {
        await sql`select * from lock_probe where id = 1 for update`.execute(trx);
        locked();
        await held;
      });
      await isLocked;
      const started = performance.now();
      await expect(sql`update lock_probe set n = 1 where id = 1`.execute(db)).rejects.toMatchObject({
        code: '55P03',
      });
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(POSTGRES_LIMITS.lockTimeoutMs - 100);
      expect(waited).toBeLessThan(POSTGRES_LIMITS.lockTimeoutMs + 3_000);
      release();
      await stalled;
    });

    it('refuses a query that waits longer than the connect timeout for a full pool', async () => {
      const db = await open({ poolSize: 1, connectTimeoutMs: 300 });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let inside!: () => void;
      const isInside = new Promise<void>((resolve) => (inside = resolve));
      const busy = db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        inside();
        await held;
      });
      await isInside;
      const started = performance.now();
      await expect(sql`select 1`.execute(db)).rejects.toThrow(/timeout/i);
      expect(performance.now() - started).toBeLessThan(2_000);
      release();
      await busy;
      // The pool serves again once the connection is back.
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
      expect(rows).toEqual([{ one: 1 }]);
    });
  },
);
