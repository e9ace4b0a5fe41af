// Our Kysely dialect for PGlite: one connection under a FIFO mutex, so two transactions never
// interleave; and the behaviour both databases must share (types, rollbacks, affected rows), run on
// each of them.
import { sql, type Generated, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrations';
import { Mutex } from '../../src/server/db/pglite-dialect';
import { targets, type DatabaseHandle } from './support/targets';

interface Scratch {
  counters: { name: string; value: number };
  events: { id: Generated<number>; label: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Mutex', () => {
  it('grants the lock in request order and once per release', async () => {
    const mutex = new Mutex();
    const order: number[] = [];
    const first = await mutex.lock();
    const waiting = [1, 2, 3].map((n) =>
      mutex.lock().then((release) => {
        order.push(n);
        release();
        release(); // a second release is ignored
      }),
    );
    expect(mutex.pending).toBe(3);
    await sleep(5);
    expect(order).toEqual([]);
    first();
    await Promise.all(waiting);
    expect(order).toEqual([1, 2, 3]);
    expect(mutex.pending).toBe(0);
  });
});

describe('PGlite dialect', () => {
  let database: AppDatabase;
  let db: Kysely<Scratch>;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' });
    db = database.db as unknown as Kysely<Scratch>;
    await sql`create table counters (name text primary key, value integer not null)`.execute(db);
    await sql`create table events (id integer generated always as identity primary key, label text not null)`.execute(
      db,
    );
    await db.insertInto('counters').values({ name: 'c', value: 0 }).execute();
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('never interleaves two transactions on its single connection', async () => {
    // Read, wait, write: interleaved, both would read 0 and the result would be 1.
    const bump = () =>
      db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('counters')
          .select('value')
          .where('name', '=', 'c')
          .executeTakeFirstOrThrow();
        await sleep(20);
        await trx
          .updateTable('counters')
          .set({ value: row.value + 1 })
          .where('name', '=', 'c')
          .execute();
      });
    await Promise.all([bump(), bump(), bump()]);
    const row = await db
      .selectFrom('counters')
      .select('value')
      .where('name', '=', 'c')
      .executeTakeFirstOrThrow();
    expect(row.value).toBe(3);
  });

  it('makes a standalone query wait for a running transaction instead of joining it', async () => {
    const seen: string[] = [];
    const tx = db.transaction().execute(async (trx) => {
      await trx.insertInto('events').values({ label: 'in-tx' }).execute();
      await sleep(30);
      seen.push('tx-done');
      throw new Error('roll it back');
    });
    await sleep(5);
    const outside = db
      .insertInto('events')
      .values({ label: 'outside' })
      .execute()
      .then(() => seen.push('outside-done'));
    await expect(tx).rejects.toThrow('roll it back');
    await outside;
    expect(seen).toEqual(['tx-done', 'outside-done']);
    // The outside insert survived the other transaction's rollback.
    const labels = (await db.selectFrom('events').select('label').execute()).map((r) => r.label);
    expect(labels).toEqual(['outside']);
  });

  it('supports savepoints inside a transaction', async () => {
    const trx = await db.startTransaction().execute();
    await trx.insertInto('events').values({ label: 'kept' }).execute();
    const sp = await trx.savepoint('sp1').execute();
    await sp.insertInto('events').values({ label: 'undone' }).execute();
    const back = await sp.rollbackToSavepoint('sp1').execute();
    await back.commit().execute();
    const labels = (await db.selectFrom('events').select('label').orderBy('id').execute()).map(
      (r) => r.label,
    );
    expect(labels).toEqual(['outside', 'kept']);
  });

  it('keeps working after a failed statement inside a transaction', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`select * from no_such_table`.execute(trx);
      }),
    ).rejects.toThrow();
    const row = await db.selectFrom('counters').select('value').executeTakeFirstOrThrow();
    expect(row.value).toBe(3);
  });

  // Affected rows are shared behaviour: see 'database behaviour shared by both engines' below.
  it('streams results (in chunks of what PGlite materialised; the app does not stream)', async () => {
    const streamed: string[] = [];
    for await (const row of db.selectFrom('events').select('label').orderBy('id').stream(1)) {
      streamed.push(row.label);
    }
    expect(streamed).toEqual(['outside', 'kept']);
  });

  it('keeps statements prepared, and forgets them when DDL changes a table', async () => {
    const read = () => sql<Record<string, unknown>>`select * from counters where name = ${'c'}`.execute(db);
    expect(Object.keys((await read()).rows[0]!)).toEqual(['name', 'value']);
    expect(Object.keys((await read()).rows[0]!)).toEqual(['name', 'value']);
    await sql`alter table counters add column note text`.execute(db);
    expect(Object.keys((await read()).rows[0]!)).toEqual(['name', 'value', 'note']);
  });

  it('recovers from a statement that fails to parse', async () => {
    await expect(sql`select * from counters where`.execute(db)).rejects.toThrow();
    await expect(sql`select * from counters where`.execute(db)).rejects.toThrow();
    const row = await db.selectFrom('counters').select('value').executeTakeFirstOrThrow();
    expect(row.value).toBe(3);
  });

  it('refuses work after destroy', async () => {
    const other = await openDatabase({ kind: 'pglite' });
    await other.destroy();
    await expect(sql`select 1`.execute(other.db)).rejects.toThrow();
  });
});

