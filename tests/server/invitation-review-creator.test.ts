// Who created an invitation, over real HTTP on each engine: an admin's invitation names that admin
// (stored, listed as `createdBy`, and in an INVITATION_CREATED audit line without the code); one
// whose email cannot be sent leaves no line; the invite command's and the seed's name no one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInviteCommand } from '../../scripts/invite';
import type { InvitationSummary, PageMetadata } from '../../src/contract/admin';
import { systemClock } from '../../src/server/adapters/clock';
import { MailUnavailableError, type MailSender, type OutgoingEmail } from '../../src/server/adapters/mail';
import { cryptoRandom } from '../../src/server/adapters/random';
import { INVITATION_EMAIL_FAILED_MESSAGE } from '../../src/server/domain/admin/invitations';
import { get, post } from './support/factors';
import { startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

type Paged<T> = { data: T[]; page: PageMetadata };
type Line = Record<string, unknown>;

/** Keeps every email it is given; an address at undeliverable.example cannot be reached. */
class RecordingMail implements MailSender {
  readonly kind = 'outbox' as const;
  readonly sent: OutgoingEmail[] = [];
  send(email: OutgoingEmail): Promise<void> {
    if (email.to.endsWith('@undeliverable.example'))
      return Promise.reject(new MailUnavailableError('The SMTP server did not accept the message'));
    this.sent.push(email);
    return Promise.resolve();
  }
  codeFor(to: string): string {
    const code = this.sent.findLast((e) => e.to === to)?.code;
    if (!code) throw new Error(`No invitation email to ${to}`);
    return code;
  }
}

class CapturedLog {
  readonly raw: string[] = [];
  write(line: string): void {
    this.raw.push(line);
  }
  audit(event: string): Line[] {
    return this.raw.map((l) => JSON.parse(l) as Line).filter((l) => l.audit === true && l.event === event);
  }
}

/** Audit lines of committed changes are written after the response: wait for them briefly. */
async function eventually<T>(read: () => T[], count: number): Promise<T[]> {
  for (let i = 0; i < 100 && read().length < count; i++) await new Promise((r) => setTimeout(r, 20));
  return read();
}

describe.each(targets)('who created an invitation, on $name', (target) => {
  let server: TestServer;
  let admin1: TestClient;
  let admin2: TestClient;
  const ids = new Map<string, string>();
  const log = new CapturedLog();
  const mail = new RecordingMail();

  beforeAll(async () => {
    server = await startServer(target, { env: { LOG_LEVEL: 'info' }, deps: { logStream: log, mail } });
    // A second admin, so that the creator recorded is the one who asked and not just any admin.
    await server.db
      .updateTable('identities')
      .set({ is_admin: true })
      .where('username', '=', 'auditor1')
      .execute();
    for (const username of ['admin1', 'auditor1']) {
      const row = await server.db
        .selectFrom('identities')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow();
      ids.set(username, row.id);
    }
    admin1 = server.client();
    expect((await admin1.login('admin1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
    admin2 = server.client();
    expect((await admin2.login('auditor1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const creatorOf = async (id: string) =>
    (
      await server.db
        .selectFrom('invitations')
        .select('created_by_identity_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).created_by_identity_id;

  async function invite(client: TestClient, email: string) {
    const res = await post<InvitationSummary>(client, 'admin/invitations', {
      email,
      appCode: 'PAYROLL',
      isStaff: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  it("records the creating admin: stored, answered and listed as createdBy, each admin's own", async () => {
    const first = await invite(admin1, 'first.creator@example.com');
    const second = await invite(admin2, 'second.creator@example.com');
    expect(first.createdBy).toBe('admin1');
    expect(second.createdBy).toBe('auditor1');
    expect(await creatorOf(first.id)).toBe(ids.get('admin1'));
    expect(await creatorOf(second.id)).toBe(ids.get('auditor1'));

    const listed = await get<Paged<InvitationSummary>>(admin1, 'admin/invitations?query=creator@example.com');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((i) => [i.email, i.createdBy])).toEqual([
      ['second.creator@example.com', 'auditor1'],
      ['first.creator@example.com', 'admin1'],
    ]);
    // Revoked by the other admin: both are named, each for what they did.
    const revoked = await post<InvitationSummary>(admin2, `admin/invitations/${first.id}/revoke`);
    expect(revoked.body).toMatchObject({ status: 'REVOKED', createdBy: 'admin1', revokedBy: 'auditor1' });
  });

  it('writes an INVITATION_CREATED audit line naming the admin, without the code', async () => {
    const created = await invite(admin2, 'audited.creation@example.com');
    const code = mail.codeFor('audited.creation@example.com');
    const lines = await eventually(
      () => log.audit('INVITATION_CREATED').filter((l) => l.invitationId === created.id),
      1,
    );
    expect(lines).toEqual([
      expect.objectContaining({
        audit: true,
        actorIdentityId: ids.get('auditor1'),
        invitationId: created.id,
        appCode: 'PAYROLL',
      }),
    ]);
    // Neither the code nor its hash is anywhere in the log.
    const hash = (
      await server.db
        .selectFrom('invitations')
        .select('code_hash')
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow()
    ).code_hash;
    const normalised = code.replace(/-/g, '');
    for (const line of log.raw) {
      expect(line).not.toContain(code);
      expect(line).not.toContain(normalised);
      expect(line).not.toContain(hash);
    }
  });

  it('an invitation whose email could not be sent is removed and leaves no audit line', async () => {
    const res = await post(admin1, 'admin/invitations', {
      email: 'nobody@undeliverable.example',
      appCode: 'PAYROLL',
      isStaff: true,
    });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: INVITATION_EMAIL_FAILED_MESSAGE });
    expect(
      await server.db
        .selectFrom('invitations')
        .select('id')
        .where('email', '=', 'nobody@undeliverable.example')
        .execute(),
    ).toEqual([]);
    // A later request's lines are flushed after this one's would have been.
    const later = await invite(admin1, 'after.failure@example.com');
    await eventually(() => log.audit('INVITATION_CREATED').filter((l) => l.invitationId === later.id), 1);
    const ours = new Set((await server.db.selectFrom('invitations').select('id').execute()).map((r) => r.id));
    expect(log.audit('INVITATION_CREATED').every((l) => ours.has(String(l.invitationId)))).toBe(true);
  });

  it("names no creator for the invite command's and the seed's invitations", async () => {
    const created = await runInviteCommand(['--email', 'cli.invitee@example.com', '--app', 'PAYROLL'], {
      db: server.db,
      clock: systemClock,
      random: cryptoRandom,
      mail,
      publicUrl: server.config.publicUrl,
      out: () => {},
    });
    expect(await creatorOf(created.id)).toBeNull();
    const cli = await get<Paged<InvitationSummary>>(admin1, 'admin/invitations?query=cli.invitee');
    expect(cli.body.data).toEqual([expect.objectContaining({ id: created.id, createdBy: null })]);
    const seeded = await get<Paged<InvitationSummary>>(
      admin1,
      'admin/invitations?query=new.customer@example.com',
    );
    expect(seeded.body.data).toEqual([expect.objectContaining({ createdBy: null })]);
  });
});
