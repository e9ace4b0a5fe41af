// The registration machine as a test model: the events the graph explores, with fixture payloads for
// every user event and every actor outcome.
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { registrationMachine } from '../../machines/registration/registration.machine';
import type {
  AuthenticatorSetup,
  CodeCheckResult,
  ContinueSignInOutput,
  EnrolSmsResult,
  InviteResult,
  OutcomeResult,
  RegistrationEvent,
  RegistrationFacts,
  ResendResult,
  StepResult,
} from '../../machines/registration/registration.types';
import { REGISTRATION_ROUTE, REGISTRATION_STEPS } from '../../machines/routes';
import {
  continuations,
  MOBILE,
  outcomes,
  resends,
  securityAnswers,
  WRONG_CODE,
} from '../machines/continue-sign-in.fixtures';
import {
  authenticatorSetup,
  detailsAnswers,
  EXISTING_HELP_REFUSAL,
  NEW_PASSWORD,
  registrationFacts,
  startAnswers,
  typedStart,
} from '../machines/registration.fixtures';
import { coveringPaths } from './harness/paths';

export type RegistrationSnapshot = SnapshotFrom<typeof registrationMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

export type RegistrationModelEvent =
  | RegistrationEvent
  | Done<'prepareRegistration', RegistrationFacts>
  | Failed<'prepareRegistration'>
  | Done<'startRegistration', InviteResult>
  | Failed<'startRegistration'>
  | Done<'collectDetails', InviteResult>
  | Failed<'collectDetails'>
  | Done<'loadAuthenticatorSetup', AuthenticatorSetup>
  | Failed<'loadAuthenticatorSetup'>
  | Done<'verifyCode', CodeCheckResult>
  | Failed<'verifyCode'>
  | Done<'enrolEmail', undefined>
  | Failed<'enrolEmail'>
  | Done<'enrolSms', EnrolSmsResult>
  | Failed<'enrolSms'>
  | Done<'resendCode', ResendResult>
  | Failed<'resendCode'>
  | Done<'enrolSecurityQuestions', StepResult>
  | Failed<'enrolSecurityQuestions'>
  | Done<'submitNew', OutcomeResult>
  | Failed<'submitNew'>
  | Done<'submitExisting', OutcomeResult>
  | Failed<'submitExisting'>
  | Done<'continueSignIn', ContinueSignInOutput>
  | Failed<'continueSignIn'>;
export type RegistrationModelEventType = RegistrationModelEvent['type'];
type EventOf<T extends RegistrationModelEventType> = Extract<RegistrationModelEvent, { type: T }>;

const done = <Id extends string, Output>(id: Id, output: Output) =>
  ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as Done<Id, Output>;
const failed = <Id extends string>(id: Id, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(message), actorId: id }) as Failed<Id>;

export const UNEXPECTED_FAILURE = 'The server could not be reached.';
export const GATEWAY_DOWN_MESSAGE = 'Our SMS provider is unavailable. Enrol your mobile later.';
export const TYPED_MOBILE = '0400 000 003';
export const APP_CODE = '482913';
export const SMS_CODE = '774411';
export const existingAccount = { username: 'C10001', password: 'Harbour-Lights-2026' };
export const stepPath = (step: string) =>
  step === '' ? REGISTRATION_ROUTE : `${REGISTRATION_ROUTE}/${step}`;

const refused = (fieldName: string, message: string) => ({
  type: 'refused' as const,
  message,
  fieldErrors: [{ fieldName, message }],
});

