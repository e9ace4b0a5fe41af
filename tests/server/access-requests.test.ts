// Access requests over real HTTP: filing (immediate and manual handling, in one transaction, with
// history), the list, id and history calls, and who may call what (a sweep over every admin and
// access-request call with each role).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessRequestSummary, HistoryItem, PageMetadata } from '../../src/contract/admin';
import { PERMISSION_DENIED_MESSAGE } from '../../src/server/domain/messages';
import {
  ALREADY_GRANTED_MESSAGE,
  FACILITY_NOT_ALLOWED_MESSAGE,
  FACILITY_REQUIRED_MESSAGE,
  UNKNOWN_FACILITY_MESSAGE,
} from '../../src/server/domain/access-requests';
import { DEMO_ACCESS_REQUESTS } from '../../src/server/demo/access-requests';
import { startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';
import { get, outbox, post, signInToStep } from './support/factors';

type Paged<T> = { data: T[]; page: PageMetadata };
const LONG = DEMO_ACCESS_REQUESTS.find((r) => r.code === 'AR-TRSY4K7M')!;

describe.each(targets)('access requests on $name', (target) => {
  let server: TestServer;
  let admin: TestClient;
  let auditor: TestClient;
  let customer: TestClient;

  beforeAll(async () => {
    server = await startServer(target);
    admin = server.client();
    auditor = server.client();
    customer = server.client();
    expect((await admin.login('admin1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    expect((await auditor.login('auditor1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    expect((await customer.login('C10001')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const idOf = async (client: TestClient, app: string, code: string) => {
    const res = await get<{ id: string }>(client, `access-requests/${app}/${code}/id`);
    expect(res.status).toBe(200);
    return res.body.id;
  };
  const countOf = async (table: 'access_requests' | 'access_request_events' | 'access_grants') =>
    Number(
      (
        await server.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('pages through the seeded list newest first and searches it', async () => {
    const all = await get<Paged<AccessRequestSummary>>(auditor, 'access-requests');
    expect(all.status).toBe(200);
    expect(all.body.page).toEqual({ number: 0, size: 20, totalElements: DEMO_ACCESS_REQUESTS.length });
    expect(all.body.data.map((r) => r.code)).toEqual([
      'AR-LNSB3Y6T',
      'AR-TRSY4K7M',
      'AR-PAY3XQ9R',
      'AR-LNS8FQ2W',
    ]);
    expect(all.body.data[0]).toMatchObject({
      app: { code: 'LOANS', name: 'Loans' },
      facility: { code: 'F003', name: 'Bayview Aged Care' },
      requester: { username: 'C10003' },
      status: 'PENDING',
    });

    const byApp = await get<Paged<AccessRequestSummary>>(auditor, 'access-requests?query=treasury');
    expect(byApp.body.data.map((r) => r.code)).toEqual(['AR-TRSY4K7M']);
    expect(byApp.body.page.totalElements).toBe(1);
    const byFacility = await get<Paged<AccessRequestSummary>>(admin, 'access-requests?query=Northside');
    expect(byFacility.body.data.map((r) => r.code)).toEqual(['AR-LNS8FQ2W']);
    // LIKE wildcards are searched for as text, not as patterns.
    const wildcard = await get<Paged<AccessRequestSummary>>(admin, 'access-requests?query=%25');
    expect(wildcard.body.page.totalElements).toBe(0);
    const beyond = await get<Paged<AccessRequestSummary>>(admin, 'access-requests?page=1');
    expect(beyond.body).toEqual({ data: [], page: { number: 1, size: 20, totalElements: 4 } });
    for (const bad of ['page=-1', 'page=x', 'size=5', `query=${'q'.repeat(201)}`]) {
      expect((await get(admin, `access-requests?${bad}`)).status, bad).toBe(400);
    }
  });

  it('resolves an app code and request code to the id, and answers 404 for unknown ones', async () => {
    const id = await idOf(auditor, 'TREASURY', 'AR-TRSY4K7M');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await get(auditor, 'access-requests/LOANS/AR-TRSY4K7M/id')).status).toBe(404);
    expect((await get(auditor, 'access-requests/TREASURY/AR-NOPE/id')).status).toBe(404);
    expect((await get(auditor, 'access-requests/not-a-uuid/history')).status).toBe(404);
    expect((await get(auditor, 'access-requests/00000000-0000-4000-8000-000000000000/history')).status).toBe(
      404,
    );
  });

  it('pages a history of more than five items, five at a time, newest first', async () => {
    const id = await idOf(auditor, 'TREASURY', 'AR-TRSY4K7M');
    const first = await get<Paged<HistoryItem>>(auditor, `access-requests/${id}/history`);
    expect(first.status).toBe(200);
    expect(first.body.page).toEqual({ number: 0, size: 5, totalElements: LONG.events.length });
    expect(first.body.data).toHaveLength(5);
    expect(first.body.data[0]).toMatchObject({
      actorApp: { code: 'TREASURY', name: 'Treasury' },
      actor: null,
      type: { text: 'Reminder sent', variant: 'info' },
      ticket: null,
    });
    expect(first.body.data[1]).toMatchObject({
      actor: { username: 'admin1' },
      type: { text: 'Note added', variant: 'info' },
      ticket: { code: 'SD-1042', url: 'https://jira.example.com/browse/SD-1042' },
      description:
        'Manager approval received by phone.\nAwaiting written confirmation.\nFollow up on Monday.',
    });
    const second = await get<Paged<HistoryItem>>(auditor, `access-requests/${id}/history?page=1`);
    expect(second.body.page).toEqual({ number: 1, size: 5, totalElements: LONG.events.length });
    expect(second.body.data.map((h) => h.type.text)).toEqual([
      'Awaiting manual workflow',
      'Access requested',
    ]);
    expect(second.body.data[0]).toMatchObject({ actor: null, actorApp: null, type: { variant: 'warning' } });
    expect(second.body.data[1]).toMatchObject({ actor: { username: 'C10004' } });
    const dates = [...first.body.data, ...second.body.data].map((h) => Date.parse(h.eventDate));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect((await get(auditor, `access-requests/${id}/history?page=-1`)).status).toBe(400);
  });

  it('answers one request with its app and facility, and its outbound calls as the api-calls page', async () => {
    const id = await idOf(auditor, 'LOANS', 'AR-LNS8FQ2W');
    const details = await get(auditor, `access-requests/${id}`);
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({
      id,
      code: 'AR-LNS8FQ2W',
      app: { code: 'LOANS', name: 'Loans' },
      facility: { code: 'F001', name: 'Northside Community Clinic' },
      requester: { username: 'C10008' },
      status: 'APPROVED',
    });
    expect(Date.parse((details.body as { decidedDate: string }).decidedDate)).toBeGreaterThan(
      Date.parse((details.body as { createdDate: string }).createdDate),
    );
    expect((await get(auditor, 'access-requests/00000000-0000-4000-8000-000000000000')).status).toBe(404);

    const long = await idOf(auditor, 'TREASURY', 'AR-TRSY4K7M');
    const calls = await get<Paged<HistoryItem>>(auditor, `access-requests/${long}/api-calls`);
    expect(calls.body.page).toEqual({ number: 0, size: 5, totalElements: 3 });
    expect(calls.body.data.map((h) => h.type.text)).toEqual([
      'Reminder sent',
      'Reminder sent',
      'Notification email sent',
    ]);
  });

  it('approves a request for an app with immediate handling at once: grant and history together', async () => {
    const user = server.client();
    expect((await user.login('C10003')).status).toBe(200);
    // C10003 must enrol a factor first: only signed-in users may ask.
    expect((await post(user, 'access-requests', { appCode: 'PAYROLL' })).status).toBe(403);

    const requester = server.client();
    expect((await requester.login('C10008')).status).toBe(200);
    const filed = await post<{ id: string; code: string; status: string }>(requester, 'access-requests', {
      appCode: 'PAYROLL',
    });
    expect(filed.status).toBe(200);
    expect(filed.body.status).toBe('APPROVED');
    expect(filed.body.code).toMatch(/^AR-[2-9A-HJ-NP-Z]{8}$/);
    const apps = await get<Array<{ appCode: string }>>(requester, 'current-user/accessible-apps');
    expect(apps.body.map((a) => a.appCode)).toContain('PAYROLL');

    const history = await get<Paged<HistoryItem>>(auditor, `access-requests/${filed.body.id}/history`);
    expect(history.body.data.map((h) => h.type.text)).toEqual([
      'Notification email sent',
      'Access granted',
      'Approved',
      'Access requested',
    ]);
    expect(history.body.data[3]!.actor).toMatchObject({ username: 'C10008' });
    const mail = await outbox(admin, '?to=c10008@example.com&channel=EMAIL');
    expect(mail[0]).toMatchObject({ subject: `Access request ${filed.body.code}` });
    expect(mail[0]!.text).toContain('has been approved');

    expect(await idOf(auditor, 'PAYROLL', filed.body.code)).toBe(filed.body.id);
    const again = await post(requester, 'access-requests', { appCode: 'PAYROLL' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ message: ALREADY_GRANTED_MESSAGE });
  });

  it('leaves a request for an app with manual handling pending, once per app and facility', async () => {
    const grants = await countOf('access_grants');
    const filed = await post<{ id: string; code: string; status: string }>(customer, 'access-requests', {
      appCode: 'LOANS',
      facilityCode: 'F003',
    });
    expect(filed.status).toBe(200);
    expect(filed.body.status).toBe('PENDING');
    expect(await countOf('access_grants')).toBe(grants);
    const history = await get<Paged<HistoryItem>>(admin, `access-requests/${filed.body.id}/history`);
    expect(history.body.data.map((h) => h.type)).toEqual([
      { text: 'Notification email sent', variant: 'info' },
      { text: 'Awaiting manual workflow', variant: 'warning' },
      { text: 'Access requested', variant: 'info' },
    ]);
    expect(history.body.data[2]!.description).toBe('Requested access to Loans at Bayview Aged Care.');

    const requests = await countOf('access_requests');
    const again = await post(customer, 'access-requests', { appCode: 'LOANS', facilityCode: 'F003' });
    expect(again.body).toEqual(filed.body);
    expect(await countOf('access_requests')).toBe(requests);

    const list = await get<Paged<AccessRequestSummary>>(auditor, 'access-requests?query=C10001');
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ code: filed.body.code, requester: { username: 'C10001' } });
  });

  it('refuses bad requests and changes nothing', async () => {
    const before = [await countOf('access_requests'), await countOf('access_request_events')];
    const cases: Array<[unknown, number, string?]> = [
      [{ appCode: 'NOPE' }, 404],
      [{ appCode: 'LOANS' }, 422, FACILITY_REQUIRED_MESSAGE],
      [{ appCode: 'LOANS', facilityCode: 'F999' }, 422, UNKNOWN_FACILITY_MESSAGE],
      [{ appCode: 'TREASURY', facilityCode: 'F001' }, 422, FACILITY_NOT_ALLOWED_MESSAGE],
      [{ appCode: 'LOANS', facilityCode: 'F001' }, 409, ALREADY_GRANTED_MESSAGE],
      [{}, 400],
      [{ appCode: '' }, 400],
      [{ appCode: 'PAYROLL', extra: 1 }, 400],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(customer, 'access-requests', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (message) expect(res.body).toMatchObject({ message });
    }
    expect([await countOf('access_requests'), await countOf('access_request_events')]).toEqual(before);
  });

  it('lets each role reach only what it should (every admin and access-request call)', async () => {
    const id = await idOf(admin, 'TREASURY', 'AR-TRSY4K7M');
    const anonymous = server.client();
    const pending = server.client();
    await signInToStep(pending, 'C10002', 'CHANGE_EXPIRED_PASSWORD');
    const roles: Record<string, TestClient> = {
      anonymous,
      pending,
      C10001: customer,
      admin1: admin,
      auditor1: auditor,
    };
    const calls: Array<{
      name: string;
      run: (c: TestClient) => Promise<{ status: number; body: unknown }>;
      expect: Record<string, number>;
    }> = [
      {
        name: 'GET admin/roles',
        run: (c) => get(c, 'admin/roles'),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 200, auditor1: 403 },
      },
      {
        name: 'POST admin/properties/sms-gateway-status',
        run: (c) => post(c, 'admin/properties/sms-gateway-status', { isSmsGatewayAvailable: true }),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 200, auditor1: 403 },
      },
      {
        name: 'GET admin/apps',
        run: (c) => get(c, 'admin/apps'),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 200, auditor1: 403 },
      },
      {
        name: 'GET admin/invitations',
        run: (c) => get(c, 'admin/invitations'),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 200, auditor1: 403 },
      },
      {
        name: 'POST admin/invitations',
        run: (c) =>
          post(c, 'admin/invitations', { email: 'sweep@example.com', appCode: 'PAYROLL', isStaff: false }),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 200, auditor1: 403 },
      },
      {
        name: 'POST admin/invitations/{id}/revoke',
        run: (c) => post(c, 'admin/invitations/00000000-0000-4000-8000-000000000000/revoke'),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 404, auditor1: 403 },
      },
      {
        name: 'GET access-requests',
        run: (c) => get(c, 'access-requests?query=AR'),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 200, auditor1: 200 },
      },
      {
        name: 'GET access-requests/{appCode}/{code}/id',
        run: (c) => get(c, 'access-requests/TREASURY/AR-TRSY4K7M/id'),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 200, auditor1: 200 },
      },
      {
        name: 'GET access-requests/{id}/history',
        run: (c) => get(c, `access-requests/${id}/history?page=1`),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 200, auditor1: 200 },
      },
      {
        name: 'GET access-requests/{id}',
        run: (c) => get(c, `access-requests/${id}`),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 200, auditor1: 200 },
      },
      {
        name: 'GET access-requests/{id}/api-calls',
        run: (c) => get(c, `access-requests/${id}/api-calls`),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 200, auditor1: 200 },
      },
      {
        // Filing is open to every signed-in user; admin1 and auditor1 lack TREASURY or PAYROLL here.
        name: 'POST access-requests',
        run: (c) => post(c, 'access-requests', { appCode: 'TREASURY' }),
        expect: { anonymous: 401, pending: 403, C10001: 200, admin1: 409, auditor1: 200 },
      },
    ];
    for (const call of calls) {
      for (const [role, client] of Object.entries(roles)) {
        const res = await call.run(client);
        expect(res.status, `${call.name} as ${role}`).toBe(call.expect[role]);
        if (res.status === 403)
          expect(res.body, `${call.name} as ${role}`).toMatchObject({ message: PERMISSION_DENIED_MESSAGE });
      }
    }
  });

  it('lists the admin role options with READ_ONLY and VIEW_ACCESS_REQUESTS disabled', async () => {
    const res = await get(admin, 'admin/roles');
    const options = [
      { value: 'ADMIN', disabled: false },
      { value: 'READ_ONLY', disabled: true },
      { value: 'VIEW_ACCESS_REQUESTS', disabled: true },
    ];
    expect(res.body).toEqual({ samAdmin: options, accessRequestUser: options });
  });
});
