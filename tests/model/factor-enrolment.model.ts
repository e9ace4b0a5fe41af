// The factor-enrolment machine as a test model: the events the graph explores, with fixture
// payloads for every user event and every actor outcome, and the addresses (scenarios) a reload
// resumes at.
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { factorEnrolmentMachine } from '../../machines/forced/factor-enrolment/factor-enrolment.machine';
import type {
  CodeCheckResult,
  ContinueSignInOutput,
  EnrolmentFacts,
  EnrolSmsResult,
  FactorEnrolmentEvent,
  FactorEnrolmentInput,
  OutcomeResult,
  ResendResult,
} from '../../machines/forced/factor-enrolment/factor-enrolment.types';
import { FACTOR_ENROLMENT_STEPS, FORCED_ACTION_ROUTES } from '../../machines/routes';
import {
  continuations,
  enrolmentFacts,
  MOBILE,
  outcomes,
  resends,
  securityAnswers,
  WRONG_CODE,
} from '../machines/continue-sign-in.fixtures';
import { coveringPaths } from './harness/paths';

export type FactorEnrolmentSnapshot = SnapshotFrom<typeof factorEnrolmentMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

export type FactorEnrolmentModelEvent =
  | FactorEnrolmentEvent
  | Done<'loadEnrolment', EnrolmentFacts>
  | Failed<'loadEnrolment'>
  | Done<'verifyCode', CodeCheckResult>
  | Failed<'verifyCode'>
  | Done<'resendCode', ResendResult>
  | Failed<'resendCode'>
  | Done<'enrolSms', EnrolSmsResult>
  | Failed<'enrolSms'>
  | Done<'submitEnrolment', OutcomeResult>
  | Failed<'submitEnrolment'>
  | Done<'continueSignIn', ContinueSignInOutput>
  | Failed<'continueSignIn'>;
export type FactorEnrolmentModelEventType = FactorEnrolmentModelEvent['type'];
type EventOf<T extends FactorEnrolmentModelEventType> = Extract<FactorEnrolmentModelEvent, { type: T }>;

const done = <Id extends string, Output>(id: Id, output: Output) =>
  ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as Done<Id, Output>;
const failed = <Id extends string>(id: Id, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(message), actorId: id }) as Failed<Id>;

export const UNEXPECTED_FAILURE = 'The server could not be reached.';
export const GATEWAY_DOWN_MESSAGE = 'Our SMS provider is unavailable. Enrol your mobile later.';
export const TYPED_MOBILE = '0400 000 003';
export const BASE = FORCED_ACTION_ROUTES.FACTOR_ENROLMENT;
export const stepPath = (step: string) => (step === '' ? BASE : `${BASE}/${step}`);

export const factorEnrolmentEventFixtures = {
  'user.verify': (s) => [{ type: 'user.verify', code: s.matches('email') ? '482913' : '774411' }],
  'user.resend': () => [{ type: 'user.resend' }],
  'user.enrolSms': () => [{ type: 'user.enrolSms', mobile: TYPED_MOBILE }],
  'user.chooseEmail': () => [{ type: 'user.chooseEmail' }],
  'user.submit': () => [{ type: 'user.submit', ...securityAnswers }],
  'route.changed': () => [
    { type: 'route.changed', path: stepPath(FACTOR_ENROLMENT_STEPS.SELECT_SMS_FACTOR) },
  ],
  'xstate.done.actor.loadEnrolment': () => [
    done('loadEnrolment', enrolmentFacts.mfaRequired),
    done('loadEnrolment', enrolmentFacts.gatewayDown),
  ],
  'xstate.error.actor.loadEnrolment': () => [failed('loadEnrolment', UNEXPECTED_FAILURE)],
  'xstate.done.actor.verifyCode': () => [
    done('verifyCode', WRONG_CODE),
    done('verifyCode', { type: 'verified' }),
  ],
  'xstate.error.actor.verifyCode': () => [failed('verifyCode', UNEXPECTED_FAILURE)],
  'xstate.done.actor.resendCode': (s) =>
    s.matches('smsVerification')
      ? [
          done('resendCode', resends.sent),
          done('resendCode', resends.refused),
          done('resendCode', resends.unavailable),
        ]
      : [done('resendCode', resends.sent), done('resendCode', resends.refused)],
  'xstate.error.actor.resendCode': () => [failed('resendCode', UNEXPECTED_FAILURE)],
  'xstate.done.actor.enrolSms': () => [
    done('enrolSms', {
      type: 'refused',
      message: 'The mobile number is not valid.',
      fieldErrors: [{ fieldName: 'mobile', message: 'Enter a mobile number in international format.' }],
    }),
    done('enrolSms', { type: 'unavailable', message: GATEWAY_DOWN_MESSAGE }),
    done('enrolSms', { type: 'enrolled', mobile: MOBILE }),
  ],
  'xstate.error.actor.enrolSms': () => [failed('enrolSms', UNEXPECTED_FAILURE)],
  'xstate.done.actor.submitEnrolment': () => [
    done('submitEnrolment', {
      type: 'refused',
      message: 'Check your answers.',
      fieldErrors: [{ fieldName: 'answer2', message: 'Choose an answer that is harder to guess.' }],
    }),
    done('submitEnrolment', { type: 'outcome', outcome: outcomes.directLogin }),
  ],
  'xstate.error.actor.submitEnrolment': () => [failed('submitEnrolment', UNEXPECTED_FAILURE)],
  'xstate.done.actor.continueSignIn': () => [
    done('continueSignIn', continuations.signedIn),
    done('continueSignIn', continuations.forwardedToMfa),
    done('continueSignIn', continuations.failed),
  ],
  'xstate.error.actor.continueSignIn': () => [failed('continueSignIn', UNEXPECTED_FAILURE)],
} satisfies { [T in FactorEnrolmentModelEventType]: (s: FactorEnrolmentSnapshot) => EventOf<T>[] };

