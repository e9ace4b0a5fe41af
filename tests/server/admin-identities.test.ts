// The admin's identity screens over real HTTP: search by username, name, email, mobile and
// customer number (paged like the access-request list), one identity with its factors, sessions
// (browser and system from the sign-in's User-Agent) and trusted devices, its history five per page,
// and signing it out of all devices for a Jira ticket (sessions end, devices are revoked, the
// history names the admin and links the ticket); admins only.
import { OWN_UNLOCK_MESSAGE } from '../../src/server/domain/lockout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryItem, PageMetadata } from '../../src/contract/admin';
import type { IdentityDetails, IdentitySummary } from '../../src/contract/admin-identities';
import { recordIdentityEvent } from '../../src/server/db/repositories/history';
import {
  eventText,
  IDENTITY_NOT_FOUND_MESSAGE,
  IDENTITY_PAGE_SIZE,
} from '../../src/server/domain/admin/identities';
import { PERMISSION_DENIED_MESSAGE } from '../../src/server/domain/messages';
import { TICKET_FORMAT_MESSAGE } from '../../src/server/domain/profile/messages';
import { get, post, type Json } from './support/factors';
import { API, startServer, usernameKey, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

type Paged<T> = { data: T[]; page: PageMetadata };

const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('history type texts', () => {
  it('reads event codes as words, keeping acronyms', () => {
    expect(eventText('SIGNED_OUT_OF_ALL_DEVICES')).toBe('Signed out of all devices');
    expect(eventText('SMS_FACTOR_ENABLED')).toBe('SMS factor enabled');
    expect(eventText('ACCESS_ADDED')).toBe('Access added');
    expect(eventText('PROFILE_NAME_CHANGED')).toBe('Name changed');
  });
});

describe.each(targets)('admin identity screens on $name', (target) => {
  let server: TestServer;
  let admin: TestClient;
  let ids: Record<string, string>;

  const signedIn = async (
    username: string,
    userAgent?: string,
    outcome = 'DIRECT_LOGIN',
  ): Promise<TestClient> => {
    const client = server.client();
    const res = await client.post<Json>(
      `${API}anonymous/login`,
      { username, password: 'Harbour-Lights-2026' },
      userAgent ? { headers: { 'user-agent': userAgent } } : {},
    );
    expect(res.body.outcome, JSON.stringify(res.body)).toBe(outcome);
    return client;
  };

  beforeAll(async () => {
    server = await startServer(target);
    admin = await signedIn('admin1');
    const rows = await server.db.selectFrom('identities').select(['id', 'username']).execute();
    ids = Object.fromEntries(rows.map((r) => [r.username, r.id]));
  });
  afterAll(async () => {
    await server?.close();
  });

  const search = async (query: string, page?: number) => {
    const params = new URLSearchParams({ query });
    if (page !== undefined) params.set('page', String(page));
    const res = await get<Paged<IdentitySummary>>(admin, `admin/identities?${params}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const usernames = (page: Paged<IdentitySummary>) => page.data.map((i) => i.username);

  it('finds identities by username, name, email, mobile and customer number', async () => {
    const byUsername = await search('c10001');
    expect(usernames(byUsername)).toEqual(['C10001']);
    expect(byUsername.data[0]).toEqual({
      id: ids.C10001,
      username: 'C10001',
      name: 'Olivia Bennett',
      email: 'c10001@example.com',
      mobile: '+61 400 000 001',
      customerNumber: 'C10001',
      isStaff: false,
      isAdmin: false,
      isRetired: false,
    });
    expect(byUsername.page).toEqual({ number: 0, size: IDENTITY_PAGE_SIZE, totalElements: 1 });

    expect(usernames(await search('HARRIET'))).toEqual(['admin1']);
    expect(usernames(await search('auditor1@example'))).toEqual(['auditor1']);
    // A mobile however it is spaced.
    expect(usernames(await search('400000005'))).toEqual(['C10005']);
    expect(usernames(await search('+61 400 000 008'))).toEqual(['C10008']);
    // A customer number that is not the username.
    await server.db
      .updateTable('identities')
      .set({ customer_number: 'C77123' })
      .where('id', '=', ids.C10002!)
      .execute();
    expect(usernames(await search('77123'))).toEqual(['C10002']);
    // LIKE's own characters are matched literally.
    expect((await search('%')).data).toEqual([]);
    // An Australian mobile as dialled at home.
    expect(usernames(await search('0400 000 010'))).toEqual(['C10010']);
    expect((await search('zz-no-such-identity')).page.totalElements).toBe(0);
  });

  it('pages every identity when the query is empty, by username', async () => {
    const total = Number(
      (
        await server.db
          .selectFrom('identities')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const first = await search('');
    expect(first.page).toEqual({ number: 0, size: IDENTITY_PAGE_SIZE, totalElements: total });
    expect(first.data).toHaveLength(Math.min(total, IDENTITY_PAGE_SIZE));
    const sorted = [...usernames(first)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    expect(usernames(first)).toEqual(sorted);
    const beyond = await search('', 99);
    expect(beyond).toEqual({
      data: [],
      page: { number: 99, size: IDENTITY_PAGE_SIZE, totalElements: total },
    });
    expect((await get(admin, 'admin/identities?page=-1')).status).toBe(400);
  });

  it('shows one identity: details, factors, applications, live sessions by browser, trusted devices', async () => {
    const firefox = await signedIn('C10001', FIREFOX_ON_LINUX);
    const chrome = await signedIn('C10001', CHROME_ON_WINDOWS);
    expect(firefox.cookies.size + chrome.cookies.size).toBeGreaterThan(0);
    const now = new Date();
    await server.db
      .insertInto('trusted_devices')
      .values({
        id: '11111111-2222-4333-8444-555555555555',
        identity_id: ids.C10001!,
        token_hash: 'a'.repeat(64),
        browser_family: 'Safari',
        browser_major: '17',
        browser_minor: '4',
        os_family: 'Mac OS',
        os_version: '14.4',
        city_name: 'Sydney',
        country_name: 'Australia',
        continent_name: 'Oceania',
        created_at: now,
        last_active_at: now,
        expires_at: new Date(now.getTime() + 86_400_000),
      })
      .execute();

    const res = await get<IdentityDetails>(admin, `admin/identities/${ids.C10001}`);
    expect(res.status).toBe(200);
    const details = res.body;
    expect(details).toMatchObject({
      id: ids.C10001,
      username: 'C10001',
      name: 'Olivia Bennett',
      birthDate: '1985-03-14',
      salaryNumber: null,
      isPasswordExpired: false,
      isMfaRequired: false,
      roles: [],
      enrolledFactors: [],
      hasSecurityQuestions: false,
    });
    expect(details.accessibleApps.map((a) => `${a.appCode}:${a.facilityCode ?? ''}`)).toEqual([
      'LOANS:F001',
      'LOANS:F002',
      'PAYROLL:',
    ]);
    expect(details.sessions).toHaveLength(2);
    const browsers = details.sessions.map((s) => `${s.browser.family} on ${s.operatingSystem.family}`).sort();
    expect(browsers).toEqual(['Chrome on Windows', 'Firefox on Ubuntu']);
    for (const s of details.sessions) {
      expect(s.type).toBe('AUTHENTICATED');
      expect(Date.parse(s.lastActiveDate)).toBeGreaterThanOrEqual(Date.parse(s.signedInDate));
    }
    expect(details.trustedDevices).toEqual([
      expect.objectContaining({
        id: '11111111-2222-4333-8444-555555555555',
        browser: { family: 'Safari', versionMajor: '17', versionMinor: '4' },
        city: 'Sydney',
      }),
    ]);

    const c10004 = await get<IdentityDetails>(admin, `admin/identities/${ids.C10004}`);
    expect(c10004.body.enrolledFactors).toEqual(['AUTHENTICATOR_APP', 'EMAIL']);
    const staff = await get<IdentityDetails>(admin, `admin/identities/${ids.admin1}`);
    expect(staff.body).toMatchObject({ isStaff: true, isAdmin: true, salaryNumber: '100001' });
    expect(staff.body.roles).toEqual(['ADMIN', 'READ_ONLY']);
    // admin1's own session (no User-Agent sent by the test client beyond fetch's own).
    expect(staff.body.sessions.length).toBeGreaterThanOrEqual(1);

    const unknown = await get(admin, 'admin/identities/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ message: IDENTITY_NOT_FOUND_MESSAGE });
    expect((await get(admin, 'admin/identities/not-a-uuid')).status).toBe(404);
  });

  it('signs an identity out of all devices for a ticket, recorded with the admin as actor', async () => {
    // The ticket links to the demo data's Jira (its jira-browse-url property).
    const user = await signedIn('C10003', FIREFOX_ON_LINUX, 'FORCED_ACTION');
    // C10003 must enrol a factor first: its pending sign-in is a session too, and it is ended.
    const id = ids.C10003!;
    const before = await get<IdentityDetails>(admin, `admin/identities/${id}`);
    expect(before.body.sessions).toEqual([
      expect.objectContaining({
        type: 'AUTHENTICATION_PENDING',
        browser: { family: 'Firefox', versionMajor: '128' },
      }),
    ]);

    const missing = await post(admin, `admin/identities/${id}/single-logout`, {});
    // The portal requires the field before sending; a request without it is malformed.
    expect(missing.status).toBe(400);
    const badTicket = await post(admin, `admin/identities/${id}/single-logout`, {
      ticketCode: 'not a ticket',
    });
    expect(badTicket.status).toBe(422);
    expect(badTicket.body).toMatchObject({
      errors: [{ fieldName: 'ticketCode', message: TICKET_FORMAT_MESSAGE }],
    });
    expect((await get<IdentityDetails>(admin, `admin/identities/${id}`)).body.sessions).toEqual(
      before.body.sessions,
    );

    const done = await post(admin, `admin/identities/${id}/single-logout`, {
      ticketCode: 'SUP-424242',
    });
    expect(done.status).toBe(204);
    expect((await user.get<Json>(`${API}anonymous/current-user`)).body).toMatchObject({
      isAuthenticated: false,
    });
    const after = await get<IdentityDetails>(admin, `admin/identities/${id}`);
    expect(after.body.sessions).toEqual([]);
    expect(after.body.trustedDevices).toEqual([]);
    // The admin's own session is untouched.
    expect((await get(admin, 'admin/identities?query=C10003')).status).toBe(200);

    const history = await get<Paged<HistoryItem>>(admin, `admin/identities/${id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.data[0]).toMatchObject({
      actor: { id: ids.admin1, username: 'admin1' },
      actorApp: null,
      type: { text: 'Signed out of all devices', variant: 'warning' },
      ticket: { code: 'SUP-424242', url: 'https://jira.example.com/browse/SUP-424242' },
    });
    expect(history.body.data[0]!.description).toMatch(/session.* ended/);

    const unknown = await post(admin, 'admin/identities/00000000-0000-4000-8000-000000000000/single-logout', {
      ticketCode: 'SUP-1',
    });
    expect(unknown.status).toBe(404);
  });

  it('shows when the account is locked, and not once an admin has unlocked it', async () => {
    const id = ids.C10007!;
    expect((await get<IdentityDetails>(admin, `admin/identities/${id}`)).body.lockedDate).toBeNull();
    const lockedAt = new Date(Date.UTC(2026, 10, 21, 6, 0));
    await server.db
      .insertInto('failed_auth_counts')
      .values({
        username_key: usernameKey(server, 'c10007'),
        count: 10,
        last_failed_at: lockedAt,
        locked_at: lockedAt,
      })
      .execute();
    const locked = await get<IdentityDetails>(admin, `admin/identities/${id}`);
    expect(locked.body.lockedDate).toBe(lockedAt.toISOString());
    const unlocked = await post(admin, `admin/identities/${id}/unlock`);
    expect(unlocked.status).toBe(200);
    expect((await get<IdentityDetails>(admin, `admin/identities/${id}`)).body.lockedDate).toBeNull();
  });

  it("leaves a lock on an admin's own account to another admin", async () => {
    // Someone guessing admin1's password locked it while admin1 was signed in.
    const lockedAt = new Date(Date.UTC(2026, 10, 21, 6, 0));
    await server.db
      .insertInto('failed_auth_counts')
      .values({
        username_key: usernameKey(server, 'admin1'),
        count: 10,
        last_failed_at: lockedAt,
        locked_at: lockedAt,
      })
      .execute();
    const own = await post(admin, `admin/identities/${ids.admin1}/unlock`);
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ message: OWN_UNLOCK_MESSAGE });
    expect((await get<IdentityDetails>(admin, `admin/identities/${ids.admin1}`)).body.lockedDate).toBe(
      lockedAt.toISOString(),
    );
    await server.db
      .deleteFrom('failed_auth_counts')
      .where('username_key', '=', usernameKey(server, 'admin1'))
      .execute();
  });

  it('pages the history five items at a time, newest first, System when no actor', async () => {
    const id = ids.C10006!;
    const at = (minute: number) => new Date(Date.UTC(2031, 0, 1, 9, minute));
    for (let n = 1; n <= 7; n++) {
      await recordIdentityEvent(server.db, {
        identityId: id,
        eventDate: at(n),
        type: n === 7 ? 'ACCESS_ADDED' : 'PASSWORD_CHANGED',
        actorAppCode: n === 6 ? 'LOANS' : null,
        description: n === 7 ? 'Line one\nLine two' : null,
      });
    }
    const first = await get<Paged<HistoryItem>>(admin, `admin/identities/${id}/history`);
    expect(first.body.page).toEqual({ number: 0, size: 5, totalElements: 7 });
    expect(first.body.data).toHaveLength(5);
    expect(first.body.data[0]).toEqual({
      eventDate: at(7).toISOString(),
      actorApp: null,
      actor: null,
      type: { text: 'Access added', variant: 'info' },
      ticket: null,
      description: 'Line one\nLine two',
    });
    expect(first.body.data[1]!.actorApp).toEqual({ code: 'LOANS', name: 'Loans' });
    const second = await get<Paged<HistoryItem>>(admin, `admin/identities/${id}/history?page=1`);
    expect(second.body.data.map((i) => i.eventDate)).toEqual([at(2).toISOString(), at(1).toISOString()]);
    expect((await get(admin, 'admin/identities/00000000-0000-4000-8000-000000000000/history')).status).toBe(
      404,
    );
  });

  it('refuses everyone but admins', async () => {
    const anonymous = server.client();
    const customer = await signedIn('C10008');
    const auditor = await signedIn('auditor1');
    const pending = server.client();
    expect((await pending.login<Json>('C10002')).body).toMatchObject({ outcome: 'FORCED_ACTION' });
    const roles: Record<string, TestClient> = {
      anonymous,
      pending,
      C10008: customer,
      auditor1: auditor,
      admin1: admin,
    };
    const id = ids.C10010!;
    const calls: Array<{
      name: string;
      run: (c: TestClient) => Promise<{ status: number; body: unknown }>;
      admin: number;
    }> = [
      { name: 'GET admin/identities', run: (c) => get(c, 'admin/identities?query=C1'), admin: 200 },
      { name: 'GET admin/identities/{id}', run: (c) => get(c, `admin/identities/${id}`), admin: 200 },
      {
        name: 'GET admin/identities/{id}/history',
        run: (c) => get(c, `admin/identities/${id}/history?page=0`),
        admin: 200,
      },
      {
        name: 'POST admin/identities/{id}/single-logout',
        run: (c) => post(c, `admin/identities/${id}/single-logout`, { ticketCode: 'SUP-7' }),
        admin: 204,
      },
    ];
    for (const call of calls) {
      for (const [role, client] of Object.entries(roles)) {
        const res = await call.run(client);
        const expected = role === 'anonymous' ? 401 : role === 'admin1' ? call.admin : 403;
        expect(res.status, `${call.name} as ${role}`).toBe(expected);
        if (res.status === 403)
          expect(res.body, `${call.name} as ${role}`).toMatchObject({ message: PERMISSION_DENIED_MESSAGE });
      }
    }
  });
});
