// Hand-pinned transitions of the access-request machines (section 2.7): the list's search and
// paging, the history's paging (five per page), and one request resolved by code or loaded by id.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { pageCount, type Paged } from '../../machines/access-requests/access-requests.types';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import * as historySelect from '../../machines/access-requests/history/history.select';
import type { HistoryPageQuery } from '../../machines/access-requests/history/history.types';
import { requestListMachine } from '../../machines/access-requests/request-list/request-list.machine';
import * as listSelect from '../../machines/access-requests/request-list/request-list.select';
import type { RequestListQuery } from '../../machines/access-requests/request-list/request-list.types';
import { requestMachine } from '../../machines/access-requests/request/request.machine';
import * as requestSelect from '../../machines/access-requests/request/request.select';
import type { AccessRequestDetails, AccessRequestSummary, HistoryItem } from '../../src/contract/admin';
import { REQUEST_DETAILS, historyPage, listPage, UNEXPECTED_FAILURE } from './access-requests.fixtures';

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

describe('access-request list machine', () => {
  function start(answers: Array<Answer<Paged<AccessRequestSummary>>>) {
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
      { input: {} },
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
    input: { id: string } | { appCode: string; code: string },
    script: { ids?: Array<Answer<{ id: string }>>; details?: Array<Answer<AccessRequestDetails>> },
  ) {
    const ids = [...(script.ids ?? [])];
    const details = [...(script.details ?? [])];
    const calls = { resolve: [] as unknown[], load: [] as unknown[] };
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
    await waitFor(actor, (s) => s.matches('ready'));
    expect(requestSelect.selectDetails(actor.getSnapshot())).toEqual(REQUEST_DETAILS);
    expect(calls).toEqual({ resolve: [], load: [{ id: REQUEST_DETAILS.id }] });
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
});
