// Hand-pinned timing of the idle warning (WCAG 2.2.1) under fake timers: at start it asks how long
// the session has left; two minutes before the end an answer announced, the warning; at the end, a
// check; every answer moves the end.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  idleWarningMachine,
  WARNING_LEAD_MS,
} from '../../machines/session/idle-warning/idle-warning.machine';
import { selectExtending, selectWarningOpen } from '../../machines/session/idle-warning/idle-warning.select';
import type { SessionCheck } from '../../machines/session/idle-warning/idle-warning.types';

const MINUTE = 60_000;
const ALIVE: SessionCheck = { alive: true, expiresInMs: 30 * MINUTE };

function start(checks: (SessionCheck | Error)[] = []) {
  const calls = { checks: 0, ended: 0, signOuts: 0 };
  const answers = [...checks];
  const machine = idleWarningMachine.provide({
    actors: {
      checkSession: fromPromise<SessionCheck>(async () => {
        calls.checks += 1;
        const next = answers.shift() ?? ALIVE;
        if (next instanceof Error) throw next;
        return next;
      }),
    },
    actions: {
      endSession: () => void (calls.ended += 1),
      signOut: () => void (calls.signOuts += 1),
    },
  });
  const actor = createActor(machine).start();
  return { actor, calls, seen: (ms: number) => actor.send({ type: 'session.seen', expiresInMs: ms }) };
}

const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('idle warning', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks at start, and warns two minutes before the end the answer said, not before', async () => {
    expect(WARNING_LEAD_MS).toBe(2 * MINUTE);
    const { actor, calls } = start();
    expect(actor.getSnapshot().value).toBe('asking');
    await pass(0);
    expect(actor.getSnapshot().value).toBe('counting');
    expect(calls.checks).toBe(1);
    await pass(28 * MINUTE - 1);
    expect(selectWarningOpen(actor.getSnapshot())).toBe(false);
    await pass(1);
    expect(selectWarningOpen(actor.getSnapshot())).toBe(true);
  });

  it('a failed first check waits for an answer to say how long is left', async () => {
    const { actor, seen } = start([new Error('no answer')]);
    await pass(0);
    expect(actor.getSnapshot().value).toBe('unknown');
    await pass(60 * MINUTE);
    expect(selectWarningOpen(actor.getSnapshot())).toBe(false);
    seen(10 * MINUTE);
    await pass(8 * MINUTE);
    expect(selectWarningOpen(actor.getSnapshot())).toBe(true);
  });

  it("a 'gone' answer at start is not the end (a sign-in step's new cookie may race it): it waits", async () => {
    const { actor, calls, seen } = start([{ alive: false, expiresInMs: null }]);
    await pass(0);
    expect(actor.getSnapshot().value).toBe('unknown');
    expect(calls.ended).toBe(0);
    seen(30 * MINUTE);
    expect(actor.getSnapshot().value).toBe('counting');
  });

  it('every answer moves the end: a session in use is never warned about', async () => {
    const { actor, calls, seen } = start();
    // Every snapshot, not only those the steps below look at: a warning opened and closed
    // between two looks (warning, then ending's check, then counting again) is still a warning.
    let warned = false;
    actor.subscribe((snapshot) => void (warned ||= selectWarningOpen(snapshot)));
    await pass(0);
    expect(calls.checks).toBe(1);
    for (let i = 0; i < 10; i++) {
      await pass(20 * MINUTE);
      expect(warned).toBe(false);
      expect(selectWarningOpen(actor.getSnapshot())).toBe(false);
      seen(30 * MINUTE);
      expect(actor.getSnapshot().value).toBe('counting');
      // No check at an end: the end never came, each answer moved it.
      expect(calls.checks).toBe(1);
    }
    // 200 minutes in use, and the last answer's 30 minutes still counting.
    await pass(28 * MINUTE - 1);
    expect(warned).toBe(false);
    expect(calls).toMatchObject({ checks: 1, ended: 0, signOuts: 0 });
  });

  it('an answer with more than two minutes left closes the warning (used elsewhere in the tab)', async () => {
    const { actor, seen, calls } = start();
    await pass(28 * MINUTE);
    expect(selectWarningOpen(actor.getSnapshot())).toBe(true);
    // The re-enter-password poll says what is left without counting as use: the end stays.
    seen(90_000);
    expect(selectWarningOpen(actor.getSnapshot())).toBe(true);
    seen(30 * MINUTE);
    expect(actor.getSnapshot().value).toBe('counting');
    expect(calls.checks).toBe(1);
  });

  it('Stay signed in asks the server (a call counts as use) and counts again from its answer', async () => {
    const { actor, calls } = start([ALIVE, { alive: true, expiresInMs: 10 * MINUTE }]);
    await pass(28 * MINUTE);
    actor.send({ type: 'user.staySignedIn' });
    expect(selectExtending(actor.getSnapshot())).toBe(true);
    await pass(0);
    expect(actor.getSnapshot().value).toBe('counting');
    expect(calls.checks).toBe(2);
    await pass(8 * MINUTE);
    expect(selectWarningOpen(actor.getSnapshot())).toBe(true);
  });

  it('at the end it asks whether the session is still there; ended, section 8 takes over', async () => {
    const { actor, calls } = start([
      ALIVE,
      { alive: true, expiresInMs: 3 * MINUTE },
      { alive: false, expiresInMs: null },
    ]);
    await pass(30 * MINUTE);
    // Alive (another tab used it): counting again, from what the answer said.
    expect(actor.getSnapshot().value).toBe('counting');
    await pass(3 * MINUTE);
    expect(actor.getSnapshot().status).toBe('done');
    expect(calls).toMatchObject({ checks: 3, ended: 1, signOuts: 0 });
  });

  it('Sign out is the shell sign-out', async () => {
    const { actor, seen, calls } = start();
    await pass(0);
    seen(2 * MINUTE);
    await pass(0);
    expect(selectWarningOpen(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'user.signOut' });
    expect(actor.getSnapshot().value).toBe('signingOut');
    expect(calls.signOuts).toBe(1);
  });
});
