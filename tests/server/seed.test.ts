// The demo data set of DESIGN.md, and seeding that happens once: only into an empty database.
import { parseOptions, verify } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/server/adapters/clock';
import { cryptoRandom } from '../../src/server/adapters/random';
import { createSecretBox } from '../../src/server/adapters/secret-box';
import { migrateToLatest } from '../../src/server/db/migrations';
import { DEMO_PASSWORD, DEMO_TOTP_SECRET } from '../../src/server/demo/data';
import { seedDemo, type SeedDeps } from '../../src/server/demo/seed';
import { argon2idHasher } from '../../src/server/domain/passwords';
import { invitationCodeHash } from '../../src/server/domain/registration/invitations';
import { startServer, TEST_DATA_KEY } from './support/server';
import { targets, type DatabaseHandle } from './support/targets';

const USERNAMES = [
  'C10001',
  'C10002',
  'C10003',
  'C10004',
  'C10005',
  'C10006',
  'C10007',
  'C10008',
  // The profile journeys' own account, so changing its details disturbs no other journey.
  'C10010',
  'admin1',
  'auditor1',
];

describe.each(targets)('demo seed on $name', (target) => {
  let handle: DatabaseHandle;
  let deps: SeedDeps;

  beforeAll(async () => {
    handle = await target.open();
    await migrateToLatest(handle.database.db);
    deps = {
      db: handle.database.db,
      clock: systemClock,
      random: cryptoRandom,
      hasher: argon2idHasher,
      secretBox: createSecretBox(TEST_DATA_KEY),
      publicUrl: 'https://portal.example.com',
    };
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  const counts = async () => {
    const db = handle.database.db;
    const out: Record<string, number> = {};
    for (const table of [
      'identities',
      'credentials',
      'identity_roles',
      'apps',
      'facilities',
      'access_grants',
      'properties',
      'enumerations',
      'identity_factors',
      'invitations',
      'realms',
    ] as const) {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      out[table] = Number(row.n);
    }
    return out;
  };

  it('seeds an empty database once, even when two seeders race', async () => {
    const results = await Promise.all([seedDemo(deps), seedDemo(deps)]);
    expect(results.map((r) => r.seeded).sort()).toEqual([false, true]);
    const first = await counts();
    expect(first.identities).toBe(USERNAMES.length);
    expect(await seedDemo(deps)).toEqual({ seeded: false });
    expect(await counts()).toEqual(first);
  });

  it('never reseeds a database that has identities, even after demo rows were removed', async () => {
    const db = handle.database.db;
    await db.deleteFrom('access_grants').execute();
    expect(await seedDemo(deps)).toEqual({ seeded: false });
    const row = await db
      .selectFrom('access_grants')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(0);
  });

  it('has every demo account with the email and mobile rules of DESIGN.md', async () => {
    const rows = await handle.database.db.selectFrom('identities').selectAll().orderBy('username').execute();
    expect(rows.map((r) => r.username).sort()).toEqual([...USERNAMES].sort());
    for (const r of rows) {
      if (r.username === 'C10006' || r.username === 'C10007') expect(r.email).toBe('dup@example.com');
      else expect(r.email).toBe(`${r.username.toLowerCase()}@example.com`);
      const m = /^C100(\d\d)$/.exec(r.username);
      if (r.mobile !== null) expect(m && r.mobile).toBe(`+61 400 000 0${m![1]}`);
      expect(r.realm_code).toBe('BANK');
    }
    const by = Object.fromEntries(rows.map((r) => [r.username, r]));
    expect(by.C10005!.mobile).toBe('+61 400 000 005');
    expect(by.C10002!.password_expired).toBe(true);
    expect(by.C10003!.mfa_required).toBe(true);
    expect(by.C10001!.password_expired || by.C10001!.mfa_required).toBe(false);
    expect(by.admin1).toMatchObject({ is_admin: true, is_staff: true, salary_number: '100001' });
    expect(by.auditor1!.is_admin).toBe(false);
    expect(by.C10001!.birth_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('stores argon2id hashes (19 MiB, t=2, p=1) of Harbour-Lights-2026, each with its own salt', async () => {
    const rows = await handle.database.db.selectFrom('credentials').select('password_hash').execute();
    expect(rows).toHaveLength(USERNAMES.length);
    expect(new Set(rows.map((r) => r.password_hash)).size).toBe(USERNAMES.length);
    const first = rows[0]!.password_hash;
    expect(first.startsWith('$argon2id$')).toBe(true);
    expect(parseOptions(first)).toMatchObject({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(await verify(first, DEMO_PASSWORD)).toBe(true);
    expect(await verify(first, 'harbour-lights-2026')).toBe(false);
  });

  it('gives the roles: admin1 ADMIN and READ_ONLY, auditor1 VIEW_ACCESS_REQUESTS', async () => {
    const rows = await handle.database.db
      .selectFrom('identity_roles as r')
      .innerJoin('identities as i', 'i.id', 'r.identity_id')
      .select(['i.username', 'r.role_code'])
      .orderBy('i.username')
      .orderBy('r.role_code')
      .execute();
    expect(rows).toEqual([
      { username: 'admin1', role_code: 'ADMIN' },
      { username: 'admin1', role_code: 'READ_ONLY' },
      { username: 'auditor1', role_code: 'VIEW_ACCESS_REQUESTS' },
    ]);
  });

  it('has the apps LOANS, PAYROLL and TREASURY with facilities F001 to F003 under LOANS', async () => {
    const db = handle.database.db;
    const apps = await db.selectFrom('apps').selectAll().orderBy('code').execute();
    expect(apps.map((a) => [a.code, a.context_type, a.facility_handoff])).toEqual([
      ['LOANS', 'SAML', 'SELECTED_BEFORE_HANDOFF'],
      ['PAYROLL', 'SAML', 'NONE'],
      ['TREASURY', 'JWT', 'NONE'],
    ]);
    expect(apps[0]!.acs_url).toBe('https://portal.example.com/demo-sp/LOANS/acs');
    expect(apps[0]!.entity_id).toBe('https://portal.example.com/demo-sp/LOANS');
    expect(apps[2]!.frame_origin).toBe('https://portal.example.com');
    const facilities = await db
      .selectFrom('facilities')
      .select(['app_code', 'code'])
      .orderBy('code')
      .execute();
    expect(facilities).toEqual([
      { app_code: 'LOANS', code: 'F001' },
      { app_code: 'LOANS', code: 'F002' },
      { app_code: 'LOANS', code: 'F003' },
    ]);
  });

  it('keeps the later issues’ situations: factors, invitations, properties, questions', async () => {
    const db = handle.database.db;
    const factors = await db
      .selectFrom('identity_factors as f')
      .innerJoin('identities as i', 'i.id', 'f.identity_id')
      .select(['i.username', 'f.factor_type', 'f.mobile', 'f.secret_sealed'])
      .orderBy('i.username')
      .orderBy('f.factor_type')
      .execute();
    expect(factors.map((f) => [f.username, f.factor_type, f.mobile])).toEqual([
      ['C10004', 'AUTHENTICATOR_APP', null],
      ['C10004', 'EMAIL', null],
      ['C10005', 'EMAIL', null],
      ['C10005', 'SMS', '+61 400 000 005'],
    ]);
    // The TOTP secret is sealed at rest and opens to the documented one.
    expect(factors[0]!.secret_sealed).not.toContain(DEMO_TOTP_SECRET);
    expect(createSecretBox(TEST_DATA_KEY).open(factors[0]!.secret_sealed!)).toBe(DEMO_TOTP_SECRET);

    const invitations = await db
      .selectFrom('invitations as v')
      .leftJoin('identities as i', 'i.id', 'v.existing_identity_id')
      .select(['v.code_hash', 'v.email', 'i.username'])
      .orderBy('v.email')
      .execute();
    // Stored as hashes only: the codes themselves are in DESIGN.md and the invitation emails.
    expect(invitations).toEqual([
      { code_hash: invitationCodeHash('INVITE-EXIST-0001'), email: 'c10001@example.com', username: 'C10001' },
      { code_hash: invitationCodeHash('INVITE-NEW-0001'), email: 'new.customer@example.com', username: null },
    ]);

    const properties = Object.fromEntries(
      (await db.selectFrom('properties').selectAll().execute()).map((p) => [p.name, p.value]),
    );
    expect(properties).toMatchObject({
      'sso-support-email': 'sso.support@example.com',
      'support-email': 'support@example.com',
      'sms-gateway-status': 'AVAILABLE',
      'jira-browse-url': 'https://jira.example.com/browse/',
    });
    expect(properties['skip-merge-accounts-cutoff-date']).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const questions = await db
      .selectFrom('enumerations')
      .select('code')
      .where('name', '=', 'security-questions')
      .execute();
    expect(questions.map((q) => q.code)).toEqual(expect.arrayContaining(['DRIVERS_LICENCE', 'MEDICARE']));
  });
});

describe.each(targets)('SEED_DEMO=false on $name', (target) => {
  it('starts with the reference data only: the realm, the roles and the security questions', async () => {
    const server = await startServer(target, { env: { SEED_DEMO: 'false' } });
    try {
      const identities = await server.db.selectFrom('identities').select('id').execute();
      expect(identities).toEqual([]);
      const res = await server.client().get('/rest/ui/anonymous/context');
      expect(res.body).toMatchObject({ appCode: 'SAM', realmCode: 'BANK' });
      expect((await server.client().login('C10001')).status).toBe(422);
      // Reference data, not demo data: reset, registration and factor enrolment start with them.
      const questions = await server.client().get('/rest/ui/anonymous/enums/security-questions');
      expect(questions.status).toBe(200);
      expect((questions.body as unknown[]).slice(0, 2)).toEqual([
        { code: 'DRIVERS_LICENCE', description: "Driver's licence number" },
        { code: 'MEDICARE', description: 'Medicare card number' },
      ]);
    } finally {
      await server.close();
    }
  });
});
