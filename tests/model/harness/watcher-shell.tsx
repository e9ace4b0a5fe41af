// What the shell's watchers (the 'Re-enter password' watcher, the idle warning) are mounted in for
// their generated paths: the app's providers and a router whose one page is a heading, the landed
// path and the watcher; the scripted fake API as the machine's actors; a simulated clock for its
// delays; and the machine's running snapshot as the inspector sees it.
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { SimulatedClock, type AnyStateMachine, type InspectionEvent } from 'xstate';
import { AppProviders } from '../../../src/client/app/App';
import type { SessionStore } from '../../../src/client/app/session';
import { FlowImplementationsProvider } from '../../../src/client/flows/shared/flow-implementations';
import { fakeServices } from './forced-pages';
import { scriptedApi } from './scripted-api';
import { pathUser } from './user';

function Where() {
  const location = useLocation();
  return <output data-testid="landed-path">{location.pathname}</output>;
}

export function mountWatcher<Src extends string>(options: {
  machineId: string;
  sources: readonly Src[];
  store: SessionStore;
  heading: string;
  path: string;
  watcher: (clock: SimulatedClock) => ReactNode;
  inspectExtra?: ((event: InspectionEvent) => void) | undefined;
  /** Called with the router once it exists (e.g. to register it as the api layer's navigator). */
  withRouter?: (router: ReturnType<typeof createMemoryRouter>) => void;
}) {
  const api = scriptedApi(options.sources);
  const services = fakeServices();
  const clock = new SimulatedClock();
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <main>
            <h1>{options.heading}</h1>
            <Where />
            {options.watcher(clock)}
          </main>
        ),
      },
    ],
    { initialEntries: [options.path] },
  );
  options.withRouter?.(router);
  let running: unknown = null;
  const inspect = (event: InspectionEvent) => {
    options.inspectExtra?.(event);
    if (event.type !== '@xstate.snapshot') return;
    const snapshot = event.snapshot as { machine?: AnyStateMachine };
    if (snapshot.machine?.id === options.machineId) running = snapshot;
  };
  const view = render(
    <AppProviders session={options.store} services={services} env="test">
      <FlowImplementationsProvider value={{ [options.machineId]: { actors: api.actors, inspect } }}>
        <RouterProvider router={router} />
      </FlowImplementationsProvider>
    </AppProviders>,
  );
  return {
    ...view,
    api,
    clock,
    store: options.store,
    router,
    services,
    user: pathUser(),
    running: () => running as never,
  };
}
