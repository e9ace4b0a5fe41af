// The admin's invitations over real HTTP: create (the invitation email with its code goes out, and
// the code starts a registration), list and search, revoke (the code then starts nothing), and the
// refusals that change nothing; admins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvitationSummary, PageMetadata } from '../../src/contract/admin';
import {
  FACILITY_NOT_ALLOWED_MESSAGE,
  FACILITY_REQUIRED_MESSAGE,
  INVITATION_ENDED_MESSAGE,
  UNKNOWN_APP_MESSAGE,
} from '../../src/server/domain/admin/invitations';
import { PERMISSION_DENIED_MESSAGE } from '../../src/server/domain/messages';
import { INVITATION_INVALID_MESSAGE } from '../../src/server/domain/registration/messages';
import { get, outbox, post } from './support/factors';
import { startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

const CAPTCHA = 'E2E42';
type Paged<T> = { data: T[]; page: PageMetadata };

describe.each(targets)('admin invitations on $name', (target) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startServer(target, { env: { CAPTCHA_FIXED_ANSWER: CAPTCHA } });
    admin = server.client();
    expect((await admin.login('admin1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const count = async () =>
    Number(
      (
        await server.db
          .selectFrom('invitations')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  async function startRegistration(email: string, inviteCode: string) {
    const client = server.client();
    expect((await client.get('/captcha.jpg?1')).status).toBe(200);
    return post(client, 'anonymous/registration/start', { email, inviteCode, captchaCode: CAPTCHA });
  }

  it('creates an invitation, emails its code, and the code starts a registration', async () => {
    const created = await post<InvitationSummary>(admin, 'admin/invitations', {
      email: 'robin.new@example.com',
      appCode: 'LOANS',
      facilityCode: 'F002',
      name: 'Robin New',
      customerNumber: 'C20002',
      isStaff: false,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      email: 'robin.new@example.com',
      app: { code: 'LOANS', name: 'Loans' },
      facility: { code: 'F002', name: 'Riverside Family Practice' },
      name: 'Robin New',
      customerNumber: 'C20002',
      isStaff: false,
      status: 'OPEN',
      usedDate: null,
    });
    const days = (Date.parse(created.body.expiresDate) - Date.parse(created.body.createdDate)) / 86_400_000;
    expect(days).toBe(14);

    const [mail] = await outbox(admin, '?to=robin.new@example.com&channel=EMAIL');
    expect(mail?.text).toContain('/registration');
    expect(mail?.code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){4}$/);
    expect(mail?.text).toContain(mail!.code!);
    const started = await startRegistration('robin.new@example.com', mail!.code!);
    expect(started.status, JSON.stringify(started.body)).toBe(200);

    const listed = await get<Paged<InvitationSummary>>(admin, 'admin/invitations?query=robin');
    expect(listed.body.page).toEqual({ number: 0, size: 20, totalElements: 1 });
    expect(listed.body.data[0]).toEqual(created.body);
  });

  it('revokes an open invitation: its code then starts nothing, and a second revoke is refused', async () => {
    const created = await post<InvitationSummary>(admin, 'admin/invitations', {
      email: 'sam.revoked@example.com',
      appCode: 'PAYROLL',
      isStaff: true,
      validityDays: 3,
    });
    expect(created.body.status).toBe('OPEN');
    const [mail] = await outbox(admin, '?to=sam.revoked@example.com&channel=EMAIL');
    const revoked = await post<InvitationSummary>(admin, `admin/invitations/${created.body.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: created.body.id, status: 'EXPIRED' });
    const refused = await startRegistration('sam.revoked@example.com', mail!.code!);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: INVITATION_INVALID_MESSAGE });

    const again = await post(admin, `admin/invitations/${created.body.id}/revoke`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ message: INVITATION_ENDED_MESSAGE });
    expect((await post(admin, 'admin/invitations/00000000-0000-4000-8000-000000000000/revoke')).status).toBe(
      404,
    );
    expect((await post(admin, 'admin/invitations/nope/revoke')).status).toBe(404);
  });

  it('pages the list newest first, with the seeded invitations', async () => {
    const all = await get<Paged<InvitationSummary>>(admin, 'admin/invitations');
    expect(all.status).toBe(200);
    expect(all.body.page.totalElements).toBe(await count());
    const dates = all.body.data.map((i) => Date.parse(i.createdDate));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect((await get(admin, 'admin/invitations?page=x')).status).toBe(400);
  });

  it('refuses bad invitations and changes nothing', async () => {
    const before = await count();
    const cases: Array<[unknown, number, string?]> = [
      [{ email: 'a@example.com', appCode: 'NOPE', isStaff: false }, 422, UNKNOWN_APP_MESSAGE],
      [{ email: 'a@example.com', appCode: 'LOANS', isStaff: false }, 422, FACILITY_REQUIRED_MESSAGE],
      [
        { email: 'a@example.com', appCode: 'PAYROLL', facilityCode: 'F001', isStaff: false },
        422,
        FACILITY_NOT_ALLOWED_MESSAGE,
      ],
      [{ email: 'a@example.com', appCode: 'LOANS', facilityCode: 'F999', isStaff: false }, 422],
      [{ email: 'a@example.com', appCode: 'PAYROLL', customerNumber: '12345', isStaff: false }, 422],
      [{ email: 'not-an-email', appCode: 'PAYROLL', isStaff: false }, 400],
      [{ email: 'a@example.com', appCode: 'PAYROLL' }, 400],
      [{ email: 'a@example.com', appCode: 'PAYROLL', isStaff: false, validityDays: 0 }, 400],
      [{ email: 'a@example.com', appCode: 'PAYROLL', isStaff: false, extra: 1 }, 400],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(admin, 'admin/invitations', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (message) expect(res.body).toMatchObject({ message });
    }
    expect(await count()).toBe(before);
  });

  it('lists the apps with their settings and facilities', async () => {
    const res = await get<Array<Record<string, unknown>>>(admin, 'admin/apps');
    expect(res.status).toBe(200);
    expect(res.body.map((a) => a.code)).toEqual(['LOANS', 'PAYROLL', 'TREASURY']);
    expect(res.body[0]).toEqual({
      code: 'LOANS',
      name: 'Loans',
      contextType: 'SAML',
      facilityHandoff: 'SELECTED_BEFORE_HANDOFF',
      accessRequestHandling: 'MANUAL',
      facilities: [
        { code: 'F001', name: 'Northside Community Clinic', alias: 'Northside' },
        { code: 'F002', name: 'Riverside Family Practice', alias: null },
        { code: 'F003', name: 'Bayview Aged Care', alias: 'Bayview' },
      ],
    });
    expect(res.body[1]).toMatchObject({
      code: 'PAYROLL',
      accessRequestHandling: 'IMMEDIATE',
      facilities: [],
    });
  });

  it('lets only admins call the invitation calls', async () => {
    const anonymous = server.client();
    const customer = server.client();
    await customer.login('C10001');
    const auditor = server.client();
    await auditor.login('auditor1');
    const before = await count();
    const calls: Array<(c: TestClient) => Promise<{ status: number; body: unknown }>> = [
      (c) => get(c, 'admin/invitations'),
      (c) => get(c, 'admin/apps'),
      (c) => post(c, 'admin/invitations', { email: 'x@example.com', appCode: 'PAYROLL', isStaff: false }),
      (c) => post(c, 'admin/invitations/00000000-0000-4000-8000-000000000000/revoke'),
    ];
    for (const call of calls) {
      expect((await call(anonymous)).status).toBe(401);
      for (const client of [customer, auditor]) {
        const res = await call(client);
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ message: PERMISSION_DENIED_MESSAGE });
      }
    }
    expect(await count()).toBe(before);
  });
});
