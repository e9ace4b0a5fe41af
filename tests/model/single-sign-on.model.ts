// The single-sign-on machine as a test model: the events the graph explores, with fixture payloads
// for every user event and every actor outcome (one target, several facilities, none).
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import type { HandoffAttempt } from '../../machines/handoff/handoff.types';
import { singleSignOnMachine } from '../../machines/single-sign-on/single-sign-on.machine';
import type {
  AppName,
  SingleSignOnEvent,
  SingleSignOnInput,
} from '../../machines/single-sign-on/single-sign-on.types';
import type { HandoffTarget } from '../../src/contract/entities';
import { attempts, ready, targets, UNEXPECTED_FAILURE } from '../machines/fixtures/handoff.fixtures';
import { done, failed } from './handoff.model';
import { coveringPaths } from './harness/paths';

export type SingleSignOnSnapshot = SnapshotFrom<typeof singleSignOnMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

export type SingleSignOnModelEvent =
  | SingleSignOnEvent
  | Done<'getHandoffTargets', HandoffTarget[]>
  | Failed<'getHandoffTargets'>
  | Done<'getApp', AppName>
  | Failed<'getApp'>
  | Done<'ssoSamlHandoff', HandoffAttempt>
  | Failed<'ssoSamlHandoff'>;
export type SingleSignOnModelEventType = SingleSignOnModelEvent['type'];
type EventOf<T extends SingleSignOnModelEventType> = Extract<SingleSignOnModelEvent, { type: T }>;

export const singleSignOnInput: SingleSignOnInput = { appCode: 'LOANS' };

/** The answers of handoff-targets: one facility, two facilities, none. */
export const targetLists = {
  one: [targets.loansF001],
  several: [targets.loansF001, targets.loansF002],
  none: [],
} satisfies Record<string, HandoffTarget[]>;

export const singleSignOnEventFixtures = {
  'user.confirm': () => [{ type: 'user.confirm' }],
  // The second facility of the list (the first is what a careless default would take).
  'user.choose': (s) => [{ type: 'user.choose', facilityCode: s.context.targets[1]?.facilityCode ?? null }],
  'user.cancel': () => [{ type: 'user.cancel' }],
  'user.retry': () => [{ type: 'user.retry' }],
  'page.restored': () => [{ type: 'page.restored' }],
  'xstate.done.actor.getHandoffTargets': () => [
    done('getHandoffTargets', targetLists.one),
    done('getHandoffTargets', targetLists.several),
    done('getHandoffTargets', targetLists.none),
  ],
  'xstate.error.actor.getHandoffTargets': () => [failed('getHandoffTargets', UNEXPECTED_FAILURE)],
  'xstate.done.actor.getApp': () => [done('getApp', { name: 'Loans' })],
  'xstate.error.actor.getApp': () => [failed('getApp', UNEXPECTED_FAILURE)],
  'xstate.done.actor.ssoSamlHandoff': (s) => [
    done('ssoSamlHandoff', ready(s.context.target ?? targets.loansF001)),
    done('ssoSamlHandoff', attempts.refused),
    done('ssoSamlHandoff', attempts.handled),
  ],
  'xstate.error.actor.ssoSamlHandoff': () => [failed('ssoSamlHandoff', UNEXPECTED_FAILURE)],
} satisfies { [T in SingleSignOnModelEventType]: (snapshot: SingleSignOnSnapshot) => EventOf<T>[] };

export function singleSignOnEvents(snapshot: SingleSignOnSnapshot): SingleSignOnEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  const events = [...types].flatMap((type) => {
    const fixtures = singleSignOnEventFixtures[type as SingleSignOnModelEventType] as
      ((s: SingleSignOnSnapshot) => SingleSignOnModelEvent[]) | undefined;
    if (!fixtures)
      throw new Error(`No fixtures for the event '${type}': add them to singleSignOnEventFixtures.`);
    return fixtures(snapshot);
  });
  return events as SingleSignOnEvent[];
}

const serializeState = (snapshot: SingleSignOnSnapshot) =>
  JSON.stringify({ value: snapshot.value, context: snapshot.context });

export function describeSingleSignOnEvent(event: SingleSignOnModelEvent | SingleSignOnEvent): string {
  const e = event as SingleSignOnModelEvent;
  switch (e.type) {
    case 'user.choose':
      return `choose ${e.facilityCode}`;
    case 'xstate.done.actor.getHandoffTargets':
      return `${e.output.length} target(s)`;
    case 'xstate.done.actor.getApp':
      return `app ${e.output.name}`;
    case 'xstate.done.actor.ssoSamlHandoff':
      return `handoff ${e.output.type}`;
    case 'page.restored':
      return 'back to the page';
    default:
      return e.type.replace(/^user\./, '').replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails');
  }
}

export const singleSignOnPaths = () =>
  coveringPaths(
    new TestModel(singleSignOnMachine, {
      events: singleSignOnEvents,
      serializeState,
      stateMatcher: (snapshot, key) => snapshot.matches(key as never),
    }),
    singleSignOnMachine,
    {
      input: singleSignOnInput,
      events: singleSignOnEvents,
      serializeState,
      describeEvent: describeSingleSignOnEvent,
    },
  );
