// useFlowRoute with a machine that starts loading, without a route (password reset, merge): its first
// route, when the page was opened at another address (a reload on a later step, a route that
// redirects to its first step), replaces that address, so the first Back leaves the page instead of
// coming back to an address that only redirects again. Later steps are still new entries.
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { fromPromise, setup } from 'xstate';
import type { RouteChangedEvent } from '../../machines/shared/flow.types';
import { FlowImplementationsProvider } from '../../src/client/flows/shared/flow-implementations';
import { useFlowActor } from '../../src/client/flows/shared/use-flow-actor';
import { useFlowRoute } from '../../src/client/flows/shared/use-flow-route';

const loadingWizard = setup({
  types: { events: {} as { type: 'user.next' } | RouteChangedEvent },
  actors: { load: fromPromise<string>(async () => 'real') },
}).createMachine({
  id: 'toyLoadingWizard',
  initial: 'loading',
  states: {
    // No route while loading: the address stays where the page was opened.
    loading: { invoke: { src: 'load', onDone: 'first' } },
    first: { meta: { route: 'first' }, on: { 'user.next': 'second' } },
    second: { meta: { route: 'second' } },
  },
});

function Wizard() {
  const [snapshot, send, actorRef] = useFlowActor(loadingWizard, { input: undefined });
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

function mount(entry: string) {
  let finishLoading: (value: string) => void = () => {};
  const load = () => new Promise<string>((resolve) => (finishLoading = resolve));
  const router = createMemoryRouter(
    [
      { path: '/wizard/*', element: <Wizard /> },
      { path: '/before', element: <output data-testid="path">/before</output> },
    ],
    { initialEntries: ['/before', entry], initialIndex: 1 },
  );
  render(
    <FlowImplementationsProvider value={{ toyLoadingWizard: { actors: { load: fromPromise(load) } } }}>
      <RouterProvider router={router} />
    </FlowImplementationsProvider>,
  );
  return { router, loaded: () => act(async () => finishLoading('fake')), user: userEvent.setup() };
}

const path = () => screen.getByTestId('path').textContent;
const state = () => screen.getByTestId('state').textContent;

describe('useFlowRoute: a machine that starts without a route', () => {
  it.each([
    ['a route that redirects to its first step', '/wizard'],
    ['a reload on a later step', '/wizard/second'],
  ])('opened at %s: the first route replaces the address; the first Back leaves', async (_, entry) => {
    const m = mount(entry);
    expect(state()).toBe('loading');
    expect(path()).toBe(entry);
    await m.loaded();
    await waitFor(() => expect(path()).toBe('/wizard/first'));
    expect(m.router.state.historyAction).toBe('REPLACE');
    await act(() => m.router.navigate(-1));
    await waitFor(() => expect(path()).toBe('/before'));
  });

  it('a later step is still a new entry', async () => {
    const m = mount('/wizard');
    await m.loaded();
    await waitFor(() => expect(path()).toBe('/wizard/first'));
    await m.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(path()).toBe('/wizard/second'));
    expect(m.router.state.historyAction).toBe('PUSH');
    expect(state()).toBe('second');
  });

  it('opened at its first route: nothing to redirect, the address stays', async () => {
    const m = mount('/wizard/first');
    await m.loaded();
    await waitFor(() => expect(state()).toBe('first'));
    expect(path()).toBe('/wizard/first');
    expect(m.router.state.historyAction).toBe('POP');
    await m.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(path()).toBe('/wizard/second'));
    expect(m.router.state.historyAction).toBe('PUSH');
  });
});
