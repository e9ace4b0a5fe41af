// Hand-pinned transitions of the access-request machines (section 2.7): the list's search and
// paging (none past the server's LIST_PAGE_LIMIT pages, a page given past it asked as the last),
// the history's paging (five per page), one request resolved by code or loaded by id, and
// an admin's decision on a pending request (confirm, refusals, decided meanwhile; viewers cannot).
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  clampListPage,
  pageCount,
  reachablePageCount,
  type Paged,
} from '../../machines/access-requests/access-requests.types';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import * as historySelect from '../../machines/access-requests/history/history.select';
import type { HistoryPageQuery } from '../../machines/access-requests/history/history.types';
import { requestListMachine } from '../../machines/access-requests/request-list/request-list.machine';
import * as listSelect from '../../machines/access-requests/request-list/request-list.select';
import type {
  RequestListInput,
  RequestListQuery,
} from '../../machines/access-requests/request-list/request-list.types';
import { requestMachine } from '../../machines/access-requests/request/request.machine';
import * as requestSelect from '../../machines/access-requests/request/request.select';
import type {
  DecideInput,
  DecideResult,
  RequestInput,
} from '../../machines/access-requests/request/request.types';
import {
  LIST_PAGE_LIMIT,
  type AccessRequestDetails,
  type AccessRequestSummary,
  type HistoryItem,
} from '../../src/contract/admin';
import {
  ALREADY_DECIDED,
  decidedDetails,
  REQUEST_DETAILS,
  historyPage,
  listPage,
  TICKET_REFUSAL,
  UNEXPECTED_FAILURE,
} from './access-requests.fixtures';
import { walkToThePageCap } from './fixtures/page-cap';

type Answer<T> = T | Error;
const answer = async <T>(next: Answer<T> | undefined, what: string): Promise<T> => {
  if (next === undefined) throw new Error(`No ${what} answer scripted`);
  if (next instanceof Error) throw next;
  return next;
};

describe('pageCount', () => {
  it('counts pages of the size, an empty list as one', () => {
    expect(pageCount({ number: 0, size: 5, totalElements: 0 })).toBe(1);
    expect(pageCount({ number: 0, size: 5, totalElements: 5 })).toBe(1);
    expect(pageCount({ number: 0, size: 5, totalElements: 6 })).toBe(2);
    expect(pageCount({ number: 0, size: 20, totalElements: 41 })).toBe(3);
  });
});

describe('reachablePageCount and clampListPage (the lists the server pages up to LIST_PAGE_LIMIT)', () => {
  it('counts the pages up to the cap, and keeps a page number within it', () => {
    expect(reachablePageCount({ number: 0, size: 20, totalElements: 41 })).toBe(3);
    expect(reachablePageCount({ number: 0, size: 20, totalElements: 20 * LIST_PAGE_LIMIT })).toBe(
      LIST_PAGE_LIMIT,
    );
    expect(reachablePageCount({ number: 0, size: 20, totalElements: 12_345 })).toBe(LIST_PAGE_LIMIT);
    expect([0, 7, LIST_PAGE_LIMIT - 1, LIST_PAGE_LIMIT, 5_000_000, -1].map(clampListPage)).toEqual([
      0,
      7,
      LIST_PAGE_LIMIT - 1,
      LIST_PAGE_LIMIT - 1,
      LIST_PAGE_LIMIT - 1,
      0,
    ]);
  });
});

