/**
 * Re-enter-password watcher (sections 2.2, 4.2 and 9), running while the user is signed in.
 *
 *   watching --after CHECK_INTERVAL (4 s)--> checking (is the recent-authentication cookie there?)
 *   checking --done[isPresent]--> watching    --done, or error--> prompting (the modal opens)
 *   watching, checking --password.required (a call was refused until the password is entered
 *                        again: the api layer sends it again once the modal closes)--> prompting
 *   prompting (parallel; the modal 'Re-enter password', no Esc, no backdrop close):
 *     form:   editing --user.submit--> submitting (POST reenter-password)
 *             submitting --done[isRefused] 422 / storeRefusal--> editing
 *                        --done--> watching (the modal closes)
 *                        --error / reportFailure--> editing
 *     server: delaying --after POLL_DELAY (8 s)--> asking (GET reenter-password/expired)
 *             asking --done[stillExpired], or error--> waiting --after POLL_INTERVAL (2 s)--> asking
 *                    --done--> watching (the password has not expired: the modal closes)
 *   prompting --user.signOut--> signingOut (final; entry signOut, the shell's sign-out)
 *
 * The delays are named so that tests (fake timers, or a simulated clock) and the app agree.
 */
import { assign, assertEvent, fromPromise, setup } from 'xstate';
import type { ReenterPasswordContext, ReenterPasswordEvent, ReenterResult } from './reenter-password.types';

/** Section 9: cookie check every 4 s; poll delay 8 s; poll interval 2 s. */
export const REENTER_PASSWORD_DELAYS = {
  CHECK_INTERVAL: 4_000,
  POLL_DELAY: 8_000,
  POLL_INTERVAL: 2_000,
} as const;

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));

const messageOf = (error: unknown): string | null => {
  if (typeof error === 'object' && error !== null) {
    const body = (error as { body?: { message?: unknown } }).body;
    if (typeof body?.message === 'string') return body.message;
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return null;
};

export const reenterPasswordMachine = setup({
  types: {
    context: {} as ReenterPasswordContext,
    events: {} as ReenterPasswordEvent,
  },
  delays: REENTER_PASSWORD_DELAYS,
  actors: {
    /** Whether the JS-readable recent-authentication cookie is present (the app reads it). */
    hasRecentAuthentication: fromPromise<boolean>(provided('hasRecentAuthentication')),
    /** GET reenter-password/expired: true while the password must be entered again. */
    isPasswordExpired: fromPromise<boolean>(provided('isPasswordExpired')),
    reenterPassword: fromPromise<ReenterResult, { password: string }>(provided('reenterPassword')),
  },
  guards: {
    isPresent: (_, present: boolean) => present,
    stillExpired: (_, expired: boolean) => expired,
    isRefused: (_, result: ReenterResult) => result.type === 'refused',
  },
  actions: {
    forgetAttempt: assign({ refusal: null, errorMessage: null }),
    storeRefusal: assign((_, result: ReenterResult) => ({
      refusal: result.type === 'refused' ? { message: result.message } : null,
    })),
    reportFailure: assign((_, failure: { error: unknown }) => ({ errorMessage: messageOf(failure.error) })),
    /** Provided by the app: the shell's sign-out (POST logout, forget the user, go to '/'). */
    signOut: () => {},
  },
}).createMachine({
  id: 'reenterPassword',
  context: { refusal: null, errorMessage: null },
  initial: 'watching',
  states: {
    watching: {
      meta: { description: 'Signed in; the recent-authentication cookie is checked every 4 s.' },
      after: { CHECK_INTERVAL: { target: 'checking' } },
      on: { 'password.required': { target: 'prompting' } },
    },
    checking: {
      meta: { description: 'Reads whether the recent-authentication cookie is present.' },
      invoke: {
        id: 'hasRecentAuthentication',
        src: 'hasRecentAuthentication',
        onDone: [
          { guard: { type: 'isPresent', params: ({ event }) => event.output }, target: 'watching' },
          { target: 'prompting' },
        ],
        // Reading a cookie does not fail; if it did, asking for the password is the safe side.
        onError: { target: 'prompting' },
      },
      on: { 'password.required': { target: 'prompting' } },
    },
    prompting: {
      meta: { description: "The modal 'Re-enter password': Sign out and Submit; it cannot be dismissed." },
      type: 'parallel',
      entry: 'forgetAttempt',
      on: { 'user.signOut': { target: 'signingOut' } },
      states: {
        form: {
          initial: 'editing',
          states: {
            editing: {
              meta: { description: 'The password field, with the last refusal on it.' },
              on: { 'user.submit': { target: 'submitting', actions: 'forgetAttempt' } },
            },
            submitting: {
              meta: { description: 'Checking the password.' },
              invoke: {
                id: 'reenterPassword',
                src: 'reenterPassword',
                input: ({ event }) => {
                  assertEvent(event, 'user.submit');
                  return { password: event.password };
                },
                onDone: [
                  {
                    guard: { type: 'isRefused', params: ({ event }) => event.output },
                    target: 'editing',
                    actions: { type: 'storeRefusal', params: ({ event }) => event.output },
                  },
                  { target: '#reenterPassword.watching' },
                ],
                onError: {
                  target: 'editing',
                  actions: { type: 'reportFailure', params: ({ event }) => event },
                },
              },
            },
          },
        },
        server: {
          initial: 'delaying',
          states: {
            delaying: {
              meta: { description: 'The modal has been open less than 8 s.' },
              after: { POLL_DELAY: { target: 'asking' } },
            },
            asking: {
              meta: { description: 'Asks the server whether the password is still to be entered.' },
              invoke: {
                id: 'isPasswordExpired',
                src: 'isPasswordExpired',
                onDone: [
                  { guard: { type: 'stillExpired', params: ({ event }) => event.output }, target: 'waiting' },
                  { target: '#reenterPassword.watching' },
                ],
                onError: { target: 'waiting' },
              },
            },
            waiting: {
              meta: { description: 'Asks again in 2 s.' },
              after: { POLL_INTERVAL: { target: 'asking' } },
            },
          },
        },
      },
    },
    signingOut: {
      type: 'final',
      meta: { description: 'Sign out: the shell signs the user out.' },
      entry: 'signOut',
    },
  },
});
