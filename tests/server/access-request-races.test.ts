// Races of access requests that only PostgreSQL can have: another transaction (registration from an
// invitation, a merge, another instance) grants the same app while an admin approves a request.
// PGlite runs one statement at a time, so this file exists for PostgreSQL alone (registered only
// there: not a skipped test on PGlite).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecidedAccessRequest } from '../../src/contract/access-requests';
import { withDefaultUser } from '../../src/server/db/database';
import { startServer, type TestServer } from './support/server';
import { someoneWaitsForALock } from './support/locks';
import { targets } from './support/targets';
import { post } from './support/factors';

describe.each(targets.filter((t) => t.name === 'postgres'))('access requests on $name, racing', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('approves a request whose grant another transaction commits meanwhile, keeping that one grant', async () => {
    const requester = server.client();
    expect((await requester.login('C10008')).status).toBe(200);
    const filed = await post<{ id: string; status: string }>(requester, 'access-requests', {
      appCode: 'TREASURY',
    });
    expect(filed.body.status).toBe('PENDING');
    const admin = server.client();
    expect((await admin.login('admin1')).status).toBe(200);
    const { id: identityId } = await server.db
      .selectFrom('identities')
      .select('id')
      .where('username', '=', 'C10008')
      .executeTakeFirstOrThrow();

    // An invitation's registration grants TREASURY to C10008 and has not committed yet...
    const other = new pg.Client({ connectionString: withDefaultUser(server.handle.url!) });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(
        `insert into access_grants (id, identity_id, app_code, facility_id, created_at)
         values ($1, $2, 'TREASURY', null, now())`,
        [randomUUID(), identityId],
      );
      // ...when the admin approves: the approval's grant waits on that one's unique key.
      const approval = post<DecidedAccessRequest>(admin, `access-requests/${filed.body.id}/approve`, {
        ticketCode: 'SUP-4713',
      });
      await expect.poll(() => someoneWaitsForALock(server.db), { timeout: 10_000, interval: 20 }).toBe(true);
      await other.query('commit');

      const approved = await approval;
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ status: 'APPROVED' });
      const grants = await server.db
        .selectFrom('access_grants')
        .select('id')
        .where('identity_id', '=', identityId)
        .where('app_code', '=', 'TREASURY')
        .execute();
      expect(grants).toHaveLength(1);
    } finally {
      await other.end();
    }
  });
});
