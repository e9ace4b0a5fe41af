// Access requests of accounts a merge retires (access review, high): the merge moves the retired
// accounts' PENDING requests to the surviving account, in its transaction, with an entry in each
// request's history (one the survivor already has open for the same app and facility is kept, and
// the retired account's is closed, saying why); a decision on a request whose requester is retired
// (one left pending by a merge made before requests moved with it) is refused with 409 and changes
// nothing, so no grant, history or email ever lands on an account that can no longer sign in. On
// PostgreSQL, an approval racing a merge of its requester waits for the merge and decides for the
// survivor.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DecidedAccessRequest } from '../../src/contract/access-requests';
import type { AccessRequestSummary, HistoryItem, PageMetadata } from '../../src/contract/admin';
import { withDefaultUser } from '../../src/server/db/database';
import {
  ACCESS_REQUEST_EVENT_TYPES,
  REQUESTER_RETIRED_MESSAGE,
} from '../../src/server/domain/access-requests';
import { DEMO_PASSWORD, startServer, type TestClient, type TestServer } from './support/server';
import { someoneWaitsForALock } from './support/locks';
import { targets } from './support/targets';
import { get, outbox, post, signInToStep } from './support/factors';

type Paged<T> = { data: T[]; page: PageMetadata };
const M = 'forced-actions/merge-identities';

/** Failure injection: the statement number after which the merge transaction throws (0: none). */
let failAfter = 0;
class InjectedFailure extends Error {}

