// Generated app-version paths run against the shell's 'Update available' toast (the machine's only
// view): versions arrive as the api layer reports them, the user dismisses or reloads in the toast.
import { notifications } from '@mantine/notifications';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { appVersionMachine } from '../../machines/session/app-version/app-version.machine';
import type { AppVersionEvent } from '../../machines/session/app-version/app-version.types';
import { AppProviders } from '../../src/client/app/App';
import { ANONYMOUS_USER, SessionStore } from '../../src/client/app/session';
import { shellTexts } from '../../src/client/app/texts';
import type { MachineCoverage } from './harness/coverage';
import { coveringPaths } from './harness/paths';
import { toastTexts } from '../../src/client/app/toast.texts';

type Snapshot = SnapshotFrom<typeof appVersionMachine>;
type EventType = AppVersionEvent['type'];

/** Fixture payloads per event type: three releases are enough to announce, dismiss and re-announce. */
export const appVersionEventFixtures = {
  'version.observed': () =>
    ['1.0.0', '1.1.0', '1.2.0'].map((version) => ({ type: 'version.observed', version })),
  'user.dismiss': () => [{ type: 'user.dismiss' }],
  'user.reload': () => [{ type: 'user.reload' }],
} satisfies { [T in EventType]: (s: Snapshot) => Extract<AppVersionEvent, { type: T }>[] };

const appVersionEvents = (snapshot: Snapshot): AppVersionEvent[] =>
  [...new Set(snapshot._nodes.flatMap((n) => n.ownEvents as EventType[]))].flatMap(
    (type): AppVersionEvent[] =>
      (appVersionEventFixtures[type] as (s: Snapshot) => AppVersionEvent[])(snapshot),
  );

const serializeState = (s: Snapshot) => JSON.stringify({ value: s.value, context: s.context });

const describeEvent = (event: AppVersionEvent) =>
  event.type === 'version.observed' ? `version ${event.version}` : event.type;

export const appVersionPaths = () =>
  coveringPaths(
    new TestModel(appVersionMachine, {
      events: appVersionEvents,
      serializeState,
      stateMatcher: (s, key) => s.matches(key as never),
    }),
    appVersionMachine,
    { input: undefined, events: appVersionEvents, serializeState, describeEvent },
  );

function mount(coverage: MachineCoverage) {
  const reloadPage = vi.fn();
  const actor = createActor(appVersionMachine.provide({ actions: { reloadPage } }), {
    inspect: coverage.inspect,
  });
  actor.start();
  const store = new SessionStore(async () => ({ currentUser: ANONYMOUS_USER, context: null }));
  render(
    <AppProviders session={store} appVersion={actor} env="test">
      <main />
    </AppProviders>,
  );
  return { actor, reloadPage, user: userEvent.setup() };
}

type Mounted = ReturnType<typeof mount>;

const toastTitle = () => screen.queryByText(toastTexts.updateAvailable);

export function defineAppVersionPaths(coverage: MachineCoverage): void {
  const paths = appVersionPaths();

  describe(`session/app-version: ${paths.length} generated paths against the 'Update available' toast`, () => {
    afterEach(() => notifications.clean());

    it.each(paths.map((path) => [path.description, path] as const))('%s', async (_, path) => {
      const m: Mounted = mount(coverage);
      const same = (s: Snapshot) =>
        waitFor(() => {
          expect(m.actor.getSnapshot().value).toEqual(s.value);
          expect(m.actor.getSnapshot().context).toEqual(s.context);
        });
      await path.test({
        states: {
          watching: async (s) => {
            await same(s);
            await waitFor(() => expect(toastTitle()).not.toBeInTheDocument());
          },
          updateAvailable: async (s) => {
            await same(s);
            expect(await screen.findByText(toastTexts.updateAvailable)).toBeInTheDocument();
            expect(screen.getByRole('button', { name: shellTexts.reloadPage })).toBeInTheDocument();
          },
          dismissed: async (s) => {
            await same(s);
            await waitFor(() => expect(toastTitle()).not.toBeInTheDocument());
          },
          reloading: async (s) => {
            await same(s);
            expect(m.reloadPage).toHaveBeenCalledTimes(1);
          },
        },
        events: {
          // A response carried x-application-version (the api layer reports it to the watcher).
          'version.observed': async ({ event }) => {
            await act(() => m.actor.send(event as AppVersionEvent));
          },
          'user.dismiss': async () => {
            await m.user.click(await screen.findByRole('button', { name: shellTexts.dismiss }));
          },
          'user.reload': async () => {
            await m.user.click(await screen.findByRole('button', { name: shellTexts.reloadPage }));
          },
        },
      });
      m.actor.stop();
    });
  });
}
