/**
 * The admin's apps screen: every app with its settings (the constant option texts of section 3)
 * and its facilities.
 *
 *   loading (GET admin/apps) --done / storeApps--> ready
 *     --error / reportFailure--> failed --user.retry--> loading
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AdminApp } from '../../../src/contract/admin';
import type { FlowStateMeta } from '../../shared/flow.types';
import { failureMessageOf } from '../../access-requests/access-requests.types';

export const APPS_LOAD_FAILED = 'The apps could not be loaded.';

export interface AppsContext {
  apps: AdminApp[];
  errorMessage: string | null;
}

export type AppsEvent = { type: 'user.retry' };

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));
const meta = (description: string): FlowStateMeta => ({ description });

export const appsMachine = setup({
  types: { context: {} as AppsContext, events: {} as AppsEvent },
  actors: { loadApps: fromPromise<AdminApp[]>(provided('loadApps')) },
  actions: {
    storeApps: assign((_, apps: AdminApp[]) => ({ apps, errorMessage: null })),
    reportFailure: assign((_, failure: { error: unknown }) => ({
      errorMessage: failureMessageOf(failure.error, APPS_LOAD_FAILED),
    })),
  },
}).createMachine({
  id: 'adminApps',
  context: { apps: [], errorMessage: null },
  initial: 'loading',
  states: {
    loading: {
      meta: meta('Loads the apps with their settings and facilities.'),
      invoke: {
        id: 'loadApps',
        src: 'loadApps',
        onDone: { target: 'ready', actions: { type: 'storeApps', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    ready: { meta: meta('Each app: its handoff, access-request handling and facilities.') },
    failed: {
      meta: meta('The apps could not be loaded.'),
      on: { 'user.retry': { target: 'loading' } },
    },
  },
});
