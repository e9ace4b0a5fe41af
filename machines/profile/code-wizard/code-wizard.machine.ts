/**
 * The two-step profile wizards that verify a new address with a code (sections 2.3 and 4.7):
 * change-email (email-verification), change-mobile and enrol-sms (sms-verification). Each is its
 * own machine made here, with its own id and routes.
 *
 *   details (step 1, 50%) --user.start--> starting (current password and the new value)
 *     --done[isRefused] 422--> details        --done[isUnavailable] SMS 503--> unavailable (final)
 *     --done[isUpdated] nothing to verify--> saved (final)
 *     --done / storeDestination--> verification (step 2, 100%: needs the destination)
 *   verification --user.verify--> verifying --done[isRefused]--> verification --done--> saved (final)
 *                --user.resend[mayResend]--> resending --done[isSent] / announceResent--> verification
 *                     --done[isRefused]--> verification (red, link disabled)
 *                     --done[isUnavailable]--> unavailable (final)
 *                --user.cancel--> cancelling (the cancel call) --done or error--> cancelled (final)
 *                --route.changed[isDetailsRoute]--> details (back to step 1)
 *   details --route.changed[isVerificationRoute and hasDestination]--> verification (forward again)
 *   details --user.cancel[hasStartedChange: back at step 1 after a code was sent]--> cancelling
 *     --user.cancel--> cancelled (final, /profile)
 *   failed --user.cancel (Back)[hasStartedChange: step 1 had sent a code]--> cancelling (the cancel
 *     call, as cancelling step 2 does)   --user.cancel--> cancelled (final, /profile)
 *   any unexpected failure --> failed (with the step it came from: starting is step 1; verifying
 *     and resending are step 2)
 * Every final state goes back to /profile.
 */
import { assign, assertEvent, fromPromise, setup } from 'xstate';
import { messageOf, provided } from '../../forced/continue-sign-in/forced-step';
import { PROFILE_ROUTE } from '../../routes';
import type { FlowStateMeta } from '../../shared/flow.types';
import { WIZARD_STEP_PROGRESS } from '../profile.types';
import type {
  CodeWizardContext,
  CodeWizardEvent,
  CodeWizardOutput,
  ResendResult,
  StartInput,
  StartResult,
  VerifyResult,
  WizardStep,
} from './code-wizard.types';

export interface CodeWizardOptions {
  /** The machine id (also the page's flow id). */
  id: string;
  /** The wizard's route (step 1). */
  route: string;
  /** Step 2's route, relative to `route`. */
  verificationStep: string;
}

