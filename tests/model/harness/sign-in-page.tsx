// The sign-in page as the router mounts it at '/', inside the app's providers, with the scripted
// fake API as its machine's actors. Any other address shows where the page went.
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { signInMachine } from '../../../machines/sign-in/sign-in.machine';
import type { SignInInput } from '../../../machines/sign-in/sign-in.types';
import { AppProviders } from '../../../src/client/app/App';
import { ANONYMOUS_USER, SessionStore } from '../../../src/client/app/session';
import { FlowImplementationsProvider } from '../../../src/client/flows/shared/flow-implementations';
import SignInPage from '../../../src/client/flows/sign-in/SignInPage';
import type { SignInSnapshot } from '../sign-in.model';
import { scriptedApi } from './scripted-api';
import { pathUser } from './user';

export const SIGN_IN_SOURCES = ['getFailedAuthCount', 'login', 'getCurrentUser', 'startMfa'] as const;

/** Where the page went: the path and the navigation state it handed over. */
function Landed() {
  const location = useLocation();
  return (
    <main>
      <output data-testid="landed-path">{location.pathname}</output>
      <output data-testid="landed-state">{JSON.stringify(location.state ?? null)}</output>
    </main>
  );
}

export function mountSignIn(input: SignInInput, inspectExtra?: (event: InspectionEvent) => void) {
  // The page asks the browser whether it is framed (jsdom's window is its own top): inside a JWT
  // application's frame, the top is another window. The test's restoreAllMocks undoes it.
  if (input.insideFrame) vi.spyOn(window, 'top', 'get').mockReturnValue({} as Window);
  const api = scriptedApi(SIGN_IN_SOURCES);
  const store = new SessionStore(async () => ({ currentUser: ANONYMOUS_USER, context: input.context }));
  if (input.targetPath) store.remember('targetPath', input.targetPath);
  if (input.adminTargetPath) store.remember('adminTargetPath', input.adminTargetPath);
  const router = createMemoryRouter(
    [
      { path: '/', element: <SignInPage /> },
      { path: '*', element: <Landed /> },
    ],
    { initialEntries: ['/'] },
  );
  // The page's own actor, as it runs: tests compare it with the model's state.
  let running: SignInSnapshot | null = null;
  const inspect = (event: InspectionEvent) => {
    inspectExtra?.(event);
    if (event.type !== '@xstate.snapshot') return;
    const snapshot = event.snapshot as SignInSnapshot;
    if (snapshot.machine?.id === signInMachine.id) running = snapshot;
  };
  render(
    <AppProviders session={store} env="test">
      <FlowImplementationsProvider value={{ [signInMachine.id]: { actors: api.actors, inspect } }}>
        <RouterProvider router={router} />
      </FlowImplementationsProvider>
    </AppProviders>,
  );
  return { api, store, router, user: pathUser(), running: () => running };
}

export type MountedSignIn = ReturnType<typeof mountSignIn>;
