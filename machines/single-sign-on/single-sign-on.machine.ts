/**
 * Single sign-on (spec section 2.1, /single-sign-on): a signed-in user arrives from an application's
 * sign-in request (context type SAML) and is asked whether to hand off to it.
 *
 *   loadingTargets (GET current-user/handoff-targets?appCode) --done / storeTargets--> offering
 *   offering (decides at once):
 *     [hasNoTargets]       --> loadingApp (GET apps/{appCode}, for its name) --done--> noAccess
 *     [hasSeveralTargets]  --> choosing   'Which {app} Facility would you like to handoff to?'
 *     otherwise            --> confirming 'Would you like to handoff to {app}?'
 *   confirming --user.confirm--> handingOff;  choosing --user.choose[isOffered]--> handingOff
 *   confirming, choosing, noAccess --user.cancel--> cancelled (final: the user stays in the portal)
 *   handingOff (POST current-user/sso-saml-handoff) --done, by the result:
 *     [isReady]    / storeSaml --> posting (the view posts SAMLResponse and RelayState to the ACS URL)
 *     [isRefused]  / storeRefusal --> offering (the refusal is shown inline, as section 8 says)
 *     otherwise    (section 8's global handling already acted) --> offering
 *   handingOff --error / storeFailure--> offering (unexpected: shown inline the same way)
 *   posting --page.restored / forgetSaml--> offering (back from the application)
 *   loadingTargets, loadingApp --error / reportFailure--> failed --user.retry--> loadingTargets
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { HandoffTarget } from '../../src/contract/entities';
import { failureMessage, isReadyAttempt, isRefusedAttempt, refusalOf } from '../handoff/handoff.attempt';
import type { HandoffAttempt, HandoffCallInput } from '../handoff/handoff.types';
import { SINGLE_SIGN_ON_ROUTE } from '../routes';
import type { FlowStateMeta } from '../shared/flow.types';
import type {
  AppCodeInput,
  AppName,
  SingleSignOnContext,
  SingleSignOnEvent,
  SingleSignOnInput,
  SingleSignOnOutput,
} from './single-sign-on.types';

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));

const meta = (description: string): FlowStateMeta => ({ route: SINGLE_SIGN_ON_ROUTE, description });

const appNameOf = (context: SingleSignOnContext): string =>
  context.target?.appName ?? context.appName ?? context.appCode;

export const singleSignOnMachine = setup({
  types: {
    context: {} as SingleSignOnContext,
    events: {} as SingleSignOnEvent,
    input: {} as SingleSignOnInput,
    output: {} as SingleSignOnOutput,
  },
  actors: {
    getHandoffTargets: fromPromise<HandoffTarget[], AppCodeInput>(provided('getHandoffTargets')),
    getApp: fromPromise<AppName, AppCodeInput>(provided('getApp')),
    ssoSamlHandoff: fromPromise<HandoffAttempt, HandoffCallInput>(provided('ssoSamlHandoff')),
  },
  guards: {
    hasNoTargets: ({ context }) => context.targets.length === 0,
    hasSeveralTargets: ({ context }) => context.targets.length > 1,
    isOffered: ({ context, event }) => {
      assertEvent(event, 'user.choose');
      return context.targets.some((t) => t.facilityCode === event.facilityCode);
    },
    isReady: (_, attempt: HandoffAttempt) => isReadyAttempt(attempt),
    isRefused: (_, attempt: HandoffAttempt) => isRefusedAttempt(attempt),
  },
  actions: {
    forgetLoad: assign({ errorMessage: null }),
    storeTargets: assign((_, targets: HandoffTarget[]) => ({
      targets,
      appName: targets[0]?.appName ?? null,
    })),
    storeAppName: assign((_, app: AppName) => ({ appName: app.name })),
    reportFailure: assign((_, failure: { error: unknown }) => ({
      errorMessage: failureMessage(failure.error),
    })),
    /** A new attempt starts clean: nothing of the last one's refusal stays. */
    chooseOnlyTarget: assign(({ context }) => ({ target: context.targets[0] ?? null, refusal: null })),
    chooseTarget: assign(({ context, event }) => {
      assertEvent(event, 'user.choose');
      return {
        target: context.targets.find((t) => t.facilityCode === event.facilityCode) ?? null,
        refusal: null,
      };
    }),
    storeSaml: assign((_, attempt: HandoffAttempt) => ({
      saml: isReadyAttempt(attempt) ? attempt.saml : null,
    })),
    storeRefusal: assign(({ context }, attempt: HandoffAttempt) => ({
      refusal: isRefusedAttempt(attempt) ? refusalOf(appNameOf(context), attempt.message) : null,
    })),
    storeFailure: assign(({ context }, failure: { error: unknown }) => ({
      refusal: refusalOf(appNameOf(context), failureMessage(failure.error)),
    })),
    forgetSaml: assign({ saml: null }),
  },
}).createMachine({
  id: 'singleSignOn',
  context: ({ input }) => ({
    appCode: input.appCode,
    appName: null,
    targets: [],
    target: null,
    saml: null,
    refusal: null,
    errorMessage: null,
  }),
  initial: 'loadingTargets',
  output: () => ({ kind: 'cancelled' }),
  states: {
    loadingTargets: {
      meta: meta("Loads the user's handoff targets of the application that asked."),
      entry: 'forgetLoad',
      invoke: {
        id: 'getHandoffTargets',
        src: 'getHandoffTargets',
        input: ({ context }) => ({ appCode: context.appCode }),
        onDone: {
          target: 'offering',
          actions: { type: 'storeTargets', params: ({ event }) => event.output },
        },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    offering: {
      meta: meta('Decides what to ask by the number of targets.'),
      always: [
        { guard: 'hasNoTargets', target: 'loadingApp' },
        { guard: 'hasSeveralTargets', target: 'choosing' },
        { target: 'confirming' },
      ],
    },
    loadingApp: {
      meta: meta('No target: loads the application for its name.'),
      invoke: {
        id: 'getApp',
        src: 'getApp',
        input: ({ context }) => ({ appCode: context.appCode }),
        onDone: {
          target: 'noAccess',
          actions: { type: 'storeAppName', params: ({ event }) => event.output },
        },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    confirming: {
      meta: meta("One target: 'Would you like to handoff to {app}?' with Yes and Cancel."),
      on: {
        'user.confirm': { target: 'handingOff', actions: 'chooseOnlyTarget' },
        'user.cancel': { target: 'cancelled' },
      },
    },
    choosing: {
      meta: meta("Several facilities: 'Which {app} Facility would you like to handoff to?' and the list."),
      on: {
        'user.choose': { guard: 'isOffered', target: 'handingOff', actions: 'chooseTarget' },
        'user.cancel': { target: 'cancelled' },
      },
    },
    noAccess: {
      meta: meta("No target: 'You do not have access to {app}.'"),
      on: {
        'user.cancel': { target: 'cancelled' },
      },
    },
    handingOff: {
      meta: meta('Asks the server for the signed response to the application.'),
      invoke: {
        id: 'ssoSamlHandoff',
        src: 'ssoSamlHandoff',
        input: ({ context }) => ({
          appCode: context.target?.appCode ?? context.appCode,
          facilityCode: context.target?.facilityCode ?? null,
        }),
        onDone: [
          {
            guard: { type: 'isReady', params: ({ event }) => event.output },
            target: 'posting',
            actions: { type: 'storeSaml', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isRefused', params: ({ event }) => event.output },
            target: 'offering',
            actions: { type: 'storeRefusal', params: ({ event }) => event.output },
          },
          { target: 'offering' },
        ],
        onError: { target: 'offering', actions: { type: 'storeFailure', params: ({ event }) => event } },
      },
    },
    posting: {
      meta: meta('A hidden form posts SAMLResponse and RelayState to the consumer URL.'),
      on: {
        'page.restored': { target: 'offering', actions: 'forgetSaml' },
      },
    },
    failed: {
      meta: meta('The targets or the application could not be loaded.'),
      on: {
        'user.retry': { target: 'loadingTargets' },
      },
    },
    cancelled: {
      type: 'final',
      meta: { description: 'The user stays in the portal (their landing page).' },
    },
  },
});
