// Hand-pinned transitions of the forced select-facility machine (sections 2.6, 4.3 and 8).
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type SnapshotFrom } from 'xstate';
import {
  selectFacilityMachine,
  type SelectFacilityHandoffInput,
} from '../../machines/forced/select-facility/select-facility.machine';
import {
  selectBusyFacility,
  selectErrorMessage,
  selectFacilities,
  selectRefusal,
  selectSamlPost,
  selectView,
} from '../../machines/forced/select-facility/select-facility.select';
import type {
  SelectFacilityAppInput,
  SelectFacilityAppName,
  SelectFacilityEvent,
} from '../../machines/forced/select-facility/select-facility.types';
import type { HandoffAttempt } from '../../machines/handoff/handoff.types';
import { FORCED_ACTION_ROUTES } from '../../machines/routes';
import type { Facility } from '../../src/contract/entities';
import {
  attempts,
  facilities,
  ready,
  REFUSAL_MESSAGE,
  samlFor,
  targets,
  UNEXPECTED_FAILURE,
} from './fixtures/handoff.fixtures';

type Snapshot = SnapshotFrom<typeof selectFacilityMachine>;
type Answer<T> = T | Error | Promise<T>;

const answer = async <T>(next: Answer<T> | undefined, what: string): Promise<T> => {
  if (next === undefined) throw new Error(`No ${what} answer scripted`);
  if (next instanceof Error) throw next;
  return next;
};

const all = [facilities.f001, facilities.f002, facilities.f003];

/** GET apps/LOANS as the server answers it for a sign-in pending at this step. */
const loans: SelectFacilityAppName = { name: 'Loans' };

function start(script: {
  facilities?: Array<Answer<Facility[]>>;
  /** The app lookups' answers: the Loans app once by default. */
  apps?: Array<Answer<SelectFacilityAppName>>;
  handoffs?: Array<Answer<HandoffAttempt>>;
}) {
  const facilityQueue = [...(script.facilities ?? [])];
  const appQueue = [...(script.apps ?? [loans])];
  const handoffQueue = [...(script.handoffs ?? [])];
  const calls = {
    loads: 0,
    apps: [] as SelectFacilityAppInput[],
    handoffs: [] as SelectFacilityHandoffInput[],
  };
  const machine = selectFacilityMachine.provide({
    actors: {
      getFacilities: fromPromise<Facility[]>(() => {
        calls.loads += 1;
        return answer(facilityQueue.shift(), 'facilities');
      }),
      getApp: fromPromise<SelectFacilityAppName, SelectFacilityAppInput>(({ input }) => {
        calls.apps.push(input);
        return answer(appQueue.shift(), 'app');
      }),
      selectFacilityHandoff: fromPromise<HandoffAttempt, SelectFacilityHandoffInput>(({ input }) => {
        calls.handoffs.push(input);
        return answer(handoffQueue.shift(), 'handoff');
      }),
    },
  });
  const actor = createActor(machine);
  actor.start();
  return { actor, calls };
}

type Actor = ReturnType<typeof start>['actor'];
const until = (actor: Actor, state: string) => waitFor(actor, (s: Snapshot) => s.matches(state as never));