/** Customers, their requests and merges, on a server of its own (PGlite or PostgreSQL). */
function setUp(target: (typeof targets)[number]) {
  const ctx = {} as { server: TestServer; admin: TestClient };

  beforeAll(async () => {
    ctx.server = await startServer(target, {
      deps: {
        mergeObserver: (n) => {
          if (n === failAfter) throw new InjectedFailure(`injected after statement ${n}`);
        },
      },
    });
    ctx.admin = ctx.server.client();
    expect((await ctx.admin.login('admin1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
  });
  afterAll(async () => {
    await ctx.server?.close();
  });
  beforeEach(() => {
    failAfter = 0;
  });
  return ctx;
}

describe.each(targets)('access requests of merged accounts on $name', (target) => {
  const ctx = setUp(target);
  const db = () => ctx.server.db;

  /** A new customer like C10001 (signs in without forced steps), with an address of its own. */
  async function customer(username: string): Promise<string> {
    const source = await db()
      .selectFrom('identities')
      .selectAll()
      .where('username', '=', 'C10001')
      .executeTakeFirstOrThrow();
    const hash = await db()
      .selectFrom('credentials')
      .select('password_hash')
      .where('identity_id', '=', source.id)
      .executeTakeFirstOrThrow();
    const id = randomUUID();
    const now = new Date();
    await db()
      .insertInto('identities')
      .values({
        ...source,
        id,
        username,
        email: `${username.toLowerCase()}@example.com`,
        customer_number: username,
        identity_verified: false,
        created_at: now,
        updated_at: now,
        retired_at: null,
      })
      .execute();
    await db()
      .insertInto('credentials')
      .values({ identity_id: id, password_hash: hash.password_hash, changed_at: now })
      .execute();
    return id;
  }

  /** Signs the customer in and files a request; answers its id and code. */
  async function file(username: string, appCode: string, facilityCode?: string) {
    const client = ctx.server.client();
    expect((await client.login(username)).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    const filed = await post<{ id: string; code: string; status: string }>(client, 'access-requests', {
      appCode,
      ...(facilityCode ? { facilityCode } : {}),
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(200);
    expect(filed.body.status).toBe('PENDING');
    return filed.body;
  }

  const shareEmail = (ids: string[], email: string) =>
    db().updateTable('identities').set({ email }).where('id', 'in', ids).execute();

  /** Signs in as `username` (asked to merge) and takes the wizard up to confirm, keeping `preferred`. */
  async function readyToConfirm(username: string, other: string, preferred: string) {
    const client = ctx.server.client();
    await signInToStep(client, username, 'DUPLICATE_ACCOUNTS');
    const { id } = await db()
      .selectFrom('identities')
      .select('id')
      .where('username', '=', other)
      .executeTakeFirstOrThrow();
    const select = await post(client, `${M}/select-accounts`, {
      identities: [{ id, password: DEMO_PASSWORD }],
    });
    expect(select.status, JSON.stringify(select.body)).toBe(200);
    expect((await post(client, `${M}/preferred-username`, { username: preferred })).status).toBe(204);
    return client;
  }

  const request = (id: string) =>
    db()
      .selectFrom('access_requests')
      .select(['requester_identity_id', 'status', 'decided_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const history = async (id: string) =>
    (await get<Paged<HistoryItem>>(ctx.admin, `access-requests/${id}/history`)).body.data;
  const grantsOf = (identityId: string) =>
    db()
      .selectFrom('access_grants')
      .select(['app_code', 'facility_id'])
      .where('identity_id', '=', identityId)
      .execute();
  const count = async (table: 'access_grants' | 'access_request_events' | 'outbox_messages') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("moves the retired account's pending requests to the survivor, whose approval then grants it", async () => {
    const survivor = await customer('AM1001');
    const retired = await customer('AM1002');
    const treasury = await file('AM1002', 'TREASURY');
    const duplicate = await file('AM1002', 'LOANS', 'F003');
    const kept = await file('AM1001', 'LOANS', 'F003');
    // A decided request is the retired account's record and stays with it.
    const decided = await file('AM1002', 'LOANS', 'F002');
    expect(
      (await post(ctx.admin, `access-requests/${decided.id}/reject`, { ticketCode: 'SUP-1', reason: 'No.' }))
        .status,
    ).toBe(200);
    const decidedBefore = await request(decided.id);
    await shareEmail([survivor, retired], 'merged-requests@example.com');

    const client = await readyToConfirm('AM1001', 'AM1002', 'AM1001');
    const confirmed = await post(client, `${M}/confirm`);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect((await get(client, `${M}/continue-sign-in`)).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });

    // The open request for an app the survivor had not asked for is now the survivor's.
    expect(await request(treasury.id)).toMatchObject({ requester_identity_id: survivor, status: 'PENDING' });
    const moved = await history(treasury.id);
    expect(moved[0]).toMatchObject({
      actor: { id: survivor, username: 'AM1001' },
      type: ACCESS_REQUEST_EVENT_TYPES.MOVED_BY_MERGE,
      description: 'The requesting account AM1002 was merged into AM1001; this request is now for AM1001.',
    });
    const listed = await get<Paged<AccessRequestSummary>>(
      ctx.admin,
      `access-requests?query=${treasury.code}`,
    );
    expect(listed.body.data.map((r) => r.requester.username)).toEqual(['AM1001']);

    // The survivor's own open request for the same app and facility stays; the retired one's is closed.
    expect(await request(kept.id)).toMatchObject({ requester_identity_id: survivor, status: 'PENDING' });
    const closed = await request(duplicate.id);
    expect(closed).toMatchObject({ requester_identity_id: retired, status: 'REJECTED' });
    expect(closed.decided_at).not.toBeNull();
    const closedHistory = await history(duplicate.id);
    expect(closedHistory[0]).toMatchObject({
      actor: { username: 'AM1001' },
      type: ACCESS_REQUEST_EVENT_TYPES.CLOSED_BY_MERGE,
      description:
        `The requesting account AM1002 was merged into AM1001, which already has pending request ` +
        `${kept.code} for Loans at Bayview Aged Care; this request was closed in favour of that one.`,
    });
    expect((await history(kept.id)).map((h) => h.type.text)).not.toContain(
      ACCESS_REQUEST_EVENT_TYPES.MOVED_BY_MERGE.text,
    );
    expect(await request(decided.id)).toEqual(decidedBefore);

    // Approving the moved request grants the survivor, who signs in, and tells the survivor.
    const approved = await post<DecidedAccessRequest>(ctx.admin, `access-requests/${treasury.id}/approve`, {
      ticketCode: 'SUP-42',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'APPROVED',
      requester: { id: survivor, username: 'AM1001' },
    });
    expect(await grantsOf(survivor)).toContainEqual({ app_code: 'TREASURY', facility_id: null });
    expect(await grantsOf(retired)).toEqual([]);
    const apps = await get<Array<{ appCode: string }>>(client, 'current-user/accessible-apps');
    expect(apps.body.map((a) => a.appCode)).toContain('TREASURY');
    const mail = await outbox(ctx.admin, '?to=merged-requests%40example.com&channel=EMAIL');
    expect(mail[0]!.text).toContain(`Your access request ${treasury.code} for Treasury has been approved.`);
  });

  it('of two retired requests for the same app the older moves and the newer is closed', async () => {
    const survivor = await customer('AM2001');
    const first = await customer('AM2002');
    const second = await customer('AM2003');
    const older = await file('AM2002', 'TREASURY');
    const newer = await file('AM2003', 'TREASURY');
    await shareEmail([survivor, first, second], 'merged-three@example.com');

    const client = ctx.server.client();
    await signInToStep(client, 'AM2001', 'DUPLICATE_ACCOUNTS');
    const select = await post(client, `${M}/select-accounts`, {
      identities: [
        { id: first, password: DEMO_PASSWORD },
        { id: second, password: DEMO_PASSWORD },
      ],
    });
    expect(select.status, JSON.stringify(select.body)).toBe(200);
    expect((await post(client, `${M}/preferred-username`, { username: 'AM2001' })).status).toBe(204);
    expect((await post(client, `${M}/confirm`)).status).toBe(200);

    expect(await request(older.id)).toMatchObject({ requester_identity_id: survivor, status: 'PENDING' });
    expect(await request(newer.id)).toMatchObject({ requester_identity_id: second, status: 'REJECTED' });
    expect((await history(newer.id))[0]).toMatchObject({
      type: ACCESS_REQUEST_EVENT_TYPES.CLOSED_BY_MERGE,
      description:
        `The requesting account AM2003 was merged into AM2001, which already has pending request ` +
        `${older.code} for Treasury; this request was closed in favour of that one.`,
    });
  });

  it('a failure after any statement of the merge leaves the requests and their history as they were', async () => {
    const survivor = await customer('AM3001');
    const retired = await customer('AM3002');
    await file('AM3002', 'TREASURY');
    await file('AM3002', 'LOANS', 'F003');
    await file('AM3001', 'LOANS', 'F003');
    await shareEmail([survivor, retired], 'merged-failure@example.com');
    const client = await readyToConfirm('AM3001', 'AM3002', 'AM3001');
    const dump = async () => ({
      requests: (await db().selectFrom('access_requests').selectAll().execute())
        .map((r) => JSON.stringify(r))
        .sort(),
      events: (await db().selectFrom('access_request_events').selectAll().execute())
        .map((r) => JSON.stringify(r))
        .sort(),
    });
    const before = await dump();
    let done = false;
    for (let n = 1; n < 120 && !done; n++) {
      failAfter = n;
      const res = await post(client, `${M}/confirm`);
      done = res.status === 200;
      if (!done) {
        expect(res.status, `failure after statement ${n}`).toBe(500);
        expect(await dump(), `failure after statement ${n}`).toEqual(before);
      }
    }
    expect(done).toBe(true);
    const after = await db()
      .selectFrom('access_requests')
      .select(['requester_identity_id', 'status'])
      .where('requester_identity_id', 'in', [survivor, retired])
      .orderBy('status')
      .execute();
    expect(after).toEqual([
      { requester_identity_id: survivor, status: 'PENDING' },
      { requester_identity_id: survivor, status: 'PENDING' },
      { requester_identity_id: retired, status: 'REJECTED' },
    ]);
  });

  it('refuses to decide a request whose requester was retired, changing nothing', async () => {
    // A merge made before pending requests moved with it left this one with the retired account.
    const requester = await customer('AM4001');
    const filed = await file('AM4001', 'TREASURY');
    await db()
      .updateTable('identities')
      .set({ retired_at: new Date() })
      .where('id', '=', requester)
      .execute();
    const snapshot = async () => ({
      request: await request(filed.id),
      grants: await count('access_grants'),
      events: await count('access_request_events'),
      mail: await count('outbox_messages'),
    });
    const before = await snapshot();
    for (const [decision, body] of [
      ['approve', { ticketCode: 'SUP-43' }],
      ['reject', { ticketCode: 'SUP-43', reason: 'No longer needed.' }],
    ] as const) {
      const res = await post(ctx.admin, `access-requests/${filed.id}/${decision}`, body);
      expect(res.status, decision).toBe(409);
      expect(res.body).toEqual({ message: REQUESTER_RETIRED_MESSAGE });
    }
    expect(await snapshot()).toEqual(before);
    expect(before.request.status).toBe('PENDING');
    expect(await grantsOf(requester)).toEqual([]);
  });
});

// PGlite runs one statement at a time: the race exists on PostgreSQL alone (registered only there,
// not a skipped test on PGlite).
describe.each(targets.filter((t) => t.name === 'postgres'))(
  'access requests of merged accounts on $name, racing a merge',
  (target) => {
    const ctx = setUp(target);

    it('an approval that meets a merge of its requester waits for it and grants the survivor', async () => {
      const db = ctx.server.db;
      const requester = ctx.server.client();
      expect((await requester.login('C10010')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
      const filed = await post<{ id: string; status: string }>(requester, 'access-requests', {
        appCode: 'TREASURY',
      });
      expect(filed.body.status).toBe('PENDING');
      const ids = await db
        .selectFrom('identities')
        .select(['id', 'username'])
        .where('username', 'in', ['C10010', 'C10001'])
        .execute();
      const retiredId = ids.find((i) => i.username === 'C10010')!.id;
      const survivorId = ids.find((i) => i.username === 'C10001')!.id;

      // A merge of C10010 into C10001 has locked both accounts (as the merge does first)...
      const merge = new pg.Client({ connectionString: withDefaultUser(ctx.server.handle.url!) });
      await merge.connect();
      try {
        await merge.query('begin');
        await merge.query('select id from identities where id = any($1) order by id for update', [
          [retiredId, survivorId],
        ]);
        // ...when the admin approves: the approval waits for the merge.
        const approval = post<DecidedAccessRequest>(ctx.admin, `access-requests/${filed.body.id}/approve`, {
          ticketCode: 'SUP-44',
        });
        await expect.poll(() => someoneWaitsForALock(db), { timeout: 10_000, interval: 20 }).toBe(true);
        // The merge moves the request and retires C10010 (neither waiting on the approval), and commits.
        await merge.query(
          `update access_requests set requester_identity_id = $1 where id = $2 and status = 'PENDING'`,
          [survivorId, filed.body.id],
        );
        await merge.query('update identities set retired_at = now() where id = $1', [retiredId]);
        await merge.query('commit');

        const approved = await approval;
        expect(approved.status, JSON.stringify(approved.body)).toBe(200);
        expect(approved.body).toMatchObject({ status: 'APPROVED', requester: { id: survivorId } });
        const grants = await db
          .selectFrom('access_grants')
          .select('identity_id')
          .where('app_code', '=', 'TREASURY')
          .where('identity_id', 'in', [retiredId, survivorId])
          .execute();
        expect(grants).toEqual([{ identity_id: survivorId }]);
      } finally {
        await merge.end();
      }
    });
  },
);
