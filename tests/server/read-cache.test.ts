// The read cache of the embedded database (src/server/db/read-cache.ts): what it keeps, when it
// forgets (before every statement that may change data), that a read racing a write is never kept,
// and, over real HTTP on both engines, that what the portal is told after a change is the change:
// sign-out, expiry on the clock, an identity's name and roles, another session's end.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { openDatabase, type AppDatabase } from '../../src/server/db/database';
import { copyOf, ReadCache, readThrough } from '../../src/server/db/read-cache';
import { API, startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ReadCache', () => {
  it('answers a repeated read from memory, with a copy the caller may change', async () => {
    const cache = new ReadCache();
    let loads = 0;
    const load = async () => {
      loads++;
      return { name: 'Jane', seen: new Date('2030-01-01T00:00:00Z'), roles: ['A'] };
    };
    const first = await cache.read('k', load);
    const second = await cache.read('k', load);
    expect(loads).toBe(1);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    second.roles.push('B');
    second.seen.setFullYear(1999);
    expect(await cache.read('k', load)).toEqual({
      name: 'Jane',
      seen: new Date('2030-01-01T00:00:00Z'),
      roles: ['A'],
    });
    // Nor does changing what the first load returned.
    first.name = 'Changed';
    expect((await cache.read('k', load)).name).toBe('Jane');
    expect(loads).toBe(1);
  });

  it('copies rows deeply: dates, arrays, JSON columns, bytes, and a "__proto__" key as a key', () => {
    const row = {
      id: 'x',
      at: new Date('2030-01-01T00:00:00Z'),
      roles: ['A', 'B'],
      data: JSON.parse(
        '{"forcedAction":"MFA","__proto__":{"polluted":true},"nested":{"list":[1,{"a":null}]}}',
      ) as Record<string, unknown>,
      bytes: new Uint8Array([1, 2, 3]),
      none: null,
    };
    const copy = copyOf(row);
    expect(copy).toEqual(row);
    expect(copy.at).not.toBe(row.at);
    expect(copy.roles).not.toBe(row.roles);
    expect(copy.data).not.toBe(row.data);
    expect(copy.data.nested).not.toBe(row.data.nested);
    expect(copy.bytes).not.toBe(row.bytes);
    expect(copy.bytes).toBeInstanceOf(Uint8Array);
    expect(Object.getPrototypeOf(copy.data)).toBe(Object.prototype);
    expect(Object.keys(copy.data)).toContain('__proto__');
    expect((copy.data as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('keeps an absent row too, and forgets everything on invalidate()', async () => {
    const cache = new ReadCache();
    let loads = 0;
    const missing = async () => {
      loads++;
      return undefined;
    };
    expect(await cache.read('gone', missing)).toBeUndefined();
    expect(await cache.read('gone', missing)).toBeUndefined();
    expect(loads).toBe(1);
    cache.invalidate();
    expect(cache.size).toBe(0);
    await cache.read('gone', missing);
    expect(loads).toBe(2);
  });

  it('does not keep a value whose load overlapped a write', async () => {
    const cache = new ReadCache();
    let loads = 0;
    const slow = async () => {
      loads++;
      await sleep(10);
      return loads;
    };
    const pending = cache.read('k', slow);
    cache.invalidate(); // a write while the read was in flight
    expect(await pending).toBe(1);
    expect(cache.size).toBe(0);
    expect(await cache.read('k', slow)).toBe(2);
    expect(await cache.read('k', slow)).toBe(2);
  });

  it('keeps at most its limit, the least recently used going first', async () => {
    const cache = new ReadCache(2);
    const loads: string[] = [];
    const value = (key: string) => async () => {
      loads.push(key);
      return key;
    };
    await cache.read('a', value('a'));
    await cache.read('b', value('b'));
    await cache.read('a', value('a')); // a is now the most recent
    await cache.read('c', value('c')); // b goes
    expect(cache.size).toBe(2);
    await cache.read('a', value('a'));
    await cache.read('b', value('b'));
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('reads straight through where there is no cache (PostgreSQL)', async () => {
    let loads = 0;
    const load = async () => ++loads;
    expect(await readThrough(null, 'k', load)).toBe(1);
    expect(await readThrough(null, 'k', load)).toBe(2);
  });
});

interface Scratch {
  notes: { id: number; text: string };
}

describe('the PGlite driver and the read cache', () => {
  let database: AppDatabase;
  let db: Kysely<Scratch>;
  let cache: ReadCache;
  const readNote = () =>
    cache.read('note', () => db.selectFrom('notes').select('text').where('id', '=', 1).executeTakeFirst());

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' });
    expect(database.readCache).not.toBeNull();
    cache = database.readCache!;
    db = database.db as unknown as Kysely<Scratch>;
    await sql`create table notes (id integer primary key, text text not null)`.execute(db);
    await db.insertInto('notes').values({ id: 1, text: 'first' }).execute();
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('forgets before every statement that may change data, and not for a SELECT', async () => {
    const statements: Array<[string, () => Promise<unknown>]> = [
      ['update', () => db.updateTable('notes').set({ text: 'first' }).where('id', '=', 1).execute()],
      ['insert', () => db.insertInto('notes').values({ id: 2, text: 'x' }).execute()],
      ['delete', () => db.deleteFrom('notes').where('id', '=', 2).execute()],
      [
        'with ... update',
        () =>
          sql`with t as (update notes set text = text where id = 1 returning id) select * from t`.execute(db),
      ],
      ['transaction', () => db.transaction().execute(async () => undefined)],
      ['DDL', () => sql`create index if not exists notes_text on notes (text)`.execute(db)],
    ];
    for (const [label, statement] of statements) {
      await readNote();
      expect(cache.size, label).toBe(1);
      await db.selectFrom('notes').selectAll().execute();
      expect(cache.size, `${label}: a SELECT keeps it`).toBe(1);
      await statement();
      expect(cache.size, `${label}: forgotten`).toBe(0);
    }
  });

  it('never keeps a value a write changed, whichever of the two began first', async () => {
    await db.updateTable('notes').set({ text: 'first' }).where('id', '=', 1).execute();
    expect(await readNote()).toEqual({ text: 'first' });

    // The write has run inside a transaction that still holds the one connection: the read must
    // wait for the commit, and answers the committed value.
    let updated!: () => void;
    const didUpdate = new Promise<void>((resolve) => (updated = resolve));
    const writing = db.transaction().execute(async (trx) => {
      await trx.updateTable('notes').set({ text: 'second' }).where('id', '=', 1).execute();
      updated();
      await sleep(20);
    });
    await didUpdate;
    expect(cache.size).toBe(0);
    const waiting = readNote();
    await writing;
    expect(await waiting).toEqual({ text: 'second' });
    expect(await readNote()).toEqual({ text: 'second' });

    // The read began first (it gets the old value) and the write right after it: what the read
    // loaded must not outlive the write.
    cache.invalidate();
    const reading = readNote();
    const overwriting = db.updateTable('notes').set({ text: 'third' }).where('id', '=', 1).execute();
    expect(await reading).toEqual({ text: 'second' });
    await overwriting;
    expect(await readNote()).toEqual({ text: 'third' });

    // A rolled-back write leaves the committed value, cached or not.
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('notes').set({ text: 'never' }).where('id', '=', 1).execute();
        expect(await trx.selectFrom('notes').select('text').where('id', '=', 1).executeTakeFirst()).toEqual({
          text: 'never',
        });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await readNote()).toEqual({ text: 'third' });
  });
});

describe.each(targets)('what the portal is told after a change, on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2030-01-01T09:00:00Z');
  const MINUTE = 60_000;

  beforeAll(async () => {
    server = await startServer(target, { env: { SESSION_IDLE_MINUTES: '30' }, deps: { clock } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const currentUser = async (client: TestClient) =>
    (
      await client.get<{ isAuthenticated: boolean; name?: string; roles?: string[] }>(
        `${API}anonymous/current-user`,
      )
    ).body;

  it('has the cache on PGlite only', () => {
    expect(server.app.services.database.readCache === null).toBe(target.name === 'postgres');
  });

  it('a signed-out session is signed out at once, however often it was read before', async () => {
    const client = server.client();
    await client.login('C10001');
    for (let i = 0; i < 3; i++) expect((await currentUser(client)).isAuthenticated).toBe(true);
    expect((await client.post(`${API}logout`, {})).status).toBeLessThan(300);
    expect((await currentUser(client)).isAuthenticated).toBe(false);
  });

  it('a session read a moment ago still ends on the clock, with nothing written in between', async () => {
    const client = server.client();
    await client.login('C10001');
    clock.advance(MINUTE);
    expect((await currentUser(client)).isAuthenticated).toBe(true); // touched: idle time restarts
    expect((await currentUser(client)).isAuthenticated).toBe(true); // from memory on PGlite
    clock.advance(30 * MINUTE + 1000);
    expect((await currentUser(client)).isAuthenticated).toBe(false);
    expect((await client.get(`${API}current-user/accessible-apps`)).status).toBe(401);
  });

  it('a changed name and role show in the next answer', async () => {
    const client = server.client();
    await client.login('C10008');
    const before = await currentUser(client);
    expect(before.isAuthenticated).toBe(true);
    const row = await server.db
      .selectFrom('identities')
      .select(['id', 'name'])
      .where('username', '=', 'C10008')
      .executeTakeFirstOrThrow();
    await server.db.updateTable('identities').set({ name: 'Renamed' }).where('id', '=', row.id).execute();
    expect((await currentUser(client)).name).toBe('Renamed');
    await server.db
      .insertInto('identity_roles')
      .values({ identity_id: row.id, role_code: 'READ_ONLY' })
      .execute();
    expect((await currentUser(client)).roles).toContain('READ_ONLY');
    await server.db
      .deleteFrom('identity_roles')
      .where('identity_id', '=', row.id)
      .where('role_code', '=', 'READ_ONLY')
      .execute();
    expect((await currentUser(client)).roles).not.toContain('READ_ONLY');
    await server.db.updateTable('identities').set({ name: row.name }).where('id', '=', row.id).execute();
  });

  it('a session deleted from the database is gone for the next request', async () => {
    const client = server.client();
    await client.login('C10001');
    expect((await currentUser(client)).isAuthenticated).toBe(true);
    expect((await currentUser(client)).isAuthenticated).toBe(true);
    await server.db.deleteFrom('sessions').where('identity_id', 'is not', null).execute();
    expect((await currentUser(client)).isAuthenticated).toBe(false);
  });
});