export const registrationEventFixtures = {
  'user.start': () => [{ type: 'user.start', ...typedStart }],
  'user.refreshCaptcha': () => [{ type: 'user.refreshCaptcha' }],
  'user.submitDetails': () => [{ type: 'user.submitDetails', username: 'C10009' }],
  'user.scanned': () => [{ type: 'user.scanned' }],
  'user.chooseSms': () => [{ type: 'user.chooseSms' }],
  'user.chooseEmail': () => [{ type: 'user.chooseEmail' }],
  'user.verify': (s) => [{ type: 'user.verify', code: s.matches('smsVerification') ? SMS_CODE : APP_CODE }],
  'user.enrolSms': () => [{ type: 'user.enrolSms', mobile: TYPED_MOBILE }],
  'user.resend': () => [{ type: 'user.resend' }],
  'user.submitQuestions': () => [{ type: 'user.submitQuestions', ...securityAnswers }],
  'user.submitPassword': () => [
    { type: 'user.submitPassword', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
  ],
  'user.submitExisting': () => [{ type: 'user.submitExisting', ...existingAccount }],
  // Cancel from the two screens that offer it: verify-identity and the failure.
  'user.cancel': (s) => (s.matches('verifyIdentity') || s.matches('failed') ? [{ type: 'user.cancel' }] : []),
  'route.changed': (s) => {
    if (s.matches('authenticatorAppVerification'))
      return [{ type: 'route.changed', path: stepPath(REGISTRATION_STEPS.SELECT_AUTHENTICATOR_APP_FACTOR) }];
    if (s.matches('smsVerification'))
      return [{ type: 'route.changed', path: stepPath(REGISTRATION_STEPS.SELECT_SMS_FACTOR) }];
    // Back to the start address: the registration starts over.
    if (s.matches('collectDetails')) return [{ type: 'route.changed', path: REGISTRATION_ROUTE }];
    return [];
  },
  'xstate.done.actor.prepareRegistration': () => [
    done('prepareRegistration', registrationFacts.gatewayUp),
    done('prepareRegistration', registrationFacts.gatewayDown),
  ],
  'xstate.error.actor.prepareRegistration': () => [failed('prepareRegistration', UNEXPECTED_FAILURE)],
  'xstate.done.actor.startRegistration': () => [
    done('startRegistration', startAnswers.invalidInvitation),
    done('startRegistration', startAnswers.newAccount),
    done('startRegistration', startAnswers.existingAccount),
  ],
  'xstate.error.actor.startRegistration': () => [failed('startRegistration', UNEXPECTED_FAILURE)],
  'xstate.done.actor.collectDetails': () => [
    done('collectDetails', detailsAnswers.usernameTaken),
    done('collectDetails', detailsAnswers.collected),
  ],
  'xstate.error.actor.collectDetails': () => [failed('collectDetails', UNEXPECTED_FAILURE)],
  'xstate.done.actor.loadAuthenticatorSetup': () => [done('loadAuthenticatorSetup', authenticatorSetup)],
  'xstate.error.actor.loadAuthenticatorSetup': () => [failed('loadAuthenticatorSetup', UNEXPECTED_FAILURE)],
  'xstate.done.actor.verifyCode': () => [
    done('verifyCode', WRONG_CODE),
    done('verifyCode', { type: 'verified' }),
  ],
  'xstate.error.actor.verifyCode': () => [failed('verifyCode', UNEXPECTED_FAILURE)],
  'xstate.done.actor.enrolEmail': () => [done('enrolEmail', undefined)],
  'xstate.error.actor.enrolEmail': () => [failed('enrolEmail', UNEXPECTED_FAILURE)],
  'xstate.done.actor.enrolSms': () => [
    done('enrolSms', refused('mobile', 'Enter the mobile number in international format.')),
    done('enrolSms', { type: 'unavailable', message: GATEWAY_DOWN_MESSAGE }),
    done('enrolSms', { type: 'enrolled', mobile: MOBILE }),
  ],
  'xstate.error.actor.enrolSms': () => [failed('enrolSms', UNEXPECTED_FAILURE)],
  'xstate.done.actor.resendCode': () => [
    done('resendCode', resends.sent),
    done('resendCode', resends.refused),
    done('resendCode', resends.unavailable),
  ],
  'xstate.error.actor.resendCode': () => [failed('resendCode', UNEXPECTED_FAILURE)],
  'xstate.done.actor.enrolSecurityQuestions': () => [
    done('enrolSecurityQuestions', refused('answer2', 'Choose an answer that is harder to guess.')),
    done('enrolSecurityQuestions', { type: 'done' }),
  ],
  'xstate.error.actor.enrolSecurityQuestions': () => [failed('enrolSecurityQuestions', UNEXPECTED_FAILURE)],
  'xstate.done.actor.submitNew': () => [
    done('submitNew', refused('password', 'The password must not contain your username or name.')),
    done('submitNew', { type: 'outcome', outcome: outcomes.directLogin }),
  ],
  'xstate.error.actor.submitNew': () => [failed('submitNew', UNEXPECTED_FAILURE)],
  'xstate.done.actor.submitExisting': () => [
    done('submitExisting', EXISTING_HELP_REFUSAL),
    done('submitExisting', { type: 'outcome', outcome: outcomes.directLogin }),
  ],
  'xstate.error.actor.submitExisting': () => [failed('submitExisting', UNEXPECTED_FAILURE)],
  'xstate.done.actor.continueSignIn': () => [
    done('continueSignIn', continuations.signedIn),
    done('continueSignIn', continuations.forwardedToMfa),
    done('continueSignIn', continuations.failed),
  ],
  'xstate.error.actor.continueSignIn': () => [failed('continueSignIn', UNEXPECTED_FAILURE)],
} satisfies { [T in RegistrationModelEventType]: (s: RegistrationSnapshot) => EventOf<T>[] };

export function registrationEvents(snapshot: RegistrationSnapshot): RegistrationEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  return [...types].flatMap((type) => {
    const fixtures = registrationEventFixtures[type as RegistrationModelEventType] as
      ((s: RegistrationSnapshot) => RegistrationModelEvent[]) | undefined;
    if (!fixtures) throw new Error(`No fixtures for the event '${type}'.`);
    return fixtures(snapshot);
  }) as RegistrationEvent[];
}

