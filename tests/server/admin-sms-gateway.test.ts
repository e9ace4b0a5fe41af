// The admin's SMS gateway switch over real HTTP: admins only; the property every instance reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_DENIED_MESSAGE } from '../../src/server/domain/messages';
import { startServer, type TestServer } from './support/server';
import { targets } from './support/targets';
import { get, post } from './support/factors';

const PATH = 'admin/properties/sms-gateway-status';

describe.each(targets)('admin SMS gateway switch on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  const status = async () =>
    (await get(server.client(), 'anonymous/properties/sms-gateway-status')).body.isSmsGatewayAvailable;

  it('lets an admin switch SMS codes off and on', async () => {
    const admin = server.client();
    expect((await admin.login('admin1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    expect(await status()).toBe(true);

    const off = await post(admin, PATH, { isSmsGatewayAvailable: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ isSmsGatewayAvailable: false });
    expect(await status()).toBe(false);
    expect(await server.app.services.factors.smsGateway.isAvailable()).toBe(false);

    const on = await post(admin, PATH, { isSmsGatewayAvailable: true });
    expect(on.body).toEqual({ isSmsGatewayAvailable: true });
    expect(await status()).toBe(true);
  });

  it('refuses anyone else and bad bodies, changing nothing', async () => {
    const anonymous = server.client();
    expect((await post(anonymous, PATH, { isSmsGatewayAvailable: false })).status).toBe(401);

    const customer = server.client();
    expect((await customer.login('C10001')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    const denied = await post(customer, PATH, { isSmsGatewayAvailable: false });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ message: PERMISSION_DENIED_MESSAGE });

    const admin = server.client();
    await admin.login('admin1');
    for (const body of [{}, { isSmsGatewayAvailable: 'no' }, { isSmsGatewayAvailable: false, extra: 1 }]) {
      expect((await post(admin, PATH, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await status()).toBe(true);
  });
});
