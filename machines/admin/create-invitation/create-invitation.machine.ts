/**
 * The admin's 'Invite someone' form: the invitation is created and its email sent in one call.
 *
 *   loadingApps (GET admin/apps) --done / storeApps--> editing
 *     --error / storeLoadFailure--> loadFailed --user.retry--> loadingApps
 *   editing --user.submit / storeForm--> creating (POST admin/invitations)
 *   creating --done, by the result:
 *     [isCreated] / storeCreated --> created (sent to the address; the list is told)
 *     otherwise   / storeRefusal --> editing (the message, and field errors at their fields)
 *   creating --error (section 8 acted, or no answer) / storeFailure--> editing
 *   created --user.again / forgetCreated--> editing (an empty form)
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { AdminApp, CreateInvitationBody } from '../../../src/contract/admin';
import type { FlowStateMeta } from '../../shared/flow.types';
import { failureMessageOf } from '../../access-requests/access-requests.types';
import type {
  CreateInvitationContext,
  CreateInvitationEvent,
  CreateInvitationResult,
} from './create-invitation.types';

export const CREATE_FAILED = 'The invitation could not be created.';
export const APPS_LOAD_FAILED = 'The apps could not be loaded.';

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));
const meta = (description: string): FlowStateMeta => ({ description });

export const createInvitationMachine = setup({
  types: { context: {} as CreateInvitationContext, events: {} as CreateInvitationEvent },
  actors: {
    loadApps: fromPromise<AdminApp[]>(provided('loadApps')),
    createInvitation: fromPromise<CreateInvitationResult, CreateInvitationBody>(provided('createInvitation')),
  },
  guards: {
    isCreated: (_, result: CreateInvitationResult) => result.type === 'created',
  },
  actions: {
    storeApps: assign((_, apps: AdminApp[]) => ({ apps, loadError: null })),
    storeLoadFailure: assign((_, failure: { error: unknown }) => ({
      loadError: failureMessageOf(failure.error, APPS_LOAD_FAILED),
    })),
    storeForm: assign(({ event }) => {
      assertEvent(event, 'user.submit');
      return { form: event.form, refusal: null };
    }),
    storeCreated: assign((_, result: CreateInvitationResult) => ({
      created: result.type === 'created' ? result.invitation : null,
      form: null,
    })),
    storeRefusal: assign((_, result: CreateInvitationResult) => ({
      refusal:
        result.type === 'refused' ? { message: result.message, fieldErrors: result.fieldErrors } : null,
    })),
    storeFailure: assign((_, failure: { error: unknown }) => ({
      refusal: { message: failureMessageOf(failure.error, CREATE_FAILED), fieldErrors: [] },
    })),
    forgetCreated: assign({ created: null }),
  },
}).createMachine({
  id: 'adminCreateInvitation',
  context: { apps: [], loadError: null, form: null, created: null, refusal: null },
  initial: 'loadingApps',
  states: {
    loadingApps: {
      meta: meta('Loads the apps and facilities to invite to.'),
      invoke: {
        id: 'loadApps',
        src: 'loadApps',
        onDone: { target: 'editing', actions: { type: 'storeApps', params: ({ event }) => event.output } },
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeLoadFailure', params: ({ event }) => event },
        },
      },
    },
    loadFailed: {
      meta: meta('The apps could not be loaded.'),
      on: { 'user.retry': { target: 'loadingApps' } },
    },
    editing: {
      meta: meta('The invitation form: email, app, facility, name, customer number, staff.'),
      on: { 'user.submit': { target: 'creating', actions: 'storeForm' } },
    },
    creating: {
      meta: meta('Creates the invitation and sends its email.'),
      invoke: {
        id: 'createInvitation',
        src: 'createInvitation',
        input: ({ context }) => context.form!,
        onDone: [
          {
            guard: { type: 'isCreated', params: ({ event }) => event.output },
            target: 'created',
            actions: { type: 'storeCreated', params: ({ event }) => event.output },
          },
          { target: 'editing', actions: { type: 'storeRefusal', params: ({ event }) => event.output } },
        ],
        onError: { target: 'editing', actions: { type: 'storeFailure', params: ({ event }) => event } },
      },
    },
    created: {
      meta: meta('The invitation was sent: to whom, for what, until when.'),
      on: { 'user.again': { target: 'editing', actions: 'forgetCreated' } },
    },
  },
});
