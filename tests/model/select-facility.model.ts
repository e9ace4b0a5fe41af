// The forced select-facility machine as a test model: the events the graph explores, with fixture
// payloads for every user event and every actor outcome.
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { selectFacilityMachine } from '../../machines/forced/select-facility/select-facility.machine';
import type {
  SelectFacilityAppName,
  SelectFacilityEvent,
} from '../../machines/forced/select-facility/select-facility.types';
import type { HandoffAttempt } from '../../machines/handoff/handoff.types';
import type { Facility, HandoffTarget } from '../../src/contract/entities';
import { attempts, facilities, ready, UNEXPECTED_FAILURE } from '../machines/fixtures/handoff.fixtures';
import { done, failed } from './handoff.model';
import { coveringPaths } from './harness/paths';

export type SelectFacilitySnapshot = SnapshotFrom<typeof selectFacilityMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

export type SelectFacilityModelEvent =
  | SelectFacilityEvent
  | Done<'getFacilities', Facility[]>
  | Failed<'getFacilities'>
  | Done<'getApp', SelectFacilityAppName>
  | Failed<'getApp'>
  | Done<'selectFacilityHandoff', HandoffAttempt>
  | Failed<'selectFacilityHandoff'>;
export type SelectFacilityModelEventType = SelectFacilityModelEvent['type'];
type EventOf<T extends SelectFacilityModelEventType> = Extract<SelectFacilityModelEvent, { type: T }>;

export const FACILITY_LIST = [facilities.f001, facilities.f002, facilities.f003];

/** The name GET apps/LOANS answers: what section 8's handoff toast calls the facilities' app. */
export const APP_NAME = 'Loans';

/** The handoff target the server answers for a facility. */
export const targetOf = (facility: Facility): HandoffTarget => ({
  appName: 'Loans',
  appCode: facility.app.code,
  facilityCode: facility.code,
  facilityName: facility.name,
  facilityAliasOrCode: facility.aliasOrCode,
});

export const selectFacilityEventFixtures = {
  // The last facility of the list (the first is what a careless default would take).
  'user.choose': (s) => {
    const last = s.context.facilities.at(-1);
    return last ? [{ type: 'user.choose', facilityCode: last.code }] : [];
  },
  'user.retry': () => [{ type: 'user.retry' }],
  'page.restored': () => [{ type: 'page.restored' }],
  'xstate.done.actor.getFacilities': () => [done('getFacilities', FACILITY_LIST), done('getFacilities', [])],
  'xstate.error.actor.getFacilities': () => [failed('getFacilities', UNEXPECTED_FAILURE)],
  'xstate.done.actor.getApp': () => [done('getApp', { name: APP_NAME })],
  'xstate.error.actor.getApp': () => [failed('getApp', UNEXPECTED_FAILURE)],
  'xstate.done.actor.selectFacilityHandoff': (s) => [
    done('selectFacilityHandoff', ready(targetOf(s.context.facility ?? facilities.f001))),
    done('selectFacilityHandoff', attempts.refused),
    done('selectFacilityHandoff', attempts.handled),
  ],
  'xstate.error.actor.selectFacilityHandoff': () => [failed('selectFacilityHandoff', UNEXPECTED_FAILURE)],
} satisfies { [T in SelectFacilityModelEventType]: (snapshot: SelectFacilitySnapshot) => EventOf<T>[] };

export function selectFacilityEvents(snapshot: SelectFacilitySnapshot): SelectFacilityEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  const events = [...types].flatMap((type) => {
    const fixtures = selectFacilityEventFixtures[type as SelectFacilityModelEventType] as
      ((s: SelectFacilitySnapshot) => SelectFacilityModelEvent[]) | undefined;
    if (!fixtures)
      throw new Error(`No fixtures for the event '${type}': add them to selectFacilityEventFixtures.`);
    return fixtures(snapshot);
  });
  return events as SelectFacilityEvent[];
}

const serializeState = (snapshot: SelectFacilitySnapshot) =>
  JSON.stringify({ value: snapshot.value, context: snapshot.context });

export function describeSelectFacilityEvent(event: SelectFacilityModelEvent | SelectFacilityEvent): string {
  const e = event as SelectFacilityModelEvent;
  switch (e.type) {
    case 'user.choose':
      return `choose ${e.facilityCode}`;
    case 'xstate.done.actor.getFacilities':
      return `${e.output.length} facilities`;
    case 'xstate.done.actor.getApp':
      return `the app is ${e.output.name}`;
    case 'xstate.done.actor.selectFacilityHandoff':
      return `handoff ${e.output.type}`;
    case 'page.restored':
      return 'back to the page';
    default:
      return e.type.replace(/^user\./, '').replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails');
  }
}

export const selectFacilityPaths = () =>
  coveringPaths(
    new TestModel(selectFacilityMachine, {
      events: selectFacilityEvents,
      serializeState,
      stateMatcher: (snapshot, key) => snapshot.matches(key as never),
    }),
    selectFacilityMachine,
    {
      input: undefined,
      events: selectFacilityEvents,
      serializeState,
      describeEvent: describeSelectFacilityEvent,
    },
  );
