// The read-only calls: context, environment, frame origin, realms, enumerations, properties,
// trusted-device period, accessible apps, apps, health.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_FOUND_MESSAGE } from '../../src/server/domain/messages';
import { API, startServer, type TestServer } from './support/server';
import { targets } from './support/targets';

describe.each(targets)('reference calls on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target, { env: { APP_VERSION: '1.2.3' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('gives the default context: the portal itself in the demo realm', async () => {
    const res = await server.client().get(`${API}anonymous/context`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ appCode: 'SAM', realmCode: 'BANK', showInHeader: false, type: 'DIRECT' });
    // Reading the context creates no session.
    expect(res.setCookies).toEqual([]);
  });

  it('gives the environment and version', async () => {
    const res = await server.client().get(`${API}anonymous/environment`);
    expect(res.body).toEqual({ environment: 'test', applicationVersion: '1.2.3' });
  });

  it('gives no frame origin for the portal context', async () => {
    const res = await server.client().get(`${API}anonymous/frame-origin`);
    expect(res.body).toEqual({ origin: null });
  });

  it('says whether a realm allows sign-in; unknown realms do not', async () => {
    const client = server.client();
    expect((await client.get(`${API}anonymous/realms/BANK/auth-enabled`)).body).toBe(true);
    expect((await client.get(`${API}anonymous/realms/ELSEWHERE/auth-enabled`)).body).toBe(false);
  });

  it('lists the security questions with DRIVERS_LICENCE and MEDICARE among them', async () => {
    const res = await server
      .client()
      .get<Array<{ code: string; description: string }>>(`${API}anonymous/enums/security-questions`);
    expect(res.status).toBe(200);
    const codes = res.body.map((q) => q.code);
    expect(codes.slice(0, 2)).toEqual(['DRIVERS_LICENCE', 'MEDICARE']);
    expect(codes.length).toBeGreaterThanOrEqual(2);
    for (const q of res.body) expect(q.description.length).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown enumeration', async () => {
    const res = await server.client().get(`${API}anonymous/enums/colours`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: NOT_FOUND_MESSAGE });
  });

  it('answers the properties by name; sms-gateway-status as isSmsGatewayAvailable', async () => {
    const client = server.client();
    expect((await client.get(`${API}anonymous/properties/sms-gateway-status`)).body).toEqual({
      isSmsGatewayAvailable: true,
    });
    expect((await client.get(`${API}anonymous/properties/support-email`)).body).toEqual({
      name: 'support-email',
      value: 'support@example.com',
    });
    expect((await client.get(`${API}anonymous/properties/sso-support-email`)).body).toEqual({
      name: 'sso-support-email',
      value: 'sso.support@example.com',
    });
    const cutoff = (
      await client.get<{ name: string; value: string }>(
        `${API}anonymous/properties/skip-merge-accounts-cutoff-date`,
      )
    ).body;
    expect(cutoff.value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const daysAhead = (Date.parse(cutoff.value) - Date.now()) / 86_400_000;
    expect(daysAhead).toBeGreaterThan(300);
    expect(daysAhead).toBeLessThan(400);
  });

  it('refuses property names outside the contract with 400', async () => {
    const res = await server.client().get(`${API}anonymous/properties/database-password`);
    expect(res.status).toBe(400);
  });

  it('reports the sms gateway as unavailable when the property says so', async () => {
    await server.db
      .updateTable('properties')
      .set({ value: 'UNAVAILABLE' })
      .where('name', '=', 'sms-gateway-status')
      .execute();
    try {
      expect((await server.client().get(`${API}anonymous/properties/sms-gateway-status`)).body).toEqual({
        isSmsGatewayAvailable: false,
      });
    } finally {
      await server.db
        .updateTable('properties')
        .set({ value: 'AVAILABLE' })
        .where('name', '=', 'sms-gateway-status')
        .execute();
    }
  });

  it('gives the trusted-device period', async () => {
    expect((await server.client().get(`${API}anonymous/trusted-devices/period`)).body).toBe(7);
  });

  it("lists C10001's accessible apps: LOANS at F001 and F002, and PAYROLL", async () => {
    const client = server.client();
    await client.login('C10001');
    const res = await client.get(`${API}current-user/accessible-apps`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        appName: 'Loans',
        appCode: 'LOANS',
        facilityCode: 'F001',
        facilityName: 'Northside Community Clinic',
        facilityAliasOrCode: 'Northside',
      },
      {
        appName: 'Loans',
        appCode: 'LOANS',
        facilityCode: 'F002',
        facilityName: 'Riverside Family Practice',
        facilityAliasOrCode: 'F002',
      },
      {
        appName: 'Payroll',
        appCode: 'PAYROLL',
        facilityCode: null,
        facilityName: null,
        facilityAliasOrCode: null,
      },
    ]);
  });

  it('lists C10008 at three LOANS facilities, admin1 at PAYROLL and TREASURY, auditor1 nowhere', async () => {
    const appsOf = async (username: string) => {
      const client = server.client();
      await client.login(username);
      const res = await client.get<Array<{ appCode: string; facilityCode: string | null }>>(
        `${API}current-user/accessible-apps`,
      );
      return res.body.map((t) => `${t.appCode}${t.facilityCode ? ` ${t.facilityCode}` : ''}`);
    };
    expect(await appsOf('C10008')).toEqual(['LOANS F001', 'LOANS F002', 'LOANS F003']);
    expect(await appsOf('admin1')).toEqual(['PAYROLL', 'TREASURY']);
    expect(await appsOf('auditor1')).toEqual([]);
  });

  it('gives an app by code to a signed-in user, 404 for an unknown one', async () => {
    const client = server.client();
    await client.login('C10001');
    expect((await client.get(`${API}apps/LOANS`)).body).toEqual({
      code: 'LOANS',
      name: 'Loans',
      contextType: 'SAML',
      facilityHandoff: 'SELECTED_BEFORE_HANDOFF',
      accessRequestHandling: 'MANUAL',
      frameOrigin: null,
    });
    expect((await client.get(`${API}apps/TREASURY`)).body).toMatchObject({
      contextType: 'JWT',
      frameOrigin: 'http://127.0.0.1:8081',
    });
    const missing = await client.get(`${API}apps/NOPE`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: NOT_FOUND_MESSAGE });
  });

  it('reports health (liveness) and readiness with the database reachable', async () => {
    const res = await server.client().get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: '1.2.3' });
    const ready = await server.client().get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', checks: { database: 'ok' }, version: '1.2.3' });
  });
});
