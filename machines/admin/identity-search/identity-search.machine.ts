/**
 * The admin's identity search (/admin/identities?query=…): identities by username, name, email,
 * mobile or customer number, through the paged list helper (GET admin/identities {page, query}).
 * The header's search bar and the page's own search both change the address's query, which the
 * page sends here as user.search once the load under way has answered.
 *
 *   loading (GET admin/identities {page, query})
 *     --done / storeResult--> ready (rows, result count, pagination)
 *     --error / reportFailure--> failed --user.retry--> loading
 *   ready, failed --user.search {query} / applySearch (first page)--> loading
 *   ready --user.page {page} [isOtherPage] / choosePage--> loading
 *
 * The pages are those the server serves: LIST_PAGE_LIMIT at most, however many identities match
 * (reachablePageCount).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { IdentitySummary } from '../../../src/contract/admin-identities';
import type { FlowStateMeta } from '../../shared/flow.types';
import {
  failureMessageOf,
  reachablePageCount,
  type Paged,
} from '../../access-requests/access-requests.types';

export const IDENTITY_SEARCH_FAILED = 'The identities could not be loaded.';

export interface IdentitySearchInput {
  query?: string;
}

export interface IdentitySearchQuery {
  query: string;
  page: number;
}

export interface IdentitySearchContext {
  /** The search applied to the list shown (or being loaded). */
  query: string;
  /** Zero-based page being shown or loaded. */
  page: number;
  result: Paged<IdentitySummary> | null;
  errorMessage: string | null;
}

export type IdentitySearchEvent =
  { type: 'user.search'; query: string } | { type: 'user.page'; page: number } | { type: 'user.retry' };

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));
const meta = (description: string): FlowStateMeta => ({ description });

export const identitySearchMachine = setup({
  types: {
    context: {} as IdentitySearchContext,
    events: {} as IdentitySearchEvent,
    input: {} as IdentitySearchInput,
  },
  actors: {
    searchIdentities: fromPromise<Paged<IdentitySummary>, IdentitySearchQuery>(provided('searchIdentities')),
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
    storeResult: assign((_, result: Paged<IdentitySummary>) => ({ result })),
    reportFailure: assign((_, failure: { error: unknown }) => ({
      errorMessage: failureMessageOf(failure.error, IDENTITY_SEARCH_FAILED),
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
  id: 'adminIdentitySearch',
  context: ({ input }) => ({ query: input.query?.trim() ?? '', page: 0, result: null, errorMessage: null }),
  initial: 'loading',
  states: {
    loading: {
      meta: meta('Loads one page of identities matching the search.'),
      entry: 'forgetFailure',
      invoke: {
        id: 'searchIdentities',
        src: 'searchIdentities',
        input: ({ context }) => ({ query: context.query, page: context.page }),
        onDone: { target: 'ready', actions: { type: 'storeResult', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    ready: {
      meta: meta('The page of identities, the result count and the pagination.'),
      on: {
        'user.search': { target: 'loading', actions: 'applySearch' },
        'user.page': { guard: 'isOtherPage', target: 'loading', actions: 'choosePage' },
      },
    },
    failed: {
      meta: meta('The identities could not be loaded.'),
      on: {
        'user.search': { target: 'loading', actions: 'applySearch' },
        'user.retry': { target: 'loading' },
      },
    },
  },
});
