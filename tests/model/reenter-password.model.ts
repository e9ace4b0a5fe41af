// The re-enter-password watcher as a test model: its delayed transitions are events the graph
// explores like any other (DESIGN.md's notes on the graph utilities), each performed by moving a
// simulated clock by the named delay; the actors' answers and the modal's two buttons complete it.
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import {
  REENTER_PASSWORD_DELAYS,
  reenterPasswordMachine,
} from '../../machines/session/reenter-password/reenter-password.machine';
import type {
  ReenterPasswordEvent,
  ReenterResult,
} from '../../machines/session/reenter-password/reenter-password.types';
import { coveringPaths } from './harness/paths';

export type ReenterPasswordSnapshot = SnapshotFrom<typeof reenterPasswordMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

export const AFTER = {
  CHECK_INTERVAL: 'xstate.after.CHECK_INTERVAL.reenterPassword.watching',
  POLL_DELAY: 'xstate.after.POLL_DELAY.reenterPassword.prompting.server.delaying',
  POLL_INTERVAL: 'xstate.after.POLL_INTERVAL.reenterPassword.prompting.server.waiting',
} as const satisfies Record<keyof typeof REENTER_PASSWORD_DELAYS, string>;

type After = { [K in keyof typeof AFTER]: { type: (typeof AFTER)[K] } }[keyof typeof AFTER];

export type ReenterPasswordModelEvent =
  | ReenterPasswordEvent
  | After
  | Done<'hasRecentAuthentication', boolean>
  | Failed<'hasRecentAuthentication'>
  | Done<'isPasswordExpired', boolean>
  | Failed<'isPasswordExpired'>
  | Done<'reenterPassword', ReenterResult>
  | Failed<'reenterPassword'>;
export type ReenterPasswordModelEventType = ReenterPasswordModelEvent['type'];
type EventOf<T extends ReenterPasswordModelEventType> = Extract<ReenterPasswordModelEvent, { type: T }>;

const done = <Id extends string, Output>(id: Id, output: Output) =>
  ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as Done<Id, Output>;
const failed = <Id extends string>(id: Id, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(message), actorId: id }) as Failed<Id>;

export const UNEXPECTED_FAILURE = 'The server could not be reached.';
export const PASSWORD = 'Harbour-Lights-2026';
export const WRONG_PASSWORD_MESSAGE = 'The password you entered is incorrect.';

/** The clock time each delayed event needs. */
export const delayOf = (type: string): number => {
  const name = (Object.keys(AFTER) as (keyof typeof AFTER)[]).find((key) => AFTER[key] === type);
  if (!name) throw new Error(`${type} is not a delayed event of the watcher`);
  return REENTER_PASSWORD_DELAYS[name];
};

export const reenterPasswordEventFixtures = {
  [AFTER.CHECK_INTERVAL]: () => [{ type: AFTER.CHECK_INTERVAL }],
  [AFTER.POLL_DELAY]: () => [{ type: AFTER.POLL_DELAY }],
  [AFTER.POLL_INTERVAL]: () => [{ type: AFTER.POLL_INTERVAL }],
  'user.submit': () => [{ type: 'user.submit', password: PASSWORD }],
  'user.signOut': () => [{ type: 'user.signOut' }],
  'password.required': () => [{ type: 'password.required' }],
  'xstate.done.actor.hasRecentAuthentication': () => [
    done('hasRecentAuthentication', true),
    done('hasRecentAuthentication', false),
  ],
  'xstate.error.actor.hasRecentAuthentication': () => [failed('hasRecentAuthentication', UNEXPECTED_FAILURE)],
  'xstate.done.actor.isPasswordExpired': () => [
    done('isPasswordExpired', true),
    done('isPasswordExpired', false),
  ],
  'xstate.error.actor.isPasswordExpired': () => [failed('isPasswordExpired', UNEXPECTED_FAILURE)],
  'xstate.done.actor.reenterPassword': () => [
    done('reenterPassword', { type: 'refused', message: WRONG_PASSWORD_MESSAGE }),
    done('reenterPassword', { type: 'accepted' }),
  ],
  'xstate.error.actor.reenterPassword': () => [failed('reenterPassword', UNEXPECTED_FAILURE)],
} satisfies { [T in ReenterPasswordModelEventType]: (s: ReenterPasswordSnapshot) => EventOf<T>[] };

export function reenterPasswordEvents(snapshot: ReenterPasswordSnapshot): ReenterPasswordEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  return [...types].flatMap((type) => {
    const fixtures = reenterPasswordEventFixtures[type as ReenterPasswordModelEventType] as
      ((s: ReenterPasswordSnapshot) => ReenterPasswordModelEvent[]) | undefined;
    if (!fixtures) throw new Error(`No fixtures for the event '${type}'.`);
    return fixtures(snapshot);
  }) as ReenterPasswordEvent[];
}

const serializeState = (s: ReenterPasswordSnapshot) => JSON.stringify({ value: s.value, context: s.context });

export function describeReenterPasswordEvent(event: ReenterPasswordModelEvent): string {
  switch (event.type) {
    case AFTER.CHECK_INTERVAL:
      return '4 s';
    case AFTER.POLL_DELAY:
      return '8 s';
    case AFTER.POLL_INTERVAL:
      return '2 s';
    case 'xstate.done.actor.hasRecentAuthentication':
      return event.output ? 'cookie present' : 'cookie missing';
    case 'xstate.done.actor.isPasswordExpired':
      return event.output ? 'still expired' : 'not expired';
    case 'xstate.done.actor.reenterPassword':
      return `password ${event.output.type}`;
    default:
      return event.type.replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails').replace(/^user\./, '');
  }
}

export const reenterPasswordPaths = () =>
  coveringPaths(
    new TestModel(reenterPasswordMachine, {
      events: reenterPasswordEvents,
      serializeState,
      stateMatcher: (s, key) => s.matches(key as never),
    }),
    reenterPasswordMachine,
    {
      input: undefined,
      events: reenterPasswordEvents,
      serializeState,
      describeEvent: (e) => describeReenterPasswordEvent(e as ReenterPasswordModelEvent),
    },
  );
