/**
 * A single-step profile screen (section 2.3): change-name, change-password, change-phone,
 * change-date-of-birth, change-security-questions, remove-mobile, unenrol-sms and
 * unenrol-authenticator-app. Each page provides its own `submit` call; the form is the same.
 *
 *   checking (invokes isIdentityVerified when the screen is locked once verified)
 *     --done[isLocked]--> readOnly (the spec's warning; Back)   --done--> form
 *   form --user.submit--> submitting (the values go from the event to the call, never stored)
 *   submitting --done[isRefused] 422 / storeRefusal--> form (reasons on the fields)
 *              --done--> saved (final: toast, updated user, /profile)
 *   form, readOnly, failed --user.cancel--> cancelled (final, /profile)
 *   any unexpected failure --> failed
 */
import { assign, assertEvent, fromPromise, setup } from 'xstate';
import { messageOf, provided } from '../../forced/continue-sign-in/forced-step';
import { PROFILE_ROUTE } from '../../routes';
import type {
  FormValues,
  ProfileFormContext,
  ProfileFormEvent,
  ProfileFormInput,
  ProfileOutput,
  SubmitResult,
} from './profile-form.types';

export const profileFormMachine = setup({
  types: {
    context: {} as ProfileFormContext,
    events: {} as ProfileFormEvent,
    input: {} as ProfileFormInput,
    output: {} as ProfileOutput,
  },
  actors: {
    isIdentityVerified: fromPromise<boolean>(provided('isIdentityVerified')),
    submit: fromPromise<SubmitResult, FormValues>(provided('submit')),
  },
  guards: {
    isLocked: ({ context }, verified: boolean) => context.lockedWhenVerified && verified,
    isRefused: (_, result: SubmitResult) => result.type === 'refused',
  },
  actions: {
    forgetAttempt: assign({ refusal: null, errorMessage: null }),
    storeRefusal: assign((_, result: SubmitResult) => ({
      refusal:
        result.type === 'refused' ? { message: result.message, fieldErrors: result.fieldErrors } : null,
    })),
    storeSaved: assign((_, result: SubmitResult) => ({
      savedUser: result.type === 'saved' ? result.user : null,
    })),
    reportFailure: assign((_, failure: { error: unknown }) => ({ errorMessage: messageOf(failure.error) })),
  },
}).createMachine({
  id: 'profileForm',
  context: ({ input }) => ({
    lockedWhenVerified: input.lockedWhenVerified,
    refusal: null,
    savedUser: null,
    errorMessage: null,
  }),
  initial: 'checking',
  output: ({ event }) => event.output as ProfileOutput,
  states: {
    checking: {
      meta: { description: 'Whether the identity is verified (screens locked once verified only).' },
      invoke: {
        id: 'isIdentityVerified',
        src: 'isIdentityVerified',
        onDone: [
          { guard: { type: 'isLocked', params: ({ event }) => event.output }, target: 'readOnly' },
          { target: 'form' },
        ],
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    readOnly: {
      meta: { description: "Identity verified: the value and the spec's warning, nothing to edit." },
      on: { 'user.cancel': { target: 'cancelled' } },
    },
    form: {
      meta: { description: 'The fields and the current password; the last refusal on the fields.' },
      on: {
        'user.submit': { target: 'submitting', actions: 'forgetAttempt' },
        'user.cancel': { target: 'cancelled' },
      },
    },
    submitting: {
      meta: { description: 'Saving the change.' },
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ event }) => {
          assertEvent(event, 'user.submit');
          return event.values;
        },
        onDone: [
          {
            guard: { type: 'isRefused', params: ({ event }) => event.output },
            target: 'form',
            actions: { type: 'storeRefusal', params: ({ event }) => event.output },
          },
          { target: 'saved', actions: { type: 'storeSaved', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    failed: {
      meta: { description: 'An unexpected failure; Back returns to /profile.' },
      on: { 'user.cancel': { target: 'cancelled' } },
    },
    saved: {
      type: 'final',
      meta: { description: 'Saved: the success toast, the updated user, /profile.' },
      output: ({ context }) => ({ kind: 'saved' as const, route: PROFILE_ROUTE, user: context.savedUser }),
    },
    cancelled: {
      type: 'final',
      meta: { description: 'Cancelled: back to /profile, nothing changed.' },
      output: { kind: 'cancelled', route: PROFILE_ROUTE },
    },
  },
});
