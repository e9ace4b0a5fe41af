// The access-request machines as test models: the events the graph explores, with fixture payloads
// for every user event and every actor outcome (answers follow the machine's context, so the state
// space stays finite: a list of 45, a search with 3, a history of 7; a decision is taken, refused,
// found taken meanwhile (the reload then answers the decided request) or fails).
import type { AnyStateMachine, EventObject, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { pageCount, reachablePageCount } from '../../machines/access-requests/access-requests.types';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import type { HistoryEvent } from '../../machines/access-requests/history/history.types';
import { requestListMachine } from '../../machines/access-requests/request-list/request-list.machine';
import type { RequestListEvent } from '../../machines/access-requests/request-list/request-list.types';
import { requestMachine } from '../../machines/access-requests/request/request.machine';
import {
  pendingDecision,
  type RequestEvent,
  type RequestInput,
} from '../../machines/access-requests/request/request.types';
import type { PageMetadata } from '../../src/contract/admin';
import {
  ALREADY_DECIDED,
  decidedDetails,
  historyPage,
  listPage,
  REQUEST_DETAILS,
  TICKET_REFUSAL,
  UNEXPECTED_FAILURE,
} from '../machines/access-requests.fixtures';
import { done, failed } from './handoff.model';
import { coveringPaths } from './harness/paths';

export type ListSnapshot = SnapshotFrom<typeof requestListMachine>;
export type HistorySnapshot = SnapshotFrom<typeof historyMachine>;
export type RequestSnapshot = SnapshotFrom<typeof requestMachine>;

export const LIST_TOTAL = 45;
export const SEARCH_TOTAL = 3;
export const SEARCH_QUERY = 'treasury';
export const HISTORY_TOTAL = 7;

/** What the admin types to confirm each decision (the reason only counts for a rejection). */
export const CONFIRMATION = {
  approve: { ticketCode: 'SUP-4711', reason: '' },
  reject: { ticketCode: 'SUP-815', reason: 'Manager approval was not given.' },
} as const;

export const listTotalOf = (query: string) => (query === '' ? LIST_TOTAL : SEARCH_TOTAL);

type Fixtures<S> = Record<string, (s: S) => EventObject[]>;

function eventsFrom<S extends { _nodes: Array<{ ownEvents: unknown }> }>(
  fixtures: Fixtures<S>,
  name: string,
) {
  return (snapshot: S): EventObject[] => {
    const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
    return [...types].flatMap((type) => {
      const make = fixtures[type];
      if (!make) throw new Error(`No fixtures for the event '${type}' of ${name}.`);
      return make(snapshot);
    });
  };
}

/**
 * The last page when showing the first, else the first: both ways through the pagination. The
 * list's pages are those the server serves (reachablePageCount: LIST_PAGE_LIMIT at most), the
 * history's all of them.
 */
const otherPage = (
  s: {
    context: { page: number; result: { page: PageMetadata } | null };
  },
  pages: (page: PageMetadata) => number = pageCount,
) => {
  const result = s.context.result;
  if (!result || pages(result.page) < 2) return [];
  return [s.context.page === 0 ? pages(result.page) - 1 : 0];
};

export const listFixtures = {
  'user.search': (s) => [{ type: 'user.search', query: s.context.query === '' ? SEARCH_QUERY : '' }],
  'user.page': (s) => otherPage(s, reachablePageCount).map((page) => ({ type: 'user.page', page })),
  'user.retry': () => [{ type: 'user.retry' }],
  'xstate.done.actor.loadAccessRequests': (s) => [
    done('loadAccessRequests', listPage(s.context.page, listTotalOf(s.context.query), s.context.query)),
  ],
  'xstate.error.actor.loadAccessRequests': () => [failed('loadAccessRequests', UNEXPECTED_FAILURE)],
} satisfies Fixtures<ListSnapshot>;

export const historyFixtures = {
  'user.page': (s) => otherPage(s).map((page) => ({ type: 'user.page', page })),
  'user.retry': () => [{ type: 'user.retry' }],
  'xstate.done.actor.loadHistoryPage': (s) => [
    done('loadHistoryPage', historyPage(s.context.page, HISTORY_TOTAL)),
  ],
  'xstate.error.actor.loadHistoryPage': () => [failed('loadHistoryPage', UNEXPECTED_FAILURE)],
} satisfies Fixtures<HistorySnapshot>;

const mayDecide = (s: RequestSnapshot) => pendingDecision(s.context) === 'decide';

export const requestFixtures = {
  'user.retry': () => [{ type: 'user.retry' }],
  'user.approve': (s) => (mayDecide(s) ? [{ type: 'user.approve' }] : []),
  'user.reject': (s) => (mayDecide(s) ? [{ type: 'user.reject' }] : []),
  'user.cancel': () => [{ type: 'user.cancel' }],
  'user.confirm': (s) => [{ type: 'user.confirm', ...CONFIRMATION[s.context.decision ?? 'approve'] }],
  'xstate.done.actor.decideAccessRequest': (s) => [
    done('decideAccessRequest', {
      type: 'decided',
      details: decidedDetails(s.context.decision === 'reject' ? 'REJECTED' : 'APPROVED'),
    }),
    done('decideAccessRequest', {
      type: 'refused',
      message: TICKET_REFUSAL,
      fieldErrors: { ticketCode: TICKET_REFUSAL },
    }),
    done('decideAccessRequest', { type: 'alreadyDecided', message: ALREADY_DECIDED }),
  ],
  'xstate.error.actor.decideAccessRequest': () => [failed('decideAccessRequest', UNEXPECTED_FAILURE)],
  'xstate.done.actor.resolveAccessRequestId': () => [
    done('resolveAccessRequestId', { id: REQUEST_DETAILS.id }),
  ],
  'xstate.error.actor.resolveAccessRequestId': () => [failed('resolveAccessRequestId', UNEXPECTED_FAILURE)],
  // Decided meanwhile (409): loaded again, the request is the decided one.
  'xstate.done.actor.loadAccessRequest': (s) => [
    done(
      'loadAccessRequest',
      s.context.outcome?.type === 'alreadyDecided' ? decidedDetails('APPROVED') : REQUEST_DETAILS,
    ),
  ],
  'xstate.error.actor.loadAccessRequest': () => [failed('loadAccessRequest', UNEXPECTED_FAILURE)],
} satisfies Fixtures<RequestSnapshot>;

export const LIST_EVENT_TYPES = Object.keys(listFixtures);
export const HISTORY_EVENT_TYPES = Object.keys(historyFixtures);
export const REQUEST_EVENT_TYPES = Object.keys(requestFixtures);

const serializeState = (snapshot: { value: unknown; context: unknown }) =>
  JSON.stringify({ value: snapshot.value, context: snapshot.context });

function describeEvent(event: EventObject): string {
  const e = event as EventObject & {
    query?: string;
    page?: number;
    output?: { page?: { number: number }; type?: string };
  };
  if (e.type === 'user.search') return `search '${e.query}'`;
  if (e.type === 'xstate.done.actor.decideAccessRequest') return `decision ${e.output?.type}`;
  if (e.type === 'user.page') return `page ${(e.page ?? 0) + 1}`;
  if (e.type.startsWith('xstate.done.actor.')) {
    const page = e.output?.page;
    return `${e.type.slice('xstate.done.actor.'.length)} answers${page ? ` page ${page.number + 1}` : ''}`;
  }
  return e.type.replace(/^user\./, '').replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails');
}

function pathsOf<M extends AnyStateMachine, E extends EventObject>(
  machine: M,
  fixtures: Fixtures<SnapshotFrom<M>>,
  input: unknown,
) {
  const events = eventsFrom(fixtures as never, machine.id) as unknown as (s: SnapshotFrom<M>) => E[];
  return coveringPaths(
    new TestModel(machine, {
      events: events as never,
      serializeState,
      stateMatcher: (snapshot, key) => (snapshot as { matches: (k: never) => boolean }).matches(key as never),
    }) as never,
    machine,
    { input, events, serializeState, describeEvent } as never,
  ) as unknown as ReturnType<typeof coveringPaths<SnapshotFrom<M> & { value: unknown }, E, unknown>>;
}

export const listPaths = () =>
  pathsOf<typeof requestListMachine, RequestListEvent>(requestListMachine, listFixtures as never, {});
export const historyPaths = () =>
  pathsOf<typeof historyMachine, HistoryEvent>(historyMachine, historyFixtures as never, {
    id: REQUEST_DETAILS.id,
  });
export const requestPaths = (input: RequestInput) =>
  pathsOf<typeof requestMachine, RequestEvent>(requestMachine, requestFixtures as never, input);
