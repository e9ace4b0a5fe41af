// The re-enter-password watcher as the shell mounts it for a signed-in user, inside the app's
// providers and a router (its Sign out goes to '/'), with the scripted fake API as its actors and
// a simulated clock for its 4 s, 8 s and 2 s delays.
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { SimulatedClock, type AnyStateMachine, type InspectionEvent } from 'xstate';
import { reenterPasswordMachine } from '../../../machines/session/reenter-password/reenter-password.machine';
import { AppProviders } from '../../../src/client/app/App';
import ReenterPasswordWatcher from '../../../src/client/app/reenter-password/ReenterPasswordModal';
import { SessionStore } from '../../../src/client/app/session';
import { FlowImplementationsProvider } from '../../../src/client/flows/shared/flow-implementations';
import type { CurrentUser } from '../../../src/contract/entities';
import { fakeServices } from './forced-pages';
import { scriptedApi } from './scripted-api';
import { pathUser } from './user';

export const REENTER_PASSWORD_SOURCES = [
  'hasRecentAuthentication',
  'isPasswordExpired',
  'reenterPassword',
] as const;

function Where() {
  const location = useLocation();
  return <output data-testid="landed-path">{location.pathname}</output>;
}

export function mountReenterPassword(user: CurrentUser, inspectExtra?: (event: InspectionEvent) => void) {
  const api = scriptedApi(REENTER_PASSWORD_SOURCES);
  const services = fakeServices();
  const clock = new SimulatedClock();
  const store = new SessionStore(async () => ({ currentUser: user, context: null }));
  store.setCurrentUser(user);
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <main>
            <h1>Applications</h1>
            <Where />
            <ReenterPasswordWatcher clock={clock} />
          </main>
        ),
      },
    ],
    { initialEntries: ['/profile/my-applications'] },
  );
  let running: unknown = null;
  const inspect = (event: InspectionEvent) => {
    inspectExtra?.(event);
    if (event.type !== '@xstate.snapshot') return;
    const snapshot = event.snapshot as { machine?: AnyStateMachine };
    if (snapshot.machine?.id === reenterPasswordMachine.id) running = snapshot;
  };
  const view = render(
    <AppProviders session={store} services={services} env="test">
      <FlowImplementationsProvider value={{ [reenterPasswordMachine.id]: { actors: api.actors, inspect } }}>
        <RouterProvider router={router} />
      </FlowImplementationsProvider>
    </AppProviders>,
  );
  return {
    ...view,
    api,
    clock,
    store,
    router,
    services,
    user: pathUser(),
    running: () => running as never,
  };
}

export type MountedReenterPassword = ReturnType<typeof mountReenterPassword>;
