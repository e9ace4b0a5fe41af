// The forced-step pages as the router mounts them (change-expired-password, factor enrolment, MFA,
// and a step's sign-in continuation), inside the app's providers, with the scripted fake API as
// their machine's actors. Any other address shows where the page went and what it handed over.
import { render } from '@testing-library/react';
import { pathUser } from './user';
import { useState, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, useNavigate } from 'react-router-dom';
import type { AnyStateMachine, InspectionEvent } from 'xstate';
import { vi } from 'vitest';
import { continueSignInMachine } from '../../../machines/forced/continue-sign-in/continue-sign-in.machine';
import type {
  ContinueSignInInput,
  ContinueSignInOutput,
} from '../../../machines/forced/continue-sign-in/continue-sign-in.types';
import { FORCED_ACTION_ROUTES, MFA_ROUTE } from '../../../machines/routes';
import { AppProviders } from '../../../src/client/app/App';
import type { PortalServices } from '../../../src/client/app/services';
import { SessionStore, useSession } from '../../../src/client/app/session';
import ChangeExpiredPasswordPage from '../../../src/client/flows/forced/change-expired-password/ChangeExpiredPasswordPage';
import FactorEnrolmentPage from '../../../src/client/flows/forced/factor-enrolment/FactorEnrolmentPage';
import MfaPage from '../../../src/client/flows/forced/mfa/MfaPage';
import { applyFlowOutput } from '../../../src/client/flows/shared/flow-output';
import { ContinueSignInView, ForcedStepFailed } from '../../../src/client/flows/forced/shared/ForcedStatus';
import { FlowImplementationsProvider } from '../../../src/client/flows/shared/flow-implementations';
import { useFlowActor } from '../../../src/client/flows/shared/use-flow-actor';
import type { Context, CurrentUser } from '../../../src/contract/entities';
import { scriptedApi } from './scripted-api';

export const CHANGE_EXPIRED_PASSWORD_SOURCES = ['changeExpiredPassword', 'continueSignIn', 'logout'] as const;
export const MFA_SOURCES = [
  'getTrustedDevicePeriod',
  'startMfa',
  'skipMfa',
  'verifyCode',
  'resendCode',
  'continueSignIn',
] as const;
export const FACTOR_ENROLMENT_SOURCES = [
  'loadEnrolment',
  'verifyCode',
  'resendCode',
  'enrolSms',
  'submitEnrolment',
  'continueSignIn',
] as const;
export const CONTINUE_SIGN_IN_SOURCES = ['getCurrentUser', 'startMfa'] as const;

/** Where the page went, and the navigation state it handed over. */
function Landed() {
  const location = useLocation();
  return (
    <main>
      <output data-testid="landed-path">{location.pathname}</output>
      <output data-testid="landed-state">{JSON.stringify(location.state ?? null)}</output>
    </main>
  );
}

/** Shell services the pages reach through the session (sign-out from a failed step). */
export function fakeServices() {
  return {
    loadSession: vi.fn<PortalServices['loadSession']>(),
    getAccessibleApps: vi.fn<PortalServices['getAccessibleApps']>(async () => []),
    logout: vi.fn<PortalServices['logout']>(async () => {}),
    getSalaryNumber: vi.fn<PortalServices['getSalaryNumber']>(async () => null),
    getSupportEmail: vi.fn<PortalServices['getSupportEmail']>(async () => null),
  } satisfies PortalServices;
}

export interface ForcedMountOptions {
  machine: AnyStateMachine;
  sources: readonly string[];
  /** The route pattern the app mounts the page at. */
  route: string;
  /** The address the page opens at. */
  entry: string;
  /** Navigation state the page before handed over. */
  entryState?: unknown;
  page: ReactNode;
  user: CurrentUser;
  /**
   * The session's context (the app the portal was opened for). Given, the session is left to its
   * first load (call `store.ready()`), which brings the user and the context together as in the
   * app; otherwise the user is set at once and there is no context.
   */
  context?: Context | null;
  targetPath?: string | null;
  adminTargetPath?: string | null;
  actions?: Readonly<Record<string, unknown>>;
  guards?: Readonly<Record<string, unknown>>;
  inspect?: (event: InspectionEvent) => void;
}