describe('select-facility machine', () => {
  it('lives at /forced-actions/select-facility in every state', () => {
    for (const node of Object.values(selectFacilityMachine.root.states)) {
      expect((node.meta as { route?: string }).route).toBe(FORCED_ACTION_ROUTES.SELECT_FACILITY);
    }
  });

  it('loads the facilities, looks up their app for its name, and lists them', async () => {
    const { actor, calls } = start({ facilities: [all], apps: [new Promise(() => {})] });
    expect(selectView(actor.getSnapshot())).toBe('loading');
    const naming = await until(actor, 'loadingApp');
    // The list waits for the name (a refusal told before it would have only the code).
    expect(selectView(naming)).toBe('loading');
    expect(calls.apps).toEqual([{ appCode: 'LOANS' }]);
    const { actor: listed, calls: listedCalls } = start({ facilities: [all] });
    const s = await until(listed, 'choosing');
    expect(listedCalls.loads).toBe(1);
    expect(listedCalls.apps).toEqual([{ appCode: 'LOANS' }]);
    expect(s.context.appName).toBe('Loans');
    expect(selectView(s)).toBe('choose');
    expect(selectFacilities(s)).toEqual(all);
  });

  it('a failed app lookup still lists the facilities, without a name', async () => {
    const { actor, calls } = start({ facilities: [all], apps: [new Error(UNEXPECTED_FAILURE)] });
    const s = await until(actor, 'choosing');
    expect(calls.apps).toEqual([{ appCode: 'LOANS' }]);
    expect(s.context.appName).toBeNull();
    expect(selectErrorMessage(s)).toBeNull();
    expect(selectFacilities(s)).toEqual(all);
  });

  it('a click on a listed facility hands off with its app and code, then posts the response', async () => {
    const { actor, calls } = start({ facilities: [all], handoffs: [ready(targets.loansF002)] });
    await until(actor, 'choosing');
    actor.send({ type: 'user.choose', facilityCode: 'F002' });
    expect(selectView(actor.getSnapshot())).toBe('choose');
    expect(selectBusyFacility(actor.getSnapshot())).toEqual(facilities.f002);
    const s = await until(actor, 'posting');
    expect(calls.handoffs).toEqual([{ appCode: 'LOANS', facilityCode: 'F002' }]);
    expect(selectView(s)).toBe('posting');
    expect(selectSamlPost(s)).toEqual(samlFor(targets.loansF002));
  });

  it('a facility that is not listed is ignored', async () => {
    const { actor, calls } = start({ facilities: [all] });
    await until(actor, 'choosing');
    actor.send({ type: 'user.choose', facilityCode: 'F999' });
    expect(actor.getSnapshot().value).toBe('choosing');
    expect(calls.handoffs).toEqual([]);
  });

  it('a refusal goes back to the list with the refusal; the next click forgets it', async () => {
    const { actor } = start({ facilities: [all], handoffs: [attempts.refused, ready(targets.loansF001)] });
    await until(actor, 'choosing');
    actor.send({ type: 'user.choose', facilityCode: 'F003' });
    await waitFor(actor, (s: Snapshot) => s.matches('choosing') && s.context.refusal !== null);
    // Section 8: the toast names the application by its name, as everywhere else.
    expect(selectRefusal(actor.getSnapshot())).toEqual({ appName: 'Loans', message: REFUSAL_MESSAGE });
    actor.send({ type: 'user.choose', facilityCode: 'F001' });
    expect(selectRefusal(actor.getSnapshot())).toBeNull();
    await until(actor, 'posting');
  });

  it('an answer section 8 handled goes back to the list without a refusal', async () => {
    const { actor } = start({ facilities: [all], handoffs: [attempts.handled] });
    await until(actor, 'choosing');
    actor.send({ type: 'user.choose', facilityCode: 'F001' });
    await waitFor(actor, (s: Snapshot) => s.matches('choosing') && s.context.facility !== null);
    expect(selectRefusal(actor.getSnapshot())).toBeNull();
  });

  it('an unexpected handoff failure is shown like a refusal', async () => {
    const { actor } = start({ facilities: [all], handoffs: [new Error(UNEXPECTED_FAILURE)] });
    await until(actor, 'choosing');
    actor.send({ type: 'user.choose', facilityCode: 'F001' });
    await waitFor(actor, (s: Snapshot) => s.matches('choosing') && s.context.refusal !== null);
    expect(selectRefusal(actor.getSnapshot())).toEqual({ appName: 'Loans', message: UNEXPECTED_FAILURE });
  });

  it('when the app lookup failed, a refusal names the app by its code', async () => {
    const { actor, calls } = start({
      facilities: [all],
      apps: [new Error(UNEXPECTED_FAILURE)],
      handoffs: [attempts.refused],
    });
    await until(actor, 'choosing');
    actor.send({ type: 'user.choose', facilityCode: 'F002' });
    await waitFor(actor, (s: Snapshot) => s.matches('choosing') && s.context.refusal !== null);
    expect(selectRefusal(actor.getSnapshot())).toEqual({ appName: 'LOANS', message: REFUSAL_MESSAGE });
    // Looked up once, with the list: a refusal does not ask again.
    expect(calls.apps).toHaveLength(1);
  });

  it('back from the application (page restored) lists the facilities again', async () => {
    const { actor } = start({ facilities: [all], handoffs: [ready(targets.loansF001)] });
    await until(actor, 'choosing');
    actor.send({ type: 'user.choose', facilityCode: 'F001' });
    await until(actor, 'posting');
    actor.send({ type: 'page.restored' });
    expect(actor.getSnapshot().value).toBe('choosing');
    expect(actor.getSnapshot().context.saml).toBeNull();
  });

  it('no facility offered: nothing to choose, and no app to look up', async () => {
    const { actor, calls } = start({ facilities: [[]] });
    expect(selectView(await until(actor, 'noFacilities'))).toBe('noFacilities');
    expect(calls.apps).toEqual([]);
  });

  it('a failed load shows the failure; Try again loads again', async () => {
    const { actor, calls } = start({ facilities: [new Error(UNEXPECTED_FAILURE), all] });
    const failed = await until(actor, 'failed');
    expect(selectView(failed)).toBe('failed');
    expect(selectErrorMessage(failed)).toBe(UNEXPECTED_FAILURE);
    actor.send({ type: 'user.retry' });
    expect(selectErrorMessage(actor.getSnapshot())).toBeNull();
    await until(actor, 'choosing');
    expect(calls.loads).toBe(2);
  });

  // Where each event is taken; a new event type is a compile error here until it is listed.
  const takenIn = {
    'user.choose': ['choosing'],
    'user.retry': ['failed'],
    'page.restored': ['posting'],
  } satisfies Record<SelectFacilityEvent['type'], string[]>;

  it('each event is taken only where the chart says', async () => {
    const events: Record<SelectFacilityEvent['type'], SelectFacilityEvent> = {
      'user.choose': { type: 'user.choose', facilityCode: 'F001' },
      'user.retry': { type: 'user.retry' },
      'page.restored': { type: 'page.restored' },
    };
    const reach: Record<string, () => Promise<Actor>> = {
      loadingApp: async () => {
        const { actor } = start({ facilities: [all], apps: [new Promise(() => {})] });
        await until(actor, 'loadingApp');
        return actor;
      },
      noFacilities: async () => {
        const { actor } = start({ facilities: [[]] });
        await until(actor, 'noFacilities');
        return actor;
      },
      failed: async () => {
        const { actor } = start({ facilities: [new Error(UNEXPECTED_FAILURE)] });
        await until(actor, 'failed');
        return actor;
      },
      handingOff: async () => {
        const { actor } = start({ facilities: [all], handoffs: [new Promise(() => {})] });
        await until(actor, 'choosing');
        actor.send({ type: 'user.choose', facilityCode: 'F002' });
        return actor;
      },
      posting: async () => {
        const { actor } = start({ facilities: [all], handoffs: [ready(targets.loansF002)] });
        await until(actor, 'choosing');
        actor.send({ type: 'user.choose', facilityCode: 'F002' });
        await until(actor, 'posting');
        return actor;
      },
    };
    for (const [type, takenStates] of Object.entries(takenIn) as [SelectFacilityEvent['type'], string[]][]) {
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
