// Cross-site request forgery. Every /rest/ui/ call of the contract's catalogue needs
// X-Requested-With: a cross-site HTML form post (urlencoded, multipart or text/plain, Origin of
// another site, no such header) to any call is refused with 403 and changes nothing in any table,
// whoever's session cookie rides along; so is a cross-site top-level GET to any call (the contract
// has state-changing GETs: merge skip and continue-sign-in, the setup QR codes). The SAML HTTP-POST
// binding at /saml/sso, outside the API, keeps taking cross-site form posts.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls } from '../../src/contract';
import type { Database } from '../../src/server/db/schema';
import { MISSING_REQUESTED_WITH_MESSAGE } from '../../src/server/domain/messages';
import { authnRequestXml } from './support/saml';
import { API, startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

type Json = Record<string, unknown>;
const EVIL = 'https://evil.example';
const PUBLIC_URL = 'http://localhost:8080';

/** Every row of every table of the schema, to prove a refused request changed nothing. */
async function everything(db: Kysely<Database>): Promise<Record<string, unknown[]>> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
    order by table_name`.execute(db);
  const out: Record<string, unknown[]> = {};
  for (const { table_name } of tables.rows) {
    const rows = await sql`select * from ${sql.table(table_name)}`.execute(db);
    out[table_name] = [...rows.rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return out;
}

/** The contract path with its parameters filled (any value will do: the refusal comes first). */
const fill = (path: string) =>
  API +
  path.replace(/:([A-Za-z]+)/g, (_m, name: string) =>
    /code/i.test(name) ? 'LOANS' : name === 'name' ? 'sms-gateway-status' : '1',
  );

const BOUNDARY = '----formdata-evil-7MA4YWxkTrZu0gW';
/** What a cross-site <form> can send: the three enctypes, no custom header. */
const FORM_BODIES = [
  {
    contentType: 'application/x-www-form-urlencoded',
    body: 'username=C10001&password=Harbour-Lights-2026&newPassword=Evil-Password-2026&email=evil%40example.com',
  },
  {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: [
      `--${BOUNDARY}`,
      'Content-Disposition: form-data; name="email"',
      '',
      'evil@example.com',
      `--${BOUNDARY}--`,
      '',
    ].join('\r\n'),
  },
  // <form enctype="text/plain"> with a field named '{"email":"evil@example.com","x":"' and value '"}'.
  { contentType: 'text/plain', body: '{"email":"evil@example.com","x":"="}' },
];

const STATE_CHANGING = Object.values(calls).filter((call) => call.method !== 'GET');
const READS = Object.values(calls).filter((call) => call.method === 'GET');

describe.each(targets)('cross-site requests on $name', (target) => {
  let server: TestServer;
  /** Clients whose session cookies a forged request would carry. */
  let sessions: Array<{ who: string; client: TestClient }>;

  beforeAll(async () => {
    server = await startServer(target);
    const admin = server.client();
    expect((await admin.login<Json>('admin1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    const customer = server.client();
    expect((await customer.login<Json>('C10001')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    const merging = server.client();
    expect((await merging.login<Json>('C10006')).body).toMatchObject({
      outcome: 'FORCED_ACTION',
      forcedAction: 'DUPLICATE_ACCOUNTS',
    });
    const anonymous = server.client();
    await anonymous.get('/captcha.jpg?1');
    sessions = [
      { who: 'admin', client: admin },
      { who: 'customer', client: customer },
      { who: 'merge pending', client: merging },
      { who: 'anonymous', client: anonymous },
    ];
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const expectRefused = (res: { status: number; body: unknown; setCookies: string[] }, label: string) => {
    expect(res.status, label).toBe(403);
    expect(res.body, label).toEqual({ message: MISSING_REQUESTED_WITH_MESSAGE });
    expect(res.setCookies, label).toEqual([]);
  };

  it('the catalogue has state-changing calls of every method and state-changing GETs', () => {
    expect(new Set(STATE_CHANGING.map((c) => c.method))).toEqual(new Set(['POST', 'PATCH', 'DELETE']));
    expect(READS.map((c) => c.id)).toEqual(expect.arrayContaining(['skipMerge', 'mergeContinueSignIn']));
  });

  it('refuses a cross-site form post of each enctype to every state-changing call, changing nothing', async () => {
    const before = await everything(server.db);
    for (const call of STATE_CHANGING) {
      const forged = sessions.flatMap(({ who, client }) =>
        FORM_BODIES.map(async (form) => {
          const res = await client.request(call.method, fill(call.path), {
            raw: form.body,
            contentType: form.contentType,
            requestedWith: false,
            headers: { origin: EVIL, referer: `${EVIL}/attack.html`, 'sec-fetch-site': 'cross-site' },
          });
          expectRefused(res, `${call.method} ${call.path} (${form.contentType.split(';')[0]}, ${who})`);
        }),
      );
      await Promise.all(forged);
    }
    expect(await everything(server.db)).toEqual(before);
  });

  it('refuses a cross-site top-level GET to every call, changing nothing', async () => {
    const before = await everything(server.db);
    for (const call of READS) {
      await Promise.all(
        sessions.map(async ({ who, client }) => {
          const res = await client.get(fill(call.path), {
            requestedWith: false,
            headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', accept: 'text/html' },
          });
          expectRefused(res, `GET ${call.path} (${who})`);
        }),
      );
    }
    expect(await everything(server.db)).toEqual(before);
    // The merge step is still pending: the forged skip did not skip it.
    const merging = sessions.find((s) => s.who === 'merge pending')!.client;
    expect((await merging.get<Json>(`${API}anonymous/current-user`)).body).toMatchObject({
      type: 'AUTHENTICATION_PENDING',
    });
  });

  it('refuses forged calls whatever the path’s spelling, and an X-Requested-With of another value', async () => {
    const admin = sessions.find((s) => s.who === 'admin')!.client;
    const before = await everything(server.db);
    for (const path of ['/rest/%75i/logout', '/rest/ui/%6C%6Fgout', `${API}logout?x=1`]) {
      expectRefused(
        await admin.request('POST', path, {
          raw: 'a=b',
          contentType: 'application/x-www-form-urlencoded',
          requestedWith: false,
          headers: { origin: EVIL },
        }),
        path,
      );
    }
    for (const value of ['fetch', 'xmlhttprequest ', '']) {
      expectRefused(
        await admin.request('POST', `${API}logout`, {
          requestedWith: false,
          headers: { 'x-requested-with': value, origin: EVIL },
        }),
        `X-Requested-With: ${value}`,
      );
    }
    expect(await everything(server.db)).toEqual(before);
    expect((await admin.get<Json>(`${API}anonymous/current-user`)).body).toMatchObject({
      isAuthenticated: true,
    });
  });

  it('the same call with X-Requested-With and JSON does change state (the snapshot sees it)', async () => {
    const client = server.client();
    await client.login('C10001');
    const before = await everything(server.db);
    const res = await client.post(`${API}logout`);
    expect(res.status).toBe(204);
    expect(await everything(server.db)).not.toEqual(before);
  });

  it('/saml/sso still takes a cross-site form post from a service provider', async () => {
    const xml = authnRequestXml({
      issuer: `${PUBLIC_URL}/demo-sp/PAYROLL`,
      acsUrl: `${PUBLIC_URL}/demo-sp/PAYROLL/acs`,
      destination: `${PUBLIC_URL}/saml/sso`,
    });
    const browser = server.client();
    const posted = await browser.request('POST', '/saml/sso', {
      raw: new URLSearchParams({
        SAMLRequest: Buffer.from(xml).toString('base64'),
        RelayState: 'r',
      }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      requestedWith: false,
      headers: { origin: 'https://payroll.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(posted.status).toBe(303);
    const hop = posted.headers.get('location') ?? '';
    expect(hop.startsWith('/saml/sso?SAMLRequest=')).toBe(true);
    const landed = await browser.get(hop, { requestedWith: false });
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toBe('/');
    expect((await browser.login<Json>('C10001')).body).toMatchObject({
      outcome: 'SAML_HANDOFF',
      saml: { relayState: 'r' },
    });
  });
});