export function createCodeWizardMachine({ id, route, verificationStep }: CodeWizardOptions) {
  const verificationRoute = `${route}/${verificationStep}`;
  const stepMeta = (step: WizardStep, description: string): FlowStateMeta => ({
    route: step === 1 ? route : verificationRoute,
    progress: WIZARD_STEP_PROGRESS[step],
    description,
  });
  const pathOf = (event: CodeWizardEvent) => {
    assertEvent(event, 'route.changed');
    return event.path.replace(/\/+$/, '');
  };

  return setup({
    types: {
      context: {} as CodeWizardContext,
      events: {} as CodeWizardEvent,
      output: {} as CodeWizardOutput,
    },
    actors: {
      start: fromPromise<StartResult, StartInput>(provided('start')),
      verify: fromPromise<VerifyResult, { code: string }>(provided('verify')),
      resend: fromPromise<ResendResult>(provided('resend')),
      cancelChange: fromPromise<void>(provided('cancelChange')),
    },
    guards: {
      isRefused: (_, result: { type: string }) => result.type === 'refused',
      isUnavailable: (_, result: { type: string }) => result.type === 'unavailable',
      isUpdated: (_, result: { type: string }) => result.type === 'updated',
      isSent: (_, result: { type: string }) => result.type === 'sent',
      /** Step 1 has started a change (a code was sent): leaving calls the cancel endpoint (4.7). */
      hasStartedChange: ({ context }) => context.destination !== null,
      mayResend: ({ context }) => context.resendRefusal === null,
      isDetailsRoute: ({ event }) => pathOf(event) === route,
      isVerificationRouteWithDestination: ({ context, event }) =>
        pathOf(event) === verificationRoute && context.destination !== null,
    },
    actions: {
      forgetRefusals: assign({ refusal: null, codeRefusal: null, errorMessage: null }),
      storeRefusal: assign((_, result: StartResult) => ({
        refusal:
          result.type === 'refused' ? { message: result.message, fieldErrors: result.fieldErrors } : null,
      })),
      storeDestination: assign((_, result: StartResult) => ({
        destination: result.type === 'codeSent' ? result.destination : null,
        resendRefusal: null,
        codeRefusal: null,
      })),
      storeCodeRefusal: assign((_, result: VerifyResult) => ({
        codeRefusal:
          result.type === 'refused' ? { message: result.message, fieldErrors: result.fieldErrors } : null,
      })),
      storeSaved: assign((_, result: StartResult | VerifyResult) => ({
        savedUser: result.type === 'updated' || result.type === 'verified' ? result.user : null,
      })),
      storeResendRefusal: assign((_, result: ResendResult) => ({
        resendRefusal: result.type === 'refused' ? result.message : null,
      })),
      storeUnavailable: assign((_, result: { type: string; message?: string }) => ({
        unavailableMessage: result.type === 'unavailable' ? (result.message ?? null) : null,
      })),
      /** 'Resent {type} verification code' (section 8); the page shows the toast. */
      announceResent: () => {},
      reportFailure: assign((_, failure: { error: unknown; step: WizardStep }) => ({
        errorMessage: messageOf(failure.error),
        failedStep: failure.step,
      })),
    },
  }).createMachine({
    id,
    context: {
      destination: null,
      refusal: null,
      codeRefusal: null,
      resendRefusal: null,
      savedUser: null,
      unavailableMessage: null,
      errorMessage: null,
      failedStep: null,
    },
    initial: 'details',
    output: ({ event }) => event.output as CodeWizardOutput,
    states: {
      details: {
        meta: stepMeta(1, 'Step 1: the new value and the current password; the last refusal on the fields.'),
        on: {
          'user.start': { target: 'starting', actions: 'forgetRefusals' },
          'user.cancel': [{ guard: 'hasStartedChange', target: 'cancelling' }, { target: 'cancelled' }],
          'route.changed': { guard: 'isVerificationRouteWithDestination', target: 'verification' },
        },
      },
      starting: {
        meta: stepMeta(1, 'Sending a code to the new value.'),
        invoke: {
          id: 'start',
          src: 'start',
          input: ({ event }) => {
            assertEvent(event, 'user.start');
            return { currentPassword: event.currentPassword, value: event.value };
          },
          onDone: [
            {
              guard: { type: 'isRefused', params: ({ event }) => event.output },
              target: 'details',
              actions: { type: 'storeRefusal', params: ({ event }) => event.output },
            },
            {
              guard: { type: 'isUnavailable', params: ({ event }) => event.output },
              target: 'unavailable',
              actions: { type: 'storeUnavailable', params: ({ event }) => event.output },
            },
            {
              guard: { type: 'isUpdated', params: ({ event }) => event.output },
              target: 'saved',
              actions: { type: 'storeSaved', params: ({ event }) => event.output },
            },
            {
              target: 'verification',
              actions: { type: 'storeDestination', params: ({ event }) => event.output },
            },
          ],
          onError: {
            target: 'failed',
            actions: { type: 'reportFailure', params: ({ event }) => ({ error: event.error, step: 1 }) },
          },
        },
      },
      verification: {
        meta: stepMeta(2, 'Step 2: the code sent to the new value; resend; cancel.'),
        on: {
          'user.verify': { target: 'verifying', actions: 'forgetRefusals' },
          'user.resend': { guard: 'mayResend', target: 'resending' },
          'user.cancel': { target: 'cancelling' },
          'route.changed': { guard: 'isDetailsRoute', target: 'details' },
        },
      },
      verifying: {
        meta: stepMeta(2, 'Checking the code.'),
        invoke: {
          id: 'verify',
          src: 'verify',
          input: ({ event }) => {
            assertEvent(event, 'user.verify');
            return { code: event.code };
          },
          onDone: [
            {
              guard: { type: 'isRefused', params: ({ event }) => event.output },
              target: 'verification',
              actions: { type: 'storeCodeRefusal', params: ({ event }) => event.output },
            },
            { target: 'saved', actions: { type: 'storeSaved', params: ({ event }) => event.output } },
          ],
          onError: {
            target: 'failed',
            actions: { type: 'reportFailure', params: ({ event }) => ({ error: event.error, step: 2 }) },
          },
        },
      },
      resending: {
        meta: stepMeta(2, 'Sending a new code.'),
        invoke: {
          id: 'resend',
          src: 'resend',
          onDone: [
            {
              guard: { type: 'isSent', params: ({ event }) => event.output },
              target: 'verification',
              actions: 'announceResent',
            },
            {
              guard: { type: 'isUnavailable', params: ({ event }) => event.output },
              target: 'unavailable',
              actions: { type: 'storeUnavailable', params: ({ event }) => event.output },
            },
            {
              target: 'verification',
              actions: { type: 'storeResendRefusal', params: ({ event }) => event.output },
            },
          ],
          onError: {
            target: 'failed',
            actions: { type: 'reportFailure', params: ({ event }) => ({ error: event.error, step: 2 }) },
          },
        },
      },
      cancelling: {
        meta: stepMeta(2, 'Cancel: forgetting the started change.'),
        invoke: {
          id: 'cancelChange',
          src: 'cancelChange',
          onDone: { target: 'cancelled' },
          // Nothing changed either way; the started change ends with the session.
          onError: { target: 'cancelled' },
        },
      },
      failed: {
        // The failure view shows the progress of the step it came from (context.failedStep).
        meta: {
          description:
            'An unexpected failure; Back returns to /profile, through the cancel call once a code was sent.',
        },
        on: {
          'user.cancel': [{ guard: 'hasStartedChange', target: 'cancelling' }, { target: 'cancelled' }],
        },
      },
      saved: {
        type: 'final',
        meta: { description: 'Saved: the success toast, the updated user, /profile.' },
        output: ({ context }) => ({ kind: 'saved' as const, route: PROFILE_ROUTE, user: context.savedUser }),
      },
      unavailable: {
        type: 'final',
        meta: { description: 'SMS unavailable (503): the customer message is stored; /profile.' },
        output: ({ context }) => ({
          kind: 'unavailable' as const,
          route: PROFILE_ROUTE,
          message: context.unavailableMessage ?? '',
        }),
      },
      cancelled: {
        type: 'final',
        meta: { description: 'Cancelled: back to /profile.' },
        output: { kind: 'cancelled', route: PROFILE_ROUTE },
      },
    },
  });
}

export type CodeWizardMachine = ReturnType<typeof createCodeWizardMachine>;
