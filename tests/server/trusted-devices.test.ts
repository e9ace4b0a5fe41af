// Trusted devices beyond the MFA step: the profile's view of them (section 3's shape), revoking one,
// all, by a factor change and by signing out of all devices, expiry and the sweep, and the
// user-agent parsing behind the browser and OS columns.
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TrustedDevice } from '../../src/contract/profile';
import { ManualClock } from '../../src/server/adapters/clock';
import { describeUserAgent } from '../../src/server/adapters/user-agent';
import { signOutOfAllDevices } from '../../src/server/domain/factors/trusted-devices';
import { startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';
import { get, latestCode, post, signInToStep, totpAt, type Json } from './support/factors';

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.127 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('user agents', () => {
  it('gives browser family, major and minor version, and the operating system', () => {
    expect(describeUserAgent(CHROME_WINDOWS)).toEqual({
      browserFamily: 'Chrome',
      browserMajor: '126',
      browserMinor: '0',
      osFamily: 'Windows',
      osVersion: '10',
    });
    expect(describeUserAgent(FIREFOX_LINUX)).toMatchObject({
      browserFamily: 'Firefox',
      browserMajor: '128',
      osFamily: 'Ubuntu',
    });
    expect(describeUserAgent(undefined)).toEqual({
      browserFamily: null,
      browserMajor: null,
      browserMinor: null,
      osFamily: null,
      osVersion: null,
    });
  });
});

describe.each(targets)('trusted devices on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-03-02T09:00:05Z');

  beforeAll(async () => {
    server = await startServer(target, { deps: { clock } });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    clock.advance(5 * 60_000);
    await server.db.deleteFrom('trusted_devices').execute();
  });

  const identityId = async (username: string) =>
    (
      await server.db
        .selectFrom('identities')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  /** Signs C10004 in through MFA in a browser with `userAgent`, trusting it. */
  async function trustedBrowser(userAgent: string): Promise<TestClient> {
    const client = server.client();
    const headers = { 'user-agent': userAgent };
    await client.post(
      '/rest/ui/anonymous/login',
      { username: 'C10004', password: 'Harbour-Lights-2026' },
      { headers },
    );
    const res = await client.post<Json>(
      '/rest/ui/forced-actions/mfa/verify-authenticator-app',
      { code: totpAt(clock), trustDevice: true },
      { headers },
    );
    expect(res.status).toBe(200);
    clock.advance(30_000);
    return client;
  }

  const skipsMfa = async (client: TestClient, username = 'C10004') => {
    await post(client, 'logout');
    const res = await client.login<Json>(username);
    return res.body.outcome === 'DIRECT_LOGIN';
  };

  it('lists active devices in the profile shape, last active first, and revokes one', async () => {
    const chrome = await trustedBrowser(CHROME_WINDOWS);
    clock.advance(60_000);
    const firefox = await trustedBrowser(FIREFOX_LINUX);
    const devices = server.app.services.factors.trustedDevices;
    const id = await identityId('C10004');

    const active = await devices.active(id);
    expect(active).toHaveLength(2);
    for (const device of active) expect(v.safeParse(TrustedDevice, device).success).toBe(true);
    expect(active.map((d) => d.browser.family)).toEqual(['Firefox', 'Chrome']);
    expect(active[1]).toMatchObject({
      browser: { family: 'Chrome', versionMajor: '126', versionMinor: '0' },
      operatingSystem: { family: 'Windows', version: '10' },
      city: null,
      country: null,
      continent: null,
    });

    // Using a device makes it the most recently active.
    expect(await skipsMfa(chrome)).toBe(true);
    expect((await devices.active(id)).map((d) => d.browser.family)).toEqual(['Chrome', 'Firefox']);

    // Another identity cannot revoke it; the owner can.
    const chromeId = active[1]!.id;
    expect(await devices.revoke(await identityId('C10005'), chromeId)).toBe(false);
    expect(await devices.revoke(id, chromeId)).toBe(true);
    expect(await skipsMfa(chrome)).toBe(false);
    expect(await skipsMfa(firefox)).toBe(true);
  });

  it('revokes all, and expired devices are neither listed nor kept by the sweep', async () => {
    const devices = server.app.services.factors.trustedDevices;
    const id = await identityId('C10004');
    const browser = await trustedBrowser(CHROME_WINDOWS);
    await trustedBrowser(FIREFOX_LINUX);
    expect(await devices.revokeAll(id)).toBe(2);
    expect(await skipsMfa(browser)).toBe(false);

    await trustedBrowser(CHROME_WINDOWS);
    clock.advance(7 * 24 * 3_600_000);
    expect(await devices.active(id)).toEqual([]);
    expect(await devices.sweep()).toBe(1);
    expect(await server.db.selectFrom('trusted_devices').selectAll().execute()).toEqual([]);
  });

  it('signing out of all devices ends every session and revokes every trusted device', async () => {
    const browser = await trustedBrowser(CHROME_WINDOWS);
    const other = server.client();
    await signInToStep(other, 'C10004', 'MFA');
    await signOutOfAllDevices(server.db, await identityId('C10004'));
    expect((await get<Json>(browser, 'anonymous/current-user')).body.type).toBe('ANONYMOUS');
    expect((await get<Json>(other, 'anonymous/current-user')).body.type).toBe('ANONYMOUS');
    expect((await browser.login<Json>('C10004')).body).toMatchObject({ forcedAction: 'MFA' });
  });

  it('a factor change (completing enrolment) revokes trusted devices', async () => {
    const id = await identityId('C10003');
    await server.db
      .insertInto('trusted_devices')
      .values({
        id: '00000000-0000-4000-8000-000000000003',
        identity_id: id,
        token_hash: 'e'.repeat(64),
        browser_family: 'Chrome',
        browser_major: '126',
        browser_minor: '0',
        os_family: 'Windows',
        os_version: '10',
        city_name: null,
        country_name: null,
        continent_name: null,
        created_at: clock.now(),
        last_active_at: clock.now(),
        expires_at: new Date(clock.now().getTime() + 86_400_000),
      })
      .execute();
    const client = server.client();
    await signInToStep(client, 'C10003', 'FACTOR_ENROLMENT');
    await post(client, 'forced-actions/factor-enrolment/verify-email', {
      code: await latestCode(client, 'c10003@example.com'),
    });
    const done = await post(client, 'forced-actions/factor-enrolment/submit', {
      question1: 'DRIVERS_LICENCE',
      answer1: 'NSW 1234',
      question2: 'MEDICARE',
      answer2: '2123 45670 1',
    });
    expect(done.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    expect(
      await server.db.selectFrom('trusted_devices').selectAll().where('identity_id', '=', id).execute(),
    ).toEqual([]);
  });
});
