// Hand-pinned transitions of the re-enter-password watcher (sections 2.2, 4.2 and 9) under fake
// timers: the named delays are the spec's 4 s, 8 s and 2 s.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  REENTER_PASSWORD_DELAYS,
  reenterPasswordMachine,
} from '../../machines/session/reenter-password/reenter-password.machine';
import {
  selectModalOpen,
  selectPasswordError,
  selectSubmitting,
} from '../../machines/session/reenter-password/reenter-password.select';
import type { ReenterResult } from '../../machines/session/reenter-password/reenter-password.types';

interface Script {
  cookie: boolean[];
  expired?: (boolean | Error)[];
  reenter?: (ReenterResult | Error)[];
}

function start(script: Script) {
  const calls = { checks: 0, polls: 0, passwords: [] as string[], signOuts: 0 };
  const cookie = [...script.cookie];
  const expired = [...(script.expired ?? [])];
  const reenter = [...(script.reenter ?? [])];
  const machine = reenterPasswordMachine.provide({
    actors: {
      hasRecentAuthentication: fromPromise<boolean>(async () => {
        calls.checks += 1;
        return cookie.shift() ?? true;
      }),
      isPasswordExpired: fromPromise<boolean>(async () => {
        calls.polls += 1;
        const next = expired.shift() ?? true;
        if (next instanceof Error) throw next;
        return next;
      }),
      reenterPassword: fromPromise<ReenterResult, { password: string }>(async ({ input }) => {
        calls.passwords.push(input.password);
        const next = reenter.shift() ?? { type: 'accepted' };
        if (next instanceof Error) throw next;
        return next;
      }),
    },
    actions: { signOut: () => void (calls.signOuts += 1) },
  });
  const actor = createActor(machine).start();
  return { actor, calls };
}

/** Lets time pass, and the promises it settles. */
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('re-enter-password watcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("uses the spec's delays", () => {
    expect(REENTER_PASSWORD_DELAYS).toEqual({ CHECK_INTERVAL: 4000, POLL_DELAY: 8000, POLL_INTERVAL: 2000 });
  });

  it('checks the cookie every 4 s and stays quiet while it is there', async () => {
    const { actor, calls } = start({ cookie: [true, true, true] });
    await pass(3_999);
    expect(calls.checks).toBe(0);
    await pass(1);
    expect(calls.checks).toBe(1);
    await pass(8_000);
    expect(calls.checks).toBe(3);
    expect(selectModalOpen(actor.getSnapshot())).toBe(false);
  });

  it('opens the modal at once when a call was refused for the password (password.required)', async () => {
    const { actor, calls } = start({ cookie: [true, true] });
    actor.send({ type: 'password.required' });
    expect(selectModalOpen(actor.getSnapshot())).toBe(true);
    expect(calls.checks).toBe(0);
    actor.send({ type: 'user.submit', password: 'Harbour-Lights-2026' });
    await pass(0);
    expect(selectModalOpen(actor.getSnapshot())).toBe(false);
    // While the cookie is being read, too.
    await pass(4_000);
    expect(actor.getSnapshot().matches('checking')).toBe(false);
    const slow = reenterPasswordMachine.provide({
      actors: { hasRecentAuthentication: fromPromise<boolean>(() => new Promise<boolean>(() => {})) },
    });
    const reading = createActor(slow).start();
    await pass(4_000);
    expect(reading.getSnapshot().matches('checking')).toBe(true);
    reading.send({ type: 'password.required' });
    expect(selectModalOpen(reading.getSnapshot())).toBe(true);
    reading.stop();
  });

  it('opens the modal when the cookie is missing, and closes it after the password is accepted', async () => {
    const { actor, calls } = start({ cookie: [false, true] });
    await pass(4_000);
    expect(selectModalOpen(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'user.submit', password: 'Harbour-Lights-2026' });
    expect(selectSubmitting(actor.getSnapshot())).toBe(true);
    await pass(0);
    expect(selectModalOpen(actor.getSnapshot())).toBe(false);
    expect(calls.passwords).toEqual(['Harbour-Lights-2026']);
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('Harbour');
    await pass(4_000);
    expect(calls.checks).toBe(2);
  });

  it('shows a wrong password (422) and lets the user try again', async () => {
    const { actor } = start({
      cookie: [false],
      reenter: [{ type: 'refused', message: 'Incorrect password.' }, { type: 'accepted' }],
    });
    await pass(4_000);
    actor.send({ type: 'user.submit', password: 'wrong' });
    await pass(0);
    expect(selectModalOpen(actor.getSnapshot())).toBe(true);
    expect(selectPasswordError(actor.getSnapshot())).toBe('Incorrect password.');
    actor.send({ type: 'user.submit', password: 'Harbour-Lights-2026' });
    expect(selectPasswordError(actor.getSnapshot())).toBeNull();
    await pass(0);
    expect(selectModalOpen(actor.getSnapshot())).toBe(false);
  });

  it('keeps an unexpected failure on the field and the modal open', async () => {
    const failure = Object.assign(new Error('x'), { body: { message: 'The service is unavailable.' } });
    const { actor } = start({ cookie: [false], reenter: [failure] });
    await pass(4_000);
    actor.send({ type: 'user.submit', password: 'Harbour-Lights-2026' });
    await pass(0);
    expect(selectModalOpen(actor.getSnapshot())).toBe(true);
    expect(selectPasswordError(actor.getSnapshot())).toBe('The service is unavailable.');
  });

  it('polls the server from 8 s after opening, every 2 s, and closes when it says not expired', async () => {
    const { actor, calls } = start({ cookie: [false], expired: [true, new Error('offline'), false] });
    await pass(4_000);
    await pass(7_999);
    expect(calls.polls).toBe(0);
    await pass(1);
    expect(calls.polls).toBe(1);
    expect(selectModalOpen(actor.getSnapshot())).toBe(true);
    await pass(2_000);
    expect(calls.polls).toBe(2);
    expect(selectModalOpen(actor.getSnapshot())).toBe(true);
    await pass(2_000);
    expect(calls.polls).toBe(3);
    expect(selectModalOpen(actor.getSnapshot())).toBe(false);
    await pass(10_000);
    expect(calls.polls).toBe(3);
  });

  it("Sign out runs the shell's sign-out and stops watching", async () => {
    const { actor, calls } = start({ cookie: [false] });
    await pass(4_000);
    actor.send({ type: 'user.signOut' });
    expect(calls.signOuts).toBe(1);
    expect(actor.getSnapshot().status).toBe('done');
    await pass(20_000);
    expect(calls.checks).toBe(1);
    expect(calls.polls).toBe(0);
  });

  it('opens the modal when the cookie cannot be read', async () => {
    const machine = reenterPasswordMachine.provide({
      actors: { hasRecentAuthentication: fromPromise<boolean>(async () => Promise.reject(new Error('no'))) },
    });
    const actor = createActor(machine).start();
    await pass(4_000);
    expect(selectModalOpen(actor.getSnapshot())).toBe(true);
  });
});