describe.each(targets)('database behaviour shared by both engines on $name', (target) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await target.open();
    await migrateToLatest(handle.database.db);
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it('reads dates as strings, bigints as numbers, timestamps as Date and jsonb as values', async () => {
    const result = await sql<{
      d: string;
      n: number;
      t: Date;
      j: { a: number[] };
    }>`select date '2001-02-03' as d, 9007199254740991::bigint as n, timestamptz '2030-01-01T00:00:00Z' as t, '{"a":[1,2]}'::jsonb as j`.execute(
      handle.database.db,
    );
    expect(result.rows[0]).toEqual({
      d: '2001-02-03',
      n: 9007199254740991,
      t: new Date('2030-01-01T00:00:00Z'),
      j: { a: [1, 2] },
    });
  });

  it('round-trips parameters of every JavaScript type it is given', async () => {
    const at = new Date('2031-05-06T07:08:09.123Z');
    const result = await sql<Record<string, unknown>>`select
      ${'text'}::text as t, ${42}::int as i, ${true}::boolean as b, ${null}::text as n,
      ${at}::timestamptz as ts, ${JSON.stringify({ k: ['v'] })}::jsonb as j,
      ${Buffer.from([0, 255, 16])}::bytea as bin, ${['a', 'b"c', null]}::text[] as arr,
      ${{ k: 1 }}::jsonb as obj`.execute(handle.database.db);
    const row = result.rows[0]!;
    expect(row).toMatchObject({
      t: 'text',
      i: 42,
      b: true,
      n: null,
      j: { k: ['v'] },
      arr: ['a', 'b"c', null],
      obj: { k: 1 },
    });
    expect((row.ts as Date).toISOString()).toBe(at.toISOString());
    expect(Buffer.from(row.bin as Uint8Array).equals(Buffer.from([0, 255, 16]))).toBe(true);
  });

  it('keeps usernames unique whatever their case', async () => {
    const db = handle.database.db;
    const now = new Date();
    const identity = (id: string, username: string) => ({
      id,
      realm_code: 'BANK',
      username,
      name: 'Test',
      email: null,
      mobile: null,
      phone: null,
      birth_date: null,
      customer_number: null,
      is_staff: false,
      is_admin: false,
      salary_number: null,
      identity_verified: false,
      password_expired: false,
      mfa_required: false,
      created_at: now,
      updated_at: now,
      retired_at: null,
    });
    await db
      .insertInto('identities')
      .values(identity('00000000-0000-4000-8000-000000000001', 'Casey'))
      .execute();
    await expect(
      db.insertInto('identities').values(identity('00000000-0000-4000-8000-000000000002', 'CASEY')).execute(),
    ).rejects.toThrow();
  });

  it('rolls back every write of a failed transaction', async () => {
    const db = handle.database.db;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('properties').values({ name: 'tx-test', value: '1' }).execute();
        await trx.insertInto('properties').values({ name: 'tx-test', value: '2' }).execute();
      }),
    ).rejects.toThrow();
    const rows = await db.selectFrom('properties').selectAll().where('name', '=', 'tx-test').execute();
    expect(rows).toEqual([]);
  });

  // The repositories read these counts: a claim (a code used, a session extended, a request
  // decided) holds only when exactly one row was updated, and cleanups report how many went.
  it('reports affected rows', async () => {
    const db = handle.database.db as unknown as Kysely<Scratch>;
    await sql`create table events (id integer generated always as identity primary key, label text not null)`.execute(
      db,
    );
    const inserted = await db
      .insertInto('events')
      .values([{ label: 'a' }, { label: 'b' }])
      .executeTakeFirstOrThrow();
    expect(inserted.numInsertedOrUpdatedRows).toBe(2n);
    const one = await db
      .updateTable('events')
      .set({ label: 'a2' })
      .where('label', '=', 'a')
      .executeTakeFirstOrThrow();
    expect(one.numUpdatedRows).toBe(1n);
    const none = await db
      .updateTable('events')
      .set({ label: 'z' })
      .where('label', '=', 'none')
      .executeTakeFirstOrThrow();
    expect(none.numUpdatedRows).toBe(0n);
    const all = await db.updateTable('events').set({ label: 'x' }).executeTakeFirstOrThrow();
    expect(all.numUpdatedRows).toBe(2n);
    const deletedNone = await db.deleteFrom('events').where('label', '=', 'none').executeTakeFirstOrThrow();
    expect(deletedNone.numDeletedRows).toBe(0n);
    const deletedAll = await db.deleteFrom('events').executeTakeFirstOrThrow();
    expect(deletedAll.numDeletedRows).toBe(2n);
  });

  it('runs the migrations once', async () => {
    const again = await migrateToLatest(handle.database.db);
    expect(again.results).toEqual([]);
  });
});
