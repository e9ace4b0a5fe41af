// The password reset machine as a test model: the events the graph explores, with fixture payloads
// for every user event and every actor outcome. Fixtures depend on the state so the graph stays
// small: each account kind of section 4.5 is explored once, addresses are typed from set-password
// (every later step) and user-selection.
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { passwordResetMachine } from '../../machines/password-reset/password-reset.machine';
import type {
  CheckResult,
  DetailsResult,
  PasswordResetEvent,
  PasswordResetInput,
  ResendResult,
  ResetAvailability,
  StartResult,
  SubmitResult,
} from '../../machines/password-reset/password-reset.types';
import { PASSWORD_RESET_ROUTE, PASSWORD_RESET_STEPS } from '../../machines/routes';
import {
  ANSWERS,
  CAPTCHA,
  details,
  detailsKind,
  NEW_PASSWORD,
  QUESTIONS,
  refusals,
  RESET_EMAIL,
  sends,
} from '../machines/password-reset.fixtures';
import { coveringPaths } from './harness/paths';

export type PasswordResetSnapshot = SnapshotFrom<typeof passwordResetMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

export type PasswordResetModelEvent =
  | PasswordResetEvent
  | Done<'loadAvailability', ResetAvailability>
  | Failed<'loadAvailability'>
  | Done<'startReset', StartResult>
  | Failed<'startReset'>
  | Done<'verifyEmail', DetailsResult>
  | Failed<'verifyEmail'>
  | Done<'resendEmail', ResendResult>
  | Failed<'resendEmail'>
  | Done<'selectUser', DetailsResult>
  | Failed<'selectUser'>
  | Done<'verifyAuthenticatorApp', CheckResult>
  | Failed<'verifyAuthenticatorApp'>
  | Done<'sendSms', ResendResult>
  | Failed<'sendSms'>
  | Done<'verifySms', CheckResult>
  | Failed<'verifySms'>
  | Done<'verifySecurityQuestions', CheckResult>
  | Failed<'verifySecurityQuestions'>
  | Done<'submitPassword', SubmitResult>
  | Failed<'submitPassword'>;
export type PasswordResetModelEventType = PasswordResetModelEvent['type'];
type EventOf<T extends PasswordResetModelEventType> = Extract<PasswordResetModelEvent, { type: T }>;

const done = <Id extends string, Output>(id: Id, output: Output) =>
  ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as Done<Id, Output>;
const failed = <Id extends string>(id: Id, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(message), actorId: id }) as Failed<Id>;

export const UNEXPECTED_FAILURE = 'The server could not be reached.';
export const stepPath = (step: string) =>
  step === '' ? PASSWORD_RESET_ROUTE : `${PASSWORD_RESET_ROUTE}/${step}`;
export const CODES = { email: '482913', app: '774411', sms: '195302' } as const;

const S = PASSWORD_RESET_STEPS;
const detailsOf = (kind: keyof typeof details): DetailsResult => ({
  type: 'details',
  details: details[kind],
});
const checks = <Id extends 'verifyAuthenticatorApp' | 'verifySms' | 'verifySecurityQuestions'>(
  id: Id,
  refusal: CheckResult,
): Done<Id, CheckResult>[] => [done(id, refusal), done(id, { type: 'verified' } as CheckResult)];

