// The admin's invitations over real HTTP: create (the invitation email with its code goes out, and
// the code starts a registration), list and search, revoke (REVOKED with who and when; the code is
// then refused as an expired one is; only an open invitation), and the refusals that change
// nothing; admins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvitationSummary, PageMetadata } from '../../src/contract/admin';
import {
  FACILITY_NOT_ALLOWED_MESSAGE,
  FACILITY_REQUIRED_MESSAGE,
  INVITATION_NOT_REVOCABLE_MESSAGES,
  UNKNOWN_APP_MESSAGE,
} from '../../src/server/domain/admin/invitations';
import { PERMISSION_DENIED_MESSAGE } from '../../src/server/domain/messages';
import {
  INVITATION_INVALID_MESSAGE,
  INVITATION_NAME_REQUIRED_MESSAGE,
} from '../../src/server/domain/registration/messages';
import { get, outbox, post } from './support/factors';
import { startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

const CAPTCHA = 'E2E42';
type Paged<T> = { data: T[]; page: PageMetadata };
type Line = Record<string, unknown>;

/** The server's log lines (ServerDeps.logStream), for the audit line of a revoke. */
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

describe.each(targets)('admin invitations on $name', (target) => {
  let server: TestServer;
  let admin: TestClient;
  const log = new CapturedLog();

  beforeAll(async () => {
    server = await startServer(target, {
      env: { CAPTCHA_FIXED_ANSWER: CAPTCHA, LOG_LEVEL: 'info' },
      deps: { logStream: log },
    });
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

  async function invite(email: string) {
    const created = await post<InvitationSummary>(admin, 'admin/invitations', {
      email,
      appCode: 'PAYROLL',
      isStaff: true,
      validityDays: 3,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ status: 'OPEN', revokedAt: null, revokedBy: null });
    const [mail] = await outbox(admin, `?to=${email}&channel=EMAIL`);
    return { invitation: created.body, code: mail!.code! };
  }

  const invitationRow = (id: string) =>
    server.db
      .selectFrom('invitations')
      .select(['expires_at', 'used_at', 'revoked_at', 'revoked_by_identity_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('revokes an open invitation: REVOKED naming the admin and when, its code refused as an expired one is', async () => {
    const { invitation, code } = await invite('sam.revoked@example.com');
    // The same session started with the code before the revoke: its next step is refused too.
    const client = server.client();
    expect((await client.get('/captcha.jpg?1')).status).toBe(200);
    const before = await post(client, 'anonymous/registration/start', {
      email: 'sam.revoked@example.com',
      inviteCode: code,
      captchaCode: CAPTCHA,
    });
    expect(before.status, JSON.stringify(before.body)).toBe(200);

    const from = Date.now();
    const revoked = await post<InvitationSummary>(admin, `admin/invitations/${invitation.id}/revoke`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body).toEqual({
      ...invitation,
      status: 'REVOKED',
      revokedAt: expect.any(String),
      revokedBy: 'admin1',
    });
    const revokedAt = Date.parse(revoked.body.revokedAt!);
    expect(revokedAt).toBeGreaterThanOrEqual(from - 1000);
    expect(revokedAt).toBeLessThanOrEqual(Date.now() + 1000);
    // The invitation keeps its expiry; the admin is recorded.
    expect(revoked.body.expiresDate).toBe(invitation.expiresDate);
    const adminId = (
      await server.db
        .selectFrom('identities')
        .select('id')
        .where('username', '=', 'admin1')
        .executeTakeFirstOrThrow()
    ).id;
    expect(await invitationRow(invitation.id)).toMatchObject({
      used_at: null,
      revoked_by_identity_id: adminId,
    });
    const listed = await get<Paged<InvitationSummary>>(admin, 'admin/invitations?query=sam.revoked');
    expect(listed.body.data).toEqual([revoked.body]);

    // An expired invitation's code, for the answer a revoked one must give alike.
    const expired = await invite('pat.expired@example.com');
    await server.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('id', '=', expired.invitation.id)
      .execute();
    const expiredAnswer = await startRegistration('pat.expired@example.com', expired.code);
    expect(expiredAnswer.status).toBe(422);
    expect(expiredAnswer.body).toEqual({ message: INVITATION_INVALID_MESSAGE });
    const refused = await startRegistration('sam.revoked@example.com', code);
    expect(refused.status).toBe(expiredAnswer.status);
    expect(refused.body).toEqual(expiredAnswer.body);
    const midway = await post(client, 'anonymous/registration/collect-details', { name: 'Sam Revoked' });
    expect(midway.status).toBe(422);
    expect(midway.body).toMatchObject({ message: INVITATION_INVALID_MESSAGE, reroute: '/registration' });
    expect((await invitationRow(invitation.id)).used_at).toBeNull();
  });

  it('refuses to revoke a revoked, used or expired invitation (409) and changes nothing', async () => {
    const revoked = (await invite('kim.twice@example.com')).invitation;
    expect((await post(admin, `admin/invitations/${revoked.id}/revoke`)).status).toBe(200);
    const used = (await invite('lee.used@example.com')).invitation;
    await server.db
      .updateTable('invitations')
      .set({ used_at: new Date() })
      .where('id', '=', used.id)
      .execute();
    const expired = (await invite('max.expired@example.com')).invitation;
    await server.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('id', '=', expired.id)
      .execute();

    const cases = [
      [revoked, 'REVOKED'],
      [used, 'USED'],
      [expired, 'EXPIRED'],
    ] as const;
    for (const [invitation, status] of cases) {
      const before = await invitationRow(invitation.id);
      const listedBefore = await get<Paged<InvitationSummary>>(
        admin,
        `admin/invitations?query=${invitation.email}`,
      );
      expect(listedBefore.body.data[0]!.status).toBe(status);
      const refused = await post(admin, `admin/invitations/${invitation.id}/revoke`);
      expect(refused.status, status).toBe(409);
      expect(refused.body).toEqual({ message: INVITATION_NOT_REVOCABLE_MESSAGES[status] });
      expect(await invitationRow(invitation.id)).toEqual(before);
      const listedAfter = await get<Paged<InvitationSummary>>(
        admin,
        `admin/invitations?query=${invitation.email}`,
      );
      expect(listedAfter.body).toEqual(listedBefore.body);
    }
    expect((await post(admin, 'admin/invitations/00000000-0000-4000-8000-000000000000/revoke')).status).toBe(
      404,
    );
    expect((await post(admin, 'admin/invitations/nope/revoke')).status).toBe(404);
  });

  it('writes an audit line for a revoke, naming the admin', async () => {
    const { invitation } = await invite('ash.audited@example.com');
    expect((await post(admin, `admin/invitations/${invitation.id}/revoke`)).status).toBe(200);
    // Earlier tests revoke too: wait for this invitation's own line.
    const lines = await eventually(
      () => log.audit('INVITATION_REVOKED').filter((l) => l.invitationId === invitation.id),
      1,
    );
    const adminId = (
      await server.db
        .selectFrom('identities')
        .select('id')
        .where('username', '=', 'admin1')
        .executeTakeFirstOrThrow()
    ).id;
    expect(lines).toEqual([
      expect.objectContaining({ audit: true, actorIdentityId: adminId, invitationId: invitation.id }),
    ]);
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

  it("refuses a non-staff customer's invitation without a name (422 at the name field) and creates nothing", async () => {
    // Section 5: such an invitee cannot enter the name when registering, so it must come from here.
    const before = await count();
    const nameRequired = {
      message: INVITATION_NAME_REQUIRED_MESSAGE,
      errors: [{ fieldName: 'name', message: 'Required field' }],
    };
    const customer = { email: 'nameless@example.com', appCode: 'PAYROLL', customerNumber: 'C20031' };
    for (const body of [
      { ...customer, isStaff: false },
      { ...customer, isStaff: false, name: '' },
      { ...customer, isStaff: false, name: '   ' },
      { ...customer, isStaff: false, name: null },
    ]) {
      const res = await post(admin, 'admin/invitations', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(nameRequired);
    }
    // Refused together with a missing facility: each at its field.
    const both = await post(admin, 'admin/invitations', { ...customer, appCode: 'LOANS', isStaff: false });
    expect(both.status).toBe(422);
    expect(both.body).toEqual({
      message: FACILITY_REQUIRED_MESSAGE,
      errors: [
        { fieldName: 'facilityCode', message: FACILITY_REQUIRED_MESSAGE },
        { fieldName: 'name', message: 'Required field' },
      ],
    });
    // A customer number the server cannot take is refused at its field too.
    const badNumber = await post(admin, 'admin/invitations', {
      ...customer,
      customerNumber: '12345',
      name: 'Nat Less',
      isStaff: false,
    });
    expect(badNumber.status).toBe(422);
    // The alert reads as the field does, without the field's internal name.
    expect(badNumber.body).toEqual({
      message: 'Must be in the form C99999',
      errors: [{ fieldName: 'customerNumber', message: 'Must be in the form C99999' }],
    });
    expect(await count()).toBe(before);
    expect(await outbox(admin, '?to=nameless@example.com&channel=EMAIL')).toEqual([]);

    // Staff, and anyone without a customer number, enter their own name when registering.
    for (const [email, body] of [
      ['staff.nameless@example.com', { appCode: 'PAYROLL', customerNumber: 'C20032', isStaff: true }],
      ['plain.nameless@example.com', { appCode: 'PAYROLL', isStaff: false }],
    ] as const) {
      const res = await post<InvitationSummary>(admin, 'admin/invitations', { email, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ email, name: null, status: 'OPEN' });
    }
    expect(await count()).toBe(before + 2);
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
    const open = (await invite('jo.kept@example.com')).invitation;
    const before = await count();
    const calls: Array<(c: TestClient) => Promise<{ status: number; body: unknown }>> = [
      (c) => get(c, 'admin/invitations'),
      (c) => get(c, 'admin/apps'),
      (c) => post(c, 'admin/invitations', { email: 'x@example.com', appCode: 'PAYROLL', isStaff: false }),
      (c) => post(c, 'admin/invitations/00000000-0000-4000-8000-000000000000/revoke'),
      (c) => post(c, `admin/invitations/${open.id}/revoke`),
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
    expect(await invitationRow(open.id)).toMatchObject({ revoked_at: null, revoked_by_identity_id: null });
  });
});
