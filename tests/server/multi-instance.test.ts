// Two server instances on one PostgreSQL database, as behind a load balancer: what one instance
// records, the other honours. Sessions, failed-password counts, captchas and rate limits all live
// in the database, so a browser may reach either instance with any request.
//
// An embedded PGlite database opens in one process only, so this file exists for PostgreSQL alone
// (registered only there: not a skipped test on PGlite).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAPTCHA_REQUIRED_MESSAGE,
  INCORRECT_CREDENTIALS_MESSAGE,
  TOO_MANY_REQUESTS_MESSAGE,
} from '../../src/server/domain/messages';
import { API, TestClient, startServer, type RequestOptions, type TestServer } from './support/server';
import { targets } from './support/targets';

type Json = Record<string, unknown>;
const LOGIN_LIMIT = 8;
const CALL_LIMIT = 40;

/** A browser at one client address (X-Forwarded-For, trusted here), talking to one instance. */
class Browser extends TestClient {
  constructor(
    baseUrl: string,
    readonly ip: string,
  ) {
    super(baseUrl);
  }

  override request<T = unknown>(method: string, path: string, options: RequestOptions = {}) {
    return super.request<T>(method, path, {
      ...options,
      headers: { 'x-forwarded-for': this.ip, ...options.headers },
    });
  }

  /** The same browser (its cookies as they are now) sending to another instance. */
  at(server: TestServer): Browser {
    const other = new Browser(server.baseUrl, this.ip);
    for (const [name, value] of this.cookies) other.cookies.set(name, value);
    return other;
  }
}

let nextIp = 1;
/** Each test its own client address, so the rate limits of one do not touch another. */
const freshIp = () => `203.0.113.${nextIp++}`;

describe.each(targets.filter((t) => t.name === 'postgres'))(
  'two server instances on one $name database',
  (target) => {
    let a: TestServer;
    let b: TestServer;

    beforeAll(async () => {
      const env = {
        TRUST_PROXY: 'true',
        RATE_LIMIT_PER_MINUTE: String(CALL_LIMIT),
        LOGIN_RATE_LIMIT_PER_MINUTE: String(LOGIN_LIMIT),
        // The failure limit's waits and lock are failure-limit.test.ts's; here the counts alone.
        FAILURE_DELAY_SECONDS: '0',
        LOCK_AFTER_FAILURES: '0',
      };
      a = await startServer(target, { env });
      b = await startServer(target, { env, sameDatabaseAs: a });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    const isAuthenticated = async (browser: Browser) =>
      (await browser.get<{ isAuthenticated: boolean }>(`${API}anonymous/current-user`)).body.isAuthenticated;

    it('runs two instances with their own listeners and pools on one database', async () => {
      expect(a.baseUrl).not.toBe(b.baseUrl);
      expect(a.handle.url).toBe(b.handle.url);
      expect(a.db).not.toBe(b.db);
    });

    it('honours on B a session signed in on A, and ends it on B when A signs out', async () => {
      const onA = new Browser(a.baseUrl, freshIp());
      const login = await onA.login<Json>('C10001');
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });

      const onB = onA.at(b);
      const current = await onB.get<Json>(`${API}anonymous/current-user`);
      expect(current.body).toMatchObject({ isAuthenticated: true, username: 'C10001' });

      expect((await onA.post(`${API}logout`)).status).toBe(204);
      expect(await isAuthenticated(onA)).toBe(false);
      // B still holds the old session cookie: the session itself is gone.
      expect(await isAuthenticated(onB)).toBe(false);
    });

    it('counts password failures across both instances and asks for a captcha from the 3rd', async () => {
      const onA = new Browser(a.baseUrl, freshIp());
      const onB = onA.at(b);
      const failedCount = async (browser: Browser) =>
        (await browser.get<number>(`${API}anonymous/login/failed-auth-count?username=C10010`)).body;

      expect((await onA.login('C10010', 'wrong-password')).body).toEqual({
        message: INCORRECT_CREDENTIALS_MESSAGE,
      });
      expect((await onB.login('C10010', 'wrong-password')).body).toEqual({
        message: INCORRECT_CREDENTIALS_MESSAGE,
      });
      expect(await failedCount(onA)).toBe(2);
      expect((await onA.login('C10010', 'wrong-password')).body).toEqual({
        message: INCORRECT_CREDENTIALS_MESSAGE,
      });
      expect(await failedCount(onB)).toBe(3);

      // The 4th attempt, on B, needs a captcha though B saw one failure only.
      const missing = await onB.login('C10010');
      expect(missing.status).toBe(422);
      expect(missing.body).toMatchObject({ message: CAPTCHA_REQUIRED_MESSAGE });

      // A captcha drawn by A is answered on B (the challenge is in the database, tied to the session).
      await onA.get('/captcha.jpg?1');
      const onBWithCaptcha = onA.at(b);
      const ok = await onBWithCaptcha.login<Json>('C10010', undefined, { captchaCode: a.captcha.last });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
      expect(await failedCount(onA)).toBe(0);
    });

    it('shares the sign-in rate limit: the limit is reached by requests spread over both', async () => {
      const onA = new Browser(a.baseUrl, freshIp());
      const onB = onA.at(b);
      for (let i = 0; i < LOGIN_LIMIT; i++) {
        // Alternating: each instance sees half the limit.
        // Each its own unknown username, so no captcha is asked for.
        const res = await (i % 2 === 0 ? onA : onB).login(`nobody${i}`, 'wrong-password');
        expect(res.body, `request ${i + 1}`).toEqual({ message: INCORRECT_CREDENTIALS_MESSAGE });
      }
      for (const browser of [onA, onB]) {
        const refused = await browser.login('nobody-here', 'wrong-password');
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual({ message: TOO_MANY_REQUESTS_MESSAGE });
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      }
      // Another client address is not limited.
      const elsewhere = new Browser(b.baseUrl, freshIp());
      expect((await elsewhere.login('nobody-here', 'wrong-password')).body).toEqual({
        message: INCORRECT_CREDENTIALS_MESSAGE,
      });
    });

    it('shares the call rate limit, counted per route', async () => {
      const onA = new Browser(a.baseUrl, freshIp());
      const onB = onA.at(b);
      for (let i = 0; i < CALL_LIMIT; i++) {
        const res = await (i % 2 === 0 ? onA : onB).get(`${API}anonymous/current-user`);
        expect(res.status, `request ${i + 1}`).toBe(200);
      }
      expect((await onA.get(`${API}anonymous/current-user`)).status).toBe(429);
      expect((await onB.get(`${API}anonymous/current-user`)).status).toBe(429);
      // Another route has a counter of its own.
      expect((await onB.get(`${API}anonymous/login/failed-auth-count?username=C10001`)).status).toBe(200);
    });
  },
);