export function factorEnrolmentEvents(snapshot: FactorEnrolmentSnapshot): FactorEnrolmentEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  return [...types].flatMap((type) => {
    const fixtures = factorEnrolmentEventFixtures[type as FactorEnrolmentModelEventType] as
      ((s: FactorEnrolmentSnapshot) => FactorEnrolmentModelEvent[]) | undefined;
    if (!fixtures) throw new Error(`No fixtures for the event '${type}'.`);
    return fixtures(snapshot);
  }) as FactorEnrolmentEvent[];
}

/**
 * Graph nodes: the state and what of the context decides the screen (gateway, refusals, the
 * SMS-unavailable alert, a failure); other differences would only multiply paths.
 */
export const projectFactorEnrolmentContext = (s: FactorEnrolmentSnapshot) => ({
  gateway: s.context.isSmsGatewayAvailable,
  refused: s.context.refusal !== null,
  resendRefused: s.context.resendRefusal !== null,
  smsUnavailable: s.context.smsUnavailableMessage,
  failed: s.context.errorMessage,
  handover: s.context.handover?.kind ?? null,
});

const serializeState = (s: FactorEnrolmentSnapshot) =>
  JSON.stringify({ value: s.value, ...projectFactorEnrolmentContext(s) });

export interface FactorEnrolmentScenario {
  name: string;
  input: FactorEnrolmentInput;
  toState?: (s: FactorEnrolmentSnapshot) => boolean;
}

const landing = { targetPath: null, adminTargetPath: null };

export const factorEnrolmentScenarios: FactorEnrolmentScenario[] = [
  { name: 'from the start', input: { path: BASE, ...landing } },
  {
    name: 'reloaded at select-sms-factor',
    input: { path: stepPath(FACTOR_ENROLMENT_STEPS.SELECT_SMS_FACTOR), ...landing },
    toState: (s) => s.matches({ selectSms: 'form' }) || s.matches({ securityQuestions: 'form' }),
  },
  {
    name: 'reloaded at security-questions',
    input: { path: stepPath(FACTOR_ENROLMENT_STEPS.SECURITY_QUESTIONS), ...landing },
    toState: (s) => s.matches({ securityQuestions: 'form' }),
  },
];

export function describeFactorEnrolmentEvent(event: FactorEnrolmentModelEvent): string {
  switch (event.type) {
    case 'route.changed':
      return `address ${event.path.replace(BASE, '') || '/'}`;
    case 'xstate.done.actor.loadEnrolment':
      return event.output.isSmsGatewayAvailable ? 'loaded' : 'loaded, SMS gateway down';
    case 'xstate.done.actor.verifyCode':
    case 'xstate.done.actor.enrolSms':
    case 'xstate.done.actor.resendCode':
    case 'xstate.done.actor.submitEnrolment':
      return `${event.type.replace('xstate.done.actor.', '')} ${event.output.type}`;
    case 'xstate.done.actor.continueSignIn':
      return `continued ${event.output.kind}`;
    default:
      return event.type.replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails').replace(/^user\./, '');
  }
}

export const factorEnrolmentPaths = () => {
  const model = new TestModel(factorEnrolmentMachine, {
    events: factorEnrolmentEvents,
    serializeState,
    stateMatcher: (s, key) => s.matches(key as never),
  });
  return factorEnrolmentScenarios.flatMap((scenario) =>
    coveringPaths(model, factorEnrolmentMachine, {
      input: scenario.input,
      events: factorEnrolmentEvents,
      serializeState,
      describeEvent: (e) => describeFactorEnrolmentEvent(e as FactorEnrolmentModelEvent),
      ...(scenario.toState ? { toState: scenario.toState } : {}),
    }).map((path) => ({ scenario, path })),
  );
};