export const passwordResetEventFixtures = {
  'user.start': () => [{ type: 'user.start', email: RESET_EMAIL, captchaCode: CAPTCHA }],
  'user.refreshCaptcha': () => [{ type: 'user.refreshCaptcha', timestamp: 1_770_000_000_000 }],
  'user.verify': (s) => [
    {
      type: 'user.verify',
      code: s.matches('emailVerification') ? CODES.email : s.matches('sms') ? CODES.sms : CODES.app,
    },
  ],
  'user.resend': () => [{ type: 'user.resend' }],
  'user.select': () => [{ type: 'user.select', username: 'C10007' }],
  'user.skip': () => [{ type: 'user.skip' }],
  'user.answer': () => [{ type: 'user.answer', answers: ANSWERS }],
  'user.submit': () => [{ type: 'user.submit', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }],
  'route.changed': (s) => {
    if (s.matches({ userSelection: 'form' }))
      return [{ type: 'route.changed', path: stepPath(S.USER_SELECTION) }];
    if (
      s.matches({ setPassword: 'form' }) &&
      detailsKind(s.context.details) === 'all' &&
      !s.context.refusal
    ) {
      return [
        S.START,
        S.EMAIL_VERIFICATION,
        S.AUTHENTICATOR_APP_VERIFICATION,
        S.SMS_VERIFICATION,
        S.SECURITY_QUESTION_VERIFICATION,
        S.SET_PASSWORD,
      ].map((step) => ({ type: 'route.changed' as const, path: stepPath(step) }));
    }
    return [];
  },
  'xstate.done.actor.loadAvailability': () => [
    done('loadAvailability', { authEnabled: true, questions: QUESTIONS }),
    done('loadAvailability', { authEnabled: false, questions: QUESTIONS }),
  ],
  'xstate.error.actor.loadAvailability': () => [failed('loadAvailability', UNEXPECTED_FAILURE)],
  'xstate.done.actor.startReset': () => [
    done('startReset', refusals.captcha),
    done('startReset', {
      type: 'unavailable',
      message: 'Reset password is currently unavailable.',
    } as StartResult),
    done('startReset', { type: 'started', email: RESET_EMAIL } as StartResult),
  ],
  'xstate.error.actor.startReset': () => [failed('startReset', UNEXPECTED_FAILURE)],
  'xstate.done.actor.verifyEmail': (s) =>
    s.context.details === null
      ? [
          done('verifyEmail', refusals.code),
          ...(
            [
              'all',
              'smsOnly',
              'smsOnlyDown',
              'appAndQuestions',
              'smsDownQuestions',
              'none',
              'shared',
            ] as const
          ).map((k) => done('verifyEmail', detailsOf(k))),
        ]
      : [done('verifyEmail', detailsOf('all'))],
  'xstate.error.actor.verifyEmail': () => [failed('verifyEmail', UNEXPECTED_FAILURE)],
  'xstate.done.actor.resendEmail': () => [
    done('resendEmail', sends.sent),
    done('resendEmail', sends.refused),
  ],
  'xstate.error.actor.resendEmail': () => [failed('resendEmail', UNEXPECTED_FAILURE)],
  'xstate.done.actor.selectUser': () => [
    done('selectUser', refusals.account),
    done('selectUser', detailsOf('sharedChosen')),
  ],
  'xstate.error.actor.selectUser': () => [failed('selectUser', UNEXPECTED_FAILURE)],
  'xstate.done.actor.verifyAuthenticatorApp': () => checks('verifyAuthenticatorApp', refusals.code),
  'xstate.error.actor.verifyAuthenticatorApp': () => [failed('verifyAuthenticatorApp', UNEXPECTED_FAILURE)],
  'xstate.done.actor.sendSms': () => [
    done('sendSms', sends.sent),
    done('sendSms', sends.refused),
    done('sendSms', sends.unavailable),
  ],
  'xstate.error.actor.sendSms': () => [failed('sendSms', UNEXPECTED_FAILURE)],
  'xstate.done.actor.verifySms': () => checks('verifySms', refusals.code),
  'xstate.error.actor.verifySms': () => [failed('verifySms', UNEXPECTED_FAILURE)],
  'xstate.done.actor.verifySecurityQuestions': () => checks('verifySecurityQuestions', refusals.answer),
  'xstate.error.actor.verifySecurityQuestions': () => [failed('verifySecurityQuestions', UNEXPECTED_FAILURE)],
  'xstate.done.actor.submitPassword': () => [
    done('submitPassword', refusals.password),
    done('submitPassword', { type: 'reset' } as SubmitResult),
  ],
  'xstate.error.actor.submitPassword': () => [failed('submitPassword', UNEXPECTED_FAILURE)],
} satisfies { [T in PasswordResetModelEventType]: (s: PasswordResetSnapshot) => EventOf<T>[] };

export function passwordResetEvents(snapshot: PasswordResetSnapshot): PasswordResetEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  return [...types].flatMap((type) => {
    const fixtures = passwordResetEventFixtures[type as PasswordResetModelEventType] as
      ((s: PasswordResetSnapshot) => PasswordResetModelEvent[]) | undefined;
    if (!fixtures) throw new Error(`No fixtures for the event '${type}'.`);
    return fixtures(snapshot);
  }) as PasswordResetEvent[];
}

/**
 * Graph nodes: the state and what of the context decides the screen. Not factorVerifiedFor: it
 * decides set-password only for the smsOnlyDown account, which the graph takes there without a
 * verified factor (tests/machines/password-reset.test.ts pins the proof's cases); kept apart, it
 * would double the nodes after each verified factor.
 */
export const projectPasswordResetContext = (s: PasswordResetSnapshot) => ({
  available: s.context.available,
  email: s.context.email,
  details: detailsKind(s.context.details),
  smsUnavailable: s.context.smsUnavailableMessage,
  refused: s.context.refusal !== null,
  resendRefused: s.context.resendRefusal !== null,
  failed: s.context.errorMessage,
});

const serializeState = (s: PasswordResetSnapshot) =>
  JSON.stringify({ value: s.value, ...projectPasswordResetContext(s) });

export const PASSWORD_RESET_INPUT: PasswordResetInput = {};

export function describePasswordResetEvent(event: PasswordResetModelEvent): string {
  switch (event.type) {
    case 'route.changed':
      return `address ${event.path}`;
    case 'xstate.done.actor.loadAvailability':
      return event.output.authEnabled ? 'realm open' : 'realm closed';
    case 'xstate.done.actor.verifyEmail':
    case 'xstate.done.actor.selectUser':
      return event.output.type === 'details'
        ? `${event.type.replace('xstate.done.actor.', '')} ${detailsKind(event.output.details)}`
        : `${event.type.replace('xstate.done.actor.', '')} refused`;
    default:
      if (event.type.startsWith('xstate.done.actor.'))
        return `${event.type.replace('xstate.done.actor.', '')} ${(event as { output: { type: string } }).output.type}`;
      return event.type.replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails').replace(/^user\./, '');
  }
}

export const passwordResetPaths = () => {
  const model = new TestModel(passwordResetMachine, {
    events: passwordResetEvents,
    serializeState,
    stateMatcher: (s, key) => s.matches(key as never),
  });
  return coveringPaths(model, passwordResetMachine, {
    input: PASSWORD_RESET_INPUT,
    events: passwordResetEvents,
    serializeState,
    describeEvent: (e) => describePasswordResetEvent(e as PasswordResetModelEvent),
  });
};
