/**
 * One access request (section 2.7): /access-requests/{appCode}/{code} resolves the id and redirects
 * to /access-requests/{id}; there the request is loaded for its tabs (organisations by default).
 *
 *   start --[byCode]--> resolving (GET access-requests/{appCode}/{code}/id)
 *                         --done / storeId--> resolved (the view redirects to /access-requests/{id})
 *                         --error / reportFailure--> failed
 *         --otherwise--> loading (GET access-requests/{id})
 *                         --done / storeDetails--> ready (the tabs)
 *                         --error / reportFailure--> failed
 *   failed --user.retry--> start
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AccessRequestDetails } from '../../../src/contract/admin';
import type { FlowStateMeta } from '../../shared/flow.types';
import { failureMessageOf, LOAD_FAILED_MESSAGE } from '../access-requests.types';
import type { RequestContext, RequestEvent, RequestInput } from './request.types';

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));
const meta = (description: string): FlowStateMeta => ({ description });

export const requestMachine = setup({
  types: {
    context: {} as RequestContext,
    events: {} as RequestEvent,
    input: {} as RequestInput,
  },
  actors: {
    resolveAccessRequestId: fromPromise<{ id: string }, { appCode: string; code: string }>(
      provided('resolveAccessRequestId'),
    ),
    loadAccessRequest: fromPromise<AccessRequestDetails, { id: string }>(provided('loadAccessRequest')),
  },
  guards: {
    byCode: ({ context }) => context.id === null,
  },
  actions: {
    forgetFailure: assign({ errorMessage: null }),
    storeId: assign((_, resolved: { id: string }) => ({ id: resolved.id })),
    storeDetails: assign((_, details: AccessRequestDetails) => ({ details })),
    reportFailure: assign((_, failure: { error: unknown }) => ({
      errorMessage: failureMessageOf(failure.error, LOAD_FAILED_MESSAGE),
    })),
  },
}).createMachine({
  id: 'accessRequest',
  context: ({ input }) => ({
    input,
    id: 'id' in input ? input.id : null,
    details: null,
    errorMessage: null,
  }),
  initial: 'start',
  states: {
    start: {
      meta: meta('Decides whether the id must be resolved from the app code and code first.'),
      always: [{ guard: 'byCode', target: 'resolving' }, { target: 'loading' }],
    },
    resolving: {
      meta: meta('Resolves the app code and request code to the request id.'),
      entry: 'forgetFailure',
      invoke: {
        id: 'resolveAccessRequestId',
        src: 'resolveAccessRequestId',
        input: ({ context }) =>
          'appCode' in context.input
            ? { appCode: context.input.appCode, code: context.input.code }
            : { appCode: '', code: '' },
        onDone: { target: 'resolved', actions: { type: 'storeId', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    resolved: {
      meta: meta('The id is known: the view redirects to /access-requests/{id}.'),
    },
    loading: {
      meta: meta('Loads the access request.'),
      entry: 'forgetFailure',
      invoke: {
        id: 'loadAccessRequest',
        src: 'loadAccessRequest',
        input: ({ context }) => ({ id: context.id ?? '' }),
        onDone: { target: 'ready', actions: { type: 'storeDetails', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    ready: {
      meta: meta('The request with its tabs: organisations (default), history and api-calls.'),
    },
    failed: {
      meta: meta('The access request could not be loaded.'),
      on: { 'user.retry': { target: 'start' } },
    },
  },
});
