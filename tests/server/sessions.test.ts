// Session lifetimes on an injected clock: idle timeout, absolute timeout, captcha expiry, sweeping.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_EXPIRES_IN_HEADER } from '../../src/contract/call';
import { ManualClock } from '../../src/server/adapters/clock';
import { CAPTCHA_EXPIRED_MESSAGE } from '../../src/server/domain/messages';
import { hashSessionToken } from '../../src/server/domain/sessions';
import { API, startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

const MINUTE = 60_000;

describe.each(targets)('session lifetimes on $name', (target) => {
  let server: TestServer;
  const clock = new ManualClock('2030-01-01T09:00:00Z');

  beforeAll(async () => {
    server = await startServer(target, {
      env: { SESSION_IDLE_MINUTES: '30', SESSION_ABSOLUTE_HOURS: '1' },
      deps: { clock },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.db.deleteFrom('failed_auth_counts').execute();
  });

  const isSignedIn = async (client: TestClient) =>
    (await client.get<{ isAuthenticated: boolean }>(`${API}anonymous/current-user`)).body.isAuthenticated;

  it('ends a session after 30 idle minutes', async () => {
    const client = server.client();
    await client.login('C10001');
    clock.advance(29 * MINUTE);
    expect(await isSignedIn(client)).toBe(true);
    // That request counted as activity: 29 more minutes are fine.
    clock.advance(29 * MINUTE);
    expect(await isSignedIn(client)).toBe(true);
    clock.advance(30 * MINUTE + 1000);
    expect(await isSignedIn(client)).toBe(false);
    const apps = await client.get(`${API}current-user/accessible-apps`);
    expect(apps.status).toBe(401);
  });

  it('ends a session at the absolute timeout however active it is', async () => {
    const client = server.client();
    await client.login('C10001');
    for (let i = 0; i < 5; i++) {
      clock.advance(11 * MINUTE);
      expect(await isSignedIn(client)).toBe(true);
    }
    clock.advance(6 * MINUTE);
    expect(await isSignedIn(client)).toBe(false);
  });

  it('tells every signed-in or pending call how long the session has left (x-session-expires-in)', async () => {
    const client = server.client();
    const expiresIn = async (path: string) =>
      (await client.get(`${API}${path}`)).headers.get(SESSION_EXPIRES_IN_HEADER);
    // Anonymous: no session of anyone's to end.
    expect(await expiresIn('anonymous/current-user')).toBeNull();
    await client.login('C10001');
    expect(await expiresIn('anonymous/current-user')).toBe(String(30 * 60));
    // A call that does not count as use (the re-enter-password poll) says what is left.
    clock.advance(5 * MINUTE);
    expect(await expiresIn('reenter-password/expired')).toBe(String(25 * 60));
    // A call that does (at most once a minute) moves the end.
    expect(await expiresIn('current-user/accessible-apps')).toBe(String(30 * 60));
    // Near the absolute limit (1 hour here) that is what is left.
    for (let i = 0; i < 5; i++) {
      clock.advance(10 * MINUTE);
      await expiresIn('anonymous/current-user');
    }
    expect(await expiresIn('anonymous/current-user')).toBe(String(5 * 60));
  });

  it('stores the expiry so any instance can judge it', async () => {
    const client = server.client();
    await client.login('C10001');
    const row = await server.db
      .selectFrom('sessions')
      .selectAll()
      .where('id_hash', '=', hashSessionToken(client.cookie('sam_session')!))
      .executeTakeFirstOrThrow();
    expect(row.created_at.toISOString()).toBe(clock.now().toISOString());
    expect(row.expires_at.getTime() - row.last_seen_at.getTime()).toBe(30 * MINUTE);
    expect(row.absolute_expires_at.getTime() - row.created_at.getTime()).toBe(60 * MINUTE);
    expect(row.type).toBe('AUTHENTICATED');
  });

  it('refuses a captcha answered after five minutes, saying it expired', async () => {
    const client = server.client();
    for (let i = 0; i < 3; i++) await client.login('C10003', 'wrong-password');
    await client.get('/captcha.jpg?late');
    const answer = server.captcha.last;
    clock.advance(5 * MINUTE + 1000);
    const late = await client.login('C10003', undefined, { captchaCode: answer });
    expect(late.status).toBe(422);
    // The right answer, too late: not 'incorrect'.
    expect(late.body).toEqual({
      message: CAPTCHA_EXPIRED_MESSAGE,
      errors: [{ fieldName: 'captchaCode', message: 'Expired security code' }],
    });

    await client.get('/captcha.jpg?in-time');
    clock.advance(4 * MINUTE);
    const inTime = await client.login('C10003', undefined, { captchaCode: server.captcha.last });
    expect(inTime.status).toBe(200);
  });

  it('says a late security code expired at password reset and registration start too', async () => {
    const expired = {
      message: CAPTCHA_EXPIRED_MESSAGE,
      errors: [{ fieldName: 'captchaCode', message: 'Expired security code' }],
    };
    const reset = server.client();
    await reset.get('/captcha.jpg?reset');
    const resetAnswer = server.captcha.last;
    clock.advance(5 * MINUTE + 1000);
    const lateReset = await reset.post(`${API}anonymous/password-reset/start`, {
      email: 'c10001@example.com',
      captchaCode: resetAnswer,
    });
    expect(lateReset.status).toBe(422);
    expect(lateReset.body).toEqual(expired);

    const registration = server.client();
    await registration.get('/captcha.jpg?registration');
    const registrationAnswer = server.captcha.last;
    clock.advance(5 * MINUTE + 1000);
    const lateRegistration = await registration.post(`${API}anonymous/registration/start`, {
      email: 'someone@example.com',
      inviteCode: 'INVITE-NEW-0001',
      captchaCode: registrationAnswer,
    });
    expect(lateRegistration.status).toBe(422);
    expect(lateRegistration.body).toEqual(expired);
  });

  it('sweeps expired sessions from the table', async () => {
    const client = server.client();
    await client.login('C10001');
    const hash = hashSessionToken(client.cookie('sam_session')!);
    clock.advance(2 * 60 * MINUTE);
    const removed = await server.app.services.sessions.sweep();
    expect(removed).toBeGreaterThan(0);
    const left = await server.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('id_hash', '=', hash)
      .execute();
    expect(left).toEqual([]);
  });
});
