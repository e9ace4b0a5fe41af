// A profile change checks the current password before anything else, which makes the session's
// password entry recent again; the re-enter-password cookie (which tells the portal when to ask for
// the password) follows it. It used to keep the sign-in's time, so 'Re-enter password' opened
// minutes after the user had typed the password for a change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { DEMO_PASSWORD, startServer, type TestServer } from './support/server';
import { targets } from './support/targets';

const API = '/rest/ui/';
const REAUTH = 'sam_reauth';

describe.each(targets)('the re-enter-password cookie after a profile change, on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  beforeAll(async () => {
    server = await startServer(target, { deps: { clock } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a change with the right password renews it; a refused one does not', async () => {
    const client = server.client();
    expect((await client.login('C10001')).status).toBe(200);
    const atSignIn = Number(client.cookie(REAUTH));
    expect(atSignIn).toBeGreaterThan(0);

    clock.advance(10 * 60_000);
    const refused = await client.request('PATCH', `${API}profile`, {
      json: { currentPassword: 'Not-The-Password-1', phone: '02 5550 1234' },
    });
    expect(refused.status).toBe(422);
    expect(refused.setCookies.some((c) => c.startsWith(`${REAUTH}=`))).toBe(false);

    const changed = await client.request('PATCH', `${API}profile`, {
      json: { currentPassword: DEMO_PASSWORD, phone: '02 5550 1234' },
    });
    expect(changed.status).toBe(200);
    // Ten minutes later than the sign-in's, as the server now counts it.
    expect(Number(client.cookie(REAUTH))).toBe(atSignIn + 10 * 60);
    // And the server agrees the entry is recent.
    const expired = await client.get(`${API}reenter-password/expired`);
    expect(expired.status).toBe(200);
    expect(expired.body).toBe(false);
  });
});
