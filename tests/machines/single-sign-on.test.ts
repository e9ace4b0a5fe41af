// Hand-pinned transitions of the single-sign-on machine (sections 2.1 and 8), with fake actors.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type SnapshotFrom } from 'xstate';
import type { HandoffAttempt, HandoffCallInput } from '../../machines/handoff/handoff.types';
import { singleSignOnMachine } from '../../machines/single-sign-on/single-sign-on.machine';
import {
  selectAppName,
  selectBusyTarget,
  selectErrorMessage,
  selectRefusal,
  selectSamlPost,
  selectView,
} from '../../machines/single-sign-on/single-sign-on.select';
import type {
  AppCodeInput,
  AppName,
  SingleSignOnEvent,
} from '../../machines/single-sign-on/single-sign-on.types';
import type { HandoffTarget } from '../../src/contract/entities';
import {
  attempts,
  ready,
  REFUSAL_MESSAGE,
  samlFor,
  targets,
  UNEXPECTED_FAILURE,
} from './fixtures/handoff.fixtures';

type Snapshot = SnapshotFrom<typeof singleSignOnMachine>;
type Answer<T> = T | Error | Promise<T>;

interface Script {
  appCode?: string;
  targets?: Array<Answer<HandoffTarget[]>>;
  app?: Answer<AppName>;
  handoffs?: Array<Answer<HandoffAttempt>>;
}

const answer = async <T>(next: Answer<T> | undefined, what: string): Promise<T> => {
  if (next === undefined) throw new Error(`No ${what} answer scripted`);
  if (next instanceof Error) throw next;
  return next;
};

function start(script: Script) {
  const targetQueue = [...(script.targets ?? [])];
  const handoffQueue = [...(script.handoffs ?? [])];
  const calls = {
    targets: [] as AppCodeInput[],
    apps: [] as AppCodeInput[],
    handoffs: [] as HandoffCallInput[],
  };
  const machine = singleSignOnMachine.provide({
    actors: {
      getHandoffTargets: fromPromise<HandoffTarget[], AppCodeInput>(({ input }) => {
        calls.targets.push(input);
        return answer(targetQueue.shift(), 'targets');
      }),
      getApp: fromPromise<AppName, AppCodeInput>(({ input }) => {
        calls.apps.push(input);
        return answer(script.app, 'app');
      }),
      ssoSamlHandoff: fromPromise<HandoffAttempt, HandoffCallInput>(({ input }) => {
        calls.handoffs.push(input);
        return answer(handoffQueue.shift(), 'handoff');
      }),
    },
  });
  const actor = createActor(machine, { input: { appCode: script.appCode ?? 'LOANS' } });
  actor.start();
  return { actor, calls };
}

type Actor = ReturnType<typeof start>['actor'];
const until = (actor: Actor, state: string) => waitFor(actor, (s: Snapshot) => s.matches(state as never));

