// A refused invitation field reads as a person would read it, over real HTTP on each engine: the
// admin's alert and field say 'Must be in the form C99999', not 'customerNumber: ...'; the invite
// command names the option to correct instead of the internal field name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvitationError } from '../../src/server/domain/registration/invitations';
import { runInviteCommand } from '../../scripts/invite';
import { cryptoRandom } from '../../src/server/adapters/random';
import { post } from './support/factors';
import { startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

const FORMAT = 'Must be in the form C99999';

describe.each(targets)('invitation refusal messages on $name', (target) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startServer(target);
    admin = server.client();
    expect((await admin.login('admin1')).body).toMatchObject({ outcome: 'DIRECT_LOGIN' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("shows a bad customer number's message without the field's name, at customerNumber", async () => {
    for (const [customerNumber, isStaff] of [
      ['12345', false],
      ['c1234', true],
      ['C123456', false],
    ] as const) {
      const res = await post(admin, 'admin/invitations', {
        email: 'format@example.com',
        appCode: 'PAYROLL',
        customerNumber,
        name: 'Fern Format',
        isStaff,
      });
      expect(res.status, customerNumber).toBe(422);
      expect(res.body).toEqual({
        message: FORMAT,
        errors: [{ fieldName: 'customerNumber', message: FORMAT }],
      });
    }
  });

  it('the invite command names the option to correct', async () => {
    const run = (args: string[]) =>
      runInviteCommand(['--email', 'cli.format@example.com', '--app', 'PAYROLL', ...args], {
        db: server.db,
        clock: server.app.services.clock,
        random: cryptoRandom,
        mail: server.app.services.factors.mail,
        publicUrl: server.config.publicUrl,
        out: () => {},
      });
    const refused = await run(['--customer-number', '12345', '--name', 'Fern Format']).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(InvitationError);
    expect((refused as Error).message).toBe(`--customer-number: ${FORMAT}`);
    await expect(run(['--days', '0'])).rejects.toThrow(/^--days: /);
    await expect(run(['--birth-date', '1990-13-45'])).rejects.toThrow(/^--birth-date: /);
  });
});
