/**
 * The admin's SMS gateway switch: SMS codes on or off for every instance (during a provider
 * outage the flows fall back: MFA to email, reset to security questions).
 *
 *   loading (GET the sms-gateway-status property) --done / storeStatus--> ready
 *     --error / reportFailure--> failed --user.retry--> loading
 *   ready --user.switch {available} [isChange] / chooseStatus--> saving
 *   saving (POST admin/properties/sms-gateway-status)
 *     --done / storeSaved--> ready (the stored status, and a notice)
 *     --error / storeSaveError--> ready (unchanged, with the reason)
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { FlowStateMeta } from '../../shared/flow.types';
import { failureMessageOf } from '../../access-requests/access-requests.types';

export const SMS_STATUS_LOAD_FAILED = 'The SMS gateway status could not be loaded.';
export const SMS_STATUS_SAVE_FAILED = 'The SMS gateway status could not be changed.';

export interface SmsGatewayContext {
  available: boolean | null;
  /** The status being saved. */
  wanted: boolean | null;
  /** Set after a save: the notice of what was stored. */
  saved: boolean | null;
  saveError: string | null;
  errorMessage: string | null;
}

export type SmsGatewayEvent = { type: 'user.switch'; available: boolean } | { type: 'user.retry' };

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));
const meta = (description: string): FlowStateMeta => ({ description });

export const smsGatewayMachine = setup({
  types: { context: {} as SmsGatewayContext, events: {} as SmsGatewayEvent },
  actors: {
    loadStatus: fromPromise<boolean>(provided('loadStatus')),
    saveStatus: fromPromise<boolean, { available: boolean }>(provided('saveStatus')),
  },
  guards: {
    isChange: ({ context, event }) => {
      assertEvent(event, 'user.switch');
      return event.available !== context.available;
    },
  },
  actions: {
    storeStatus: assign((_, available: boolean) => ({ available, errorMessage: null })),
    reportFailure: assign((_, failure: { error: unknown }) => ({
      errorMessage: failureMessageOf(failure.error, SMS_STATUS_LOAD_FAILED),
    })),
    chooseStatus: assign(({ event }) => {
      assertEvent(event, 'user.switch');
      return { wanted: event.available, saved: null, saveError: null };
    }),
    storeSaved: assign((_, available: boolean) => ({ available, saved: available, wanted: null })),
    storeSaveError: assign((_, failure: { error: unknown }) => ({
      saveError: failureMessageOf(failure.error, SMS_STATUS_SAVE_FAILED),
      wanted: null,
    })),
  },
}).createMachine({
  id: 'adminSmsGateway',
  context: { available: null, wanted: null, saved: null, saveError: null, errorMessage: null },
  initial: 'loading',
  states: {
    loading: {
      meta: meta('Loads whether SMS codes are sent.'),
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: { target: 'ready', actions: { type: 'storeStatus', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    ready: {
      meta: meta('The switch, on when SMS codes are sent.'),
      on: { 'user.switch': { guard: 'isChange', target: 'saving', actions: 'chooseStatus' } },
    },
    saving: {
      meta: meta('Stores the new status for every instance.'),
      invoke: {
        id: 'saveStatus',
        src: 'saveStatus',
        input: ({ context }) => ({ available: context.wanted ?? false }),
        onDone: { target: 'ready', actions: { type: 'storeSaved', params: ({ event }) => event.output } },
        onError: { target: 'ready', actions: { type: 'storeSaveError', params: ({ event }) => event } },
      },
    },
    failed: {
      meta: meta('The status could not be loaded.'),
      on: { 'user.retry': { target: 'loading' } },
    },
  },
});
