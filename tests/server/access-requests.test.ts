// Access requests over real HTTP: filing (immediate and manual handling, in one transaction, with
// history), the list, id and history calls, an admin's decision on a pending request (approve with
// the grant, reject with the reason; a decided request refused with 409 and left as it was; the
// requester's email; the audit line), and who may call what (a sweep over every admin and
// access-request call with each role).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecidedAccessRequest } from '../../src/contract/access-requests';
import type { AccessRequestSummary, HistoryItem, PageMetadata } from '../../src/contract/admin';
import { PERMISSION_DENIED_MESSAGE } from '../../src/server/domain/messages';
import { TICKET_FORMAT_MESSAGE } from '../../src/server/domain/profile/messages';
import {
  ALREADY_GRANTED_MESSAGE,
  alreadyDecidedMessage,
  FACILITY_NOT_ALLOWED_MESSAGE,
  FACILITY_REQUIRED_MESSAGE,
  OWN_REQUEST_MESSAGE,
  UNKNOWN_FACILITY_MESSAGE,
} from '../../src/server/domain/access-requests';
import { DEMO_ACCESS_REQUESTS } from '../../src/server/demo/access-requests';
import { startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';
import { get, outbox, post, signInToStep } from './support/factors';

type Paged<T> = { data: T[]; page: PageMetadata };
type Line = Record<string, unknown>;
const JIRA = 'https://jira.example.com/browse/';

/** The server's log lines (ServerDeps.logStream), for the audit lines of decisions. */
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
const LONG = DEMO_ACCESS_REQUESTS.find((r) => r.code === 'AR-TRSY4K7M')!;

describe.each(targets)('access requests on $name', (target) => {
  let server: TestServer;
  let admin: TestClient;
  let auditor: TestClient;
  let customer: TestClient;
  const log = new CapturedLog();

  beforeAll(async () => {
    server = await startServer(target, { env: { LOG_LEVEL: 'info' }, deps: { logStream: log } });
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
  const countOf = async (
    table: 'access_requests' | 'access_request_events' | 'access_grants' | 'outbox_messages',
  ) =>
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

  it("leaves an admin's own request to another admin: approving or rejecting it is refused", async () => {
    const filed = await post<{ id: string; status: string }>(admin, 'access-requests', {
      appCode: 'LOANS',
      facilityCode: 'F002',
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(200);
    expect(filed.body.status).toBe('PENDING');
    const grants = await countOf('access_grants');
    const events = await countOf('access_request_events');
    for (const [decision, body] of [
      ['approve', { ticketCode: 'SUP-7' }],
      ['reject', { ticketCode: 'SUP-7', reason: 'No.' }],
    ] as const) {
      const own = await post(admin, `access-requests/${filed.body.id}/${decision}`, body);
      expect(own.status).toBe(403);
      expect(own.body).toEqual({ message: OWN_REQUEST_MESSAGE });
    }
    const still = await get<{ status: string }>(auditor, `access-requests/${filed.body.id}`);
    expect(still.body.status).toBe('PENDING');
    expect(await countOf('access_grants')).toBe(grants);
    expect(await countOf('access_request_events')).toBe(events);
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

  /** Everything a refused decision must leave as it was. */
  const snapshot = async (id: string) => ({
    request: await server.db
      .selectFrom('access_requests')
      .select(['status', 'decided_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow(),
    events: await countOf('access_request_events'),
    grants: await countOf('access_grants'),
    mail: await countOf('outbox_messages'),
  });
  const accessibleApps = async (client: TestClient) =>
    (
      await get<Array<{ appCode: string; facilityCode: string | null }>>(
        client,
        'current-user/accessible-apps',
      )
    ).body;

  it('lets an admin approve a pending request once: the grant, the history with the ticket, the email', async () => {
    // The ticket links to the demo data's Jira (its jira-browse-url property).
    const requester = server.client();
    expect((await requester.login('C10008')).status).toBe(200);
    const filed = await post<{ id: string; code: string; status: string }>(requester, 'access-requests', {
      appCode: 'TREASURY',
    });
    expect(filed.body.status).toBe('PENDING');
    expect((await accessibleApps(requester)).map((a) => a.appCode)).not.toContain('TREASURY');
    const grants = await countOf('access_grants');

    // Two approvals at once (a double click, two admins): one decides, the other is refused.
    const [first, second] = await Promise.all([
      post<DecidedAccessRequest>(admin, `access-requests/${filed.body.id}/approve`, {
        ticketCode: 'SUP-4711',
      }),
      post<DecidedAccessRequest>(admin, `access-requests/${filed.body.id}/approve`, {
        ticketCode: 'SUP-4711',
      }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const approved = first.status === 200 ? first : second;
    const refused = first.status === 200 ? second : first;
    expect(refused.body).toEqual({ message: alreadyDecidedMessage('APPROVED') });
    expect(approved.body).toMatchObject({
      id: filed.body.id,
      code: filed.body.code,
      app: { code: 'TREASURY' },
      requester: { username: 'C10008' },
      status: 'APPROVED',
    });
    expect(Date.parse(approved.body.decidedDate)).not.toBeNaN();
    expect(await countOf('access_grants')).toBe(grants + 1);
    // The requester can now open the app, as after an immediate approval.
    expect(await accessibleApps(requester)).toContainEqual(
      expect.objectContaining({ appCode: 'TREASURY', facilityCode: null }),
    );
    const details = await get<DecidedAccessRequest>(auditor, `access-requests/${filed.body.id}`);
    expect(details.body).toEqual(approved.body);

    const history = await get<Paged<HistoryItem>>(auditor, `access-requests/${filed.body.id}/history`);
    expect(history.body.data.map((h) => h.type)).toEqual([
      { text: 'Notification email sent', variant: 'info' },
      { text: 'Access granted', variant: 'success' },
      { text: 'Approved', variant: 'success' },
      { text: 'Notification email sent', variant: 'info' },
      { text: 'Awaiting manual workflow', variant: 'warning' },
    ]);
    expect(history.body.data[2]).toMatchObject({
      actor: { username: 'admin1' },
      ticket: { code: 'SUP-4711', url: `${JIRA}SUP-4711` },
    });
    expect(history.body.data[1]).toMatchObject({ actor: null, description: 'Access to Treasury granted.' });
    const mail = await outbox(admin, '?to=c10008@example.com&channel=EMAIL');
    expect(mail[0]).toMatchObject({ subject: `Access request ${filed.body.code}` });
    expect(mail[0]!.text).toContain(`Your access request ${filed.body.code} for Treasury has been approved.`);

    const audit = await eventually(() => log.audit('ACCESS_REQUEST_APPROVED'), 1);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      accessRequestCode: filed.body.code,
      appCode: 'TREASURY',
      ticketCode: 'SUP-4711',
    });
    const adminId = history.body.data[2]!.actor!.id;
    expect(audit[0]!.actorIdentityId).toBe(adminId);

    // Decided: approving or rejecting again is refused and changes nothing.
    const before = await snapshot(filed.body.id);
    const again = await post(admin, `access-requests/${filed.body.id}/approve`, { ticketCode: 'SUP-4712' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: alreadyDecidedMessage('APPROVED') });
    const reject = await post(admin, `access-requests/${filed.body.id}/reject`, {
      ticketCode: 'SUP-4712',
      reason: 'Too late.',
    });
    expect(reject.status).toBe(409);
    expect(await snapshot(filed.body.id)).toEqual(before);
    expect(log.audit('ACCESS_REQUEST_REJECTED')).toEqual([]);
  });

  it('lets an admin reject a pending request with a reason; refusals first, each changing nothing', async () => {
    const id = await idOf(admin, 'LOANS', 'AR-LNSB3Y6T');
    const path = `access-requests/${id}/reject`;
    const before = await snapshot(id);
    expect(before.request.status).toBe('PENDING');
    const refusals: Array<[TestClient, string, unknown, number, string?]> = [
      [auditor, path, { ticketCode: 'SUP-1', reason: 'No.' }, 403, PERMISSION_DENIED_MESSAGE],
      [customer, path, { ticketCode: 'SUP-1', reason: 'No.' }, 403, PERMISSION_DENIED_MESSAGE],
      [auditor, `access-requests/${id}/approve`, { ticketCode: 'SUP-1' }, 403, PERMISSION_DENIED_MESSAGE],
      [admin, path, { ticketCode: 'SUP-1' }, 400],
      [admin, path, { ticketCode: 'SUP-1', reason: '   ' }, 400],
      [admin, path, { ticketCode: 'SUP-1', reason: 'x'.repeat(501) }, 400],
      [admin, path, { reason: 'No.' }, 400],
      [admin, path, { ticketCode: '', reason: 'No.' }, 400],
      [admin, path, { ticketCode: 'SUP-1', reason: 'No.', extra: true }, 400],
      [admin, `access-requests/${id}/approve`, {}, 400],
      [admin, path, { ticketCode: 'not a ticket', reason: 'No.' }, 422, TICKET_FORMAT_MESSAGE],
      [admin, `access-requests/${id}/approve`, { ticketCode: 'sup-1' }, 422, TICKET_FORMAT_MESSAGE],
      [
        admin,
        'access-requests/00000000-0000-4000-8000-000000000000/reject',
        { ticketCode: 'SUP-1', reason: 'No.' },
        404,
      ],
      [admin, 'access-requests/not-a-uuid/approve', { ticketCode: 'SUP-1' }, 404],
    ];
    for (const [client, url, body, status, message] of refusals) {
      const res = await post(client, url, body);
      expect(res.status, `${url} ${JSON.stringify(body)}`).toBe(status);
      if (message) expect(res.body).toMatchObject({ message });
      if (status === 422) {
        expect(res.body).toMatchObject({
          errors: [{ fieldName: 'ticketCode', message: TICKET_FORMAT_MESSAGE }],
        });
      }
    }
    expect(await snapshot(id)).toEqual(before);

    const requester = await server.db
      .selectFrom('identities')
      .select('id')
      .where('username', '=', 'C10003')
      .executeTakeFirstOrThrow();
    const grantsOf = () =>
      server.db.selectFrom('access_grants').select('id').where('identity_id', '=', requester.id).execute();
    const heldBefore = await grantsOf();
    const rejected = await post<DecidedAccessRequest>(admin, path, {
      ticketCode: ' SUP-815 ',
      reason: '  Manager approval was not given.\nAsk your manager to raise a new request.  ',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ id, code: 'AR-LNSB3Y6T', status: 'REJECTED' });
    // Rejecting grants nothing.
    expect(await grantsOf()).toEqual(heldBefore);
    expect(await countOf('access_grants')).toBe(before.grants);

    const history = await get<Paged<HistoryItem>>(admin, `access-requests/${id}/history`);
    expect(history.body.data[0]).toMatchObject({
      type: { text: 'Notification email sent', variant: 'info' },
    });
    expect(history.body.data[1]).toMatchObject({
      actor: { username: 'admin1' },
      type: { text: 'Rejected', variant: 'danger' },
      ticket: { code: 'SUP-815', url: `${JIRA}SUP-815` },
      description: 'Reason: Manager approval was not given.\nAsk your manager to raise a new request.',
    });
    const mail = await outbox(admin, '?to=c10003@example.com&channel=EMAIL');
    expect(mail[0]).toMatchObject({ subject: 'Access request AR-LNSB3Y6T' });
    expect(mail[0]!.text).toContain('has been rejected');
    expect(mail[0]!.text).toContain('Reason: Manager approval was not given.');
    const list = await get<Paged<AccessRequestSummary>>(auditor, 'access-requests?query=AR-LNSB3Y6T');
    expect(list.body.data.map((r) => r.status)).toEqual(['REJECTED']);
    expect(await eventually(() => log.audit('ACCESS_REQUEST_REJECTED'), 1)).toHaveLength(1);

    const after = await snapshot(id);
    for (const decision of ['approve', 'reject'] as const) {
      const res = await post(admin, `access-requests/${id}/${decision}`, {
        ticketCode: 'SUP-2',
        reason: 'Again.',
      });
      if (decision === 'approve') expect(res.status).toBe(400); // approve takes no reason
      const clean = await post(
        admin,
        `access-requests/${id}/${decision}`,
        decision === 'approve' ? { ticketCode: 'SUP-2' } : { ticketCode: 'SUP-2', reason: 'Again.' },
      );
      expect(clean.status).toBe(409);
      expect(clean.body).toEqual({ message: alreadyDecidedMessage('REJECTED') });
    }
    expect(await snapshot(id)).toEqual(after);
  });

  it('keeps the ticket code in the description when no Jira browse URL is configured', async () => {
    const property = await server.db
      .deleteFrom('properties')
      .where('name', '=', 'jira-browse-url')
      .returning('value')
      .executeTakeFirst();
    expect(property?.value).toBe(JIRA);
    try {
      const requester = server.client();
      expect((await requester.login('C10010')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
      const filed = await post<{ id: string; status: string }>(requester, 'access-requests', {
        appCode: 'TREASURY',
      });
      expect(filed.body.status, JSON.stringify(filed.body)).toBe('PENDING');
      const rejected = await post(admin, `access-requests/${filed.body.id}/reject`, {
        ticketCode: 'SUP-9',
        reason: 'Not needed.',
      });
      expect(rejected.status).toBe(200);
      const history = await get<Paged<HistoryItem>>(admin, `access-requests/${filed.body.id}/history`);
      expect(history.body.data[1]).toMatchObject({
        type: { text: 'Rejected', variant: 'danger' },
        ticket: null,
        description: 'Reason: Not needed.\nTicket SUP-9.',
      });
    } finally {
      await server.db.insertInto('properties').values({ name: 'jira-browse-url', value: JIRA }).execute();
    }
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
        name: 'POST access-requests/{id}/approve',
        run: (c) =>
          post(c, 'access-requests/00000000-0000-4000-8000-000000000000/approve', { ticketCode: 'SUP-1' }),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 404, auditor1: 403 },
      },
      {
        name: 'POST access-requests/{id}/reject',
        run: (c) =>
          post(c, 'access-requests/00000000-0000-4000-8000-000000000000/reject', {
            ticketCode: 'SUP-1',
            reason: 'Sweep.',
          }),
        expect: { anonymous: 401, pending: 403, C10001: 403, admin1: 404, auditor1: 403 },
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
