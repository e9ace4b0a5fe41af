// The audit log over real HTTP on PGlite and PostgreSQL: the server's log lines are captured
// (ServerDeps.logStream) at LOG_LEVEL=trace, and each authentication event must appear as one
// structured line on the audit child logger ({ audit: true }) with the right identity, IP, request
// id and session hash: sign-in success and failure, a forced step, a wrong code, a wrong current
// password, a password change, a factor removal and a merge (history events and factor changes,
// logged only once their transaction committed: a merge that fails after its history statements
// logs nothing), sign out. And no password, code, session token or bearer token sent by these
// requests appears anywhere in the captured log.
import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/adapters/clock';
import { putFactor } from '../../src/server/db/repositories/factors';
import { recordIdentityEvent } from '../../src/server/db/repositories/history';
import { hashSessionToken } from '../../src/server/domain/sessions';
import { observeRequest, type RequestObservation } from '../../src/server/observability/context';
import { createMetrics } from '../../src/server/observability/metrics';
import { flushAuditEvents } from '../../src/server/observability/plugin';
import { MERGE_EVENT, RETIRED_EVENT } from '../../src/server/domain/merge/service';
import { API, DEMO_PASSWORD, startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';
import { post, signInToStep, totpAt } from './support/factors';

type Line = Record<string, unknown>;

const WRONG_PASSWORD = 'Wrong-Harbour-Secret-7731';
const NEW_PASSWORD = 'Quiet-Meadow-Lantern-5519';
const QUERY_CODE = '908172';
const QUERY_TOKEN = 'tok-4fd1c2b9e8a7';
const BEARER = 'bearer-7c1e0d2a9b3f';

class CapturedLog {
  readonly raw: string[] = [];
  write(line: string): void {
    this.raw.push(line);
  }
  get text(): string {
    return this.raw.join('');
  }
  lines(): Line[] {
    return this.raw.map((l) => JSON.parse(l) as Line);
  }
  audit(event?: string): Line[] {
    return this.lines().filter((l) => l.audit === true && (event === undefined || l.event === event));
  }
}

/** Audit lines of history events are written after the response: wait for them briefly. */
async function eventually<T>(read: () => T[], count: number): Promise<T[]> {
  for (let i = 0; i < 100; i++) {
    const found = read();
    if (found.length >= count) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  return read();
}

/** A six-digit code the authenticator app would not accept now (not all zeros: easy to find). */
function wrongCode(clock: ManualClock): string {
  const taken = new Set([-1, 0, 1].map((offset) => totpAt(clock, offset)));
  for (;;) {
    const code = String(randomInt(100_000, 1_000_000));
    if (!taken.has(code)) return code;
  }
}

const sessionHashOf = (client: TestClient) => {
  const token = client.cookie('sam_session');
  if (!token) throw new Error('no session cookie');
  return hashSessionToken(token).slice(0, 16);
};

describe.each(targets)('audit log on $name', (target) => {
  let server: TestServer;
  const log = new CapturedLog();
  const clock = new ManualClock(new Date());
  let failAfter = 0;
  /** Every secret the tests send: none may reach the log. */
  const secrets = new Set<string>([DEMO_PASSWORD, WRONG_PASSWORD, NEW_PASSWORD, QUERY_TOKEN, BEARER]);
  const codes = new Set<string>([QUERY_CODE]);

  beforeAll(async () => {
    server = await startServer(target, {
      env: { LOG_LEVEL: 'trace', FAILURE_DELAY_SECONDS: '0', LOCK_AFTER_FAILURES: '4' },
      deps: {
        logStream: log,
        clock,
        mergeObserver: (n) => {
          if (n === failAfter) throw new Error(`injected after statement ${n}`);
        },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    failAfter = 0;
    clock.advance(5 * 60_000);
    await server.db.deleteFrom('failed_auth_counts').execute();
  });

  const idOf = async (username: string) =>
    (
      await server.db
        .selectFrom('identities')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  const remember = (client: TestClient) => {
    for (const value of client.cookies.values()) secrets.add(value);
  };

  it('logs sign-in failures and successes and sign-out with identity, IP, request id and session', async () => {
    const c10001 = await idOf('C10001');
    const client = server.client();

    const wrong = await client.login('C10001', WRONG_PASSWORD);
    expect(wrong.status).toBe(422);
    const [failed] = log.audit('SIGN_IN_FAILED').filter((l) => l.reqId === wrong.headers.get('x-request-id'));
    expect(failed).toMatchObject({
      audit: true,
      event: 'SIGN_IN_FAILED',
      identityId: c10001,
      username: 'c10001',
      outcome: 'incorrect_credentials',
      status: 422,
      ip: '127.0.0.1',
    });

    const unknown = await client.login('nobody-here', WRONG_PASSWORD);
    expect(unknown.status).toBe(422);
    const [unknownLine] = log
      .audit('SIGN_IN_FAILED')
      .filter((l) => l.reqId === unknown.headers.get('x-request-id'));
    // A username that names no account is not logged: it is often a password typed in the wrong box.
    expect(unknownLine).toMatchObject({ identityId: null, username: null });
    expect(log.text).not.toContain('nobody-here');

    const ok = await client.login('C10001');
    expect(ok.status).toBe(200);
    remember(client);
    const [succeeded] = log
      .audit('SIGN_IN_SUCCEEDED')
      .filter((l) => l.reqId === ok.headers.get('x-request-id'));
    expect(succeeded).toMatchObject({
      identityId: c10001,
      username: 'c10001',
      outcome: 'direct_login',
      ip: '127.0.0.1',
      sessionHash: sessionHashOf(client),
    });

    const hash = sessionHashOf(client);
    const out = await client.post(`${API}logout`);
    expect(out.status).toBe(204);
    const [signedOut] = log.audit('SIGNED_OUT').filter((l) => l.reqId === out.headers.get('x-request-id'));
    expect(signedOut).toMatchObject({ identityId: c10001, sessionHash: hash });
  });

  it('logs the lock of an account, the sign-ins it refuses and the unlock', async () => {
    const c10008 = await idOf('C10008');
    const client = server.client();
    for (let i = 1; i <= 4; i++) {
      let captchaCode: string | undefined;
      if (i > 3) {
        await client.get(`/captcha.jpg?${i}`);
        captchaCode = server.captcha.last;
      }
      expect((await client.login('C10008', WRONG_PASSWORD, { captchaCode })).status).toBe(422);
    }
    expect(log.audit('ACCOUNT_LOCKED')).toEqual([
      expect.objectContaining({ identityId: c10008, username: 'c10008', failures: 4, ip: '127.0.0.1' }),
    ]);
    const refused = await client.login('C10008');
    expect(refused.status).toBe(422);
    const [line] = log.audit('SIGN_IN_FAILED').filter((l) => l.reqId === refused.headers.get('x-request-id'));
    expect(line).toMatchObject({ identityId: c10008, username: 'c10008', outcome: 'locked' });

    const admin = server.client();
    expect((await admin.login('admin1')).status).toBe(200);
    remember(admin);
    const unlocked = await admin.post(`${API}admin/identities/${c10008}/unlock`);
    expect(unlocked.status).toBe(200);
    expect(log.audit('ACCOUNT_UNLOCKED')).toEqual([
      expect.objectContaining({
        identityId: c10008,
        username: 'c10008',
        actorIdentityId: await idOf('admin1'),
        reqId: unlocked.headers.get('x-request-id'),
      }),
    ]);
  });

  it('logs a sign-in that stops at a forced step and a wrong code in it', async () => {
    const c10004 = await idOf('C10004');
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    remember(client);
    expect(log.audit('SIGN_IN_SUCCEEDED').at(-1)).toMatchObject({
      identityId: c10004,
      outcome: 'forced_mfa',
      forcedAction: 'MFA',
      sessionHash: sessionHashOf(client),
    });

    const code = wrongCode(clock);
    codes.add(code);
    const res = await post(client, 'forced-actions/mfa/verify-authenticator-app', { code });
    expect(res.status).toBe(422);
    const [failed] = log
      .audit('AUTH_CHECK_FAILED')
      .filter((l) => l.reqId === res.headers.get('x-request-id'));
    expect(failed).toMatchObject({
      identityId: c10004,
      username: 'C10004',
      check: 'code',
      sessionHash: sessionHashOf(client),
    });
  });

  it('logs the lock a wrong code makes with the account it locked', async () => {
    const c10004 = await idOf('C10004');
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    remember(client);
    const before = log.audit('ACCOUNT_LOCKED').length;
    let last;
    for (let i = 0; i < 4; i++) {
      const code = wrongCode(clock);
      codes.add(code);
      last = await post(client, 'forced-actions/mfa/verify-authenticator-app', { code });
      expect(last.status).toBe(422);
    }
    const locks = log.audit('ACCOUNT_LOCKED').slice(before);
    expect(locks).toEqual([
      expect.objectContaining({
        identityId: c10004,
        username: 'c10004',
        failures: 4,
        reqId: last!.headers.get('x-request-id'),
      }),
    ]);
  });

  it('logs a wrong current password and, once committed, the password change from the history', async () => {
    const c10010 = await idOf('C10010');
    const client = server.client();
    expect((await client.login('C10010')).status).toBe(200);
    remember(client);

    const wrong = await post(client, 'profile/change-password', {
      currentPassword: WRONG_PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmNewPassword: NEW_PASSWORD,
    });
    expect(wrong.status).toBe(422);
    expect(log.audit('AUTH_CHECK_FAILED').at(-1)).toMatchObject({
      identityId: c10010,
      check: 'reenter_password',
      reqId: wrong.headers.get('x-request-id'),
    });

    const changed = await post(client, 'profile/change-password', {
      currentPassword: DEMO_PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmNewPassword: NEW_PASSWORD,
    });
    expect(changed.status).toBe(204);
    remember(client);
    const [line] = await eventually(
      () => log.audit('PASSWORD_CHANGED').filter((l) => l.reqId === changed.headers.get('x-request-id')),
      1,
    );
    expect(line).toMatchObject({
      audit: true,
      event: 'PASSWORD_CHANGED',
      identityId: c10010,
      actorIdentityId: c10010,
      history: true,
      ip: '127.0.0.1',
    });
  });

  it('logs a merge only when its transaction commits', async () => {
    const survivor = await idOf('C10006');
    const retired = await idOf('C10007');
    const client = server.client();
    await signInToStep(client, 'C10006', 'DUPLICATE_ACCOUNTS');
    remember(client);
    const M = 'forced-actions/merge-identities';
    const select = await post(client, `${M}/select-accounts`, {
      identities: [{ id: retired, password: DEMO_PASSWORD }],
    });
    expect(select.status, JSON.stringify(select.body)).toBe(200);
    expect((await post(client, `${M}/preferred-username`, { username: 'C10006' })).status).toBe(204);

    // Fail after each statement in turn until the merge goes through: the failed attempts wrote
    // their history rows and rolled them back, so none of them may be in the audit log.
    let attempts = 0;
    for (let n = 1; n < 100; n++) {
      failAfter = n;
      const res = await post(client, `${M}/confirm`);
      if (res.status === 200) break;
      expect(res.status, `failure after statement ${n}`).toBe(500);
      attempts += 1;
    }
    expect(attempts).toBeGreaterThan(10);
    const merged = await eventually(() => log.audit(MERGE_EVENT), 1);
    const retiredLines = await eventually(() => log.audit(RETIRED_EVENT), 1);
    // Give any late (wrongly written) line of a failed attempt the chance to appear.
    await new Promise((r) => setTimeout(r, 100));
    expect(log.audit(MERGE_EVENT)).toHaveLength(1);
    expect(log.audit(RETIRED_EVENT)).toHaveLength(1);
    expect(merged[0]).toMatchObject({ identityId: survivor, actorIdentityId: survivor, history: true });
    expect(retiredLines[0]).toMatchObject({ identityId: retired, actorIdentityId: survivor });
  });

  it('logs factor changes without a history event of their own once committed', async () => {
    const c10004 = await idOf('C10004');
    const client = server.client();
    await signInToStep(client, 'C10004', 'MFA');
    const code = totpAt(clock);
    codes.add(code);
    const verified = await post(client, 'forced-actions/mfa/verify-authenticator-app', { code });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    remember(client);
    const removed = await post(client, 'profile/unenrol-authenticator-app', {
      currentPassword: DEMO_PASSWORD,
    });
    expect(removed.status).toBe(204);
    const reqId = removed.headers.get('x-request-id');
    const lines = await eventually(() => log.audit().filter((l) => l.reqId === reqId), 2);
    expect(lines.map((l) => l.event).sort()).toEqual(['AUTHENTICATOR_APP_DISABLED', 'FACTOR_REMOVED']);
    expect(lines.find((l) => l.event === 'FACTOR_REMOVED')).toMatchObject({
      identityId: c10004,
      factorType: 'AUTHENTICATOR_APP',
      sessionHash: sessionHashOf(client),
    });
  });

  it('drops the audit lines of changes whose transaction rolled back', async () => {
    const c10010 = await idOf('C10010');
    const written: Line[] = [];
    const request = {
      ip: '192.0.2.9',
      log: { child: () => ({ info: (line: Line) => written.push(line) }) },
    } as unknown as FastifyRequest;
    const observation: RequestObservation = {
      request,
      metrics: createMetrics({ processMetrics: false }),
      sessionIdHash: () => null,
      pending: [],
      changes: [],
    };
    const now = clock.now();
    await new Promise<void>((resolve, reject) =>
      observeRequest(observation, () => {
        (async () => {
          await server.db
            .transaction()
            .execute(async (trx) => {
              await putFactor(trx, {
                id: randomUUID(),
                identityId: c10010,
                type: 'SMS',
                mobile: '+61 400 000 010',
                secretSealed: null,
                now,
              });
              await recordIdentityEvent(trx, { identityId: c10010, eventDate: now, type: 'ROLLED_BACK' });
              throw new Error('rolled back');
            })
            .catch(() => {});
          await server.db.transaction().execute(async (trx) => {
            await recordIdentityEvent(trx, { identityId: c10010, eventDate: now, type: 'KEPT' });
          });
        })().then(resolve, reject);
      }),
    );
    expect(observation.changes).toHaveLength(1);
    expect(observation.pending).toHaveLength(2);
    await flushAuditEvents(server.db, observation);
    expect(written).toEqual([
      {
        event: 'KEPT',
        ip: '192.0.2.9',
        identityId: c10010,
        actorIdentityId: null,
        actorAppCode: null,
        ticketCode: null,
        history: true,
        sessionHash: null,
      },
    ]);
  });

  it('keeps secrets out of every log line, request lines and bearer tokens included', async () => {
    const client = server.client();
    const res = await client.get(`${API}anonymous/context?code=${QUERY_CODE}&token=${QUERY_TOKEN}`, {
      headers: { authorization: `Bearer ${BEARER}` },
    });
    expect(res.status).toBe(200);
    remember(client);

    const lines = log.lines();
    // The log is not empty: request lines and audit lines were written at trace level.
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(true);
    expect(log.audit().length).toBeGreaterThanOrEqual(8);
    const request = lines.find(
      (l) => l.msg === 'incoming request' && l.reqId === res.headers.get('x-request-id'),
    );
    expect(request?.req).toMatchObject({
      method: 'GET',
      url: `/rest/ui/anonymous/context?code=[Redacted]&token=[Redacted]`,
    });
    const text = log.text;
    const leaks = [...secrets].filter((secret) => text.includes(secret));
    expect(leaks).toEqual([]);
    // Codes are digits: only a number of their own counts (not six digits inside a timestamp).
    const codeLeaks = [...codes].filter((code) => new RegExp(`(?<![\\d.])${code}(?!\\d)`).test(text));
    expect(codeLeaks).toEqual([]);
    // Session ids appear only as their shortened hash.
    for (const line of log.audit()) {
      if (line.sessionHash !== null) expect(line.sessionHash).toMatch(/^[0-9a-f]{16}$/);
    }
  });
});
