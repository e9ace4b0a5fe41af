// The flow outlet's two directions (src/client/flows/shared): a state's meta route moves the
// address; an address the machine did not cause becomes route.changed, accepted or redirected.
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { assertEvent, fromPromise, setup } from 'xstate';
import type { RouteChangedEvent } from '../../machines/shared/flow.types';
import { unlessAborted } from '../../src/client/flows/shared/actor-calls';
import { FlowImplementationsProvider } from '../../src/client/flows/shared/flow-implementations';
import { useFlowActor } from '../../src/client/flows/shared/use-flow-actor';
import { resolveRoute } from '../../machines/routes';
import { useFlowRoute } from '../../src/client/flows/shared/use-flow-route';

const wizard = setup({
  types: {
    events: {} as { type: 'user.next' } | RouteChangedEvent,
    output: {} as { route: string },
  },
  actors: { save: fromPromise<string>(async () => 'real') },
  guards: {
    isFirstStep: ({ event }) => {
      assertEvent(event, 'route.changed');
      return event.path === '/wizard';
    },
  },
}).createMachine({
  id: 'toyWizard',
  initial: 'one',
  output: ({ event }) => event.output as { route: string },
  states: {
    one: { meta: { route: '', progress: 50 }, on: { 'user.next': 'two' } },
    two: {
      meta: { route: 'two', progress: 100 },
      on: {
        'user.next': 'saving',
        'route.changed': { guard: 'isFirstStep', target: 'one' },
      },
    },
    saving: {
      meta: { route: 'two' },
      invoke: { id: 'save', src: 'save', onDone: { target: 'done' } },
    },
    done: { type: 'final', output: { route: '/elsewhere' } },
  },
});

function Wizard({ onDone }: { onDone: (output: { route: string }) => void }) {
  const [snapshot, send, actorRef] = useFlowActor(wizard, { input: undefined, onDone });
  useFlowRoute(actorRef, { basePath: '/wizard' });
  const location = useLocation();
  return (
    <>
      <output data-testid="state">{String(snapshot.value)}</output>
      <output data-testid="path">{location.pathname}</output>
      <button onClick={() => send({ type: 'user.next' })}>Next</button>
    </>
  );
}

function mount(save = vi.fn(async () => 'fake'), initialEntries = ['/wizard']) {
  const onDone = vi.fn();
  const router = createMemoryRouter(
    [
      { path: '/wizard/*', element: <Wizard onDone={onDone} /> },
      { path: '/before', element: <output data-testid="path">/before</output> },
    ],
    { initialEntries, initialIndex: initialEntries.length - 1 },
  );
  render(
    <FlowImplementationsProvider value={{ toyWizard: { actors: { save: fromPromise(save) } } }}>
      <RouterProvider router={router} />
    </FlowImplementationsProvider>,
  );
  return { router, onDone, save, user: userEvent.setup() };
}

const state = () => screen.getByTestId('state').textContent;
const path = () => screen.getByTestId('path').textContent;

describe('useFlowRoute', () => {
  it('resolves meta routes against the base path', () => {
    expect(resolveRoute('/wizard', '')).toBe('/wizard');
    expect(resolveRoute('/wizard', 'two')).toBe('/wizard/two');
    expect(resolveRoute('/wizard/', 'two')).toBe('/wizard/two');
    expect(resolveRoute('/wizard', '/absolute')).toBe('/absolute');
    expect(resolveRoute(null, 'x')).toBe('/x');
    expect(resolveRoute('/', '')).toBe('/');
  });

  it('navigates when the machine enters a state with another route (a new history entry)', async () => {
    const m = mount();
    await m.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(path()).toBe('/wizard/two'));
    expect(state()).toBe('two');
    expect(m.router.state.historyAction).toBe('PUSH');
  });

  it('turns the back button into route.changed, which the machine accepts', async () => {
    const m = mount();
    await m.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(path()).toBe('/wizard/two'));
    await act(() => m.router.navigate(-1));
    await waitFor(() => expect(state()).toBe('one'));
    expect(path()).toBe('/wizard');
  });

  it('redirects an address the machine does not accept back to its state (by replace)', async () => {
    const m = mount();
    await act(() => m.router.navigate('/wizard/two'));
    await waitFor(() => expect(path()).toBe('/wizard'));
    expect(state()).toBe('one');
    expect(m.router.state.historyAction).toBe('REPLACE');
  });

  it('opened at a step its machine does not start at, redirects by replace: Back leaves the page', async () => {
    const m = mount(undefined, ['/before', '/wizard/two']);
    await waitFor(() => expect(path()).toBe('/wizard'));
    expect(state()).toBe('one');
    expect(m.router.state.historyAction).toBe('REPLACE');
    await act(() => m.router.navigate(-1));
    await waitFor(() => expect(path()).toBe('/before'));
  });

  it('hands over through onDone once the machine is done, with provided actors from above', async () => {
    const m = mount();
    await m.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(state()).toBe('two'));
    await m.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(m.onDone).toHaveBeenCalledWith({ route: '/elsewhere' }));
    expect(m.save).toHaveBeenCalledTimes(1);
    expect(m.onDone).toHaveBeenCalledTimes(1);
    expect(path()).toBe('/wizard/two');
  });
});

describe('flow actors under StrictMode', () => {
  const loader = setup({
    actors: { load: fromPromise<string>(async () => 'real') },
  }).createMachine({
    id: 'toyLoader',
    initial: 'loading',
    states: {
      loading: { invoke: { id: 'load', src: 'load', onDone: 'ready', onError: 'failed' } },
      ready: {},
      failed: {},
    },
  });

  function Loader() {
    const [snapshot] = useFlowActor(loader, { input: undefined });
    return <output data-testid="loader">{String(snapshot.value)}</output>;
  }

  it('an aborted call of the first mount does not fail the flow', async () => {
    const calls: AbortSignal[] = [];
    // Like the api: an aborted request rejects.
    const fetchLike = (signal: AbortSignal) =>
      new Promise<string>((resolve, reject) => {
        calls.push(signal);
        signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        setTimeout(() => resolve('loaded'), 20);
      });
    render(
      <StrictMode>
        <FlowImplementationsProvider
          value={{
            toyLoader: { actors: { load: fromPromise(({ signal }) => unlessAborted(signal, fetchLike)) } },
          }}
        >
          <Loader />
        </FlowImplementationsProvider>
      </StrictMode>,
    );
    await waitFor(() => expect(screen.getByTestId('loader')).toHaveTextContent('ready'));
    expect(calls.length).toBeGreaterThanOrEqual(1);
  });
});
