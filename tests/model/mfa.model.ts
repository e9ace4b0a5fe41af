// The MFA machine as a test model: the events the graph explores, with fixture payloads for every
// user event and every actor outcome, and the addresses (scenarios) the page is opened at.
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { mfaMachine } from '../../machines/forced/mfa/mfa.machine';
import type {
  ContinueSignInOutput,
  MfaEvent,
  MfaInput,
  MfaNext,
  OutcomeResult,
  ResendResult,
  TrustedDevicePeriod,
} from '../../machines/forced/mfa/mfa.types';
import { FORCED_ACTION_ROUTES, MFA_ROUTE } from '../../machines/routes';
import {
  continuations,
  mfaNexts,
  outcomes,
  resends,
  SMS_UNAVAILABLE,
  WRONG_CODE,
} from '../machines/continue-sign-in.fixtures';
import { coveringPaths } from './harness/paths';

export type MfaSnapshot = SnapshotFrom<typeof mfaMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

export type MfaModelEvent =
  | MfaEvent
  | Done<'getTrustedDevicePeriod', TrustedDevicePeriod>
  | Failed<'getTrustedDevicePeriod'>
  | Done<'startMfa', MfaNext>
  | Failed<'startMfa'>
  | Done<'skipMfa', MfaNext>
  | Failed<'skipMfa'>
  | Done<'verifyCode', OutcomeResult>
  | Failed<'verifyCode'>
  | Done<'resendCode', ResendResult>
  | Failed<'resendCode'>
  | Done<'continueSignIn', ContinueSignInOutput>
  | Failed<'continueSignIn'>;
export type MfaModelEventType = MfaModelEvent['type'];
type EventOf<T extends MfaModelEventType> = Extract<MfaModelEvent, { type: T }>;

const done = <Id extends string, Output>(id: Id, output: Output) =>
  ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as Done<Id, Output>;
const failed = <Id extends string>(id: Id, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(message), actorId: id }) as Failed<Id>;

export const UNEXPECTED_FAILURE = 'The server could not be reached.';
export const CODE = '123456';

export const mfaEventFixtures = {
  'user.verify': () => [{ type: 'user.verify', code: CODE, trustDevice: true }],
  'user.skip': () => [{ type: 'user.skip' }],
  'user.resend': () => [{ type: 'user.resend' }],
  'xstate.done.actor.getTrustedDevicePeriod': () => [done('getTrustedDevicePeriod', 7 as const)],
  'xstate.error.actor.getTrustedDevicePeriod': () => [failed('getTrustedDevicePeriod', UNEXPECTED_FAILURE)],
  'xstate.done.actor.startMfa': () => [
    done('startMfa', mfaNexts.authenticatorApp),
    done('startMfa', mfaNexts.sms),
    done('startMfa', mfaNexts.emailBecauseSmsIsDown),
    done('startMfa', mfaNexts.none),
  ],
  'xstate.error.actor.startMfa': () => [failed('startMfa', UNEXPECTED_FAILURE)],
  'xstate.done.actor.skipMfa': () => [
    done('skipMfa', mfaNexts.sms),
    done('skipMfa', mfaNexts.email),
    done('skipMfa', mfaNexts.none),
  ],
  'xstate.error.actor.skipMfa': () => [failed('skipMfa', UNEXPECTED_FAILURE)],
  'xstate.done.actor.verifyCode': () => [
    done('verifyCode', WRONG_CODE),
    done('verifyCode', { type: 'outcome', outcome: outcomes.directLogin }),
  ],
  'xstate.error.actor.verifyCode': () => [failed('verifyCode', UNEXPECTED_FAILURE)],
  'xstate.done.actor.resendCode': () => [
    done('resendCode', resends.sent),
    done('resendCode', resends.refused),
    done('resendCode', resends.unavailable),
  ],
  'xstate.error.actor.resendCode': () => [failed('resendCode', UNEXPECTED_FAILURE)],
  'xstate.done.actor.continueSignIn': () => [
    done('continueSignIn', continuations.signedIn),
    done('continueSignIn', {
      kind: 'forcedAction',
      route: FORCED_ACTION_ROUTES.SELECT_FACILITY,
      currentUser: continuations.forwardedToMfa.currentUser,
      smsUnavailableMessage: null,
    }),
    done('continueSignIn', continuations.failed),
  ],
  'xstate.error.actor.continueSignIn': () => [failed('continueSignIn', UNEXPECTED_FAILURE)],
} satisfies { [T in MfaModelEventType]: (s: MfaSnapshot) => EventOf<T>[] };

