/**
 * Session idle warning (WCAG 2.2.1, timing adjustable; not in the spec), running while a session is
 * signed in or pending. The server ends a session that is not used for SESSION_IDLE_MINUTES (30);
 * every answer says how long it has left (x-session-expires-in), and this warns two minutes before
 * the end, with the choice to stay signed in.
 *
 *   asking (at start: GET anonymous/current-user, which counts as use, says how long is left)
 *            --done[alive, time said]--> counting   --done (alive, or gone: a race with a
 *              completing sign-in step's new cookie)--> unknown   --error (section 8 acted)--> unknown
 *   unknown --session.seen--> counting (waits for an answer to say)
 *   counting --session.seen--> counting (again, from the new time left)
 *            --after UNTIL_WARNING (time left - 2 min)--> warning
 *   warning (the dialog 'Your session is about to end': Stay signed in, Sign out)
 *            --session.seen[more than 2 min left] (used elsewhere in this tab)--> counting
 *            --user.staySignedIn--> extending (GET anonymous/current-user: a call counts as use)
 *            --after UNTIL_END (what was left)--> ending (the same call: still alive?)
 *            --user.signOut--> signingOut (final; the shell's sign-out: one that fails, a 5xx or
 *              no answer, leaves the user signed in, and the app starts the warning anew)
 *   extending, ending --done[alive, time said] (anew)--> counting   --done[alive]--> unknown
 *                     --done (the server has ended it)--> ended (final; section 8's 401 handling:
 *                       'Your session has expired. Sign in again to continue.', then '/')
 *   extending --error (section 8 has acted: /error)--> warning
 *   ending --error--> ended
 *
 * The delays are computed from the time left when the state was entered, so tests (a simulated
 * clock) and the browser agree.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { IdleWarningContext, IdleWarningEvent, SessionCheck } from './idle-warning.types';

/** The warning comes this long before the session would end. */
export const WARNING_LEAD_MS = 120_000;

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));

/** The check's output, for guards and actions that take it as params. */
const checked = ({ event }: { event: { output: SessionCheck } }) => event.output;

/**
 * A state asking the server (GET anonymous/current-user, which counts as use) whether the session
 * is still there: alive with its time left said, counting; alive, unknown; gone, `gone`.
 */
const checkingState = (
  description: string,
  { gone, onError }: { gone: 'unknown' | 'ended'; onError: 'unknown' | 'warning' | 'ended' },
) =>
  ({
    meta: { description },
    invoke: {
      id: 'checkSession',
      src: 'checkSession',
      onDone: [
        {
          guard: { type: 'isAliveFor', params: checked },
          target: 'counting',
          actions: { type: 'storeCheck', params: checked },
        },
        { guard: { type: 'isAlive', params: checked }, target: 'unknown' },
        { target: gone },
      ],
      onError: { target: onError },
    },
  }) as const;

export const idleWarningMachine = setup({
  types: {
    context: {} as IdleWarningContext,
    events: {} as IdleWarningEvent,
  },
  delays: {
    UNTIL_WARNING: ({ context }) => Math.max(0, (context.expiresInMs ?? 0) - WARNING_LEAD_MS),
    UNTIL_END: ({ context }) => Math.max(0, Math.min(context.expiresInMs ?? 0, WARNING_LEAD_MS)),
  },
  actors: {
    /** GET anonymous/current-user (a call that counts as use): is the session still there? */
    checkSession: fromPromise<SessionCheck>(provided('checkSession')),
  },
  guards: {
    hasTimeLeft: (_, expiresInMs: number) => expiresInMs > WARNING_LEAD_MS,
    isAlive: (_, check: SessionCheck) => check.alive,
    /** Alive, and the answer said how long is left (a proxy may drop the header: then it is not known). */
    isAliveFor: (_, check: SessionCheck) => check.alive && check.expiresInMs !== null,
  },
  actions: {
    storeTimeLeft: assign((_, expiresInMs: number) => ({ expiresInMs })),
    storeCheck: assign((_, check: SessionCheck) => ({ expiresInMs: check.expiresInMs })),
    /** Provided by the app: section 8's 401 handling (notice, forget the user, go to '/'). */
    endSession: () => {},
    /** Provided by the app: the shell's sign-out (POST logout, forget the user, go to '/'). */
    signOut: () => {},
  },
}).createMachine({
  id: 'idleWarning',
  context: { expiresInMs: null },
  initial: 'asking',
  on: {
    // Heard in any state; the states below decide what it changes.
    'session.seen': { actions: { type: 'storeTimeLeft', params: ({ event }) => event.expiresInMs } },
  },
  states: {
    // Just shown signed in: an answer that the session is gone here is a sign-in step's new
    // cookie racing the question; the page's own next call says so if it really is (section 8).
    asking: checkingState('Asks the server how long the session has left.', {
      gone: 'unknown',
      onError: 'unknown',
    }),
    unknown: {
      meta: { description: 'No answer has said yet how long the session has left.' },
      on: {
        'session.seen': {
          target: 'counting',
          actions: { type: 'storeTimeLeft', params: ({ event }) => event.expiresInMs },
        },
      },
    },
    counting: {
      meta: { description: 'Counting down to two minutes before the session would end.' },
      after: { UNTIL_WARNING: { target: 'warning' } },
      on: {
        'session.seen': {
          target: 'counting',
          reenter: true,
          actions: { type: 'storeTimeLeft', params: ({ event }) => event.expiresInMs },
        },
      },
    },
    warning: {
      meta: {
        description:
          "The dialog 'Your session is about to end': Stay signed in or Sign out; it cannot be dismissed.",
      },
      after: { UNTIL_END: { target: 'ending' } },
      on: {
        'session.seen': {
          guard: { type: 'hasTimeLeft', params: ({ event }) => event.expiresInMs },
          target: 'counting',
          actions: { type: 'storeTimeLeft', params: ({ event }) => event.expiresInMs },
        },
        'user.staySignedIn': { target: 'extending' },
        'user.signOut': { target: 'signingOut' },
      },
    },
    extending: checkingState('Stay signed in: a call to the server, which counts as use.', {
      gone: 'ended',
      onError: 'warning',
    }),
    ending: checkingState('The time is up: is the session still there (used in another tab)?', {
      gone: 'ended',
      onError: 'ended',
    }),
    ended: {
      meta: {
        description:
          "The server has ended the session: 'Your session has expired. Sign in again to continue.'",
      },
      type: 'final',
      entry: 'endSession',
    },
    signingOut: {
      meta: { description: 'Sign out, as the header does.' },
      type: 'final',
      entry: 'signOut',
    },
  },
});
