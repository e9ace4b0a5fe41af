// The idle warning as a test model: its two delays are events the graph explores like any other,
// each performed by moving a simulated clock by the delay the state computed; an answer's time
// left (session.seen), the dialog's two buttons and the session check's answers complete it.
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import {
  idleWarningMachine,
  WARNING_LEAD_MS,
} from '../../machines/session/idle-warning/idle-warning.machine';
import type { IdleWarningEvent, SessionCheck } from '../../machines/session/idle-warning/idle-warning.types';
import { coveringPaths } from './harness/paths';

export type IdleWarningSnapshot = SnapshotFrom<typeof idleWarningMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

export const AFTER = {
  UNTIL_WARNING: 'xstate.after.UNTIL_WARNING.idleWarning.counting',
  UNTIL_END: 'xstate.after.UNTIL_END.idleWarning.warning',
} as const;

type After = { [K in keyof typeof AFTER]: { type: (typeof AFTER)[K] } }[keyof typeof AFTER];

export type IdleWarningModelEvent =
  IdleWarningEvent | After | Done<'checkSession', SessionCheck> | Failed<'checkSession'>;
export type IdleWarningModelEventType = IdleWarningModelEvent['type'];
type EventOf<T extends IdleWarningModelEventType> = Extract<IdleWarningModelEvent, { type: T }>;

const done = <Id extends string, Output>(id: Id, output: Output) =>
  ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as Done<Id, Output>;
const failed = <Id extends string>(id: Id, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(message), actorId: id }) as Failed<Id>;

export const UNEXPECTED_FAILURE = 'The server could not be reached.';
/** A session just used (30 minutes left) and one used elsewhere a while ago (a minute left). */
export const FULL_MS = 30 * 60_000;
export const NEARLY_OVER_MS = 60_000;

/** The clock time a delayed event needs from the state the path is in. */
export function delayOf(type: string, s: IdleWarningSnapshot): number {
  const left = s.context.expiresInMs ?? 0;
  if (type === AFTER.UNTIL_WARNING) return Math.max(0, left - WARNING_LEAD_MS);
  if (type === AFTER.UNTIL_END) return Math.max(0, Math.min(left, WARNING_LEAD_MS));
  throw new Error(`${type} is not a delayed event of the idle warning`);
}

export const idleWarningEventFixtures = {
  [AFTER.UNTIL_WARNING]: () => [{ type: AFTER.UNTIL_WARNING }],
  [AFTER.UNTIL_END]: () => [{ type: AFTER.UNTIL_END }],
  'session.seen': () => [
    { type: 'session.seen', expiresInMs: FULL_MS },
    { type: 'session.seen', expiresInMs: NEARLY_OVER_MS },
  ],
  'user.staySignedIn': () => [{ type: 'user.staySignedIn' }],
  'user.signOut': () => [{ type: 'user.signOut' }],
  'xstate.done.actor.checkSession': () => [
    done('checkSession', { alive: true, expiresInMs: FULL_MS }),
    done('checkSession', { alive: true, expiresInMs: null }),
    done('checkSession', { alive: false, expiresInMs: null }),
  ],
  'xstate.error.actor.checkSession': () => [failed('checkSession', UNEXPECTED_FAILURE)],
} satisfies { [T in IdleWarningModelEventType]: (s: IdleWarningSnapshot) => EventOf<T>[] };

export function idleWarningEvents(snapshot: IdleWarningSnapshot): IdleWarningEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  return [...types].flatMap((type) => {
    const fixtures = idleWarningEventFixtures[type as IdleWarningModelEventType] as
      ((s: IdleWarningSnapshot) => IdleWarningModelEvent[]) | undefined;
    if (!fixtures) throw new Error(`No fixtures for the event '${type}'.`);
    return fixtures(snapshot);
  }) as IdleWarningEvent[];
}

const serializeState = (s: IdleWarningSnapshot) => JSON.stringify({ value: s.value, context: s.context });

export function describeIdleWarningEvent(event: IdleWarningModelEvent): string {
  switch (event.type) {
    case AFTER.UNTIL_WARNING:
      return 'until 2 min before the end';
    case AFTER.UNTIL_END:
      return 'until the end';
    case 'session.seen':
      return `an answer: ${event.expiresInMs / 60_000} min left`;
    case 'xstate.done.actor.checkSession':
      return event.output.alive
        ? `session alive${event.output.expiresInMs === null ? ', time left not said' : ''}`
        : 'session ended';
    default:
      return event.type.replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails').replace(/^user\./, '');
  }
}

export const idleWarningPaths = () =>
  coveringPaths(
    new TestModel(idleWarningMachine, {
      events: idleWarningEvents,
      serializeState,
      stateMatcher: (s, key) => s.matches(key as never),
    }),
    idleWarningMachine,
    {
      input: undefined,
      events: idleWarningEvents,
      serializeState,
      describeEvent: (e) => describeIdleWarningEvent(e as IdleWarningModelEvent),
    },
  );
