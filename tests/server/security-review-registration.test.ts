// Security review, registration for an existing account: submit-existing proves the account's
// password, as a sign-in does, and must treat the account's failure count as a sign-in does. The
// count stays while MFA is still owed (so guessing MFA codes never starts from a clean count) and
// is forgotten only when the sign-in completes. It used to be cleared at the password.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { cryptoRandom } from '../../src/server/adapters/random';
import { runInviteCommand } from '../../scripts/invite';
import { API, DEMO_PASSWORD, startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';
import { post, totpAt, type Json } from './support/factors';

const CAPTCHA = 'E2E42';

describe.each(targets)(
  'registration for an existing account keeps failures until MFA, on $name',
  (target) => {
    let server: TestServer;
    const clock = new ManualClock('2026-03-02T09:00:05Z');

    beforeAll(async () => {
      server = await startServer(target, { env: { CAPTCHA_FIXED_ANSWER: CAPTCHA }, deps: { clock } });
    });
    afterAll(async () => {
      await server?.close();
    });
    beforeEach(async () => {
      clock.advance(5 * 60_000);
      await server.db.deleteFrom('failed_auth_counts').execute();
    });

    const failedCount = async (username: string) =>
      (await server.client().get<number>(`${API}anonymous/login/failed-auth-count?username=${username}`))
        .body;

    /** A client holding the invitation `code` for `email` (the fixed captcha answered). */
    async function started(email: string, code: string): Promise<TestClient> {
      const client = server.client();
      expect((await client.get('/captcha.jpg?1')).status).toBe(200);
      const res = await post<Json>(client, 'anonymous/registration/start', {
        email,
        inviteCode: code,
        captchaCode: CAPTCHA,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ existingIdentity: true });
      return client;
    }

    async function inviteExisting(email: string, username: string): Promise<string> {
      const created = await runInviteCommand(
        ['--email', email, '--app', 'LOANS', '--facility', 'F002', '--existing', username],
        {
          db: server.db,
          clock,
          random: cryptoRandom,
          mail: server.app.services.factors.mail,
          publicUrl: server.config.publicUrl,
          out: () => {},
        },
      );
      return created.code;
    }

    it('keeps the failures while MFA is owed, like a sign-in, and forgets them when MFA is passed', async () => {
      const client = await started(
        'c10004@example.com',
        await inviteExisting('c10004@example.com', 'C10004'),
      );
      // Two failures: a wrong password here and one at sign-in.
      const wrong = await post(client, 'anonymous/registration/submit-existing', {
        username: 'C10004',
        password: 'Not-The-Password-2026',
      });
      expect(wrong.status).toBe(422);
      expect((await server.client().login('C10004', 'Not-The-Password-2026')).status).toBe(422);
      expect(await failedCount('C10004')).toBe(2);

      // A sign-in with the right password keeps them while MFA is owed...
      const signIn = await server.client().login<Json>('C10004');
      expect(signIn.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'MFA' });
      expect(await failedCount('C10004')).toBe(2);

      // ...and so does the registration's existing-account submission.
      const ok = await post<Json>(client, 'anonymous/registration/submit-existing', {
        username: 'C10004',
        password: DEMO_PASSWORD,
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'MFA' });
      expect(await failedCount('C10004')).toBe(2);

      // Passing the second factor completes the sign-in: now they are forgotten.
      expect((await post(client, 'forced-actions/mfa/start')).body).toMatchObject({
        nextFactor: 'AUTHENTICATOR_APP',
      });
      const passed = await post<Json>(client, 'forced-actions/mfa/verify-authenticator-app', {
        code: totpAt(clock),
        trustDevice: false,
      });
      expect(passed.body).toMatchObject({ outcome: 'DIRECT_LOGIN', currentUser: { username: 'C10004' } });
      expect(await failedCount('C10004')).toBe(0);
    });

    it('forgets the failures at once when no forced step is owed (the sign-in completes)', async () => {
      const client = await started('c10001@example.com', 'INVITE-EXIST-0001');
      const wrong = await post(client, 'anonymous/registration/submit-existing', {
        username: 'C10001',
        password: 'Not-The-Password-2026',
      });
      expect(wrong.status).toBe(422);
      expect(await failedCount('C10001')).toBe(1);
      const ok = await post<Json>(client, 'anonymous/registration/submit-existing', {
        username: 'C10001',
        password: DEMO_PASSWORD,
      });
      expect(ok.body).toMatchObject({ outcome: 'DIRECT_LOGIN', currentUser: { username: 'C10001' } });
      expect(await failedCount('C10001')).toBe(0);
    });
  },
);
