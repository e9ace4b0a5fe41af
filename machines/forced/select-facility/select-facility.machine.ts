/**
 * Forced facility selection (spec sections 2.6 and 4.3, /forced-actions/select-facility): the
 * application that asked for the sign-in hands off a facility and the user has several.
 *
 *   loading (GET forced-actions/select-facility/facilities)
 *     --done[hasFacilities] / storeFacilities--> choosing (name and alias-or-code of each)
 *     --done / storeFacilities--> noFacilities
 *     --error / reportFailure--> failed --user.retry--> loading
 *   choosing --user.choose[isListed] / chooseFacility--> handingOff
 *     (POST forced-actions/select-facility/saml-handoff {appCode, facilityCode})
 *   handingOff --done, by the result:
 *     [isReady]    / storeSaml --> posting (the view posts SAMLResponse and RelayState to the ACS URL)
 *     [isRefused]  / storeRefusal --> choosing (the view tells the refusal in section 8's 8 s toast)
 *     otherwise    (section 8's global handling already acted) --> choosing
 *   handingOff --error / storeFailure--> choosing
 *   posting --page.restored / forgetSaml--> choosing (back from the application)
 *
 * Leaving the forced step (sign out) is the shell's, not this machine's.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { Facility } from '../../../src/contract/entities';
import { failureMessage, isReadyAttempt, isRefusedAttempt, refusalOf } from '../../handoff/handoff.attempt';
import type { HandoffAttempt } from '../../handoff/handoff.types';
import { FORCED_ACTION_ROUTES } from '../../routes';
import type { FlowStateMeta } from '../../shared/flow.types';
import type { SelectFacilityContext, SelectFacilityEvent } from './select-facility.types';

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

/** The facility handoff knows the application by its code only. */
const appNameOf = (context: SelectFacilityContext): string => context.facility?.app.code ?? '';

export const selectFacilityMachine = setup({
  types: {
    context: {} as SelectFacilityContext,
    events: {} as SelectFacilityEvent,
  },
  actors: {
    getFacilities: fromPromise<Facility[]>(provided('getFacilities')),
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
  context: { facilities: [], facility: null, saml: null, refusal: null, errorMessage: null },
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
            target: 'choosing',
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
