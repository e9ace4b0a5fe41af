// The profile machines as test models: the events the graph explores, with fixture payloads for
// every user event and every actor outcome, for the single-step form, the code wizards and the
// authenticator-app wizards.
import type { AnyStateMachine, EventObject, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import type { AppWizardMachine } from '../../machines/profile/app-wizard/app-wizard.machine';
import type { CodeWizardMachine } from '../../machines/profile/code-wizard/code-wizard.machine';
import { profileFormMachine } from '../../machines/profile/profile-form/profile-form.machine';
import { PROFILE_ROUTES, PROFILE_WIZARD_STEPS } from '../../machines/routes';
import { users } from '../machines/continue-sign-in.fixtures';
import { coveringPaths } from './harness/paths';

export const UNEXPECTED_FAILURE = 'The server could not be reached.';
export const CURRENT_PASSWORD = 'Harbour-Lights-2026';
export const NEW_NAME = 'Avery Newname';
export const CODE = '123456';
export const updatedUser = { ...users.customer, name: NEW_NAME };

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id });
const failed = (id: string) => ({
  type: `xstate.error.actor.${id}`,
  error: new Error(UNEXPECTED_FAILURE),
  actorId: id,
});
const refused = (fieldName: string, message: string) => ({
  type: 'refused',
  message,
  fieldErrors: [{ fieldName, message }],
});

export type ModelEvent = EventObject & { output?: unknown; error?: unknown; [key: string]: unknown };
type Fixtures<S> = Record<string, (s: S) => ModelEvent[]>;

function eventsFrom<S extends { _nodes: Array<{ ownEvents: unknown }> }>(fixtures: Fixtures<S>) {
  return (snapshot: S): ModelEvent[] => {
    const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
    return [...types].flatMap((type) => {
      const fixture = fixtures[type];
      if (!fixture) throw new Error(`No fixtures for the event '${type}'.`);
      return fixture(snapshot);
    });
  };
}

export function describeEvent(event: ModelEvent): string {
  const done = /^xstate\.done\.actor\.(.+)$/.exec(event.type);
  if (done) {
    const output = event.output as { type?: string } | boolean | null | undefined;
    const what = typeof output === 'object' && output !== null ? output.type : String(output);
    return `${done[1]} ${what ?? 'done'}`;
  }
  if (event.type === 'route.changed') return `address ${String(event.path)}`;
  return event.type.replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails').replace(/^user\./, '');
}

function pathsOf<S>(machine: AnyStateMachine, fixtures: Fixtures<S>, input: unknown) {
  const events = eventsFrom(fixtures as never) as (s: S) => ModelEvent[];
  const serializeState = (s: S) =>
    JSON.stringify({ value: (s as { value: unknown }).value, context: (s as { context: unknown }).context });
  return coveringPaths(
    new TestModel(machine, {
      events: events as never,
      serializeState: serializeState as never,
      stateMatcher: (s, key) => s.matches(key as never),
    }),
    machine,
    {
      input,
      events: events as never,
      serializeState: serializeState as never,
      describeEvent: describeEvent as never,
    },
  );
}

// ---- Single-step form (mounted as change-name) ------------------------------------------------

export type ProfileFormSnapshot = SnapshotFrom<typeof profileFormMachine>;

export const profileFormFixtures: Fixtures<ProfileFormSnapshot> = {
  'user.submit': () => [
    { type: 'user.submit', values: { name: NEW_NAME, currentPassword: CURRENT_PASSWORD } },
  ],
  'user.cancel': () => [{ type: 'user.cancel' }],
  'xstate.done.actor.isIdentityVerified': () => [
    done('isIdentityVerified', true),
    done('isIdentityVerified', false),
  ],
  'xstate.error.actor.isIdentityVerified': () => [failed('isIdentityVerified')],
  'xstate.done.actor.submit': (s) =>
    s.context.refusal
      ? [done('submit', { type: 'saved', user: updatedUser })]
      : [
          done('submit', refused('currentPassword', 'The password is incorrect.')),
          done('submit', { type: 'saved', user: updatedUser }),
        ],
  'xstate.error.actor.submit': () => [failed('submit')],
};

export const profileFormPaths = () =>
  pathsOf(profileFormMachine, profileFormFixtures, { lockedWhenVerified: true });

// ---- Code wizards -----------------------------------------------------------------------------

export type CodeWizardSnapshot = SnapshotFrom<CodeWizardMachine>;

export interface CodeWizardModel {
  route: string;
  step: string;
  value: string;
}