/** Graph nodes: the state and what of the context decides the screen or a guard. */
export const projectRegistrationContext = (s: RegistrationSnapshot) => ({
  gateway: s.context.isSmsGatewayAvailable,
  // Only the start step shows the captcha: a refreshed one is not part of what later steps look
  // like, so they are not walked once per captcha.
  captcha: s.matches('start') ? s.context.captchaDraw > 0 : null,
  refused: s.context.refusal !== null,
  resendRefused: s.context.resendRefusal !== null,
  smsUnavailable: s.context.smsUnavailableMessage,
  failed: s.context.errorMessage,
  handover: s.context.handover?.kind ?? null,
});

const serializeState = (s: RegistrationSnapshot) =>
  JSON.stringify({ value: s.value, ...projectRegistrationContext(s) });

export function describeRegistrationEvent(event: RegistrationModelEvent): string {
  switch (event.type) {
    case 'route.changed':
      return `address ${event.path}`;
    case 'xstate.done.actor.prepareRegistration':
      return event.output.isSmsGatewayAvailable ? 'prepared' : 'prepared, SMS gateway down';
    case 'xstate.done.actor.startRegistration':
    case 'xstate.done.actor.collectDetails':
      return event.output.type === 'invite'
        ? `${event.type.replace('xstate.done.actor.', '')} ${event.output.invite.existingIdentity ? 'existing' : 'new'}`
        : `${event.type.replace('xstate.done.actor.', '')} refused`;
    case 'xstate.done.actor.verifyCode':
    case 'xstate.done.actor.enrolSms':
    case 'xstate.done.actor.resendCode':
    case 'xstate.done.actor.enrolSecurityQuestions':
    case 'xstate.done.actor.submitNew':
    case 'xstate.done.actor.submitExisting':
      return `${event.type.replace('xstate.done.actor.', '')} ${event.output.type}`;
    case 'xstate.done.actor.continueSignIn':
      return `continued ${event.output.kind}`;
    default:
      return event.type
        .replace(/^xstate\.done\.actor\.(.+)$/, '$1 done')
        .replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails')
        .replace(/^user\./, '');
  }
}

export const registrationPaths = () => {
  const input = { targetPath: null, adminTargetPath: null };
  const model = new TestModel(registrationMachine, {
    events: registrationEvents,
    serializeState,
    stateMatcher: (s, key) => s.matches(key as never),
  });
  return coveringPaths(model, registrationMachine, {
    input,
    events: registrationEvents,
    serializeState,
    describeEvent: (e) => describeRegistrationEvent(e as RegistrationModelEvent),
  });
};
