// Migration 0022 and what it serves, over real HTTP on each engine: the admin lists (identities,
// invitations, access requests) refuse a page beyond LIST_PAGE_LIMIT with 400 at `page` and change
// nothing; their searches list the same rows in the same order, with the same totals, as the
// joins and LIKEs they replaced (an oracle query written the old way, over more than two pages);
// the migration's indexes exist (the trigram ones wherever pg_trgm is installed: on PostgreSQL
// always, on PGlite when the instance loads it) and are skipped when built beforehand under the
// same names, as a bank with big tables builds them (concurrently). On PostgreSQL the planner uses
// them, on tables of 20,000 generated rows each (ANALYZEd, default planner settings: no
// enable_seqscan), for the real statements the lists and the sweep send; and one sweep runs at a
// time across instances: a second one started while the first holds the lock skips.
import { randomUUID } from 'node:crypto';
import { Kysely, Migrator, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessRequestSummary, InvitationSummary, PageMetadata } from '../../src/contract/admin';
import { LIST_PAGE_LIMIT } from '../../src/contract/admin';
import type { IdentitySummary } from '../../src/contract/admin-identities';
import { openDatabase, withDefaultUser } from '../../src/server/db/database';
import { migrateToLatest, migrationProvider } from '../../src/server/db/migrations';
import { listAccessRequests } from '../../src/server/db/repositories/access-requests';
import { listAdminInvitations } from '../../src/server/db/repositories/admin';
import type { Database } from '../../src/server/db/schema';
import { AdminIdentities } from '../../src/server/domain/admin/identities';
import { SWEEP_LOCK_KEY, sweepExpired } from '../../src/server/http/app';
import { get } from './support/factors';
import { snapshot, startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

type Paged<T> = { data: T[]; page: PageMetadata };
type Row = Record<string, unknown>;

const PAGE_SIZE = 20;
const LISTS = ['admin/identities', 'admin/invitations', 'access-requests'] as const;
const TRIGRAM_INDEXES = ['access_requests_search', 'identities_search', 'invitations_search'];
const OTHER_INDEXES = [
  'access_requests_facility',
  'access_requests_requester',
  'access_requests_status',
  'failed_auth_counts_idle',
  'identities_list_order',
  'invitations_app',
  'invitations_created',
  'invitations_facility',
  'trusted_devices_expires_at',
];

/** The lists' LIKE pattern, as the code before 0022 built it. */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

async function indexesOf(db: Kysely<Database>): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; def: string }>`
    select indexname as name, indexdef as def from pg_indexes where schemaname = 'public'
  `.execute(db);
  return new Map(rows.map((r) => [r.name, r.def]));
}

