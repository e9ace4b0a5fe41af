// The change-expired-password machine as a test model: the events the graph explores, with fixture
// payloads for every user event and every actor outcome.
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { changeExpiredPasswordMachine } from '../../machines/forced/change-expired-password/change-expired-password.machine';
import type {
  ChangeExpiredPasswordEvent,
  ChangeExpiredPasswordInput,
  ContinueSignInOutput,
  OutcomeResult,
} from '../../machines/forced/change-expired-password/change-expired-password.types';
import { continuations, outcomes, PASSWORD_POLICY_REFUSAL } from '../machines/continue-sign-in.fixtures';
import { coveringPaths } from './harness/paths';

export type ChangeExpiredPasswordSnapshot = SnapshotFrom<typeof changeExpiredPasswordMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

export type ChangeExpiredPasswordModelEvent =
  | ChangeExpiredPasswordEvent
  | Done<'changeExpiredPassword', OutcomeResult>
  | Failed<'changeExpiredPassword'>
  | Done<'continueSignIn', ContinueSignInOutput>
  | Failed<'continueSignIn'>
  | Done<'logout', null>
  | Failed<'logout'>;

export type ChangeExpiredPasswordModelEventType = ChangeExpiredPasswordModelEvent['type'];
type EventOf<T extends ChangeExpiredPasswordModelEventType> = Extract<
  ChangeExpiredPasswordModelEvent,
  { type: T }
>;

export const done = <Id extends string, Output>(id: Id, output: Output) =>
  ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as Done<Id, Output>;
export const failed = <Id extends string>(id: Id, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(message), actorId: id }) as Failed<Id>;

/** The server's message when a call fails unexpectedly. */
export const UNEXPECTED_FAILURE = 'The server could not be reached.';
export const NEW_PASSWORD = 'Quiet-Harbour-2027';

export const changeExpiredPasswordInput: ChangeExpiredPasswordInput = {
  targetPath: '/profile',
  adminTargetPath: null,
};

export const changeExpiredPasswordEventFixtures = {
  'user.submit': () => [{ type: 'user.submit', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }],
  'user.cancel': () => [{ type: 'user.cancel' }],
  'xstate.done.actor.changeExpiredPassword': (s) =>
    s.context.refusal
      ? [done('changeExpiredPassword', { type: 'outcome', outcome: outcomes.directLogin })]
      : [
          done('changeExpiredPassword', PASSWORD_POLICY_REFUSAL),
          done('changeExpiredPassword', { type: 'outcome', outcome: outcomes.mfa }),
        ],
  'xstate.error.actor.changeExpiredPassword': () => [failed('changeExpiredPassword', UNEXPECTED_FAILURE)],
  'xstate.done.actor.continueSignIn': () => [
    done('continueSignIn', continuations.forwardedToMfa),
    done('continueSignIn', continuations.signedIn),
    done('continueSignIn', continuations.failed),
  ],
  'xstate.error.actor.continueSignIn': () => [failed('continueSignIn', UNEXPECTED_FAILURE)],
  'xstate.done.actor.logout': () => [done('logout', null)],
  'xstate.error.actor.logout': () => [failed('logout', UNEXPECTED_FAILURE)],
} satisfies {
  [T in ChangeExpiredPasswordModelEventType]: (s: ChangeExpiredPasswordSnapshot) => EventOf<T>[];
};

export function changeExpiredPasswordEvents(
  snapshot: ChangeExpiredPasswordSnapshot,
): ChangeExpiredPasswordEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  return [...types].flatMap((type) => {
    const fixtures = changeExpiredPasswordEventFixtures[type as ChangeExpiredPasswordModelEventType] as
      ((s: ChangeExpiredPasswordSnapshot) => ChangeExpiredPasswordModelEvent[]) | undefined;
    if (!fixtures) throw new Error(`No fixtures for the event '${type}'.`);
    return fixtures(snapshot);
  }) as ChangeExpiredPasswordEvent[];
}

const serializeState = (s: ChangeExpiredPasswordSnapshot) =>
  JSON.stringify({ value: s.value, context: s.context });

export function describeChangeExpiredPasswordEvent(event: ChangeExpiredPasswordModelEvent): string {
  switch (event.type) {
    case 'xstate.done.actor.changeExpiredPassword':
      return event.output.type === 'refused' ? 'change refused' : `changed (${event.output.outcome.outcome})`;
    case 'xstate.done.actor.continueSignIn':
      return `continued ${event.output.kind}`;
    case 'xstate.done.actor.logout':
      return 'logged out';
    default:
      return event.type.replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails').replace(/^user\./, '');
  }
}

export const changeExpiredPasswordPaths = () =>
  coveringPaths(
    new TestModel(changeExpiredPasswordMachine, {
      events: changeExpiredPasswordEvents,
      serializeState,
      stateMatcher: (s, key) => s.matches(key as never),
    }),
    changeExpiredPasswordMachine,
    {
      input: changeExpiredPasswordInput,
      events: changeExpiredPasswordEvents,
      serializeState,
      describeEvent: (e) => describeChangeExpiredPasswordEvent(e as ChangeExpiredPasswordModelEvent),
    },
  );
