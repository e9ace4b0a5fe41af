// Audit gaps (access review, medium) over real HTTP: the admin's SMS gateway switch writes an audit
// line naming the admin and the value set, and answers what the servers will use (off without an
// SMS gateway, whatever was asked); an approval adds ACCESS_ADDED_BY_APPROVAL to the requester's
// identity history (the admin identity page), with the approving admin as actor and the ticket,
// while a rejection adds nothing there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryItem, PageMetadata } from '../../src/contract/admin';
import { unconfiguredSmsSender } from '../../src/server/adapters/sms';
import { ACCESS_ADDED_BY_APPROVAL_EVENT } from '../../src/server/domain/access-requests';
import { startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';
import { get, post } from './support/factors';

type Paged<T> = { data: T[]; page: PageMetadata };
type Line = Record<string, unknown>;
const SWITCH = 'admin/properties/sms-gateway-status';
const JIRA = 'https://jira.example.com/browse/';

/** The server's log lines (ServerDeps.logStream), for the audit lines. */
class CapturedLog {
  readonly raw: string[] = [];
  write(line: string): void {
    this.raw.push(line);
  }
  audit(event: string): Line[] {
    return this.raw.map((l) => JSON.parse(l) as Line).filter((l) => l.audit === true && l.event === event);
  }
}

/** Audit lines of committed changes are written after the response: wait for them briefly. */
async function eventually<T>(read: () => T[], count: number): Promise<T[]> {
  for (let i = 0; i < 100 && read().length < count; i++) await new Promise((r) => setTimeout(r, 20));
  return read();
}

const idOf = async (server: TestServer, username: string) =>
  (
    await server.db
      .selectFrom('identities')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow()
  ).id;

describe.each(targets)('access review audit on $name', (target) => {
  let server: TestServer;
  let admin: TestClient;
  const log = new CapturedLog();

  beforeAll(async () => {
    server = await startServer(target, { env: { LOG_LEVEL: 'info' }, deps: { logStream: log } });
    admin = server.client();
    expect((await admin.login('admin1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('records who switched SMS codes off and on, and to what', async () => {
    const adminId = await idOf(server, 'admin1');
    const off = await post(admin, SWITCH, { isSmsGatewayAvailable: false });
    expect(off.body).toEqual({ isSmsGatewayAvailable: false });
    const [first] = await eventually(() => log.audit('SMS_GATEWAY_STATUS_CHANGED'), 1);
    expect(first).toMatchObject({
      actorIdentityId: adminId,
      property: 'sms-gateway-status',
      value: 'UNAVAILABLE',
      isSmsGatewayAvailable: false,
    });

    const on = await post(admin, SWITCH, { isSmsGatewayAvailable: true });
    expect(on.body).toEqual({ isSmsGatewayAvailable: true });
    const lines = await eventually(() => log.audit('SMS_GATEWAY_STATUS_CHANGED'), 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      actorIdentityId: adminId,
      value: 'AVAILABLE',
      isSmsGatewayAvailable: true,
    });

    // A refused switch changes nothing and writes no line.
    expect((await post(server.client(), SWITCH, { isSmsGatewayAvailable: false })).status).toBe(401);
    expect((await post(admin, SWITCH, { isSmsGatewayAvailable: 'no' })).status).toBe(400);
    await new Promise((r) => setTimeout(r, 100));
    expect(log.audit('SMS_GATEWAY_STATUS_CHANGED')).toHaveLength(2);
    expect(await server.app.services.factors.smsGateway.isAvailable()).toBe(true);
  });

  it("adds the approval to the requester's identity history, with the admin and the ticket", async () => {
    const requesterId = await idOf(server, 'C10001');
    const requester = server.client();
    expect((await requester.login('C10001')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    const identityHistory = async () => {
      const res = await get<Paged<HistoryItem>>(admin, `admin/identities/${requesterId}/history`);
      expect(res.status).toBe(200);
      return res.body;
    };

    // A rejection gives no access: nothing is added to the identity's history.
    const rejectedOne = await post<{ id: string; status: string }>(requester, 'access-requests', {
      appCode: 'LOANS',
      facilityCode: 'F003',
    });
    expect(rejectedOne.body.status, JSON.stringify(rejectedOne.body)).toBe('PENDING');
    const before = await identityHistory();
    const rejected = await post(admin, `access-requests/${rejectedOne.body.id}/reject`, {
      ticketCode: 'SUP-60',
      reason: 'Not needed.',
    });
    expect(rejected.status).toBe(200);
    expect(await identityHistory()).toEqual(before);

    const filed = await post<{ id: string; code: string; status: string }>(requester, 'access-requests', {
      appCode: 'TREASURY',
    });
    expect(filed.body.status).toBe('PENDING');
    const approved = await post(admin, `access-requests/${filed.body.id}/approve`, { ticketCode: 'SUP-61' });
    expect(approved.status).toBe(200);
    const after = await identityHistory();
    expect(after.page.totalElements).toBe(before.page.totalElements + 1);
    expect(after.data[0]).toMatchObject({
      actor: { id: await idOf(server, 'admin1'), username: 'admin1' },
      type: { text: 'Access added by approval', variant: 'success' },
      ticket: { code: 'SUP-61', url: `${JIRA}SUP-61` },
      description: `Access to Treasury added: access request ${filed.body.code} approved.`,
    });
    const rows = await server.db
      .selectFrom('identity_events')
      .select('type')
      .where('identity_id', '=', requesterId)
      .where('type', '=', ACCESS_ADDED_BY_APPROVAL_EVENT)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe.each(targets)('access review audit on $name, without an SMS gateway', (target) => {
  let server: TestServer;
  const log = new CapturedLog();

  beforeAll(async () => {
    server = await startServer(target, {
      env: { LOG_LEVEL: 'info' },
      deps: { logStream: log, sms: unconfiguredSmsSender },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses to switch SMS codes on, with the reason, and changes nothing', async () => {
    const admin = server.client();
    expect((await admin.login('admin1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    const stored = async () =>
      (
        await server.db
          .selectFrom('properties')
          .select('value')
          .where('name', '=', 'sms-gateway-status')
          .executeTakeFirst()
      )?.value ?? null;
    const before = await stored();
    const on = await post(admin, SWITCH, { isSmsGatewayAvailable: true });
    expect(on.status).toBe(422);
    expect(on.body).toMatchObject({
      message: 'This server has no SMS gateway configured, so SMS verification codes cannot be switched on.',
    });
    expect(await stored()).toBe(before);
    expect(await server.app.services.factors.smsGateway.isAvailable()).toBe(false);
    // Switching off is always allowed, and the portal, which asks the property before offering an
    // SMS step, hears that SMS is off.
    const off = await post(admin, SWITCH, { isSmsGatewayAvailable: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ isSmsGatewayAvailable: false });
    const property = await admin.get(`/rest/ui/anonymous/properties/sms-gateway-status`);
    expect(property.body).toEqual({ isSmsGatewayAvailable: false });
    const lines = await eventually(() => log.audit('SMS_GATEWAY_STATUS_CHANGED'), 1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      value: 'UNAVAILABLE',
      isSmsGatewayAvailable: false,
      smsSender: 'unconfigured',
    });
  });
});
