/**
 * Forced facility selection (spec sections 2.6 and 4.3, /forced-actions/select-facility): the
 * application that asked for the sign-in hands off a facility and the user has several.
 *
 *   loading (GET forced-actions/select-facility/facilities)
 *     --done[hasFacilities] / storeFacilities--> loadingApp
 *     --done / storeFacilities--> noFacilities
 *     --error / reportFailure--> failed --user.retry--> loading
 *   loadingApp (GET apps/{appCode} of the facilities' app, for its name)
 *     --done / storeAppName--> choosing (name and alias-or-code of each)
 *     --error--> choosing (the name stays unknown: the toast names the app by its code)
 *   choosing --user.choose[isListed] / chooseFacility--> handingOff
 *     (POST forced-actions/select-facility/saml-handoff {appCode, facilityCode})
 *   handingOff --done, by the result:
 *     [isReady]    / storeSaml --> posting (the view posts SAMLResponse and RelayState to the ACS URL)
 *     [isRefused]  / storeRefusal --> choosing (the view tells the refusal in section 8's 8 s toast)
 *     otherwise    (section 8's global handling already acted) --> choosing
 *   handingOff --error / storeFailure--> choosing
 *   posting --page.restored / forgetSaml--> choosing (back from the application)
 *
 * Section 8's handoff toast names the application ('... cannot handoff to {app}. ...'), but a
 * facility carries its app's code only (section 3), so the name is looked up with GET apps/{appCode},
 * which answers a sign-in pending at this step for the app it signs in to (403 for any other). It
 * is looked up once, right after the facilities load, and the list waits for it, so no refusal is
 * told before the lookup has answered. Then the server has just answered for this step and this
 * app, so only a change in between makes it fail (401 the session expired, 403 another tab moved
 * the sign-in on, 404 the app went, 5xx or no answer the server failed); looked up after a
 * refusal, possibly minutes later, those are likelier, and the toast would wait on it. Section 8's
 * global handling would navigate away on each of those, for a mere nicety: the app provides getApp
 * without it, so a failed lookup never leaves the step; the list is shown and the toast names the
 * app by its code. The step's own calls keep the global handling, so an expired session is still
 * told at the next click.
 *
 * Leaving the forced step (sign out) is the shell's, not this machine's.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { Facility } from '../../../src/contract/entities';
import { failureMessage, isReadyAttempt, isRefusedAttempt, refusalOf } from '../../handoff/handoff.attempt';
import type { HandoffAttempt } from '../../handoff/handoff.types';
import { FORCED_ACTION_ROUTES } from '../../routes';
import type { FlowStateMeta } from '../../shared/flow.types';
import type {
  SelectFacilityAppInput,
  SelectFacilityAppName,
  SelectFacilityContext,
  SelectFacilityEvent,
} from './select-facility.types';

/** Input of the select-facility handoff: here the facility is never optional. */
export interface SelectFacilityHandoffInput {
  appCode: string;
  facilityCode: string;
}

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));

const meta = (description: string): FlowStateMeta => ({
  route: FORCED_ACTION_ROUTES.SELECT_FACILITY,
  description,
});

/** The application's name when it was looked up; its code (all a facility carries) otherwise. */
const appNameOf = (context: SelectFacilityContext): string =>
  context.appName ?? context.facility?.app.code ?? '';

export const selectFacilityMachine = setup({
  types: {
    context: {} as SelectFacilityContext,
    events: {} as SelectFacilityEvent,
  },
  actors: {
    getFacilities: fromPromise<Facility[]>(provided('getFacilities')),
    /** Must not apply section 8's global handling: a failed lookup only leaves the code in the toast. */
    getApp: fromPromise<SelectFacilityAppName, SelectFacilityAppInput>(provided('getApp')),
    selectFacilityHandoff: fromPromise<HandoffAttempt, SelectFacilityHandoffInput>(
      provided('selectFacilityHandoff'),
    ),
  },
  guards: {
    hasFacilities: (_, facilities: Facility[]) => facilities.length > 0,
    isListed: ({ context, event }) => {
      assertEvent(event, 'user.choose');
      return context.facilities.some((f) => f.code === event.facilityCode);
    },
    isReady: (_, attempt: HandoffAttempt) => isReadyAttempt(attempt),
    isRefused: (_, attempt: HandoffAttempt) => isRefusedAttempt(attempt),
  },
  actions: {
    forgetLoad: assign({ errorMessage: null }),
    storeFacilities: assign((_, facilities: Facility[]) => ({ facilities })),
    storeAppName: assign((_, app: SelectFacilityAppName) => ({ appName: app.name })),
    reportFailure: assign((_, failure: { error: unknown }) => ({
      errorMessage: failureMessage(failure.error),
    })),
    /** A new attempt starts clean: nothing of the last one's refusal stays. */
    chooseFacility: assign(({ context, event }) => {
      assertEvent(event, 'user.choose');
      return {
        facility: context.facilities.find((f) => f.code === event.facilityCode) ?? null,
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
  id: 'selectFacility',
  context: {
    facilities: [],
    appName: null,
    facility: null,
    saml: null,
    refusal: null,
    errorMessage: null,
  },
  initial: 'loading',
  states: {
    loading: {
      meta: meta('Loads the facilities to choose from.'),
      entry: 'forgetLoad',
      invoke: {
        id: 'getFacilities',
        src: 'getFacilities',
        onDone: [
          {
            guard: { type: 'hasFacilities', params: ({ event }) => event.output },
            target: 'loadingApp',
            actions: { type: 'storeFacilities', params: ({ event }) => event.output },
          },
          {
            target: 'noFacilities',
            actions: { type: 'storeFacilities', params: ({ event }) => event.output },
          },
        ],
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    loadingApp: {
      meta: meta("Looks up the facilities' application for its name (the handoff toast's)."),
      invoke: {
        id: 'getApp',
        src: 'getApp',
        // Every facility offered is of the application the sign-in is for (the session's context).
        input: ({ context }) => ({ appCode: context.facilities[0]?.app.code ?? '' }),
        onDone: {
          target: 'choosing',
          actions: { type: 'storeAppName', params: ({ event }) => event.output },
        },
        onError: { target: 'choosing' },
      },
    },
    choosing: {
      meta: meta('The facilities, each with its name and alias or code; a click hands off.'),
      on: {
        'user.choose': { guard: 'isListed', target: 'handingOff', actions: 'chooseFacility' },
      },
    },
    noFacilities: {
      meta: meta('The server offered no facility: nothing to choose.'),
    },
    handingOff: {
      meta: meta('Asks the server for the signed response to the application.'),
      invoke: {
        id: 'selectFacilityHandoff',
        src: 'selectFacilityHandoff',
        input: ({ context }) => ({
          appCode: context.facility?.app.code ?? '',
          facilityCode: context.facility?.code ?? '',
        }),
        onDone: [
          {
            guard: { type: 'isReady', params: ({ event }) => event.output },
            target: 'posting',
            actions: { type: 'storeSaml', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isRefused', params: ({ event }) => event.output },
            target: 'choosing',
            actions: { type: 'storeRefusal', params: ({ event }) => event.output },
          },
          { target: 'choosing' },
        ],
        onError: { target: 'choosing', actions: { type: 'storeFailure', params: ({ event }) => event } },
      },
    },
    posting: {
      meta: meta('A hidden form posts SAMLResponse and RelayState to the consumer URL.'),
      on: {
        'page.restored': { target: 'choosing', actions: 'forgetSaml' },
      },
    },
    failed: {
      meta: meta('The facilities could not be loaded.'),
      on: {
        'user.retry': { target: 'loading' },
      },
    },
  },
});