describe('single-sign-on machine', () => {
  it('loads the targets of the context app', async () => {
    const { actor, calls } = start({ targets: [[targets.payroll]], appCode: 'PAYROLL' });
    expect(selectView(actor.getSnapshot())).toBe('loading');
    await until(actor, 'confirming');
    expect(calls.targets).toEqual([{ appCode: 'PAYROLL' }]);
    expect(calls.apps).toEqual([]);
  });

  it('one target: asks to confirm; Yes hands off to it and posts the response', async () => {
    const { actor, calls } = start({
      targets: [[targets.payroll]],
      appCode: 'PAYROLL',
      handoffs: [ready(targets.payroll)],
    });
    const asking = await until(actor, 'confirming');
    expect(selectView(asking)).toBe('confirm');
    expect(selectAppName(asking)).toBe('Payroll');
    actor.send({ type: 'user.confirm' });
    expect(selectView(actor.getSnapshot())).toBe('confirm');
    expect(selectBusyTarget(actor.getSnapshot())).toEqual(targets.payroll);
    const posting = await until(actor, 'posting');
    expect(calls.handoffs).toEqual([{ appCode: 'PAYROLL', facilityCode: null }]);
    expect(selectView(posting)).toBe('posting');
    expect(selectSamlPost(posting)).toEqual(samlFor(targets.payroll));
  });

  it('several facilities: asks which; a listed facility hands off to it', async () => {
    const { actor, calls } = start({
      targets: [[targets.loansF001, targets.loansF002]],
      handoffs: [ready(targets.loansF002)],
    });
    const asking = await until(actor, 'choosing');
    expect(selectView(asking)).toBe('choose');
    expect(selectAppName(asking)).toBe('Loans');
    actor.send({ type: 'user.choose', facilityCode: 'F999' });
    expect(actor.getSnapshot().value).toBe('choosing');
    actor.send({ type: 'user.choose', facilityCode: 'F002' });
    expect(selectView(actor.getSnapshot())).toBe('choose');
    expect(selectBusyTarget(actor.getSnapshot())).toEqual(targets.loansF002);
    await until(actor, 'posting');
    expect(calls.handoffs).toEqual([{ appCode: 'LOANS', facilityCode: 'F002' }]);
  });

  it('no target: loads the app for its name and says there is no access', async () => {
    const { actor, calls } = start({ targets: [[]], app: { name: 'Loans' } });
    const s = await until(actor, 'noAccess');
    expect(calls.apps).toEqual([{ appCode: 'LOANS' }]);
    expect(selectView(s)).toBe('noAccess');
    expect(selectAppName(s)).toBe('Loans');
  });

  it('Cancel, from the question, the list or no access, finishes with cancelled', async () => {
    for (const list of [[targets.payroll], [targets.loansF001, targets.loansF002], []]) {
      const { actor } = start({ targets: [list], app: { name: 'Loans' } });
      await waitFor(actor, (s: Snapshot) =>
        ['confirming', 'choosing', 'noAccess'].some((v) => s.matches(v as never)),
      );
      actor.send({ type: 'user.cancel' });
      expect(actor.getSnapshot().status).toBe('done');
      expect(actor.getSnapshot().output).toEqual({ kind: 'cancelled' });
    }
  });

  it('a refusal goes back to the question with the refusal to show, and the next attempt forgets it', async () => {
    const { actor } = start({
      targets: [[targets.loansF001, targets.loansF002]],
      handoffs: [attempts.refused, ready(targets.loansF001)],
    });
    await until(actor, 'choosing');
    actor.send({ type: 'user.choose', facilityCode: 'F002' });
    await waitFor(actor, (s: Snapshot) => s.matches('choosing') && s.context.refusal !== null);
    expect(selectRefusal(actor.getSnapshot())).toEqual({ appName: 'Loans', message: REFUSAL_MESSAGE });
    actor.send({ type: 'user.choose', facilityCode: 'F001' });
    expect(selectRefusal(actor.getSnapshot())).toBeNull();
    await until(actor, 'posting');
  });

  it('an answer section 8 handled goes back to the question without a refusal', async () => {
    const { actor } = start({ targets: [[targets.payroll]], handoffs: [attempts.handled] });
    await until(actor, 'confirming');
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s: Snapshot) => s.matches('confirming') && s.context.target !== null);
    expect(selectRefusal(actor.getSnapshot())).toBeNull();
  });

  it('an unexpected handoff failure is shown like a refusal', async () => {
    const { actor } = start({ targets: [[targets.payroll]], handoffs: [new Error(UNEXPECTED_FAILURE)] });
    await until(actor, 'confirming');
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s: Snapshot) => s.matches('confirming') && s.context.refusal !== null);
    expect(selectRefusal(actor.getSnapshot())).toEqual({ appName: 'Payroll', message: UNEXPECTED_FAILURE });
  });

  it('back from the application (page restored) asks again', async () => {
    const { actor } = start({ targets: [[targets.payroll]], handoffs: [ready(targets.payroll)] });
    await until(actor, 'confirming');
    actor.send({ type: 'user.confirm' });
    await until(actor, 'posting');
    actor.send({ type: 'page.restored' });
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context.saml).toBeNull();
  });

  it('a failed load shows the failure; Try again loads again', async () => {
    const { actor, calls } = start({ targets: [new Error(UNEXPECTED_FAILURE), [targets.payroll]] });
    const failed = await until(actor, 'failed');
    expect(selectView(failed)).toBe('failed');
    expect(selectErrorMessage(failed)).toBe(UNEXPECTED_FAILURE);
    actor.send({ type: 'user.retry' });
    expect(selectErrorMessage(actor.getSnapshot())).toBeNull();
    await until(actor, 'confirming');
    expect(calls.targets).toHaveLength(2);
  });

  it('a failed app load (no target) shows the failure too', async () => {
    const { actor } = start({ targets: [[]], app: new Error(UNEXPECTED_FAILURE) });
    expect(selectErrorMessage(await until(actor, 'failed'))).toBe(UNEXPECTED_FAILURE);
  });

  // Where each event is taken; a new event type is a compile error here until it is listed.
  const takenIn = {
    'user.confirm': ['confirming'],
    'user.choose': ['choosing'],
    'user.cancel': ['confirming', 'choosing', 'noAccess'],
    'user.retry': ['failed'],
    'page.restored': ['posting'],
  } satisfies Record<SingleSignOnEvent['type'], string[]>;

  it('each event is taken only where the chart says', async () => {
    const events: Record<SingleSignOnEvent['type'], SingleSignOnEvent> = {
      'user.confirm': { type: 'user.confirm' },
      'user.choose': { type: 'user.choose', facilityCode: 'F001' },
      'user.cancel': { type: 'user.cancel' },
      'user.retry': { type: 'user.retry' },
      'page.restored': { type: 'page.restored' },
    };
    const reach: Record<string, () => Promise<Actor>> = {
      confirming: async () => {
        const { actor } = start({ targets: [[targets.loansF001]] });
        await until(actor, 'confirming');
        return actor;
      },
      noAccess: async () => {
        const { actor } = start({ targets: [[]], app: { name: 'Loans' } });
        await until(actor, 'noAccess');
        return actor;
      },
      failed: async () => {
        const { actor } = start({ targets: [new Error(UNEXPECTED_FAILURE)] });
        await until(actor, 'failed');
        return actor;
      },
      handingOff: async () => {
        const { actor } = start({ targets: [[targets.loansF001]], handoffs: [new Promise(() => {})] });
        await until(actor, 'confirming');
        actor.send({ type: 'user.confirm' });
        return actor;
      },
      posting: async () => {
        const { actor } = start({ targets: [[targets.loansF001]], handoffs: [ready(targets.loansF001)] });
        await until(actor, 'confirming');
        actor.send({ type: 'user.confirm' });
        await until(actor, 'posting');
        return actor;
      },
    };
    for (const [type, takenStates] of Object.entries(takenIn) as [SingleSignOnEvent['type'], string[]][]) {
      for (const [state, reachState] of Object.entries(reach)) {
        if (takenStates.includes(state)) continue;
        const actor = await reachState();
        const before = actor.getSnapshot();
        actor.send(events[type]);
        expect(actor.getSnapshot().value, `${type} in ${state}`).toEqual(before.value);
      }
    }
  });
});
