// Hand-pinned transitions of the handoff machine (sections 2.3 and 8), with fake actors.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type SnapshotFrom } from 'xstate';
import { handoffMachine } from '../../machines/handoff/handoff.machine';
import { selectBusyTarget, selectRefusal, selectSamlPost } from '../../machines/handoff/handoff.select';
import type {
  HandoffAttempt,
  HandoffCallInput,
  HandoffEvent,
  HandoffRefusal,
} from '../../machines/handoff/handoff.types';
import { HANDOFF_FAILED_MESSAGE } from '../../machines/handoff/handoff.attempt';
import {
  attempts,
  ready,
  REFUSAL_MESSAGE,
  samlFor,
  targets,
  UNEXPECTED_FAILURE,
} from './fixtures/handoff.fixtures';

type Snapshot = SnapshotFrom<typeof handoffMachine>;

/** Answers in order: an attempt, an Error to fail with, or a promise the test holds. */
function start(answers: Array<HandoffAttempt | Error | Promise<HandoffAttempt>>) {
  const queue = [...answers];
  const calls: HandoffCallInput[] = [];
  const announced: Array<HandoffRefusal | null> = [];
  const machine = handoffMachine.provide({
    actors: {
      samlHandoff: fromPromise<HandoffAttempt, HandoffCallInput>(async ({ input }) => {
        calls.push(input);
        const next = queue.shift();
        if (next === undefined) throw new Error('No handoff answer scripted');
        if (next instanceof Error) throw next;
        return next;
      }),
    },
    actions: {
      announceRefusal: (_, refusal) => {
        announced.push(refusal);
      },
    },
  });
  const actor = createActor(machine);
  actor.start();
  return { actor, calls, announced };
}

const settled = (actor: ReturnType<typeof start>['actor'], state: 'idle' | 'posting') =>
  waitFor(actor, (s: Snapshot) => s.matches(state));

describe('handoff machine', () => {
  it('starts idle with nothing under way', () => {
    const { actor } = start([]);
    const s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(selectBusyTarget(s)).toBeNull();
    expect(selectSamlPost(s)).toBeNull();
    expect(selectRefusal(s)).toBeNull();
  });

  it('a click asks for the handoff of that app and facility, then posts the response', async () => {
    const { actor, calls } = start([ready(targets.loansF002)]);
    actor.send({ type: 'user.handoff', target: targets.loansF002 });
    expect(actor.getSnapshot().value).toBe('handingOff');
    expect(selectBusyTarget(actor.getSnapshot())).toEqual(targets.loansF002);
    const s = await settled(actor, 'posting');
    expect(calls).toEqual([{ appCode: 'LOANS', facilityCode: 'F002' }]);
    expect(selectSamlPost(s)).toEqual(samlFor(targets.loansF002));
    expect(selectBusyTarget(s)).toEqual(targets.loansF002);
  });

  it('an app without facilities is asked for with facilityCode null', async () => {
    const { actor, calls } = start([ready(targets.payroll)]);
    actor.send({ type: 'user.handoff', target: targets.payroll });
    await settled(actor, 'posting');
    expect(calls).toEqual([{ appCode: 'PAYROLL', facilityCode: null }]);
  });

  it('a refusal goes back to idle and is announced with the app name and the server message', async () => {
    const { actor, announced } = start([attempts.refused]);
    actor.send({ type: 'user.handoff', target: targets.loansF001 });
    const s = await settled(actor, 'idle');
    const refusal = { appName: 'Loans', message: REFUSAL_MESSAGE };
    expect(selectRefusal(s)).toEqual(refusal);
    expect(announced).toEqual([refusal]);
    expect(selectSamlPost(s)).toBeNull();
  });

  it('an answer section 8 has handled goes back to idle without a toast of its own', async () => {
    const { actor, announced } = start([attempts.handled]);
    actor.send({ type: 'user.handoff', target: targets.loansF001 });
    const s = await settled(actor, 'idle');
    expect(announced).toEqual([]);
    expect(selectRefusal(s)).toBeNull();
  });

  it('an unexpected failure is announced like a refusal, with its message', async () => {
    const { actor, announced } = start([new Error(UNEXPECTED_FAILURE)]);
    actor.send({ type: 'user.handoff', target: targets.payroll });
    await settled(actor, 'idle');
    expect(announced).toEqual([{ appName: 'Payroll', message: UNEXPECTED_FAILURE }]);
  });

  it('a failure without a message says the handoff could not be completed', async () => {
    const { actor, announced } = start([new Error('')]);
    actor.send({ type: 'user.handoff', target: targets.payroll });
    await settled(actor, 'idle');
    expect(announced).toEqual([{ appName: 'Payroll', message: HANDOFF_FAILED_MESSAGE }]);
  });

  it('a second click while a handoff is under way is ignored', async () => {
    let release: (attempt: HandoffAttempt) => void = () => {};
    const held = new Promise<HandoffAttempt>((resolve) => (release = resolve));
    const { actor, calls } = start([held]);
    actor.send({ type: 'user.handoff', target: targets.loansF001 });
    actor.send({ type: 'user.handoff', target: targets.payroll });
    release(ready(targets.loansF001));
    const s = await settled(actor, 'posting');
    expect(calls).toEqual([{ appCode: 'LOANS', facilityCode: 'F001' }]);
    expect(selectBusyTarget(s)).toEqual(targets.loansF001);
    actor.send({ type: 'user.handoff', target: targets.payroll });
    expect(actor.getSnapshot().value).toBe('posting');
  });

  it('back from the application (page restored) is idle again, the spent response forgotten', async () => {
    const { actor } = start([ready(targets.loansF001), ready(targets.payroll)]);
    actor.send({ type: 'user.handoff', target: targets.loansF001 });
    await settled(actor, 'posting');
    actor.send({ type: 'page.restored' });
    const s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.context.saml).toBeNull();
    actor.send({ type: 'user.handoff', target: targets.payroll });
    expect(selectSamlPost(await settled(actor, 'posting'))).toEqual(samlFor(targets.payroll));
  });

  it('a new handoff forgets the last refusal', async () => {
    const { actor } = start([attempts.refused, ready(targets.payroll)]);
    actor.send({ type: 'user.handoff', target: targets.loansF001 });
    await settled(actor, 'idle');
    actor.send({ type: 'user.handoff', target: targets.payroll });
    expect(selectRefusal(actor.getSnapshot())).toBeNull();
  });

  // Where each event is taken; a new event type is a compile error here until it is listed.
  const takenIn = {
    'user.handoff': ['idle'],
    'page.restored': ['posting'],
  } satisfies Record<HandoffEvent['type'], Array<'idle' | 'handingOff' | 'posting'>>;

  it.each(Object.entries(takenIn))('%s is ignored outside %j', async (type, states) => {
    const held = new Promise<HandoffAttempt>(() => {});
    for (const state of ['idle', 'handingOff', 'posting'] as const) {
      if ((states as string[]).includes(state)) continue;
      const { actor } = start([state === 'handingOff' ? held : ready(targets.loansF001)]);
      if (state !== 'idle') actor.send({ type: 'user.handoff', target: targets.loansF001 });
      if (state === 'posting') await settled(actor, 'posting');
      const before = actor.getSnapshot();
      const event: HandoffEvent =
        type === 'user.handoff' ? { type, target: targets.payroll } : { type: 'page.restored' };
      actor.send(event);
      expect(actor.getSnapshot().value).toBe(before.value);
      expect(actor.getSnapshot().context).toEqual(before.context);
    }
  });
});
