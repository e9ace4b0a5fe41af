// Hand-pinned transitions of the admin's identity search machine (/admin/identities?query=…): the
// query (trimmed; no minimum length, blank lists everyone), the pages (another page within the
// result only, exact fills and an empty result included, and none past the server's LIST_PAGE_LIMIT
// pages), a new search from the first page, and a failed or refused search (its reason, a retry as
// it was, or a new search).
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { Paged } from '../../machines/access-requests/access-requests.types';
import {
  IDENTITY_SEARCH_FAILED,
  identitySearchMachine,
  type IdentitySearchInput,
  type IdentitySearchQuery,
} from '../../machines/admin/identity-search/identity-search.machine';
import { LIST_PAGE_LIMIT } from '../../src/contract/admin';
import type { IdentitySummary } from '../../src/contract/admin-identities';
import { identity, IDENTITY_PAGE_SIZE, IDENTITY_SEARCH, identityPage } from '../model/admin-identities.model';
import { UNEXPECTED_FAILURE } from './access-requests.fixtures';
import { held, scripted, type Answer } from './admin-identities.fixtures';
import { walkToThePageCap } from './fixtures/page-cap';

function start(answers: Array<Answer<Paged<IdentitySummary>>>, input: IdentitySearchInput = {}) {
  const calls: IdentitySearchQuery[] = [];
  const actor = createActor(
    identitySearchMachine.provide({
      actors: { searchIdentities: scripted('search', answers, calls) },
    }),
    { input },
  ).start();
  return { actor, calls };
}

/** Page `number` of a result of `total` identities, whatever the query. */
const pageOf = (number: number, total: number): Paged<IdentitySummary> => ({
  data: Array.from(
    { length: Math.max(0, Math.min(IDENTITY_PAGE_SIZE, total - number * IDENTITY_PAGE_SIZE)) },
    (_, i) => identity(number * IDENTITY_PAGE_SIZE + i + 1),
  ),
  page: { number, size: IDENTITY_PAGE_SIZE, totalElements: total },
});

