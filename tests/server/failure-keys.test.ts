// The failure limit keeps no typed usernames (domain/lockout.ts, usernameKeyer): people type
// passwords into the username box, and failed_auth_counts has a row for every name typed. Its
// rows, and the attempts of names that match no identity, are keyed by an HMAC of the normalised
// name under a key derived from the data key; migration 0019 converts the rows an older database
// holds, in one transaction.
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, migrations } from '../../src/server/db/migrations';
import { usernameKeyer } from '../../src/server/domain/lockout';
import { INCORRECT_CREDENTIALS_MESSAGE } from '../../src/server/domain/messages';
import { DEMO_PASSWORD, startServer, TEST_DATA_KEY, usernameKey, type TestServer } from './support/server';
import { targets, type DatabaseHandle } from './support/targets';

/** A password typed into the username box, as happens. */
const TYPED_PASSWORD = 'Tr0ub4dor&3-in-the-wrong-box';

describe('usernameKeyer', () => {
  const keyOf = usernameKeyer(TEST_DATA_KEY);

  it('gives one key to every case and padding of a name, and different keys to different names', () => {
    expect(keyOf('C10001')).toBe(keyOf('  c10001 '));
    expect(keyOf('C10001')).not.toBe(keyOf('C10002'));
    expect(keyOf('C10001')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('depends on the data key: without it a guessed name cannot be looked up', () => {
    const other = usernameKeyer(Buffer.alloc(32, 8));
    expect(other('c10001')).not.toBe(keyOf('c10001'));
  });
});

describe.each(targets)('no typed username is kept, on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Every text column of the failure limit's rows and of the attempt log, as one string. */
  async function storedText(): Promise<string> {
    const counts = await server.db.selectFrom('failed_auth_counts').selectAll().execute();
    const attempts = await server.db.selectFrom('sign_in_attempts').selectAll().execute();
    return JSON.stringify([counts, attempts]);
  }

  it("counts and logs a wrong sign-in under the name's key, for unknown and known names alike", async () => {
    const unknown = await server.client().login(TYPED_PASSWORD, 'whatever-it-was');
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ message: INCORRECT_CREDENTIALS_MESSAGE });
    const known = await server.client().login('C10008', 'not-the-password-1');
    expect(known.status).toBe(422);

    const stored = await storedText();
    expect(stored).not.toContain(TYPED_PASSWORD.toLowerCase());
    expect(stored).not.toContain(TYPED_PASSWORD);
    const keyed = await server.db
      .selectFrom('failed_auth_counts')
      .select(['username_key', 'count'])
      .where('username_key', 'in', [usernameKey(server, TYPED_PASSWORD), usernameKey(server, 'C10008')])
      .orderBy('username_key')
      .execute();
    expect(keyed.map((r) => r.count)).toEqual([1, 1]);
    // The unknown name's attempt is logged under its key; a known identity's under its username.
    const attempts = await server.db
      .selectFrom('sign_in_attempts')
      .select(['identity_id', 'username'])
      .where('is_successful', '=', false)
      .execute();
    expect(attempts).toEqual(
      expect.arrayContaining([
        { identity_id: null, username: usernameKey(server, TYPED_PASSWORD) },
        { identity_id: expect.any(String), username: 'c10008' },
      ]),
    );
    // The count is what the sign-in page reads, for any case of the name.
    const count = await server
      .client()
      .get<number>(`/rest/ui/anonymous/login/failed-auth-count?username=${encodeURIComponent('c10008')}`);
    expect(count.body).toBe(1);
    // A right password clears the key's row.
    expect((await server.client().login('c10008', DEMO_PASSWORD)).status).toBe(200);
    expect(
      await server.db
        .selectFrom('failed_auth_counts')
        .select('count')
        .where('username_key', '=', usernameKey(server, 'C10008'))
        .executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe.each(targets)('migration 0019 (failure rows keyed) on $name', (target) => {
  let handle: DatabaseHandle;
  const keyOf = usernameKeyer(TEST_DATA_KEY);
  const lockedAt = new Date(Date.UTC(2026, 10, 20, 9, 30));

  beforeEach(async () => {
    handle = await target.open();
    await migrateToLatest(handle.database.db);
    // The database as 0018 left it: a typed username in each row.
    const db = handle.database.db;
    // Back to 0018: what the later migrations made is taken away, and they run again below.
    await sql`delete from kysely_migration where name > '0019'`.execute(db);
    await sql`drop index sessions_reset_candidates`.execute(db);
    await sql`alter table failed_auth_counts drop column in_flight, drop column in_flight_at`.execute(db);
    await sql`alter table failed_auth_counts rename column username_key to username`.execute(db);
    await sql`insert into realms (code, name, is_default) values ('R', 'Realm', false)`.execute(db);
    await sql`
      insert into failed_auth_counts (username, count, last_failed_at, locked_at)
      values ('c10001', 10, ${lockedAt}::timestamptz, ${lockedAt}::timestamptz),
             (${TYPED_PASSWORD.toLowerCase()}, 2, ${lockedAt}::timestamptz, null)
    `.execute(db);
    await sql`
      insert into sign_in_attempts (identity_id, username, realm_code, attempted_at, is_successful)
      values (null, ${TYPED_PASSWORD.toLowerCase()}, 'R', ${lockedAt}::timestamptz, false)
    `.execute(db);
  });
  afterEach(async () => {
    await handle?.dispose();
  });

  it('keys every row in place: counts, the lock and the unknown attempt survive, the typed text does not', async () => {
    const db = handle.database.db;
    const result = await migrateToLatest(db, { usernameKey: keyOf });
    // 0019 and every later migration ran, in order, on the database left at 0018.
    const ran = result.results?.map((r) => [r.migrationName, r.status]) ?? [];
    expect(ran.slice(0, 3)).toEqual([
      ['0019_failure_limit_username_keys', 'Success'],
      ['0020_failure_limit_in_flight', 'Success'],
      ['0021_sessions_reset_candidates', 'Success'],
    ]);
    expect(ran.every(([, status]) => status === 'Success')).toBe(true);
    expect(ran.at(-1)?.[0]).toBe(Object.keys(migrations).sort().at(-1));
    const counts = await db
      .selectFrom('failed_auth_counts')
      .select(['username_key', 'count', 'locked_at'])
      .orderBy('count')
      .execute();
    expect(counts).toEqual([
      { username_key: keyOf(TYPED_PASSWORD), count: 2, locked_at: null },
      { username_key: keyOf('C10001'), count: 10, locked_at: lockedAt },
    ]);
    const attempts = await db.selectFrom('sign_in_attempts').select(['username']).execute();
    expect(attempts).toEqual([{ username: keyOf(TYPED_PASSWORD) }]);
  });

  it('refuses to convert rows without the data key, and changes nothing', async () => {
    const db = handle.database.db;
    await expect(migrateToLatest(db)).rejects.toThrow(
      /0019_failure_limit_username_keys failed: converting the failure limit rows needs the data key/,
    );
    const rows = await sql<{
      username: string;
    }>`select username from failed_auth_counts order by count`.execute(db);
    expect(rows.rows).toEqual([{ username: TYPED_PASSWORD.toLowerCase() }, { username: 'c10001' }]);
    // Given the key, the same database migrates.
    await migrateToLatest(db, { usernameKey: keyOf });
    expect(await db.selectFrom('failed_auth_counts').select('username_key').execute()).toHaveLength(2);
  });
});
