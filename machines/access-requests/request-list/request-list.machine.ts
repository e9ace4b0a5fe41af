/**
 * The access-request list (section 2.7, /access-requests): searchable and paged, through the paged
 * list helper of section 7 (GET access-requests with page and query).
 *
 *   loading (GET access-requests {page, query})
 *     --done / storeResult--> ready (rows, result count, pagination)
 *     --error / reportFailure--> failed --user.retry--> loading
 *   ready --user.search {query} / applySearch (back to the first page)--> loading
 *         --user.page {page} [isOtherPage] / choosePage--> loading
 *   failed --user.search {query} / applySearch--> loading (the search form stays offered: a search
 *     after a failed load runs, as Try again does, with the query typed)
 *
 * The pages are those the server serves: LIST_PAGE_LIMIT at most, however many requests match
 * (reachablePageCount); an input page is clamped to the last of them.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { AccessRequestSummary } from '../../../src/contract/admin';
import type { FlowStateMeta } from '../../shared/flow.types';
import {
  clampListPage,
  failureMessageOf,
  LOAD_FAILED_MESSAGE,
  reachablePageCount,
  type Paged,
} from '../access-requests.types';
import type {
  RequestListContext,
  RequestListEvent,
  RequestListInput,
  RequestListQuery,
} from './request-list.types';

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));
const meta = (description: string): FlowStateMeta => ({ description });

export const requestListMachine = setup({
  types: {
    context: {} as RequestListContext,
    events: {} as RequestListEvent,
    input: {} as RequestListInput,
  },
  actors: {
    loadAccessRequests: fromPromise<Paged<AccessRequestSummary>, RequestListQuery>(
      provided('loadAccessRequests'),
    ),
  },
  guards: {
    isOtherPage: ({ context, event }) => {
      assertEvent(event, 'user.page');
      // Within the pages the server serves (LIST_PAGE_LIMIT at most), however many match.
      const last = context.result ? reachablePageCount(context.result.page) - 1 : 0;
      return event.page !== context.page && event.page >= 0 && event.page <= last;
    },
  },
  actions: {
    forgetFailure: assign({ errorMessage: null }),
    storeResult: assign((_, result: Paged<AccessRequestSummary>) => ({ result })),
    reportFailure: assign((_, failure: { error: unknown }) => ({
      errorMessage: failureMessageOf(failure.error, LOAD_FAILED_MESSAGE),
    })),
    applySearch: assign(({ event }) => {
      assertEvent(event, 'user.search');
      return { query: event.query.trim(), page: 0 };
    }),
    choosePage: assign(({ event }) => {
      assertEvent(event, 'user.page');
      return { page: event.page };
    }),
  },
}).createMachine({
  id: 'accessRequestList',
  context: ({ input }) => ({
    query: input.query?.trim() ?? '',
    // A page asked for from outside is one the server serves (LIST_PAGE_LIMIT - 1 at most).
    page: clampListPage(input.page ?? 0),
    result: null,
    errorMessage: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      meta: meta('Loads one page of access requests matching the search.'),
      entry: 'forgetFailure',
      invoke: {
        id: 'loadAccessRequests',
        src: 'loadAccessRequests',
        input: ({ context }) => ({ query: context.query, page: context.page }),
        onDone: { target: 'ready', actions: { type: 'storeResult', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    ready: {
      meta: meta('The page of access requests, the result count and the pagination.'),
      on: {
        'user.search': { target: 'loading', actions: 'applySearch' },
        'user.page': { guard: 'isOtherPage', target: 'loading', actions: 'choosePage' },
      },
    },
    failed: {
      meta: meta('The access requests could not be loaded.'),
      on: {
        'user.retry': { target: 'loading' },
        'user.search': { target: 'loading', actions: 'applySearch' },
      },
    },
  },
});