describe('admin identity search machine', () => {
  it("searches the address's query, trimmed, from the first page; without one it lists everyone", async () => {
    const searched = start([identityPage(0, IDENTITY_SEARCH)], { query: `  ${IDENTITY_SEARCH} ` });
    await waitFor(searched.actor, (s) => s.matches('ready'));
    expect(searched.calls).toEqual([{ query: IDENTITY_SEARCH, page: 0 }]);
    expect(searched.actor.getSnapshot().context).toMatchObject({
      query: IDENTITY_SEARCH,
      page: 0,
      result: identityPage(0, IDENTITY_SEARCH),
      errorMessage: null,
    });

    const everyone = start([identityPage(0, '')]);
    await waitFor(everyone.actor, (s) => s.matches('ready'));
    expect(everyone.calls).toEqual([{ query: '', page: 0 }]);
  });

  it('takes any query, however short; a blank one is no query (everyone)', async () => {
    const { actor, calls } = start([identityPage(0, ''), identityPage(0, 'C'), identityPage(0, '')]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.search', query: 'C' });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.search', query: '   ' });
    await waitFor(actor, (s) => s.matches('ready') && calls.length === 3);
    expect(calls).toEqual([
      { query: '', page: 0 },
      { query: 'C', page: 0 },
      { query: '', page: 0 },
    ]);
  });

  it('pages within the result: next and previous, never the page shown, before the first or after the last', async () => {
    // 25 identities: two pages of 20.
    const { actor, calls } = start([identityPage(0, ''), identityPage(1, ''), identityPage(0, '')]);
    await waitFor(actor, (s) => s.matches('ready'));
    for (const page of [-1, 0, 2]) {
      actor.send({ type: 'user.page', page });
      expect(actor.getSnapshot().value).toBe('ready');
    }
    actor.send({ type: 'user.page', page: 1 });
    expect(actor.getSnapshot().value).toBe('loading');
    // The page shown stays while the next loads.
    expect(actor.getSnapshot().context.result).toEqual(identityPage(0, ''));
    await waitFor(actor, (s) => s.matches('ready') && s.context.result?.page.number === 1);
    expect(actor.getSnapshot().context.page).toBe(1);
    for (const page of [1, 2]) {
      actor.send({ type: 'user.page', page });
      expect(actor.getSnapshot().value).toBe('ready');
    }
    actor.send({ type: 'user.page', page: 0 });
    await waitFor(actor, (s) => s.matches('ready') && calls.length === 3);
    expect(calls).toEqual([
      { query: '', page: 0 },
      { query: '', page: 1 },
      { query: '', page: 0 },
    ]);
    expect(actor.getSnapshot().context.page).toBe(0);
  });

  it('has no page after a last one filled exactly, and an empty result is one page', async () => {
    const exact = start([pageOf(0, 2 * IDENTITY_PAGE_SIZE), pageOf(1, 2 * IDENTITY_PAGE_SIZE)]);
    await waitFor(exact.actor, (s) => s.matches('ready'));
    exact.actor.send({ type: 'user.page', page: 1 });
    await waitFor(exact.actor, (s) => s.matches('ready') && s.context.page === 1);
    exact.actor.send({ type: 'user.page', page: 2 });
    expect(exact.actor.getSnapshot().value).toBe('ready');
    expect(exact.calls.map((c) => c.page)).toEqual([0, 1]);

    const one = start([pageOf(0, IDENTITY_PAGE_SIZE)]);
    await waitFor(one.actor, (s) => s.matches('ready'));
    one.actor.send({ type: 'user.page', page: 1 });
    expect(one.actor.getSnapshot().value).toBe('ready');

    const none = start([pageOf(0, 0)], { query: 'nobody' });
    await waitFor(none.actor, (s) => s.matches('ready'));
    expect(none.actor.getSnapshot().context.result?.data).toEqual([]);
    none.actor.send({ type: 'user.page', page: 1 });
    expect(none.actor.getSnapshot().value).toBe('ready');
    expect([one.calls, none.calls].map((c) => c.length)).toEqual([1, 1]);
  });

  it(`pages 12,345 identities only up to page ${LIST_PAGE_LIMIT} (the server's cap), the count exact`, async () => {
    const total = 12_345;
    const last = LIST_PAGE_LIMIT - 1;
    // Only the pages' numbers and the total matter here: twenty rows each.
    const deep = (number: number) => ({ ...pageOf(0, total), page: { ...pageOf(0, total).page, number } });
    const { actor, calls } = start([deep(0), deep(last)]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.result?.page.totalElements).toBe(total);
    await walkToThePageCap(actor);
    expect(calls).toEqual([
      { query: '', page: 0 },
      { query: '', page: last },
    ]);
  });

  it('starts a new search from the first page, the same query again included', async () => {
    const { actor, calls } = start([
      identityPage(0, ''),
      identityPage(1, ''),
      identityPage(0, IDENTITY_SEARCH),
      identityPage(0, ''),
      identityPage(1, ''),
      identityPage(0, ''),
    ]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.page', page: 1 });
    await waitFor(actor, (s) => s.matches('ready') && s.context.page === 1);
    actor.send({ type: 'user.search', query: IDENTITY_SEARCH });
    expect(actor.getSnapshot().context).toMatchObject({ query: IDENTITY_SEARCH, page: 0 });
    await waitFor(actor, (s) => s.matches('ready') && calls.length === 3);

    actor.send({ type: 'user.search', query: '' });
    await waitFor(actor, (s) => s.matches('ready') && calls.length === 4);
    actor.send({ type: 'user.page', page: 1 });
    await waitFor(actor, (s) => s.matches('ready') && s.context.page === 1);
    actor.send({ type: 'user.search', query: '' });
    await waitFor(actor, (s) => s.matches('ready') && calls.length === 6);
    expect(calls).toEqual([
      { query: '', page: 0 },
      { query: '', page: 1 },
      { query: IDENTITY_SEARCH, page: 0 },
      { query: '', page: 0 },
      { query: '', page: 1 },
      { query: '', page: 0 },
    ]);
  });

  it('shows why a search failed or was refused; a retry loads it as it was, a new search replaces it', async () => {
    const { actor, calls } = start([
      identityPage(0, ''),
      new Error(UNEXPECTED_FAILURE),
      new Error(''),
      identityPage(0, IDENTITY_SEARCH),
    ]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.page', page: 1 });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context).toMatchObject({ errorMessage: UNEXPECTED_FAILURE, page: 1 });
    // No paging from a failure.
    actor.send({ type: 'user.page', page: 0 });
    expect(actor.getSnapshot().value).toBe('failed');

    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.errorMessage).toBeNull();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.errorMessage).toBe(IDENTITY_SEARCH_FAILED);

    actor.send({ type: 'user.search', query: ` ${IDENTITY_SEARCH}` });
    expect(actor.getSnapshot().context).toMatchObject({
      query: IDENTITY_SEARCH,
      page: 0,
      errorMessage: null,
    });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.result).toEqual(identityPage(0, IDENTITY_SEARCH));
    expect(calls).toEqual([
      { query: '', page: 0 },
      { query: '', page: 1 },
      { query: '', page: 1 },
      { query: IDENTITY_SEARCH, page: 0 },
    ]);
  });

  it('takes no search while a load is under way (the page sends it once the load has answered)', async () => {
    const first = held<Paged<IdentitySummary>>();
    const { actor, calls } = start([first.promise]);
    actor.send({ type: 'user.search', query: IDENTITY_SEARCH });
    actor.send({ type: 'user.page', page: 1 });
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().context).toMatchObject({ query: '', page: 0 });
    first.resolve(identityPage(0, ''));
    await waitFor(actor, (s) => s.matches('ready'));
    // Nothing to retry once the list is there.
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(calls).toEqual([{ query: '', page: 0 }]);
  });
});