describe('access-request list machine', () => {
  function start(answers: Array<Answer<Paged<AccessRequestSummary>>>, input: RequestListInput = {}) {
    const queue = [...answers];
    const calls: RequestListQuery[] = [];
    const actor = createActor(
      requestListMachine.provide({
        actors: {
          loadAccessRequests: fromPromise<Paged<AccessRequestSummary>, RequestListQuery>(({ input }) => {
            calls.push(input);
            return answer(queue.shift(), 'list');
          }),
        },
      }),
      { input },
    );
    actor.start();
    return { actor, calls };
  }

  it('loads the first page unfiltered, then searches from the first page and pages', async () => {
    const { actor, calls } = start([
      listPage(0, 45),
      listPage(0, 3, 'treasury'),
      listPage(1, 45),
      listPage(0, 45),
    ]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(calls).toEqual([{ query: '', page: 0 }]);
    expect(listSelect.selectRows(actor.getSnapshot())).toHaveLength(20);
    expect(listSelect.selectPage(actor.getSnapshot())).toEqual({ number: 0, size: 20, totalElements: 45 });

    actor.send({ type: 'user.search', query: '  treasury ' });
    expect(listSelect.selectView(actor.getSnapshot())).toBe('loading');
    // The last page stays on screen while the next loads.
    expect(listSelect.selectRows(actor.getSnapshot())).toHaveLength(20);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(calls.at(-1)).toEqual({ query: 'treasury', page: 0 });
    expect(listSelect.selectQuery(actor.getSnapshot())).toBe('treasury');

    actor.send({ type: 'user.search', query: '' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.page', page: 0 });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'user.page', page: 3 });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'user.page', page: 2 });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(calls.at(-1)).toEqual({ query: '', page: 2 });
  });

  it(`pages 12,345 requests only up to page ${LIST_PAGE_LIMIT} (the server's cap), the count exact`, async () => {
    const total = 12_345;
    const last = LIST_PAGE_LIMIT - 1;
    const { actor, calls } = start([listPage(0, total), listPage(last, total)]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(pageCount(listSelect.selectPage(actor.getSnapshot())!)).toBe(618);
    await walkToThePageCap(actor);
    expect(calls).toEqual([
      { query: '', page: 0 },
      { query: '', page: last },
    ]);
    expect(listSelect.selectPage(actor.getSnapshot())).toEqual({
      number: last,
      size: 20,
      totalElements: total,
    });
  });

  it('asks for a page given past the cap as the last reachable one', async () => {
    const total = 12_345;
    const last = LIST_PAGE_LIMIT - 1;
    for (const wanted of [LIST_PAGE_LIMIT, 617, 5_000_000]) {
      const { actor, calls } = start([listPage(last, total)], { page: wanted });
      expect(actor.getSnapshot().context.page).toBe(last);
      await waitFor(actor, (s) => s.matches('ready'));
      expect(calls).toEqual([{ query: '', page: last }]);
    }
    const within = start([listPage(last - 1, total)], { query: ' x ', page: last - 1 });
    await waitFor(within.actor, (s) => s.matches('ready'));
    expect(within.calls).toEqual([{ query: 'x', page: last - 1 }]);
  });

  it('shows an unexpected failure and tries again', async () => {
    const { actor, calls } = start([new Error(UNEXPECTED_FAILURE), listPage(0, 1)]);
    await waitFor(actor, (s) => s.matches('failed'));
    expect(listSelect.selectView(actor.getSnapshot())).toBe('failed');
    expect(listSelect.selectErrorMessage(actor.getSnapshot())).toBe(UNEXPECTED_FAILURE);
    actor.send({ type: 'user.page', page: 1 });
    expect(actor.getSnapshot().value).toBe('failed');
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(listSelect.selectErrorMessage(actor.getSnapshot())).toBeNull();
    expect(calls).toHaveLength(2);
  });

  it('runs a search made after a failed load (the search form stays offered), from the first page', async () => {
    const { actor, calls } = start([new Error(UNEXPECTED_FAILURE), listPage(0, 1, 'treasury')], { page: 2 });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'user.search', query: ' treasury ' });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('ready'));
    expect(calls).toEqual([
      { query: '', page: 2 },
      { query: 'treasury', page: 0 },
    ]);
    expect(listSelect.selectQuery(actor.getSnapshot())).toBe('treasury');
  });
});

describe('access-request history machine', () => {
  function start(answers: Array<Answer<Paged<HistoryItem>>>) {
    const queue = [...answers];
    const calls: HistoryPageQuery[] = [];
    const actor = createActor(
      historyMachine.provide({
        actors: {
          loadHistoryPage: fromPromise<Paged<HistoryItem>, HistoryPageQuery>(({ input }) => {
            calls.push(input);
            return answer(queue.shift(), 'history');
          }),
        },
      }),
      { input: { id: REQUEST_DETAILS.id } },
    );
    actor.start();
    return { actor, calls };
  }

  it('pages five at a time through a history of seven', async () => {
    const { actor, calls } = start([historyPage(0, 7), historyPage(1, 7)]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(historySelect.selectItems(actor.getSnapshot())).toHaveLength(5);
    actor.send({ type: 'user.page', page: 1 });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(historySelect.selectItems(actor.getSnapshot())).toHaveLength(2);
    expect(historySelect.selectPage(actor.getSnapshot())).toEqual({ number: 1, size: 5, totalElements: 7 });
    expect(calls).toEqual([
      { id: REQUEST_DETAILS.id, page: 0 },
      { id: REQUEST_DETAILS.id, page: 1 },
    ]);
    // Only pages that exist, and not the one shown.
    actor.send({ type: 'user.page', page: 2 });
    actor.send({ type: 'user.page', page: 1 });
    expect(actor.getSnapshot().value).toBe('ready');
  });

  it('fails and retries the same page', async () => {
    const { actor, calls } = start([historyPage(0, 7), new Error(UNEXPECTED_FAILURE), historyPage(1, 7)]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.page', page: 1 });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(historySelect.selectView(actor.getSnapshot())).toBe('failed');
    expect(historySelect.selectErrorMessage(actor.getSnapshot())).toBe(UNEXPECTED_FAILURE);
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(calls.map((c) => c.page)).toEqual([0, 1, 1]);
  });
});

describe('access-request machine', () => {
  function start(
    input: RequestInput,
    script: {
      ids?: Array<Answer<{ id: string }>>;
      details?: Array<Answer<AccessRequestDetails>>;
      decisions?: Array<Answer<DecideResult>>;
    },
  ) {
    const ids = [...(script.ids ?? [])];
    const details = [...(script.details ?? [])];
    const decisions = [...(script.decisions ?? [])];
    const calls = { resolve: [] as unknown[], load: [] as unknown[], decide: [] as DecideInput[] };
    const actor = createActor(
      requestMachine.provide({
        actors: {
          resolveAccessRequestId: fromPromise<{ id: string }, { appCode: string; code: string }>(
            ({ input }) => {
              calls.resolve.push(input);
              return answer(ids.shift(), 'id');
            },
          ),
          loadAccessRequest: fromPromise<AccessRequestDetails, { id: string }>(({ input }) => {
            calls.load.push(input);
            return answer(details.shift(), 'details');
          }),
          decideAccessRequest: fromPromise<DecideResult, DecideInput>(({ input }) => {
            calls.decide.push(input);
            return answer(decisions.shift(), 'decision');
          }),
        },
      }),
      { input },
    );
    actor.start();
    return { actor, calls };
  }

  it('loads a request opened by id', async () => {
    const { actor, calls } = start({ id: REQUEST_DETAILS.id }, { details: [REQUEST_DETAILS] });
    expect(requestSelect.selectView(actor.getSnapshot())).toBe('loading');
    expect(requestSelect.selectCanDecide(actor.getSnapshot())).toBe(false);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(requestSelect.selectDetails(actor.getSnapshot())).toEqual(REQUEST_DETAILS);
    expect(calls).toEqual({ resolve: [], load: [{ id: REQUEST_DETAILS.id }], decide: [] });
  });

  it('resolves app code and code to the id (the view then redirects), retrying after a failure', async () => {
    const { actor, calls } = start(
      { appCode: 'TREASURY', code: 'AR-TRSY4K7M' },
      { ids: [new Error(UNEXPECTED_FAILURE), { id: REQUEST_DETAILS.id }] },
    );
    await waitFor(actor, (s) => s.matches('failed'));
    expect(requestSelect.selectErrorMessage(actor.getSnapshot())).toBe(UNEXPECTED_FAILURE);
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches('resolved'));
    expect(requestSelect.selectView(actor.getSnapshot())).toBe('resolved');
    expect(requestSelect.selectId(actor.getSnapshot())).toBe(REQUEST_DETAILS.id);
    expect(calls.resolve).toEqual([
      { appCode: 'TREASURY', code: 'AR-TRSY4K7M' },
      { appCode: 'TREASURY', code: 'AR-TRSY4K7M' },
    ]);
    expect(calls.load).toEqual([]);
  });

  const admin: RequestInput = { id: REQUEST_DETAILS.id, mayDecide: true };
  const ready = (actor: ReturnType<typeof start>['actor']) =>
    waitFor(actor, (s) => s.matches({ ready: 'viewing' }));

  it('offers no decision to a viewer (VIEW_ACCESS_REQUESTS), nor on a decided request', async () => {
    const viewer = start({ id: REQUEST_DETAILS.id }, { details: [REQUEST_DETAILS] });
    await ready(viewer.actor);
    expect(requestSelect.selectCanDecide(viewer.actor.getSnapshot())).toBe(false);
    viewer.actor.send({ type: 'user.approve' });
    viewer.actor.send({ type: 'user.reject' });
    expect(viewer.actor.getSnapshot().value).toEqual({ ready: 'viewing' });

    const decided = start(admin, { details: [decidedDetails('APPROVED')] });
    await ready(decided.actor);
    expect(requestSelect.selectCanDecide(decided.actor.getSnapshot())).toBe(false);
    decided.actor.send({ type: 'user.reject' });
    expect(decided.actor.getSnapshot().value).toEqual({ ready: 'viewing' });
    expect(decided.calls.decide).toEqual([]);
  });

  it("offers no decision on an admin's own pending request, and says another admin decides it", async () => {
    const own = start({ ...admin, selfId: REQUEST_DETAILS.requester.id }, { details: [REQUEST_DETAILS] });
    await ready(own.actor);
    expect(REQUEST_DETAILS.status).toBe('PENDING');
    expect(requestSelect.selectCanDecide(own.actor.getSnapshot())).toBe(false);
    expect(requestSelect.selectOwnPendingRequest(own.actor.getSnapshot())).toBe(true);
    own.actor.send({ type: 'user.approve' });
    expect(own.actor.getSnapshot().value).toEqual({ ready: 'viewing' });
    expect(own.calls.decide).toEqual([]);

    const other = start({ ...admin, selfId: 'someone-else' }, { details: [REQUEST_DETAILS] });
    await ready(other.actor);
    expect(requestSelect.selectCanDecide(other.actor.getSnapshot())).toBe(true);
    expect(requestSelect.selectOwnPendingRequest(other.actor.getSnapshot())).toBe(false);
  });

  it('approves after a confirmation: cancel first, then the trimmed ticket is sent (no reason)', async () => {
    const { actor, calls } = start(admin, {
      details: [REQUEST_DETAILS],
      decisions: [{ type: 'decided', details: decidedDetails('APPROVED') }],
    });
    await ready(actor);
    expect(requestSelect.selectCanDecide(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'user.approve' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'confirming' });
    expect(requestSelect.selectDecision(actor.getSnapshot())).toBe('approve');
    expect(requestSelect.selectCanDecide(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'viewing' });
    expect(requestSelect.selectDecision(actor.getSnapshot())).toBeNull();

    actor.send({ type: 'user.approve' });
    actor.send({ type: 'user.confirm', ticketCode: ' SUP-4711 ', reason: 'typed before switching' });
    expect(requestSelect.selectDeciding(actor.getSnapshot())).toBe(true);
    await ready(actor);
    expect(calls.decide).toEqual([
      { id: REQUEST_DETAILS.id, decision: 'approve', ticketCode: 'SUP-4711', reason: null },
    ]);
    const s = actor.getSnapshot();
    expect(requestSelect.selectDetails(s)).toEqual(decidedDetails('APPROVED'));
    expect(requestSelect.selectOutcome(s)).toEqual({ type: 'decided', status: 'APPROVED' });
    expect(requestSelect.selectDecisions(s)).toBe(1);
    // Decided: no second decision.
    expect(requestSelect.selectCanDecide(s)).toBe(false);
    actor.send({ type: 'user.approve' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'viewing' });
    // The page was not loaded again: the answer is the decided request.
    expect(calls.load).toHaveLength(1);
  });

  it('rejects with a reason: a refused ticket and a failure return to the confirmation', async () => {
    const { actor, calls } = start(admin, {
      details: [REQUEST_DETAILS],
      decisions: [
        { type: 'refused', message: TICKET_REFUSAL, fieldErrors: { ticketCode: TICKET_REFUSAL } },
        new Error(UNEXPECTED_FAILURE),
        { type: 'decided', details: decidedDetails('REJECTED') },
      ],
    });
    await ready(actor);
    actor.send({ type: 'user.reject' });
    expect(requestSelect.selectDecision(actor.getSnapshot())).toBe('reject');
    const confirm = {
      type: 'user.confirm',
      ticketCode: 'sup-1',
      reason: '  No manager approval.  ',
    } as const;
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches({ ready: 'confirming' }));
    expect(requestSelect.selectRefusal(actor.getSnapshot())).toEqual({
      message: TICKET_REFUSAL,
      fieldErrors: { ticketCode: TICKET_REFUSAL },
    });
    expect(requestSelect.selectDecision(actor.getSnapshot())).toBe('reject');

    actor.send({ ...confirm, ticketCode: 'SUP-1' });
    await waitFor(actor, (s) => s.matches({ ready: 'confirming' }));
    expect(requestSelect.selectRefusal(actor.getSnapshot())).toEqual({
      message: UNEXPECTED_FAILURE,
      fieldErrors: {},
    });

    actor.send({ ...confirm, ticketCode: 'SUP-1' });
    await ready(actor);
    expect(calls.decide).toEqual([
      { id: REQUEST_DETAILS.id, decision: 'reject', ticketCode: 'sup-1', reason: 'No manager approval.' },
      { id: REQUEST_DETAILS.id, decision: 'reject', ticketCode: 'SUP-1', reason: 'No manager approval.' },
      { id: REQUEST_DETAILS.id, decision: 'reject', ticketCode: 'SUP-1', reason: 'No manager approval.' },
    ]);
    expect(requestSelect.selectOutcome(actor.getSnapshot())).toEqual({ type: 'decided', status: 'REJECTED' });
    expect(requestSelect.selectRefusal(actor.getSnapshot())).toBeNull();
    expect(requestSelect.selectDetails(actor.getSnapshot())?.status).toBe('REJECTED');
  });

  it('loads the request again when it was decided meanwhile (409), and says so', async () => {
    const { actor, calls } = start(admin, {
      details: [REQUEST_DETAILS, decidedDetails('APPROVED')],
      decisions: [{ type: 'alreadyDecided', message: ALREADY_DECIDED }],
    });
    await ready(actor);
    actor.send({ type: 'user.reject' });
    actor.send({ type: 'user.confirm', ticketCode: 'SUP-1', reason: 'Too late.' });
    await waitFor(actor, (s) => s.matches('loading'));
    expect(requestSelect.selectOutcome(actor.getSnapshot())).toEqual({
      type: 'alreadyDecided',
      message: ALREADY_DECIDED,
    });
    await ready(actor);
    expect(calls.load).toEqual([{ id: REQUEST_DETAILS.id }, { id: REQUEST_DETAILS.id }]);
    expect(requestSelect.selectDetails(actor.getSnapshot())?.status).toBe('APPROVED');
    expect(requestSelect.selectDecisions(actor.getSnapshot())).toBe(1);
    expect(requestSelect.selectCanDecide(actor.getSnapshot())).toBe(false);
  });
});
