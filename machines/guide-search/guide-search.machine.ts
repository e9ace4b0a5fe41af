/**
 * The user guide's search (sections 2.1 and 4.7: states none, searching, done).
 *
 *   none --query.changed [has terms]--> searching --done--> done
 *   searching --query.changed [has terms]--> searching (the older search is abandoned)
 *   searching | done --query.changed [blank]--> none
 *   done --query.changed [has terms]--> searching
 *
 * The search itself (ranking over the guide's h3 to h6 sections) is the actor 'searchGuide', provided
 * by the guide page: the machine knows nothing of the guide's content. done with no results is what
 * the page shows as 'No result found.'.
 */
import { assign, assertEvent, fromPromise, setup } from 'xstate';
import type {
  GuideSearchActorInput,
  GuideSearchContext,
  GuideSearchEvent,
  GuideSearchResult,
} from './guide-search.types';

/** Whether a query holds anything to search for. */
export const hasTerms = (query: string): boolean => query.trim().length > 0;

export const guideSearchMachine = setup({
  types: {
    context: {} as GuideSearchContext,
    events: {} as GuideSearchEvent,
  },
  actors: {
    searchGuide: fromPromise<readonly GuideSearchResult[], GuideSearchActorInput>(async () => {
      throw new Error('searchGuide is provided by the guide page');
    }),
  },
  guards: {
    queryHasTerms: ({ event }) => hasTerms(event.query),
  },
  actions: {
    rememberQuery: assign(({ event }) => {
      assertEvent(event, 'query.changed');
      return { query: event.query };
    }),
    rememberResults: assign((_, results: readonly GuideSearchResult[]) => ({ results })),
    clearSearch: assign(({ event }) => {
      assertEvent(event, 'query.changed');
      return { query: event.query, results: [] };
    }),
  },
}).createMachine({
  id: 'guideSearch',
  context: { query: '', results: [] },
  initial: 'none',
  on: {
    'query.changed': [
      { guard: 'queryHasTerms', target: '.searching', reenter: true, actions: 'rememberQuery' },
      { target: '.none', actions: 'clearSearch' },
    ],
  },
  states: {
    none: {
      meta: { description: 'No query: the search shows nothing.' },
    },
    searching: {
      meta: { description: 'The query is being ranked against the sections.' },
      invoke: {
        id: 'searchGuide',
        src: 'searchGuide',
        input: ({ context }) => ({ query: context.query }),
        onDone: {
          target: 'done',
          actions: { type: 'rememberResults', params: ({ event }) => event.output },
        },
      },
    },
    done: {
      meta: { description: "Results, best first, or 'No result found.' when there are none." },
    },
  },
});