export function mountForcedPage(options: ForcedMountOptions) {
  const api = scriptedApi(options.sources);
  const services = fakeServices();
  const store = new SessionStore(async () => ({
    currentUser: options.user,
    context: options.context ?? null,
  }));
  if (options.context === undefined) store.setCurrentUser(options.user);
  if (options.targetPath) store.remember('targetPath', options.targetPath);
  if (options.adminTargetPath) store.remember('adminTargetPath', options.adminTargetPath);
  const router = createMemoryRouter(
    [
      { path: options.route, element: options.page },
      { path: '*', element: <Landed /> },
    ],
    { initialEntries: [{ pathname: options.entry, state: options.entryState ?? null }] },
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
      <FlowImplementationsProvider
        value={{
          [options.machine.id]: {
            actors: api.actors,
            actions: options.actions,
            guards: options.guards,
            inspect,
          },
        }}
      >
        <RouterProvider router={router} />
      </FlowImplementationsProvider>
    </AppProviders>,
  );
  return {
    ...view,
    api,
    store,
    router,
    services,
    user: pathUser(),
    running: () => running as never,
  };
}

export type MountedForcedPage = ReturnType<typeof mountForcedPage>;

export const mountChangeExpiredPassword = (
  options: Pick<ForcedMountOptions, 'user' | 'targetPath' | 'adminTargetPath' | 'inspect' | 'machine'>,
) =>
  mountForcedPage({
    ...options,
    sources: CHANGE_EXPIRED_PASSWORD_SOURCES,
    route: FORCED_ACTION_ROUTES.CHANGE_EXPIRED_PASSWORD,
    entry: FORCED_ACTION_ROUTES.CHANGE_EXPIRED_PASSWORD,
    page: <ChangeExpiredPasswordPage />,
  });

export const mountMfa = (
  options: Pick<ForcedMountOptions, 'user' | 'inspect' | 'machine' | 'entryState' | 'actions'> & {
    entry: string;
  },
) =>
  mountForcedPage({
    ...options,
    sources: MFA_SOURCES,
    route: `${MFA_ROUTE}/*`,
    page: <MfaPage />,
  });

export const mountFactorEnrolment = (
  options: Pick<ForcedMountOptions, 'user' | 'inspect' | 'machine' | 'actions'> & { entry: string },
) =>
  mountForcedPage({
    ...options,
    sources: FACTOR_ENROLMENT_SOURCES,
    route: `${FORCED_ACTION_ROUTES.FACTOR_ENROLMENT}/*`,
    page: <FactorEnrolmentPage />,
  });

/**
 * A forced step's continuation as the step's page shows it: the continue-sign-in machine with the
 * step's view of it, the failure a step shows, and the step's hand-over when it finishes.
 */
function ContinuationPage({ input }: { input: ContinueSignInInput }) {
  const session = useSession();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const [, , actorRef] = useFlowActor(continueSignInMachine, {
    input,
    onDone: (output: ContinueSignInOutput) => {
      if (output.kind === 'failed') setFailure(output.message);
      else applyFlowOutput(output, session, (to, options) => void navigate(to, options));
    },
  });
  return failure !== null ? <ForcedStepFailed message={failure} /> : <ContinueSignInView actor={actorRef} />;
}

export const mountContinuation = (
  input: ContinueSignInInput,
  options: Pick<ForcedMountOptions, 'user' | 'inspect' | 'actions' | 'guards'>,
) =>
  mountForcedPage({
    ...options,
    machine: continueSignInMachine,
    sources: CONTINUE_SIGN_IN_SOURCES,
    route: FORCED_ACTION_ROUTES.CHANGE_EXPIRED_PASSWORD,
    entry: FORCED_ACTION_ROUTES.CHANGE_EXPIRED_PASSWORD,
    targetPath: input.targetPath,
    adminTargetPath: input.adminTargetPath,
    page: <ContinuationPage input={input} />,
  });
