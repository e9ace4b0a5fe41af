// A customer number is one customer's, over real HTTP on each engine: an invitation (the admin's
// or the invite command's) for a number that a live identity holds is refused at the customer
// number; a retired holder's number and an email shared with a live identity stay allowed;
// registration from an invitation whose number came to be held meanwhile refuses with the neutral
// answer and makes no second holder, also when two registrations race (the partial unique index of
// migration 0024 answers 422, not 500); and migration 0024 on data that already has two holders.
import { randomUUID } from 'node:crypto';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInviteCommand } from '../../scripts/invite';
import type { InvitationSummary } from '../../src/contract/admin';
import { cryptoRandom } from '../../src/server/adapters/random';
import { openDatabase } from '../../src/server/db/database';
import { migrateToLatest, migrationProvider } from '../../src/server/db/migrations';
import type { Database } from '../../src/server/db/schema';
import { customerNumberTakenMessage } from '../../src/server/domain/messages';
import { INVITATION_INVALID_MESSAGE } from '../../src/server/domain/registration/messages';
import { outbox, post } from './support/factors';
import { startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

const CAPTCHA = 'E2E42';
const NEW_PASSWORD = 'Quiet-Harbour-Morning-4821';
const QUESTIONS = {
  question1: 'DRIVERS_LICENCE',
  answer1: 'NSW 99887',
  question2: 'MEDICARE',
  answer2: '2123 45670 1',
};

describe.each(targets)('customer numbers of invitations on $name', (target) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startServer(target, { env: { CAPTCHA_FIXED_ANSWER: CAPTCHA } });
    admin = server.client();
    expect((await admin.login('admin1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const invitationCount = async () =>
    Number(
      (
        await server.db
          .selectFrom('invitations')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const holders = async (customerNumber: string) =>
    (
      await server.db
        .selectFrom('identities')
        .select('username')
        .where('customer_number', '=', customerNumber)
        .where('retired_at', 'is', null)
        .orderBy('username')
        .execute()
    ).map((r) => r.username);

  const cli = (args: string[]) =>
    runInviteCommand(args, {
      db: server.db,
      clock: server.app.services.clock,
      random: cryptoRandom,
      mail: server.app.services.factors.mail,
      publicUrl: server.config.publicUrl,
      out: () => {},
    });

  /** A customer invitation from the admin; answers the invitation and its emailed code. */
  async function invite(email: string, customerNumber: string, name = 'Casey Customer') {
    const res = await post<InvitationSummary>(admin, 'admin/invitations', {
      email,
      appCode: 'PAYROLL',
      customerNumber,
      name,
      isStaff: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [mail] = await outbox(admin, `?to=${email}&channel=EMAIL`);
    return { invitation: res.body, code: mail!.code! };
  }

  async function start(email: string, inviteCode: string) {
    const client = server.client();
    expect((await client.get('/captcha.jpg?1')).status).toBe(200);
    const res = await post(client, 'anonymous/registration/start', {
      email,
      inviteCode,
      captchaCode: CAPTCHA,
    });
    return { client, res };
  }

  async function readyToSubmit(email: string, code: string, username: string) {
    const { client, res } = await start(email, code);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const details = await post(client, 'anonymous/registration/collect-details', { username });
    expect(details.status, JSON.stringify(details.body)).toBe(200);
    expect((await post(client, 'anonymous/registration/enrol-email')).status).toBe(204);
    expect((await post(client, 'anonymous/registration/enrol-security-questions', QUESTIONS)).status).toBe(
      204,
    );
    return client;
  }

  const submit = (client: TestClient) =>
    post(client, 'anonymous/registration/submit-new', {
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });

  it("refuses an admin's invitation for a live account's customer number, at the field, and creates nothing", async () => {
    const before = await invitationCount();
    const taken = customerNumberTakenMessage('C10001');
    expect(taken).toBe('Customer number C10001 already belongs to an account.');
    for (const body of [
      { email: 'someone.else@example.com', customerNumber: 'C10001', name: 'Olivia Bennett', isStaff: false },
      { email: 'someone.else@example.com', customerNumber: 'C10001', isStaff: true },
      // The account's own address changes nothing: a new account would still be a second holder.
      { email: 'c10001@example.com', customerNumber: 'C10001', name: 'Olivia Bennett', isStaff: false },
    ]) {
      const res = await post(admin, 'admin/invitations', { appCode: 'PAYROLL', ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual({ message: taken, errors: [{ fieldName: 'customerNumber', message: taken }] });
    }
    expect(await invitationCount()).toBe(before);
    expect(await outbox(admin, '?to=someone.else@example.com')).toEqual([]);
    expect(await holders('C10001')).toEqual(['C10001']);
  });

  it("allows a retired account's customer number, and an email that a live account uses", async () => {
    await server.db
      .updateTable('identities')
      .set({ retired_at: new Date() })
      .where('username', '=', 'C10007')
      .execute();
    const retired = await post<InvitationSummary>(admin, 'admin/invitations', {
      email: 'liam.again@example.com',
      appCode: 'PAYROLL',
      customerNumber: 'C10007',
      name: 'Liam Walsh',
      isStaff: false,
    });
    expect(retired.status, JSON.stringify(retired.body)).toBe(200);
    // Shared addresses are what the merge is for.
    for (const body of [
      { email: 'c10002@example.com', isStaff: false },
      { email: 'dup@example.com', customerNumber: 'C20401', name: 'Dee Shared', isStaff: false },
    ]) {
      const res = await post(admin, 'admin/invitations', { appCode: 'PAYROLL', ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  it("the invite command refuses a live account's customer number unless it invites that account", async () => {
    const before = await invitationCount();
    const taken = customerNumberTakenMessage('C10001');
    const base = ['--email', 'cli.other@example.com', '--app', 'PAYROLL', '--customer-number', 'C10001'];
    await expect(cli([...base, '--name', 'Olivia Bennett'])).rejects.toThrow(taken);
    await expect(cli([...base, '--existing', 'C10002'])).rejects.toThrow(taken);
    expect(await invitationCount()).toBe(before);
    // The holder's own existing-account invitation names its own number.
    await cli([...base, '--existing', 'C10001']);
    expect(await invitationCount()).toBe(before + 1);
  });

  it('refuses registration, with the neutral answer, once the customer number came to be held', async () => {
    // Two invitations for one number, both made while no one held it.
    const first = await invite('first.holder@example.com', 'C20500');
    const second = await invite('second.holder@example.com', 'C20500');
    const waiting = await readyToSubmit('second.holder@example.com', second.code, 'C20500');

    const firstClient = await readyToSubmit('first.holder@example.com', first.code, 'C20500');
    const done = await submit(firstClient);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await holders('C20500')).toEqual(['C20500']);
    const identitiesBefore = await server.db.selectFrom('identities').select('id').execute();

    // The wizard under way stops as for a used invitation, and a new start is refused alike.
    const refused = await submit(waiting);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: INVITATION_INVALID_MESSAGE, reroute: '/registration' });
    const again = await start('second.holder@example.com', second.code);
    expect(again.res.status).toBe(422);
    expect(again.res.body).toEqual({ message: INVITATION_INVALID_MESSAGE });

    expect(await server.db.selectFrom('identities').select('id').execute()).toEqual(identitiesBefore);
    const row = await server.db
      .selectFrom('invitations')
      .select(['used_at', 'used_by_identity_id'])
      .where('id', '=', second.invitation.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ used_at: null, used_by_identity_id: null });
  });

  it('two registrations racing for one customer number make one holder; the other gets 422, not 500', async () => {
    const a = await invite('race.a@example.com', 'C20600');
    const b = await invite('race.b@example.com', 'C20600');
    const clients = [
      await readyToSubmit('race.a@example.com', a.code, 'C20601'),
      await readyToSubmit('race.b@example.com', b.code, 'C20602'),
    ];
    const answers = await Promise.all(clients.map(submit));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(answers.find((r) => r.status === 422)!.body).toEqual({
      message: INVITATION_INVALID_MESSAGE,
      reroute: '/registration',
    });
    expect(await holders('C20600')).toHaveLength(1);
  });

  it('a holder that appears between the check and the insert is refused by the index (422, nothing written)', async () => {
    const { invitation, code } = await invite('late.holder@example.com', 'C20700');
    const client = await readyToSubmit('late.holder@example.com', code, 'C20700');
    const identitiesBefore = await server.db.selectFrom('identities').select('id').orderBy('id').execute();
    // Another registration commits its holder in the instant after this one's checks: a trigger
    // inserts it just before this one's identity row.
    await sql
      .raw(
        `create function invitation_review_holder() returns trigger language plpgsql as $$
        begin
          if new.customer_number = 'C20700' and new.username <> 'late.other' then
            insert into identities (id, realm_code, username, name, customer_number, created_at, updated_at)
            values (gen_random_uuid(), new.realm_code, 'late.other', 'Late Other', 'C20700', now(), now());
          end if;
          return new;
        end $$`,
      )
      .execute(server.db);
    await sql
      .raw(
        `create trigger invitation_review_holder before insert on identities
          for each row execute function invitation_review_holder()`,
      )
      .execute(server.db);
    try {
      const refused = await submit(client);
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body).toEqual({ message: INVITATION_INVALID_MESSAGE, reroute: '/registration' });
    } finally {
      await sql.raw('drop trigger invitation_review_holder on identities').execute(server.db);
      await sql.raw('drop function invitation_review_holder()').execute(server.db);
    }
    expect(await server.db.selectFrom('identities').select('id').orderBy('id').execute()).toEqual(
      identitiesBefore,
    );
    const row = await server.db
      .selectFrom('invitations')
      .select('used_at')
      .where('id', '=', invitation.id)
      .executeTakeFirstOrThrow();
    expect(row.used_at).toBeNull();
  });
});

describe.each(targets)('migration 0024 and customer numbers already shared, on $name', (target) => {
  async function at0023() {
    // A database no migration has run on (the PGlite target's come migrated).
    const handle =
      target.name === 'postgres'
        ? await target.open()
        : await openDatabase({ kind: 'pglite' }).then((database) => ({
            database,
            dispose: () => database.destroy(),
          }));
    const db = handle.database.db;
    const migrator = new Migrator({ db, provider: migrationProvider() });
    expect((await migrator.migrateTo('0023_sign_in_attempts_without_identity_lock')).error).toBeUndefined();
    await sql`insert into realms (code, name) values ('R', 'Realm')`.execute(db);
    return { handle, db };
  }

  const holder = (db: Kysely<Database>, username: string, customerNumber: string, retired: boolean) =>
    sql`
      insert into identities (id, realm_code, username, name, customer_number, created_at, updated_at, retired_at)
      values (${randomUUID()}, 'R', ${username}, ${username}, ${customerNumber}, now(), now(),
              ${retired ? new Date() : null}::timestamptz)
    `.execute(db);

  it('stops, rolled back, when live accounts share a customer number', async () => {
    const { handle, db } = await at0023();
    try {
      await holder(db, 'one', 'C30001', false);
      await holder(db, 'two', 'C30001', false);
      await holder(db, 'three', 'C30002', false);
      await expect(migrateToLatest(db)).rejects.toThrow(
        /0024_invitation_creator failed: 1 customer number\(s\) each belong to more than one live account/,
      );
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from information_schema.columns
        where table_name = 'invitations' and column_name = 'created_by_identity_id'
      `.execute(db);
      expect(rows[0]!.n).toBe(0);
    } finally {
      await handle.dispose();
    }
  });

  it('runs when only a retired account shares one, and the index then holds', async () => {
    const { handle, db } = await at0023();
    try {
      await holder(db, 'one', 'C30001', false);
      await holder(db, 'two', 'C30001', true);
      await holder(db, 'none', 'C30009', true);
      await migrateToLatest(db);
      await expect(holder(db, 'three', 'C30001', false)).rejects.toThrow(/identities_customer_number_live/);
      await holder(db, 'four', 'C30001', true);
      await holder(db, 'five', 'C30009', false);
    } finally {
      await handle.dispose();
    }
  });
});
