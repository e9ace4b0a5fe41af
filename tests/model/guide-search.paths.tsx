// Generated guide-search paths (section 4.7: none, searching, done) run against the mounted user
// guide: the user types into the search box, the search answers when the path says (the real
// ranking over the real guide), and each state is checked by what the user sees.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fromPromise, type DoneActorEvent, type InspectionEvent, type SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { guideSearchMachine } from '../../machines/guide-search/guide-search.machine';
import type {
  GuideSearchActorInput,
  GuideSearchEvent,
  GuideSearchResult,
} from '../../machines/guide-search/guide-search.types';
import { AppProviders } from '../../src/client/app/App';
import { ANONYMOUS_USER, SessionStore } from '../../src/client/app/session';
import { FlowImplementationsProvider } from '../../src/client/flows/shared/flow-implementations';
import { guideTopics } from '../../src/client/guide/guide.content';
import { guideTexts as t } from '../../src/client/guide/guide.texts';
import { searchableSections, searchGuide } from '../../src/client/guide/guide-search';
import UserGuidePage from '../../src/client/guide/UserGuidePage';
import type { MachineCoverage } from './harness/coverage';
import { coveringPaths } from './harness/paths';

type Snapshot = SnapshotFrom<typeof guideSearchMachine>;
type Done = DoneActorEvent<readonly GuideSearchResult[], 'searchGuide'> & {
  type: 'xstate.done.actor.searchGuide';
};
type ModelEvent = GuideSearchEvent | Done;
type ModelEventType = ModelEvent['type'];

const sections = searchableSections(guideTopics);

/** A query that finds 'Trusted devices' first, one that finds nothing, and a cleared box. */
export const QUERIES = { trusted: 'trusted', nonsense: 'qwxzvk', cleared: '' } as const;

const fixtures = {
  // A change always differs from what the box holds (the browser reports no change otherwise).
  'query.changed': (s) =>
    Object.values(QUERIES)
      .filter((query) => query !== s.context.query)
      .map((query) => ({ type: 'query.changed', query })),
  // The search answers with the real ranking of the query being searched.
  'xstate.done.actor.searchGuide': (s) => [
    {
      type: 'xstate.done.actor.searchGuide',
      output: searchGuide(sections, s.context.query),
      actorId: 'searchGuide',
    } as Done,
  ],
} satisfies { [T in ModelEventType]: (s: Snapshot) => Extract<ModelEvent, { type: T }>[] };

const events = (snapshot: Snapshot): ModelEvent[] =>
  [...new Set(snapshot._nodes.flatMap((n) => n.ownEvents as ModelEventType[]))].flatMap((type) => {
    const make = fixtures[type] as ((s: Snapshot) => ModelEvent[]) | undefined;
    if (!make) throw new Error(`No fixtures for the event '${type}'.`);
    return make(snapshot);
  });

const serializeState = (s: Snapshot) => JSON.stringify({ value: s.value, context: s.context });

const describeEvent = (event: ModelEvent) =>
  event.type === 'query.changed'
    ? `type '${event.query}'`
    : `search answers ${(event as Done).output.length} result(s)`;

export const guideSearchPaths = () =>
  coveringPaths(
    new TestModel<Snapshot, ModelEvent, undefined>(guideSearchMachine as never, {
      events,
      serializeState,
      stateMatcher: (s, key) => s.matches(key as never),
    }),
    guideSearchMachine,
    { input: undefined, events, serializeState, describeEvent },
  );

function mount(coverage: MachineCoverage) {
  // Each search waits until the path says it answers; abandoned ones never do.
  const pending: { query: string; resolve: (results: readonly GuideSearchResult[]) => void }[] = [];
  const searchGuideActor = fromPromise<readonly GuideSearchResult[], GuideSearchActorInput>(
    ({ input }) => new Promise((resolve) => pending.push({ query: input.query, resolve })),
  );
  let running: Snapshot | null = null;
  const inspect = (event: InspectionEvent) => {
    coverage.inspect(event);
    if (
      event.type === '@xstate.snapshot' &&
      (event.snapshot as Snapshot).machine?.id === guideSearchMachine.id
    )
      running = event.snapshot as Snapshot;
  };
  const store = new SessionStore(async () => ({ currentUser: ANONYMOUS_USER, context: null }));
  render(
    <AppProviders session={store} env="test">
      <FlowImplementationsProvider
        value={{ [guideSearchMachine.id]: { actors: { searchGuide: searchGuideActor }, inspect } }}
      >
        <UserGuidePage />
      </FlowImplementationsProvider>
    </AppProviders>,
  );
  return { pending, running: () => running };
}

const searchBox = () => screen.getByRole('searchbox', { name: t.searchLabel });
const resultList = () => screen.queryByRole('list', { name: t.results });

export function defineGuideSearchPaths(coverage: MachineCoverage): void {
  const paths = guideSearchPaths();

  describe(`guide-search: ${paths.length} generated paths against the user guide's search`, () => {
    it.each(paths.map((path) => [path.description, path] as const))('%s', async (_, path) => {
      const m = mount(coverage);
      const same = (s: Snapshot) =>
        waitFor(() => {
          expect(m.running()?.value).toEqual(s.value);
          expect(m.running()?.context).toEqual(s.context);
          expect(searchBox()).toHaveValue(s.context.query);
        });
      await path.test({
        states: {
          none: async (s) => {
            await same(s);
            expect(resultList()).toBeNull();
            expect(screen.queryByText(t.noResult)).toBeNull();
            expect(screen.queryByText(t.searching)).toBeNull();
          },
          searching: async (s) => {
            await same(s);
            expect(screen.getByText(t.searching)).toBeInTheDocument();
            expect(resultList()).toBeNull();
            expect(screen.queryByText(t.noResult)).toBeNull();
          },
          done: async (s) => {
            await same(s);
            expect(screen.queryByText(t.searching)).toBeNull();
            if (s.context.results.length === 0) {
              expect(screen.getByText(t.noResult)).toBeInTheDocument();
              expect(resultList()).toBeNull();
              return;
            }
            expect(screen.queryByText(t.noResult)).toBeNull();
            const items = within(resultList()!).getAllByRole('link');
            expect(items.map((a) => a.getAttribute('href'))).toEqual(
              s.context.results.map((r) => `#${r.id}`),
            );
            s.context.results.forEach((result, i) => {
              expect(items[i]).toHaveTextContent(result.heading);
              expect(items[i]).toHaveTextContent(result.excerpt);
            });
            if (s.context.query === QUERIES.trusted) expect(items[0]).toHaveTextContent(/^Trusted devices/);
          },
        },
        events: {
          'query.changed': async ({ event }) => {
            fireEvent.change(searchBox(), { target: { value: (event as GuideSearchEvent).query } });
          },
          'xstate.done.actor.searchGuide': async ({ event }) => {
            const latest = m.pending.at(-1)!;
            const results = searchGuide(sections, latest.query);
            expect(results).toEqual((event as unknown as Done).output);
            await act(async () => latest.resolve(results));
          },
        },
      });
    });
  });
}