export const codeWizardModels = {
  changeEmail: {
    route: PROFILE_ROUTES.CHANGE_EMAIL,
    step: PROFILE_WIZARD_STEPS.EMAIL_VERIFICATION,
    value: 'avery.new@example.com',
  },
  changeMobile: {
    route: PROFILE_ROUTES.CHANGE_MOBILE,
    step: PROFILE_WIZARD_STEPS.SMS_VERIFICATION,
    value: '+61 400 123 456',
  },
  enrolSms: {
    route: PROFILE_ROUTES.ENROL_SMS,
    step: PROFILE_WIZARD_STEPS.SMS_VERIFICATION,
    value: '+61 400 123 456',
  },
} satisfies Record<string, CodeWizardModel>;

export const SMS_UNAVAILABLE =
  'SMS verification codes are currently unavailable. You may try to enrol mobile as a factor at a later date.';

export function codeWizardFixtures(model: CodeWizardModel): Fixtures<CodeWizardSnapshot> {
  return {
    'user.start': () => [{ type: 'user.start', currentPassword: CURRENT_PASSWORD, value: model.value }],
    'user.verify': () => [{ type: 'user.verify', code: CODE }],
    'user.resend': () => [{ type: 'user.resend' }],
    'user.cancel': () => [{ type: 'user.cancel' }],
    'route.changed': (s) =>
      s.matches('details')
        ? [{ type: 'route.changed', path: `${model.route}/${model.step}` }]
        : [{ type: 'route.changed', path: model.route }],
    'xstate.done.actor.start': (s) =>
      s.context.refusal
        ? [done('start', { type: 'codeSent', destination: model.value })]
        : [
            done('start', refused('currentPassword', 'The password is incorrect.')),
            done('start', { type: 'unavailable', message: SMS_UNAVAILABLE }),
            done('start', { type: 'updated', user: updatedUser }),
            done('start', { type: 'codeSent', destination: model.value }),
          ],
    'xstate.error.actor.start': () => [failed('start')],
    'xstate.done.actor.verify': (s) =>
      s.context.codeRefusal
        ? [done('verify', { type: 'verified', user: updatedUser })]
        : [
            done('verify', refused('code', 'The code is incorrect. Check it and try again.')),
            done('verify', { type: 'verified', user: updatedUser }),
          ],
    'xstate.error.actor.verify': () => [failed('verify')],
    'xstate.done.actor.resend': () => [
      done('resend', { type: 'sent' }),
      done('resend', { type: 'refused', message: 'A code was sent less than 30 seconds ago.' }),
      done('resend', { type: 'unavailable', message: SMS_UNAVAILABLE }),
    ],
    'xstate.error.actor.resend': () => [failed('resend')],
    'xstate.done.actor.cancelChange': () => [done('cancelChange', undefined)],
    'xstate.error.actor.cancelChange': () => [failed('cancelChange')],
  };
}

export const codeWizardPaths = (machine: CodeWizardMachine, model: CodeWizardModel) =>
  pathsOf(machine, codeWizardFixtures(model), undefined);

// ---- Authenticator-app wizards ----------------------------------------------------------------

export type AppWizardSnapshot = SnapshotFrom<AppWizardMachine>;

export const appSetup = { setupKey: 'JBSW Y3DP EHPK 3PXP', qrCode: 'data:image/png;base64,iVBORw0KGgo=' };

export function appWizardFixtures(route: string): Fixtures<AppWizardSnapshot> {
  return {
    'user.next': () => [{ type: 'user.next' }],
    'user.verify': () => [{ type: 'user.verify', code: CODE, currentPassword: CURRENT_PASSWORD }],
    'user.cancel': () => [{ type: 'user.cancel' }],
    'route.changed': (s) =>
      s.matches('setup')
        ? [{ type: 'route.changed', path: `${route}/${PROFILE_WIZARD_STEPS.CODE_VERIFICATION}` }]
        : [{ type: 'route.changed', path: route }],
    'xstate.done.actor.loadSetup': () => [done('loadSetup', appSetup)],
    'xstate.error.actor.loadSetup': () => [failed('loadSetup')],
    'xstate.done.actor.verify': (s) =>
      s.context.refusal
        ? [done('verify', { type: 'verified' })]
        : [
            done('verify', refused('code', 'The code is incorrect. Check it and try again.')),
            done('verify', { type: 'verified' }),
          ],
    'xstate.error.actor.verify': () => [failed('verify')],
  };
}

export const appWizardPaths = (machine: AppWizardMachine, route: string) =>
  pathsOf(machine, appWizardFixtures(route), undefined);
