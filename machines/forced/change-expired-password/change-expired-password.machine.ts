/**
 * Change expired password (sections 2.6, 4.3 and 5), at /forced-actions/change-expired-password.
 *
 *   form --user.submit--> submitting (the passwords go straight from the event to the call)
 *   submitting --done[isRefused]    422 / storeRefusal--> form (reasons on the fields)
 *              --done / storeOutcome--> continuing (the outcome decides the next step)
 *   continuing (invokes continue-sign-in) --done[continuationFailed]--> failed
 *                                         --done--> done (final: landing or the next forced step)
 *   form, failed --user.cancel--> cancelling (POST logout) --done or error--> cancelled (final, '/')
 *   any unexpected failure --> failed
 */
import { assign, assertEvent, fromPromise, setup } from 'xstate';
import { FORCED_ACTION_ROUTES, SIGN_IN_ROUTE } from '../../routes';
import type { FlowStateMeta } from '../../shared/flow.types';
import { continuingState } from '../../shared/continuation-steps';
import { failTo } from '../../shared/invoke-basics';
import { continueSignInMachine } from '../continue-sign-in/continue-sign-in.machine';
import { messageOf, provided, required } from '../continue-sign-in/forced-step';
import type {
  ChangeExpiredPasswordContext,
  ChangeExpiredPasswordEvent,
  ChangeExpiredPasswordInput,
  ChangeExpiredPasswordOutput,
  ContinueSignInOutput,
  NewPasswordInput,
  OutcomeResult,
} from './change-expired-password.types';

const meta = (description: string): FlowStateMeta => ({
  route: FORCED_ACTION_ROUTES.CHANGE_EXPIRED_PASSWORD,
  description,
});

export const changeExpiredPasswordMachine = setup({
  types: {
    context: {} as ChangeExpiredPasswordContext,
    events: {} as ChangeExpiredPasswordEvent,
    input: {} as ChangeExpiredPasswordInput,
    output: {} as ChangeExpiredPasswordOutput,
  },
  actors: {
    changeExpiredPassword: fromPromise<OutcomeResult, NewPasswordInput>(provided('changeExpiredPassword')),
    continueSignIn: continueSignInMachine,
    logout: fromPromise<void>(provided('logout')),
  },
  guards: {
    isRefused: (_, result: OutcomeResult) => result.type === 'refused',
    continuationFailed: (_, output: ContinueSignInOutput) => output.kind === 'failed',
  },
  actions: {
    forgetAttempt: assign({ refusal: null, outcome: null, errorMessage: null }),
    storeRefusal: assign((_, result: OutcomeResult) => ({
      refusal:
        result.type === 'refused' ? { message: result.message, fieldErrors: result.fieldErrors } : null,
    })),
    storeOutcome: assign((_, result: OutcomeResult) => ({
      outcome: result.type === 'outcome' ? result.outcome : null,
    })),
    storeHandover: assign((_, output: ContinueSignInOutput) => ({
      handover: output.kind === 'failed' ? null : output,
    })),
    reportContinuationFailure: assign((_, output: ContinueSignInOutput) => ({
      errorMessage: output.kind === 'failed' ? output.message : null,
    })),
    reportFailure: assign((_, failure: { error: unknown }) => ({ errorMessage: messageOf(failure.error) })),
  },
}).createMachine({
  id: 'changeExpiredPassword',
  context: ({ input }) => ({
    targetPath: input.targetPath,
    adminTargetPath: input.adminTargetPath,
    refusal: null,
    outcome: null,
    handover: null,
    errorMessage: null,
  }),
  initial: 'form',
  output: ({ event }) => event.output as ChangeExpiredPasswordOutput,
  states: {
    form: {
      meta: meta('New password and its confirmation, with the policy hint; the last refusal on the fields.'),
      on: {
        'user.submit': { target: 'submitting', actions: 'forgetAttempt' },
        'user.cancel': { target: 'cancelling' },
      },
    },
    submitting: {
      meta: meta('Changing the password.'),
      invoke: {
        id: 'changeExpiredPassword',
        src: 'changeExpiredPassword',
        input: ({ event }) => {
          assertEvent(event, 'user.submit');
          return { password: event.password, confirmPassword: event.confirmPassword };
        },
        onDone: [
          {
            guard: { type: 'isRefused', params: ({ event }) => event.output },
            target: 'form',
            actions: { type: 'storeRefusal', params: ({ event }) => event.output },
          },
          { target: 'continuing', actions: { type: 'storeOutcome', params: ({ event }) => event.output } },
        ],
        onError: failTo('failed'),
      },
    },
    continuing: continuingState(meta('The password was changed: sign-in continues as the outcome says.')),
    failed: {
      meta: meta("An unexpected failure or 'Unknown authentication outcome'; Cancel signs out."),
      on: { 'user.cancel': { target: 'cancelling' } },
    },
    cancelling: {
      meta: meta('Cancel: invalidating the session.'),
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: { target: 'cancelled' },
        // The session ends either way: an unexpected failure has been shown by the api layer.
        onError: { target: 'cancelled' },
      },
    },
    done: {
      type: 'final',
      meta: { description: 'Sign-in continued: the landing page or the next forced step (output.route).' },
      output: ({ context }) => required(context.handover, 'a hand-over'),
    },
    cancelled: {
      type: 'final',
      meta: { description: 'Cancelled: the session is invalidated; sign-in at /.' },
      output: { kind: 'cancelled', route: SIGN_IN_ROUTE },
    },
  },
});
