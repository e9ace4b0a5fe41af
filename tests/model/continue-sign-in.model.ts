// The continue-sign-in machine as a test model: its input is the outcome a forced step answered, so
// each outcome (and each landing rule) is a scenario; the graph explores its actors' answers.
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { continueSignInMachine } from '../../machines/forced/continue-sign-in/continue-sign-in.machine';
import type {
  ContinueSignInInput,
  MfaStart,
} from '../../machines/forced/continue-sign-in/continue-sign-in.types';
import type { CurrentUser } from '../../src/contract/entities';
import { mfaNexts, noLanding, outcomes, users } from '../machines/continue-sign-in.fixtures';
import { coveringPaths } from './harness/paths';

export type ContinueSignInSnapshot = SnapshotFrom<typeof continueSignInMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

export type ContinueSignInModelEvent =
  | Done<'getCurrentUser', CurrentUser>
  | Failed<'getCurrentUser'>
  | Done<'startMfa', MfaStart>
  | Failed<'startMfa'>;
export type ContinueSignInModelEventType = ContinueSignInModelEvent['type'];
type EventOf<T extends ContinueSignInModelEventType> = Extract<ContinueSignInModelEvent, { type: T }>;

const done = <Id extends string, Output>(id: Id, output: Output) =>
  ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as Done<Id, Output>;
const failed = <Id extends string>(id: Id, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(message), actorId: id }) as Failed<Id>;

export const UNEXPECTED_FAILURE = 'The server could not be reached.';

export const continueSignInEventFixtures = {
  'xstate.done.actor.getCurrentUser': (s) =>
    s.matches('forcedAction')
      ? [done('getCurrentUser', users.pending)]
      : [done('getCurrentUser', users.customer), done('getCurrentUser', users.auditor)],
  'xstate.error.actor.getCurrentUser': () => [failed('getCurrentUser', UNEXPECTED_FAILURE)],
  'xstate.done.actor.startMfa': () => [
    done('startMfa', mfaNexts.authenticatorApp),
    done('startMfa', mfaNexts.emailBecauseSmsIsDown),
    done('startMfa', mfaNexts.none),
  ],
  'xstate.error.actor.startMfa': () => [failed('startMfa', UNEXPECTED_FAILURE)],
} satisfies { [T in ContinueSignInModelEventType]: (s: ContinueSignInSnapshot) => EventOf<T>[] };

export function continueSignInEvents(snapshot: ContinueSignInSnapshot): ContinueSignInModelEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  return [...types].flatMap((type) => {
    const fixtures = continueSignInEventFixtures[type as ContinueSignInModelEventType] as
      ((s: ContinueSignInSnapshot) => ContinueSignInModelEvent[]) | undefined;
    if (!fixtures) throw new Error(`No fixtures for the event '${type}'.`);
    return fixtures(snapshot);
  });
}

export interface ContinueSignInScenario {
  name: string;
  input: ContinueSignInInput;
  /** The app's guards for this scenario (the page outside any frame). */
  guards?: { isOutsideFrame: () => boolean };
}

const scenario = (
  name: string,
  outcome: ContinueSignInInput['outcome'],
  landing = {},
): ContinueSignInScenario => ({
  name,
  input: { outcome, ...noLanding, ...landing },
});

export const continueSignInScenarios: ContinueSignInScenario[] = [
  scenario('direct login', outcomes.directLogin),
  scenario('direct login with target paths', outcomes.directLogin, {
    targetPath: '/profile/change-name',
    adminTargetPath: '/admin/apps',
  }),
  scenario('direct login with an admin target path', outcomes.directLogin, {
    adminTargetPath: '/admin/apps',
  }),
  scenario('single sign-on without access', outcomes.singleSignOn),
  scenario('SAML handoff', outcomes.samlHandoff),
  scenario('JWT handoff', outcomes.jwtHandoff),
  scenario('JWT without origin', outcomes.jwtWithoutOrigin),
  {
    ...scenario('JWT handoff with the page in a tab of its own', outcomes.jwtHandoff),
    guards: { isOutsideFrame: () => true },
  },
  scenario('MFA next', outcomes.mfa),
  scenario('facility selection next', outcomes.selectFacility),
  scenario('unknown outcome', outcomes.unknown),
];

const serializeState = (s: ContinueSignInSnapshot) => JSON.stringify({ value: s.value, context: s.context });

export function describeContinueSignInEvent(event: ContinueSignInModelEvent): string {
  switch (event.type) {
    case 'xstate.done.actor.getCurrentUser':
      return `user ${event.output.username}${event.output.roles.length ? ` (${event.output.roles.join(', ')})` : ''}`;
    case 'xstate.done.actor.startMfa':
      return `MFA next ${event.output.nextFactor}`;
    default:
      return event.type.replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails');
  }
}

export const continueSignInPaths = () =>
  continueSignInScenarios.flatMap((scenario) => {
    const machine = scenario.guards
      ? continueSignInMachine.provide({ guards: scenario.guards })
      : continueSignInMachine;
    const model = new TestModel(machine, {
      events: continueSignInEvents,
      serializeState,
      stateMatcher: (s, key) => s.matches(key as never),
    });
    return coveringPaths(model, machine, {
      input: scenario.input,
      events: continueSignInEvents,
      serializeState,
      describeEvent: (e) => describeContinueSignInEvent(e as ContinueSignInModelEvent),
    }).map((path) => ({ scenario, path }));
  });
