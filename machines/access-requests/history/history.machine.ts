/**
 * An access request's history, five items per page (sections 2.7 and 9). The history tab and the
 * api-calls tab both run it; each provides its own page loader.
 *
 *   loading (GET access-requests/{id}/history {page}, or .../api-calls)
 *     --done / storeResult--> ready (items, result count, 'N pages' when more than one)
 *     --error / reportFailure--> failed --user.retry--> loading
 *   ready --user.page {page} [isOtherPage] / choosePage--> loading
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { HistoryItem } from '../../../src/contract/admin';
import type { FlowStateMeta } from '../../shared/flow.types';
import { failureMessageOf, LOAD_FAILED_MESSAGE, pageCount, type Paged } from '../access-requests.types';
import type { HistoryContext, HistoryEvent, HistoryInput, HistoryPageQuery } from './history.types';

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));
const meta = (description: string): FlowStateMeta => ({ description });

export const historyMachine = setup({
  types: {
    context: {} as HistoryContext,
    events: {} as HistoryEvent,
    input: {} as HistoryInput,
  },
  actors: {
    loadHistoryPage: fromPromise<Paged<HistoryItem>, HistoryPageQuery>(provided('loadHistoryPage')),
  },
  guards: {
    isOtherPage: ({ context, event }) => {
      assertEvent(event, 'user.page');
      const last = context.result ? pageCount(context.result.page) - 1 : 0;
      return event.page !== context.page && event.page >= 0 && event.page <= last;
    },
  },
  actions: {
    forgetFailure: assign({ errorMessage: null }),
    storeResult: assign((_, result: Paged<HistoryItem>) => ({ result })),
    reportFailure: assign((_, failure: { error: unknown }) => ({
      errorMessage: failureMessageOf(failure.error, LOAD_FAILED_MESSAGE),
    })),
    choosePage: assign(({ event }) => {
      assertEvent(event, 'user.page');
      return { page: event.page };
    }),
  },
}).createMachine({
  id: 'accessRequestHistory',
  context: ({ input }) => ({ id: input.id, page: 0, result: null, errorMessage: null }),
  initial: 'loading',
  states: {
    loading: {
      meta: meta('Loads one page of five history items.'),
      entry: 'forgetFailure',
      invoke: {
        id: 'loadHistoryPage',
        src: 'loadHistoryPage',
        input: ({ context }) => ({ id: context.id, page: context.page }),
        onDone: { target: 'ready', actions: { type: 'storeResult', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    ready: {
      meta: meta('The history items of the page, the result count and the pagination.'),
      on: {
        'user.page': { guard: 'isOtherPage', target: 'loading', actions: 'choosePage' },
      },
    },
    failed: {
      meta: meta('The history could not be loaded.'),
      on: { 'user.retry': { target: 'loading' } },
    },
  },
});
