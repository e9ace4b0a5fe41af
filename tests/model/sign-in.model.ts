// The sign-in machine as a test model: the events the graph explores, with fixture payloads for
// every user event and every actor outcome, and the inputs (scenarios) that reach every landing.
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { coveringPaths } from './harness/paths';
import { signInMachine } from '../../machines/sign-in/sign-in.machine';
import type {
  FailedAuthCount,
  LoginResult,
  MfaStart,
  SignInEvent,
  SignInInput,
} from '../../machines/sign-in/sign-in.types';
import type { CurrentUser } from '../../src/contract/entities';
import {
  counts,
  credentials,
  input,
  loginResults,
  mfaStarts,
  users,
} from '../machines/fixtures/sign-in.fixtures';

export type SignInSnapshot = SnapshotFrom<typeof signInMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

/** Every event the model sends: the machine's own and its actors' outcomes. */
export type SignInModelEvent =
  | SignInEvent
  | Done<'getFailedAuthCount', FailedAuthCount>
  | Failed<'getFailedAuthCount'>
  | Done<'login', LoginResult>
  | Failed<'login'>
  | Done<'getCurrentUser', CurrentUser>
  | Failed<'getCurrentUser'>
  | Done<'startMfa', MfaStart>
  | Failed<'startMfa'>;

export type SignInModelEventType = SignInModelEvent['type'];
type EventOf<T extends SignInModelEventType> = Extract<SignInModelEvent, { type: T }>;

const done = <Id extends string, Output>(id: Id, output: Output) =>
  ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as Done<Id, Output>;
const failed = <Id extends string>(id: Id, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(message), actorId: id }) as Failed<Id>;

/** The server's message when a call fails unexpectedly (shown by the failed view). */
export const UNEXPECTED_FAILURE = 'The server could not be reached.';

/**
 * Fixture payloads per event type. A new event type is a compile error here until it has some.
 * Each takes the snapshot, so a payload can follow what the user sees (the security code is typed
 * only when it is asked; a count read after a refusal is a later one).
 */
export const signInEventFixtures = {
  'user.submit': (s) => [
    {
      type: 'user.submit',
      ...credentials,
      captchaCode: s.context.securityCodeRequired ? 'X7KQ2' : null,
    },
  ],
  'user.refreshCaptcha': () => [{ type: 'user.refreshCaptcha' }],
  // The header's Sign in link: the only address change the page sees while it is mounted.
  'route.changed': () => [{ type: 'route.changed', path: '/' }],
  'xstate.done.actor.getFailedAuthCount': (s) =>
    s.matches('recheckingFailedCount')
      ? [
          done('getFailedAuthCount', counts.afterRefusal),
          done('getFailedAuthCount', counts.belowAfterRefusal),
        ]
      : [done('getFailedAuthCount', counts.none), done('getFailedAuthCount', counts.threshold)],
  'xstate.error.actor.getFailedAuthCount': () => [failed('getFailedAuthCount', UNEXPECTED_FAILURE)],
  'xstate.done.actor.login': (s) => {
    // With the security code: its own refusal, and a success to show the code is sent.
    if (s.context.securityCodeRequired) {
      return [done('login', loginResults.wrongSecurityCode), done('login', loginResults.directLogin)];
    }
    // After a refusal: refused again, or in.
    if (s.context.refusal !== null) {
      return [done('login', loginResults.wrongCredentials), done('login', loginResults.directLogin)];
    }
    // The first attempt: every answer the server can give.
    return [
      done('login', loginResults.wrongCredentials),
      done('login', loginResults.unavailable),
      done('login', loginResults.sessionExpired),
      done('login', loginResults.samlHandoff),
      done('login', loginResults.jwtHandoff),
      done('login', loginResults.jwtWithoutOrigin),
      done('login', loginResults.changeExpiredPassword),
      done('login', loginResults.factorEnrolment),
      done('login', loginResults.selectFacility),
      done('login', loginResults.duplicateAccounts),
      done('login', loginResults.mfa),
      done('login', loginResults.directLogin),
      done('login', loginResults.singleSignOn),
      done('login', loginResults.unknownOutcome),
    ];
  },
  'xstate.error.actor.login': () => [failed('login', UNEXPECTED_FAILURE)],
  'xstate.done.actor.getCurrentUser': (s) =>
    s.matches('forcedAction')
      ? [done('getCurrentUser', users.pending)]
      : [done('getCurrentUser', users.customer), done('getCurrentUser', users.auditor)],
  'xstate.error.actor.getCurrentUser': () => [failed('getCurrentUser', UNEXPECTED_FAILURE)],
  'xstate.done.actor.startMfa': () => [
    done('startMfa', mfaStarts.authenticatorApp),
    done('startMfa', mfaStarts.sms),
    done('startMfa', mfaStarts.emailBecauseSmsIsDown),
    done('startMfa', mfaStarts.none),
  ],
  'xstate.error.actor.startMfa': () => [failed('startMfa', UNEXPECTED_FAILURE)],
} satisfies { [T in SignInModelEventType]: (snapshot: SignInSnapshot) => EventOf<T>[] };

