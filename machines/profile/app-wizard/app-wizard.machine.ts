/**
 * The authenticator-app wizards (sections 2.3 and 4.7): enrol-authenticator-app, and
 * change-authenticator-app in editing mode (the old app keeps working until the new one is
 * verified). Each is its own machine made here, with its own id and route.
 *
 *   loading (step 1, 50%: setup key and QR code) --done / storeSetup--> setup
 *   setup --user.next--> verification (step 2, 100%: code-verification)
 *   verification --user.verify--> verifying (the code and the current password)
 *     --done[isRefused] 422--> verification (on the fields)   --done--> saved (final)
 *   verification --route.changed[isSetupRoute]--> setup (back to step 1)
 *   setup --route.changed[isVerificationRoute]--> verification (forward again; needs the setup)
 *   setup, verification, failed --user.cancel--> cancelled (final; nothing was enrolled)
 *   any unexpected failure --> failed (with the step it came from: loading is step 1, verifying
 *     step 2)
 * Every final state goes back to /profile.
 */
import { assign, assertEvent, fromPromise, setup } from 'xstate';
import { messageOf, provided } from '../../forced/continue-sign-in/forced-step';
import { PROFILE_ROUTE, PROFILE_WIZARD_STEPS } from '../../routes';
import type { FlowStateMeta } from '../../shared/flow.types';
import { WIZARD_STEP_PROGRESS } from '../profile.types';
import type {
  AppSetup,
  AppWizardContext,
  AppWizardEvent,
  AppWizardOutput,
  VerifyAppInput,
  VerifyAppResult,
  WizardStep,
} from './app-wizard.types';

export interface AppWizardOptions {
  id: string;
  /** The wizard's route (step 1). */
  route: string;
}

export function createAppWizardMachine({ id, route }: AppWizardOptions) {
  const verificationRoute = `${route}/${PROFILE_WIZARD_STEPS.CODE_VERIFICATION}`;
  const stepMeta = (step: WizardStep, description: string): FlowStateMeta => ({
    route: step === 1 ? route : verificationRoute,
    progress: WIZARD_STEP_PROGRESS[step],
    description,
  });
  const pathOf = (event: AppWizardEvent) => {
    assertEvent(event, 'route.changed');
    return event.path.replace(/\/+$/, '');
  };

  return setup({
    types: {
      context: {} as AppWizardContext,
      events: {} as AppWizardEvent,
      output: {} as AppWizardOutput,
    },
    actors: {
      loadSetup: fromPromise<AppSetup>(provided('loadSetup')),
      verify: fromPromise<VerifyAppResult, VerifyAppInput>(provided('verify')),
    },
    guards: {
      isRefused: (_, result: VerifyAppResult) => result.type === 'refused',
      isSetupRoute: ({ event }) => pathOf(event) === route,
      isVerificationRoute: ({ context, event }) =>
        pathOf(event) === verificationRoute && context.setup !== null,
    },
    actions: {
      storeSetup: assign((_, loaded: AppSetup) => ({ setup: loaded })),
      forgetRefusal: assign({ refusal: null, errorMessage: null }),
      storeRefusal: assign((_, result: VerifyAppResult) => ({
        refusal:
          result.type === 'refused' ? { message: result.message, fieldErrors: result.fieldErrors } : null,
      })),
      reportFailure: assign((_, failure: { error: unknown; step: WizardStep }) => ({
        errorMessage: messageOf(failure.error),
        failedStep: failure.step,
      })),
    },
  }).createMachine({
    id,
    context: { setup: null, refusal: null, errorMessage: null, failedStep: null },
    initial: 'loading',
    output: ({ event }) => event.output as AppWizardOutput,
    states: {
      loading: {
        meta: stepMeta(1, 'Step 1: making the new secret (setup key and QR code).'),
        invoke: {
          id: 'loadSetup',
          src: 'loadSetup',
          onDone: { target: 'setup', actions: { type: 'storeSetup', params: ({ event }) => event.output } },
          onError: {
            target: 'failed',
            actions: { type: 'reportFailure', params: ({ event }) => ({ error: event.error, step: 1 }) },
          },
        },
      },
      setup: {
        meta: stepMeta(1, 'Step 1: scan the QR code or type the setup key into the app.'),
        on: {
          'user.next': { target: 'verification' },
          'user.cancel': { target: 'cancelled' },
          'route.changed': { guard: 'isVerificationRoute', target: 'verification' },
        },
      },
      verification: {
        meta: stepMeta(2, 'Step 2: a code of the new app and the current password.'),
        on: {
          'user.verify': { target: 'verifying', actions: 'forgetRefusal' },
          'user.cancel': { target: 'cancelled' },
          'route.changed': { guard: 'isSetupRoute', target: 'setup' },
        },
      },
      verifying: {
        meta: stepMeta(2, 'Checking the code; only now is the app enrolled (or replaced).'),
        invoke: {
          id: 'verify',
          src: 'verify',
          input: ({ event }) => {
            assertEvent(event, 'user.verify');
            return { code: event.code, currentPassword: event.currentPassword };
          },
          onDone: [
            {
              guard: { type: 'isRefused', params: ({ event }) => event.output },
              target: 'verification',
              actions: { type: 'storeRefusal', params: ({ event }) => event.output },
            },
            { target: 'saved' },
          ],
          onError: {
            target: 'failed',
            actions: { type: 'reportFailure', params: ({ event }) => ({ error: event.error, step: 2 }) },
          },
        },
      },
      failed: {
        // The failure view shows the progress of the step it came from (context.failedStep).
        meta: { description: 'An unexpected failure; Back returns to /profile.' },
        on: { 'user.cancel': { target: 'cancelled' } },
      },
      saved: {
        type: 'final',
        meta: { description: 'Enabled or changed: the success toast, /profile.' },
        output: { kind: 'saved', route: PROFILE_ROUTE, user: null },
      },
      cancelled: {
        type: 'final',
        meta: { description: 'Cancelled: nothing was enrolled; back to /profile.' },
        output: { kind: 'cancelled', route: PROFILE_ROUTE },
      },
    },
  });
}

export type AppWizardMachine = ReturnType<typeof createAppWizardMachine>;
