// The pages of the handoff flows as the router mounts them, inside the app's providers, with the
// scripted fake API as their machine's actors: the applications page (handoff machine), the
// single-sign-on page and the forced select-facility page. Any other address shows where the page went.
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import type { AnyStateMachine, InspectionEvent } from 'xstate';
import { vi } from 'vitest';
import { selectFacilityMachine } from '../../../machines/forced/select-facility/select-facility.machine';
import { handoffMachine } from '../../../machines/handoff/handoff.machine';
import { APPLICATIONS_ROUTE, FORCED_ACTION_ROUTES, SINGLE_SIGN_ON_ROUTE } from '../../../machines/routes';
import { singleSignOnMachine } from '../../../machines/single-sign-on/single-sign-on.machine';
import { AppProviders } from '../../../src/client/app/App';
import type { PortalServices } from '../../../src/client/app/services';
import { SessionStore } from '../../../src/client/app/session';
import SelectFacilityPage from '../../../src/client/flows/forced/select-facility/SelectFacilityPage';
import { FlowImplementationsProvider } from '../../../src/client/flows/shared/flow-implementations';
import SingleSignOnPage from '../../../src/client/flows/single-sign-on/SingleSignOnPage';
import ApplicationsPage from '../../../src/client/pages/ApplicationsPage';
import type { Context, CurrentUser, HandoffTarget } from '../../../src/contract/entities';
import { scriptedApi } from './scripted-api';
import { pathUser } from './user';

export const HANDOFF_SOURCES = ['samlHandoff'] as const;
export const SINGLE_SIGN_ON_SOURCES = ['getHandoffTargets', 'getApp', 'ssoSamlHandoff'] as const;
export const SELECT_FACILITY_SOURCES = ['getFacilities', 'getApp', 'selectFacilityHandoff'] as const;

/** Where the page went. */
function Landed() {
  const location = useLocation();
  return (
    <main>
      <output data-testid="landed-path">{`${location.pathname}${location.search}`}</output>
    </main>
  );
}

export function fakePortalServices(apps: HandoffTarget[]) {
  return {
    loadSession: vi.fn<PortalServices['loadSession']>(),
    getAccessibleApps: vi.fn<PortalServices['getAccessibleApps']>(async () => apps),
    logout: vi.fn<PortalServices['logout']>(async () => {}),
    getSalaryNumber: vi.fn<PortalServices['getSalaryNumber']>(async () => null),
    getSupportEmail: vi.fn<PortalServices['getSupportEmail']>(async () => null),
  } satisfies PortalServices;
}

interface MountOptions<Src extends string> {
  machine: AnyStateMachine;
  sources: readonly Src[];
  path: string;
  /** The address the page opens at (its path by default), e.g. with a query. */
  entry?: string;
  page: ReactNode;
  user: CurrentUser;
  context: Context | null;
  apps?: HandoffTarget[];
  inspect?: (event: InspectionEvent) => void;
}

function mountFlowPage<Src extends string>(options: MountOptions<Src>) {
  const api = scriptedApi(options.sources);
  const services = fakePortalServices(options.apps ?? []);
  const store = new SessionStore(async () => ({ currentUser: options.user, context: options.context }));
  const router = createMemoryRouter(
    [
      { path: options.path, element: options.page },
      { path: '*', element: <Landed /> },
    ],
    { initialEntries: [options.entry ?? options.path] },
  );
  // The page's own actor, as it runs: tests compare it with the model's state.
  let running: unknown = null;
  const inspect = (event: InspectionEvent) => {
    options.inspect?.(event);
    if (event.type !== '@xstate.snapshot') return;
    const snapshot = event.snapshot as { machine?: AnyStateMachine };
    if (snapshot.machine?.id === options.machine.id) running = snapshot;
  };
  const view = render(
    <AppProviders session={store} services={services} env="test">
      <FlowImplementationsProvider value={{ [options.machine.id]: { actors: api.actors, inspect } }}>
        <RouterProvider router={router} />
      </FlowImplementationsProvider>
    </AppProviders>,
  );
  return {
    ...view,
    api,
    store,
    services,
    router,
    user: pathUser(),
    running: <T,>() => running as T | null,
  };
}

export const mountApplications = (
  options: { user: CurrentUser; apps: HandoffTarget[]; entry?: string },
  inspect?: (event: InspectionEvent) => void,
) =>
  mountFlowPage({
    machine: handoffMachine,
    sources: HANDOFF_SOURCES,
    path: APPLICATIONS_ROUTE,
    entry: options.entry,
    page: <ApplicationsPage />,
    user: options.user,
    context: null,
    apps: options.apps,
    inspect,
  });

export const mountSingleSignOn = (
  options: { user: CurrentUser; context: Context },
  inspect?: (event: InspectionEvent) => void,
) =>
  mountFlowPage({
    machine: singleSignOnMachine,
    sources: SINGLE_SIGN_ON_SOURCES,
    path: SINGLE_SIGN_ON_ROUTE,
    page: <SingleSignOnPage />,
    user: options.user,
    context: options.context,
    inspect,
  });

export const mountSelectFacility = (
  options: { user: CurrentUser; context: Context | null },
  inspect?: (event: InspectionEvent) => void,
) =>
  mountFlowPage({
    machine: selectFacilityMachine,
    sources: SELECT_FACILITY_SOURCES,
    path: FORCED_ACTION_ROUTES.SELECT_FACILITY,
    page: <SelectFacilityPage />,
    user: options.user,
    context: options.context,
    inspect,
  });

/** The browser shows the page again from its back-forward cache. */
export async function restorePage(): Promise<void> {
  await act(async () => {
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
  });
}