/** The event types the current state accepts, each with its fixtures. */
export function signInEvents(snapshot: SignInSnapshot): SignInEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  const events = [...types].flatMap((type) => {
    const fixtures = signInEventFixtures[type as SignInModelEventType] as
      ((s: SignInSnapshot) => SignInModelEvent[]) | undefined;
    if (!fixtures) throw new Error(`No fixtures for the event '${type}': add them to signInEventFixtures.`);
    return fixtures(snapshot);
  });
  // Actor outcomes are not in the machine's event union; the graph sends them all the same.
  return events as SignInEvent[];
}

export interface SignInScenario {
  name: string;
  input: SignInInput;
  /** Only paths ending in a state this accepts (all when absent). */
  toState?: (snapshot: SignInSnapshot) => boolean;
}

const landed = (s: SignInSnapshot) => s.matches('signedIn');

/**
 * The inputs: landing depends on the remembered paths, so each landing rule has its scenario; a JWT
 * is posted only inside the application's frame, and opened in a tab of its own is an error.
 */
export const signInScenarios: SignInScenario[] = [
  { name: 'nothing remembered', input },
  {
    name: "inside a JWT application's frame",
    input: { ...input, insideFrame: true },
    toState: (s) => s.matches('handingOffToParent'),
  },
  {
    name: 'target and admin target path remembered',
    input: { ...input, targetPath: '/profile/change-name', adminTargetPath: '/admin/apps' },
    toState: landed,
  },
  {
    name: 'admin target path remembered',
    input: { ...input, adminTargetPath: '/admin/apps' },
    toState: landed,
  },
];

/**
 * The context but for the number of the captcha image: each refresh and each count read after a
 * refusal would otherwise be a new graph node, without end. A refresh is then a transition to the
 * same node, which the covering paths still take; a node's snapshot can carry the number of another
 * way there, so the paths compare contexts without it too (and the page's image address instead).
 */
export const withoutCaptchaDraw = (context: SignInSnapshot['context'] | undefined) => {
  if (!context) return context;
  const { captchaDraw: _, ...rest } = context;
  return rest;
};

const serializeState = (snapshot: SignInSnapshot) =>
  // Graph nodes are state value plus context (no password is ever in context).
  JSON.stringify({ value: snapshot.value, context: withoutCaptchaDraw(snapshot.context) });

export const signInTestModel = () =>
  new TestModel(signInMachine, {
    events: signInEvents,
    serializeState,
    stateMatcher: (snapshot, key) => snapshot.matches(key as never),
  });

/** A short, readable name for an event of a path. */
export function describeSignInEvent(event: SignInModelEvent | SignInEvent): string {
  const e = event as SignInModelEvent;
  switch (e.type) {
    case 'user.submit':
      return e.captchaCode ? 'submit with security code' : 'submit';
    case 'user.refreshCaptcha':
      return 'refresh captcha';
    case 'route.changed':
      return `address ${e.path}`;
    case 'xstate.done.actor.getFailedAuthCount':
      return `count ${e.output.count}`;
    case 'xstate.done.actor.login': {
      const r = e.output;
      if (r.type !== 'outcome')
        return `login ${r.type}${r.type === 'refused' && r.fieldErrors.length ? ' (code)' : ''}`;
      const o = r.outcome;
      return `login ${o.outcome}${o.forcedAction ? ` ${o.forcedAction}` : ''}${o.isSingleSignOn ? ' SSO' : ''}${
        o.outcome === 'JWT' && !o.frameOrigin ? ' without origin' : ''
      }`;
    }
    case 'xstate.done.actor.getCurrentUser':
      return `user ${e.output.username}`;
    case 'xstate.done.actor.startMfa':
      return `MFA next ${e.output.nextFactor}`;
    default:
      return e.type.replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails');
  }
}

export const signInPaths = () => {
  const model = signInTestModel();
  return signInScenarios.flatMap((scenario) =>
    coveringPaths(model, signInMachine, {
      input: scenario.input,
      events: signInEvents,
      serializeState,
      describeEvent: describeSignInEvent,
      ...(scenario.toState ? { toState: scenario.toState } : {}),
    }).map((path) => ({ scenario, path })),
  );
};