export function mfaEvents(snapshot: MfaSnapshot): MfaEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  return [...types].flatMap((type) => {
    const fixtures = mfaEventFixtures[type as MfaModelEventType] as
      ((s: MfaSnapshot) => MfaModelEvent[]) | undefined;
    if (!fixtures) throw new Error(`No fixtures for the event '${type}'.`);
    return fixtures(snapshot);
  }) as MfaEvent[];
}

/**
 * Graph nodes: the state and what of the context decides the screen (the factor, and whether a
 * refusal, a refused resend, an SMS-unavailable message or a failure shows): other differences
 * would only multiply paths through the same screens.
 */
export const projectMfaContext = (s: MfaSnapshot) => ({
  factor: s.context.factor,
  refused: s.context.refusal !== null,
  resendRefused: s.context.resendRefusal !== null,
  smsUnavailable: s.context.smsUnavailableMessage !== null,
  noOtherFactor: s.context.noOtherFactor,
  failed: s.context.errorMessage,
  handover: s.context.handover?.kind ?? null,
});

const serializeState = (s: MfaSnapshot) => JSON.stringify({ value: s.value, ...projectMfaContext(s) });

export interface MfaScenario {
  name: string;
  entry: string;
  entryState: { smsUnavailableMessage: string } | null;
  input: MfaInput;
  toState?: (s: MfaSnapshot) => boolean;
}

const landing = { targetPath: null, adminTargetPath: null };

export const mfaScenarios: MfaScenario[] = [
  {
    name: 'opened without a factor',
    entry: MFA_ROUTE,
    entryState: null,
    input: { factor: null, smsUnavailableMessage: null, ...landing },
  },
  {
    name: 'opened at the email screen with the SMS-unavailable message',
    entry: FORCED_ACTION_ROUTES.MFA_EMAIL,
    entryState: { smsUnavailableMessage: SMS_UNAVAILABLE },
    input: { factor: 'EMAIL', smsUnavailableMessage: SMS_UNAVAILABLE, ...landing },
    toState: (s) => s.matches({ email: 'form' }),
  },
];

export function describeMfaEvent(event: MfaModelEvent): string {
  switch (event.type) {
    case 'user.verify':
      return `verify${event.trustDevice ? ' trusting the device' : ''}`;
    case 'xstate.done.actor.getTrustedDevicePeriod':
      return `period ${event.output}`;
    case 'xstate.done.actor.startMfa':
    case 'xstate.done.actor.skipMfa':
      return `${event.type === 'xstate.done.actor.startMfa' ? 'start' : 'skip'}: next ${event.output.nextFactor}`;
    case 'xstate.done.actor.verifyCode':
      return event.output.type === 'refused' ? 'code refused' : 'code accepted';
    case 'xstate.done.actor.resendCode':
      return `resend ${event.output.type}`;
    case 'xstate.done.actor.continueSignIn':
      return `continued ${event.output.kind}`;
    default:
      return event.type.replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails').replace(/^user\./, '');
  }
}

export const mfaPaths = () => {
  const model = new TestModel(mfaMachine, {
    events: mfaEvents,
    serializeState,
    stateMatcher: (s, key) => s.matches(key as never),
  });
  return mfaScenarios.flatMap((scenario) =>
    coveringPaths(model, mfaMachine, {
      input: scenario.input,
      events: mfaEvents,
      serializeState,
      describeEvent: (e) => describeMfaEvent(e as MfaModelEvent),
      ...(scenario.toState ? { toState: scenario.toState } : {}),
    }).map((path) => ({ scenario, path })),
  );
};
