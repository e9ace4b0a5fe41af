// The handoff machine as a test model: the events the graph explores, with fixture payloads for
// every user event and every actor outcome.
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { handoffMachine } from '../../machines/handoff/handoff.machine';
import type { HandoffAttempt, HandoffEvent } from '../../machines/handoff/handoff.types';
import { attempts, ready, targets, UNEXPECTED_FAILURE } from '../machines/fixtures/handoff.fixtures';
import { coveringPaths } from './harness/paths';

export type HandoffSnapshot = SnapshotFrom<typeof handoffMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

export type HandoffModelEvent = HandoffEvent | Done<'samlHandoff', HandoffAttempt> | Failed<'samlHandoff'>;
export type HandoffModelEventType = HandoffModelEvent['type'];
type EventOf<T extends HandoffModelEventType> = Extract<HandoffModelEvent, { type: T }>;

export const done = <Id extends string, Output>(id: Id, output: Output) =>
  ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as Done<Id, Output>;
export const failed = <Id extends string>(id: Id, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(message), actorId: id }) as Failed<Id>;

/** The accessible applications the page lists (a facility app twice, an app without facility). */
export const HANDOFF_APPS = [targets.loansF001, targets.loansF002, targets.payroll];

/** Fixture payloads per event type; a new event type is a compile error here until it has some. */
export const handoffEventFixtures = {
  'user.handoff': () => [
    { type: 'user.handoff', target: targets.loansF002 },
    { type: 'user.handoff', target: targets.payroll },
  ],
  'page.restored': () => [{ type: 'page.restored' }],
  'xstate.done.actor.samlHandoff': (s) => {
    const target = s.context.target ?? targets.payroll;
    return [
      done('samlHandoff', ready(target)),
      done('samlHandoff', attempts.refused),
      done('samlHandoff', attempts.handled),
    ];
  },
  'xstate.error.actor.samlHandoff': () => [failed('samlHandoff', UNEXPECTED_FAILURE)],
} satisfies { [T in HandoffModelEventType]: (snapshot: HandoffSnapshot) => EventOf<T>[] };

export function handoffEvents(snapshot: HandoffSnapshot): HandoffEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  const events = [...types].flatMap((type) => {
    const fixtures = handoffEventFixtures[type as HandoffModelEventType] as
      ((s: HandoffSnapshot) => HandoffModelEvent[]) | undefined;
    if (!fixtures) throw new Error(`No fixtures for the event '${type}': add them to handoffEventFixtures.`);
    return fixtures(snapshot);
  });
  return events as HandoffEvent[];
}

const serializeState = (snapshot: HandoffSnapshot) =>
  JSON.stringify({ value: snapshot.value, context: snapshot.context });

export function describeHandoffEvent(event: HandoffModelEvent | HandoffEvent): string {
  const e = event as HandoffModelEvent;
  switch (e.type) {
    case 'user.handoff':
      return `click ${e.target.appCode}${e.target.facilityCode ? ` ${e.target.facilityCode}` : ''}`;
    case 'page.restored':
      return 'back to the page';
    case 'xstate.done.actor.samlHandoff':
      return `handoff ${e.output.type}`;
    default:
      return 'handoff fails';
  }
}

export const handoffPaths = () =>
  coveringPaths(
    new TestModel(handoffMachine, {
      events: handoffEvents,
      serializeState,
      stateMatcher: (snapshot, key) => snapshot.matches(key as never),
    }),
    handoffMachine,
    { input: undefined, events: handoffEvents, serializeState, describeEvent: describeHandoffEvent },
  );
