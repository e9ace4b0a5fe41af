// The idle warning's session check against a fake loadSession: the time left each answer says
// (x-session-expires-in, passed on as the api layer does), and a "gone" asked twice before it counts.
import { describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { notifyResponse } from '../../src/client/api/version';
import { idleWarningActors } from '../../src/client/app/idle-warning/idle-warning.actors';
import { SESSION_EXPIRES_IN_HEADER } from '../../src/contract/call';
import { ANONYMOUS_USER } from '../../src/contract/entities';
import { contexts, users } from './fixtures';

const answer = (user: typeof ANONYMOUS_USER, seconds: string | null) =>
  vi.fn(async () => {
    if (seconds) notifyResponse(new Headers({ [SESSION_EXPIRES_IN_HEADER]: seconds }));
    return { currentUser: user, context: contexts.portal };
  });

async function check(loadSession: ReturnType<typeof answer>) {
  const { checkSession } = idleWarningActors(loadSession);
  return toPromise(createActor(checkSession).start());
}

describe('the idle warning session check', () => {
  it('answers alive with the time left the answer said', async () => {
    const load = answer(users.customer, '1799');
    await expect(check(load)).resolves.toEqual({ alive: true, expiresInMs: 1_799_000 });
    expect(load).toHaveBeenCalledTimes(1);
    // A pending sign-in is a session too.
    await expect(check(answer(users.pending, '600'))).resolves.toEqual({ alive: true, expiresInMs: 600_000 });
  });

  it('asks again before a "gone" counts: a completed forced step has just replaced the cookie', async () => {
    const load = vi
      .fn()
      .mockImplementationOnce(answer(ANONYMOUS_USER, null))
      .mockImplementationOnce(answer(users.customer, '1800'));
    await expect(check(load)).resolves.toEqual({ alive: true, expiresInMs: 1_800_000 });
    expect(load).toHaveBeenCalledTimes(2);
    const gone = answer(ANONYMOUS_USER, null);
    await expect(check(gone)).resolves.toEqual({ alive: false, expiresInMs: null });
    expect(gone).toHaveBeenCalledTimes(2);
  });
});
