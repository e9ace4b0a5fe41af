// A date of the right shape that names no day (30 February, 29 February of a common year, 31
// April) is a malformed request: 400 with the field named, nothing changed. valibot's isoDate
// checks the pattern only, and the database refused the rest with a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startServer, type TestServer } from './support/server';
import { targets } from './support/targets';

describe.each(targets)('impossible dates of birth, on $name', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(['2023-02-30', '1990-02-29', '1990-04-31'])(
    'PATCH profile with %s: 400, unchanged',
    async (date) => {
      const client = server.client();
      expect((await client.login('C10001')).status).toBe(200);
      const before = await server.db
        .selectFrom('identities')
        .select(['birth_date', 'updated_at'])
        .where('username', '=', 'C10001')
        .executeTakeFirstOrThrow();
      const res = await client.request<{ errors?: { fieldName: string; message: string }[] }>(
        'PATCH',
        '/rest/ui/profile',
        { json: { currentPassword: DEMO_PASSWORD, birthDate: date } },
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { fieldName: 'birthDate', message: `Invalid date: Received "${date}"` },
      ]);
      const after = await server.db
        .selectFrom('identities')
        .select(['birth_date', 'updated_at'])
        .where('username', '=', 'C10001')
        .executeTakeFirstOrThrow();
      expect(after).toEqual(before);
    },
  );
});
