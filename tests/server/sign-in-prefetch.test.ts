// The forced-step facts read with the password check (one statement) are the ones the rules would
// read themselves after a forced step: for every demo identity, the same factors, answers and
// shared-email verdict.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolmentOf } from '../../src/server/db/repositories/factors';
import { hasIdentitySharingEmail } from '../../src/server/db/repositories/merge';
import { decrementFailedCount, openSignInAttempt } from '../../src/server/db/repositories/sign-in';
import { startServer, usernameKey, type TestServer } from './support/server';
import { targets } from './support/targets';

describe.each(targets)('sign-in prefetch on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('matches what the rules read on their own, for every demo identity', async () => {
    const identities = await server.db.selectFrom('identities').selectAll().execute();
    expect(identities.length).toBeGreaterThan(5);
    for (const identity of identities) {
      const username = identity.username.toLowerCase();
      const opened = await openSignInAttempt(server.db, {
        realmCode: null,
        username,
        key: usernameKey(server, username),
        now: new Date(),
      });
      await decrementFailedCount(server.db, usernameKey(server, username));
      const own = await enrolmentOf(server.db, identity.id);
      expect(opened?.prefetch, identity.username).toEqual({
        factors: own.factors,
        securityAnswers: own.securityAnswers,
        sharesEmail: await hasIdentitySharingEmail(server.db, identity),
      });
    }
    // The two demo accounts that share dup@example.com say so; an unknown username has no facts.
    const dup = await openSignInAttempt(server.db, {
      realmCode: null,
      username: 'c10006',
      key: usernameKey(server, 'c10006'),
      now: new Date(),
    });
    expect(dup?.prefetch?.sharesEmail).toBe(true);
    const unknown = await openSignInAttempt(server.db, {
      realmCode: null,
      username: 'nobody',
      key: usernameKey(server, 'nobody'),
      now: new Date(),
    });
    expect(unknown?.prefetch).toBeNull();
  });
});
