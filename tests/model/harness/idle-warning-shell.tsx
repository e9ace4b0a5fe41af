// The idle warning as the shell mounts it for a signed-in user, inside the app's providers and a
// router, with the page's one session store (section 8's 401 handling acts on it), the scripted
// fake API as its actor, and a simulated clock for its delays. An answer's time left reaches it
// the way the api layer passes it on (notifySessionExpiry).
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { SimulatedClock, type AnyStateMachine, type InspectionEvent } from 'xstate';
import { idleWarningMachine } from '../../../machines/session/idle-warning/idle-warning.machine';
import { AppProviders } from '../../../src/client/app/App';
import IdleWarning from '../../../src/client/app/idle-warning/IdleWarning';
import { registerNavigator } from '../../../src/client/app/navigation';
import { sessionStore } from '../../../src/client/app/session/session-store';
import { FlowImplementationsProvider } from '../../../src/client/flows/shared/flow-implementations';
import type { CurrentUser } from '../../../src/contract/entities';
import { fakeServices } from './forced-pages';
import { scriptedApi } from './scripted-api';
import { pathUser } from './user';

export const IDLE_WARNING_SOURCES = ['checkSession'] as const;

function Where() {
  const location = useLocation();
  return <output data-testid="landed-path">{location.pathname}</output>;
}

export function mountIdleWarning(user: CurrentUser, inspectExtra?: (event: InspectionEvent) => void) {
  const api = scriptedApi(IDLE_WARNING_SOURCES);
  const services = fakeServices();
  const clock = new SimulatedClock();
  sessionStore.clear();
  sessionStore.setCurrentUser(user);
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <main>
            <h1>Profile</h1>
            <Where />
            <IdleWarning clock={clock} />
          </main>
        ),
      },
    ],
    { initialEntries: ['/profile'] },
  );
  registerNavigator(
    (to, options) => router.navigate(to, options),
    () => `${router.state.location.pathname}${router.state.location.search}`,
  );
  let running: unknown = null;
  const inspect = (event: InspectionEvent) => {
    inspectExtra?.(event);
    if (event.type !== '@xstate.snapshot') return;
    const snapshot = event.snapshot as { machine?: AnyStateMachine };
    if (snapshot.machine?.id === idleWarningMachine.id) running = snapshot;
  };
  const view = render(
    <AppProviders session={sessionStore} services={services} env="test">
      <FlowImplementationsProvider value={{ [idleWarningMachine.id]: { actors: api.actors, inspect } }}>
        <RouterProvider router={router} />
      </FlowImplementationsProvider>
    </AppProviders>,
  );
  return {
    ...view,
    api,
    clock,
    store: sessionStore,
    router,
    services,
    user: pathUser(),
    running: () => running as never,
  };
}

export type MountedIdleWarning = ReturnType<typeof mountIdleWarning>;