async function hasTrigram(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_extension where extname = 'pg_trgm'
  `.execute(db);
  return rows[0]!.n === 1;
}

/** More than two pages of each list, matched by one word, with ties in the order. */
async function addRows(db: Kysely<Database>, word: string, count: number): Promise<void> {
  const facility = await db
    .selectFrom('facilities')
    .select(['id', 'app_code'])
    .orderBy('app_code')
    .orderBy('code')
    .executeTakeFirstOrThrow();
  const base = Date.parse('2026-01-01T00:00:00Z');
  // Every third row shares its time with the one before: the order's last key (id) decides.
  const at = (n: number) => new Date(base + Math.floor((n * 2) / 3) * 60_000);
  const identities = Array.from({ length: count }, (_, n) => ({
    id: randomUUID(),
    realm_code: 'BANK',
    username: `${word}${String(n).padStart(3, '0')}`,
    name: n % 2 ? `Pat ${word} ${n}` : `Alex Other ${n}`,
    email: n % 4 ? `${word}.${n}@example.com` : null,
    mobile: n % 5 ? `+61 400 9${String(n).padStart(2, '0')} ${String(100 + n)}` : null,
    customer_number: n % 3 ? null : `C9${String(n).padStart(4, '0')}`,
    created_at: at(n),
    updated_at: at(n),
    retired_at: n % 7 === 0 ? at(n) : null,
    is_staff: false,
    is_admin: false,
    identity_verified: false,
    password_expired: false,
    mfa_required: false,
  }));
  await db.insertInto('identities').values(identities).execute();
  await db
    .insertInto('invitations')
    .values(
      Array.from({ length: count }, (_, n) => ({
        id: randomUUID(),
        code_hash: `${word}-${n}-${randomUUID()}`,
        email: n % 2 ? `${word}.invitee${n}@example.com` : `someone${n}@example.com`,
        app_code: n % 3 ? facility.app_code : null,
        facility_id: n % 3 === 1 ? facility.id : null,
        name: n % 4 === 0 ? `Invitee ${word}` : null,
        customer_number: n % 5 === 0 ? `C8${String(n).padStart(4, '0')}` : null,
        roles: '[]',
        is_staff: false,
        created_at: at(n),
        expires_at: new Date(at(n).getTime() + 14 * 86_400_000),
      })),
    )
    .execute();
  await db
    .insertInto('access_requests')
    .values(
      Array.from({ length: count }, (_, n) => ({
        id: randomUUID(),
        code: `AR-${word.toUpperCase()}${n}`,
        app_code: facility.app_code,
        facility_id: n % 2 ? facility.id : null,
        requester_identity_id: identities[n]!.id,
        status:
          n % 3 === 0 ? ('PENDING' as const) : n % 3 === 1 ? ('APPROVED' as const) : ('REJECTED' as const),
        created_at: at(n),
      })),
    )
    .execute();
}

/** An anonymous session that expired a minute ago. */
async function insertExpiredSession(db: Kysely<Database>, idHash: string): Promise<void> {
  const past = new Date(Date.now() - 60_000);
  await sql`
    insert into sessions (id_hash, type, context, created_at, last_seen_at, expires_at, absolute_expires_at)
    values (${idHash}, 'ANONYMOUS', '{}', ${past}, ${past}, ${past}, ${past})
  `.execute(db);
}

describe.each(targets)('admin lists and sweeps after migration 0022 on $name', (target) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startServer(target);
    admin = server.client();
    expect((await admin.login('admin1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    await addRows(server.db, 'zebu', 47);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates its indexes, the trigram ones wherever pg_trgm is installed (always on PostgreSQL)', async () => {
    const indexes = await indexesOf(server.db);
    for (const name of OTHER_INDEXES) expect(indexes.has(name), name).toBe(true);
    const trigram = await hasTrigram(server.db);
    if (target.name === 'postgres') expect(trigram).toBe(true);
    for (const name of TRIGRAM_INDEXES) expect(indexes.has(name), name).toBe(trigram);
    expect(indexes.get('failed_auth_counts_idle')).toContain('WHERE (locked_at IS NULL)');
  });

  it(`refuses a list page beyond the first ${LIST_PAGE_LIMIT} with 400 at page, and changes nothing`, async () => {
    const before = await snapshot(server.db);
    for (const list of LISTS) {
      for (const page of [LIST_PAGE_LIMIT, LIST_PAGE_LIMIT + 1, 5_000_000]) {
        const refused = await get(admin, `${list}?page=${page}&query=zebu`);
        expect(refused.status, `${list} ${page}`).toBe(400);
        expect(refused.body).toMatchObject({
          errors: [
            { fieldName: 'page', message: `Value must be less than or equal to ${LIST_PAGE_LIMIT - 1}` },
          ],
        });
      }
      // The last page allowed is answered (empty here), with the list's total.
      const first = await get<Paged<unknown>>(admin, `${list}?query=zebu`);
      expect(first.body.data).toHaveLength(PAGE_SIZE);
      const last = await get<Paged<unknown>>(admin, `${list}?page=${LIST_PAGE_LIMIT - 1}&query=zebu`);
      expect(last.status, list).toBe(200);
      expect(last.body).toEqual({
        data: [],
        page: { number: LIST_PAGE_LIMIT - 1, size: PAGE_SIZE, totalElements: first.body.page.totalElements },
      });
    }
    expect(await snapshot(server.db)).toEqual(before);
  });

  /** Every page of a list's search, in order, and the total each page gave. */
  async function allPages<T>(list: string, query: string): Promise<{ items: T[]; totals: number[] }> {
    const items: T[] = [];
    const totals: number[] = [];
    for (let page = 0; ; page++) {
      const res = await get<Paged<T>>(admin, `${list}?${new URLSearchParams({ query, page: String(page) })}`);
      expect(res.status, `${list} ${query} ${page}`).toBe(200);
      items.push(...res.body.data);
      totals.push(res.body.page.totalElements);
      if (res.body.data.length < PAGE_SIZE || items.length >= res.body.page.totalElements) break;
    }
    return { items, totals };
  }

  const ORACLE_QUERIES = [
    '',
    'zebu',
    'ZEBU 1',
    'pat zebu 3',
    'pend',
    'reject',
    'loans',
    'northside',
    'AR-',
    'c9',
    '%',
    '_',
    'no-such-thing',
  ];

  it('lists access requests as the joins did: same rows, same order, same total, over every page', async () => {
    for (const query of ORACLE_QUERIES) {
      const pattern = containsPattern(query.trim());
      const { rows } = await sql<{ id: string }>`
        select r.id from access_requests r
          join apps a on a.code = r.app_code
          join identities i on i.id = r.requester_identity_id
          left join facilities f on f.id = r.facility_id
        where ${query.trim() === ''} or lower(r.code) like ${pattern} or lower(r.status) like ${pattern}
          or lower(a.code) like ${pattern} or lower(a.name) like ${pattern}
          or lower(f.code) like ${pattern} or lower(f.name) like ${pattern}
          or lower(i.username) like ${pattern} or lower(i.name) like ${pattern}
        order by r.created_at desc, r.id desc
      `.execute(server.db);
      const { items, totals } = await allPages<AccessRequestSummary>('access-requests', query);
      expect(
        items.map((r) => r.id),
        query,
      ).toEqual(rows.map((r) => r.id));
      expect(new Set(totals), query).toEqual(new Set([rows.length]));
    }
  });

  it('lists invitations as the joins did: same rows, same order, same total, over every page', async () => {
    for (const query of ORACLE_QUERIES) {
      const pattern = containsPattern(query.trim());
      const { rows } = await sql<{ id: string }>`
        select inv.id from invitations inv
          left join apps a on a.code = inv.app_code
          left join facilities f on f.id = inv.facility_id
        where ${query.trim() === ''} or lower(inv.email) like ${pattern} or lower(inv.name) like ${pattern}
          or lower(inv.customer_number) like ${pattern}
          or lower(a.code) like ${pattern} or lower(a.name) like ${pattern}
          or lower(f.code) like ${pattern} or lower(f.name) like ${pattern}
        order by inv.created_at desc, inv.id desc
      `.execute(server.db);
      const { items, totals } = await allPages<InvitationSummary>('admin/invitations', query);
      expect(
        items.map((r) => r.id),
        query,
      ).toEqual(rows.map((r) => r.id));
      expect(new Set(totals), query).toEqual(new Set([rows.length]));
    }
  });

  it('searches identities as before: same rows, same order (live first, by username), same total', async () => {
    for (const query of ORACLE_QUERIES) {
      const pattern = containsPattern(query.trim());
      const { rows } = await sql<{ id: string }>`
        select i.id from identities i
        where ${query.trim() === ''} or lower(i.username) like ${pattern} or lower(i.name) like ${pattern}
          or lower(i.email) like ${pattern} or lower(i.customer_number) like ${pattern}
        order by i.retired_at is not null, lower(i.username), i.id
      `.execute(server.db);
      const { items, totals } = await allPages<IdentitySummary>('admin/identities', query);
      expect(
        items.map((r) => r.id),
        query,
      ).toEqual(rows.map((r) => r.id));
      expect(new Set(totals), query).toEqual(new Set([rows.length]));
    }
    // A mobile by its digits, however it is spaced or dialled.
    const { items } = await allPages<IdentitySummary>('admin/identities', '0400 901 101');
    expect(items.map((i) => i.username)).toEqual(['zebu001']);
  });

  it('sweeps expired sessions and trusted devices and idle failure counts in one round', async () => {
    const now = new Date();
    const past = new Date(now.getTime() - 60_000);
    const identity = await server.db
      .selectFrom('identities')
      .select('id')
      .where('username', '=', 'zebu002')
      .executeTakeFirstOrThrow();
    await insertExpiredSession(server.db, `sweep-${randomUUID()}`);
    await server.db
      .insertInto('trusted_devices')
      .values({
        id: randomUUID(),
        identity_id: identity.id,
        token_hash: `sweep-${randomUUID()}`,
        created_at: past,
        last_active_at: past,
        expires_at: past,
      })
      .execute();
    await server.db
      .insertInto('failed_auth_counts')
      .values({ username_key: `sweep-${randomUUID()}`, count: 1, last_failed_at: new Date(0) })
      .execute();
    expect(await sweepExpired(server.app.services)).toBe('ran');
    const left = await sql<{ n: number }>`
      select (select count(*) from sessions where expires_at <= ${now}::timestamptz)
           + (select count(*) from trusted_devices where expires_at <= ${now}::timestamptz)
           + (select count(*) from failed_auth_counts where last_failed_at = 'epoch') as n
    `.execute(server.db);
    expect(Number(left.rows[0]!.n)).toBe(0);
  });

  it('skips indexes built beforehand under the same names (as `create index concurrently` builds them)', async () => {
    // A database no migration has run on (the PGlite target's come migrated).
    const handle =
      target.name === 'postgres'
        ? await target.open()
        : await openDatabase({ kind: 'pglite' }).then((database) => ({
            database,
            dispose: () => database.destroy(),
          }));
    try {
      const db = handle.database.db;
      const migrator = new Migrator({ db, provider: migrationProvider() });
      const before = await migrator.migrateTo('0021_sessions_reset_candidates');
      expect(before.error).toBeUndefined();
      // Built the way the migration's comment tells a bank with big tables to (outside a
      // transaction, concurrently, where PostgreSQL can); PGlite has no concurrent builds.
      const concurrently = target.name === 'postgres' ? 'concurrently ' : '';
      await sql
        .raw(
          `create index ${concurrently}if not exists invitations_created on invitations (created_at desc, id desc)`,
        )
        .execute(db);
      if (target.name === 'postgres') {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql
          .raw(
            `create index concurrently if not exists access_requests_search on access_requests
              using gin (lower(code) gin_trgm_ops)`,
          )
          .execute(db);
      }
      const result = await migrateToLatest(db);
      // 0022 and the migrations after it ran.
      const ran = result.results?.map((r) => [r.migrationName, r.status]) ?? [];
      expect(ran[0]).toEqual(['0022_list_and_sweep_indexes', 'Success']);
      expect(ran.every(([, status]) => status === 'Success')).toBe(true);
      const built = await indexesOf(db);
      const migrated = await indexesOf(server.db);
      for (const name of [...OTHER_INDEXES, ...TRIGRAM_INDEXES]) {
        expect(built.get(name), name).toEqual(migrated.get(name));
      }
    } finally {
      await handle.dispose();
    }
  });
});

/** Every node of an EXPLAIN (format json) plan. */
function planNodes(plan: Row): Row[] {
  const nodes: Row[] = [plan];
  for (const child of (plan.Plans as Row[] | undefined) ?? []) nodes.push(...planNodes(child));
  return nodes;
}

describe.each(targets.filter((t) => t.name === 'postgres'))(
  'the planner and the sweep lock on $name',
  (target) => {
    const ROWS = 20_000;
    let server: TestServer;
    let other: TestServer;
    let pool: pg.Pool;
    /** A Kysely on the test database that keeps the statements it sends. */
    let logged: Kysely<Database>;
    let statements: CompiledQuery[] = [];

    beforeAll(async () => {
      server = await startServer(target);
      other = await startServer(target, { sameDatabaseAs: server });
      pool = new pg.Pool({ connectionString: withDefaultUser(server.handle.url!), max: 4 });
      logged = new Kysely<Database>({
        dialect: new PostgresDialect({ pool }),
        log: (event) => {
          if (event.level === 'query') statements.push(event.query);
        },
      });
      // 20,000 rows in each table the lists and the sweep read; a few rows old enough to sweep.
      const db = server.db;
      await sql`
        insert into identities (id, realm_code, username, name, email, mobile, customer_number,
                                created_at, updated_at, retired_at)
        select gen_random_uuid(), 'BANK', 'gen' || n, 'Generated Person ' || md5(n::text),
               'gen' || n || '@example.com', '+61 4' || lpad((n * 7919 % 100000000)::text, 8, '0'),
               'C' || (3000000 + n), now(), now(), case when n % 20 = 0 then now() end
        from generate_series(1, ${ROWS}::int) n
      `.execute(db);
      await sql`
        insert into invitations (id, code_hash, email, app_code, name, created_at, expires_at)
        select gen_random_uuid(), md5('gen' || n), 'invitee' || n || '@example.com',
               (select code from apps order by code limit 1), 'Invitee ' || md5(n::text),
               now() - n * interval '1 minute', now() + interval '14 days'
        from generate_series(1, ${ROWS}::int) n
      `.execute(db);
      await sql`
        insert into access_requests (id, code, app_code, requester_identity_id, status, created_at)
        select gen_random_uuid(), 'AR-' || upper(substr(md5('ar' || n), 1, 10)),
               (select code from apps order by code limit 1), i.id, 'APPROVED',
               now() - n * interval '1 minute'
        from generate_series(1, ${ROWS}::int) n
        join identities i on i.username = 'gen' || n
      `.execute(db);
      await sql`
        insert into failed_auth_counts (username_key, count, last_failed_at, locked_at)
        select md5('key' || n), 1, now() - (n % 100) * interval '1 hour' - case when n <= 10 then interval '40 days' else interval '0' end,
               case when n % 50 = 0 then now() end
        from generate_series(1, ${ROWS}::int) n
      `.execute(db);
      await sql`
        insert into trusted_devices (id, identity_id, token_hash, created_at, last_active_at, expires_at)
        select gen_random_uuid(), i.id, md5('device' || n), now(), now(),
               now() + (n % 7 + 1) * interval '1 day' - case when n <= 10 then interval '30 days' else interval '0' end
        from generate_series(1, ${ROWS}::int) n
        join identities i on i.username = 'gen' || n
      `.execute(db);
      // VACUUM too: it moves the GIN indexes' pending entries (fastupdate) into the index, as
      // autovacuum does on a live database; the planner prices an unmerged pending list high.
      await sql`vacuum analyze`.execute(db);
    }, 120_000);
    afterAll(async () => {
      await logged?.destroy();
      await other?.close();
      await server?.close();
    });

    /** The indexes each statement's plan reads, and its scans, from EXPLAIN (format json). */
    async function plansOf(queries: CompiledQuery[]) {
      const plans: { sql: string; indexes: string[]; seqScans: string[] }[] = [];
      for (const query of queries) {
        const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: Row }] }>(
          `explain (format json) ${query.sql}`,
          query.parameters as unknown[],
        );
        const nodes = planNodes(rows[0]!['QUERY PLAN'][0].Plan);
        plans.push({
          sql: query.sql,
          indexes: nodes.flatMap((n) => (n['Index Name'] ? [n['Index Name'] as string] : [])),
          seqScans: nodes.flatMap((n) =>
            n['Node Type'] === 'Seq Scan' ? [n['Relation Name'] as string] : [],
          ),
        });
      }
      return plans;
    }

    async function sent(run: () => Promise<unknown>): Promise<CompiledQuery[]> {
      statements = [];
      await run();
      return statements;
    }

    it('searches identities through the trigram index and pages them in the order index', async () => {
      const identities = new AdminIdentities({ db: logged } as never);
      const rare = (
        await sql<{ name: string }>`select name from identities where username = 'gen4321'`.execute(server.db)
      ).rows[0]!.name;
      const [byName] = await plansOf(await sent(() => identities.search(0, rare.slice(-12))));
      expect(byName!.indexes).toContain('identities_search');
      expect(byName!.seqScans).not.toContain('identities');
      const [byMobile] = await plansOf(await sent(() => identities.search(0, '0400 000 000')));
      expect(byMobile!.indexes).toContain('identities_search');
      expect(byMobile!.seqScans).not.toContain('identities');
      const [page] = await plansOf(await sent(() => identities.search(10, '')));
      expect(page!.indexes).toEqual(['identities_list_order']);
    });

    it('pages invitations in invitations_created and searches them through the trigram index', async () => {
      const list = (query: string, number = 0) =>
        listAdminInvitations(logged, { number, size: PAGE_SIZE, query });
      const [page] = await plansOf(await sent(() => list('', 10)));
      expect(page!.indexes).toContain('invitations_created');
      expect(page!.seqScans).not.toContain('invitations');
      const rare = (
        await sql<{
          name: string;
        }>`select name from invitations where email = 'invitee777@example.com'`.execute(server.db)
      ).rows[0]!.name;
      const search = await plansOf(await sent(() => list(rare.slice(-12))));
      const listed = search.find((p) => p.sql.includes('"inv"."email"'))!;
      expect(listed.indexes).toContain('invitations_search');
      expect(listed.seqScans).not.toContain('invitations');
    });

    it('searches access requests through the code trigram index and the requesters that match', async () => {
      const list = (query: string) => listAccessRequests(logged, { number: 0, size: PAGE_SIZE, query });
      const code = (
        await sql<{
          code: string;
        }>`select code from access_requests order by code limit 1 offset 500`.execute(server.db)
      ).rows[0]!.code;
      const byCode = await plansOf(await sent(() => list(code.slice(3, 11))));
      const listed = byCode.find((p) => p.sql.includes('"r"."code"'))!;
      expect(listed.indexes).toContain('access_requests_search');
      expect(listed.seqScans).not.toContain('access_requests');
      const byRequester = await plansOf(await sent(() => list('gen12345')));
      const lookup = byRequester.find((p) => p.sql.includes('from identities'))!;
      expect(lookup.indexes).toContain('identities_search');
      const requested = byRequester.find((p) => p.sql.includes('"r"."code"'))!;
      expect(requested.indexes).toContain('access_requests_requester');
      expect(requested.seqScans).not.toContain('access_requests');
    });

    it('sweeps idle failure counts and expired trusted devices through their indexes', async () => {
      const queries = await sent(() =>
        sweepExpired({
          database: { db: logged, kind: 'postgres' } as never,
          clock: server.app.services.clock,
        }),
      );
      const plans = await plansOf(queries);
      const counts = plans.find((p) => /delete from "?failed_auth_counts/.test(p.sql))!;
      expect(counts.indexes).toContain('failed_auth_counts_idle');
      expect(counts.seqScans).toEqual([]);
      const devices = plans.find((p) => /delete from "?trusted_devices/.test(p.sql))!;
      expect(devices.indexes).toEqual(['trusted_devices_expires_at']);
      expect(devices.seqScans).toEqual([]);
    });

    it('skips a sweep while another instance holds the sweep lock, and runs once it is free', async () => {
      const holder = await pool.connect();
      try {
        await holder.query('select pg_advisory_lock($1::bigint)', [SWEEP_LOCK_KEY]);
        expect(await sweepExpired(server.app.services)).toBe('skipped');
        expect(await sweepExpired(other.app.services)).toBe('skipped');
        await holder.query('select pg_advisory_unlock($1::bigint)', [SWEEP_LOCK_KEY]);
        expect(await sweepExpired(other.app.services)).toBe('ran');
      } finally {
        holder.release();
      }
    });

    it('runs one of two concurrent sweeps on two instances; the other skips; the lock is then free', async () => {
      const idHash = `race-${randomUUID()}`;
      await insertExpiredSession(server.db, idHash);
      // The test holds the expired session's row: the first sweep, holding the sweep lock, waits
      // at its delete (well inside the pool's 5 s lock_timeout).
      const blocker = await pool.connect();
      let first: Promise<string> | undefined;
      try {
        await blocker.query('begin');
        await blocker.query('select 1 from sessions where id_hash = $1 for update', [idHash]);
        first = sweepExpired(server.app.services);
        for (let i = 0; ; i++) {
          const { rows } = await pool.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
              where wait_event_type = 'Lock' and query like 'delete from "sessions"%'`,
          );
          if (rows[0]!.n > 0) break;
          if (i > 200) throw new Error('the first sweep never reached its delete');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(await sweepExpired(other.app.services)).toBe('skipped');
        await blocker.query('commit');
      } catch (error) {
        await blocker.query('rollback').catch(() => {});
        throw error;
      } finally {
        blocker.release();
      }
      expect(await first).toBe('ran');
      expect(
        await server.db.selectFrom('sessions').select('id_hash').where('id_hash', '=', idHash).execute(),
      ).toEqual([]);
      // Released after the round: the next round on either instance runs.
      expect(await sweepExpired(other.app.services)).toBe('ran');
      const { rows } = await pool.query<{ n: number }>(
        `select count(*)::int as n from pg_locks
          where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
      );
      expect(rows[0]!.n).toBe(0);
    });
  },
);
