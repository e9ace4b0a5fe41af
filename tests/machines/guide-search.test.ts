// The guide search machine (section 4.7: none, searching, done) with a controllable search actor.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { guideSearchMachine, hasTerms } from '../../machines/guide-search/guide-search.machine';
import type {
  GuideSearchActorInput,
  GuideSearchResult,
} from '../../machines/guide-search/guide-search.types';

const hit = (id: string): GuideSearchResult => ({ id, heading: id, excerpt: `${id}…`, score: 2 });

function start() {
  const pending: { query: string; resolve: (r: readonly GuideSearchResult[]) => void }[] = [];
  const actor = createActor(
    guideSearchMachine.provide({
      actors: {
        searchGuide: fromPromise<readonly GuideSearchResult[], GuideSearchActorInput>(
          ({ input }) => new Promise((resolve) => pending.push({ query: input.query, resolve })),
        ),
      },
    }),
  );
  actor.start();
  return { actor, pending };
}

describe('guide search machine', () => {
  it('starts in none with an empty query', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('none');
    expect(actor.getSnapshot().context).toEqual({ query: '', results: [] });
  });

  it('searches a query with terms and holds the results when done', async () => {
    const { actor, pending } = start();
    actor.send({ type: 'query.changed', query: 'trusted' });
    expect(actor.getSnapshot().value).toBe('searching');
    expect(pending.map((p) => p.query)).toEqual(['trusted']);
    pending[0]!.resolve([hit('trusted-devices')]);
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(done.context.results).toEqual([hit('trusted-devices')]);
  });

  it('abandons a search the user typed past: only the latest answer counts', async () => {
    const { actor, pending } = start();
    actor.send({ type: 'query.changed', query: 'tr' });
    actor.send({ type: 'query.changed', query: 'trusted' });
    expect(pending.map((p) => p.query)).toEqual(['tr', 'trusted']);
    pending[0]!.resolve([hit('stale')]);
    pending[1]!.resolve([hit('trusted-devices')]);
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(done.context.results).toEqual([hit('trusted-devices')]);
    expect(done.context.query).toBe('trusted');
  });

  it('is done with no results for a query that matches nothing', async () => {
    const { actor, pending } = start();
    actor.send({ type: 'query.changed', query: 'qwxzvk' });
    pending[0]!.resolve([]);
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(done.context.results).toEqual([]);
  });

  it('goes back to none when the query is cleared, from searching or done', async () => {
    const { actor, pending } = start();
    actor.send({ type: 'query.changed', query: 'merge' });
    actor.send({ type: 'query.changed', query: '  ' });
    expect(actor.getSnapshot().value).toBe('none');
    expect(actor.getSnapshot().context).toEqual({ query: '  ', results: [] });
    pending[0]!.resolve([hit('late')]);
    await Promise.resolve();
    expect(actor.getSnapshot().value).toBe('none');

    actor.send({ type: 'query.changed', query: 'merge' });
    pending[1]!.resolve([hit('merge-start')]);
    await waitFor(actor, (s) => s.matches('done'));
    actor.send({ type: 'query.changed', query: '' });
    expect(actor.getSnapshot().value).toBe('none');
    expect(actor.getSnapshot().context.results).toEqual([]);
  });

  it('treats blank queries as no query', () => {
    expect(hasTerms('')).toBe(false);
    expect(hasTerms(' \n ')).toBe(false);
    expect(hasTerms(' a ')).toBe(true);
  });
});
