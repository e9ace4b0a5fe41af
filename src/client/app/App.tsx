// The providers around the router: Mantine (theme, CSP nonce for its style tags), toasts, the
// services views use, the session, and the app-version watcher.
import { MantineProvider } from '@mantine/core';
import { lazy, Suspense, type ReactNode } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { loadChunk } from './chunk-reload';
import { HandoffContext, type HandoffHandler } from './handoff-context';
import { portalServices, ServicesContext, type PortalServices } from './services';
import { SessionProvider } from './session/SessionProvider';
import { sessionStore, type SessionStore } from './session/session-store';
import { cssVariablesResolver, getStyleNonce, theme } from './theme';
import { AppVersionContext, type AppVersionActor } from './version/app-version';

const ToastHost = lazy(() => loadChunk(() => import('./shell/ToastHost'), 'ToastHost'));

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export interface AppProvidersProps {
  session?: SessionStore;
  services?: PortalServices;
  appVersion?: AppVersionActor | null;
  /** The handoff for application cards and the header grid (provided by the handoff issue). */
  handoff?: HandoffHandler;
  /** 'test' turns off Mantine's transitions and portals. */
  env?: 'default' | 'test';
  children: ReactNode;
}

export function AppProviders({
  session = sessionStore,
  services = portalServices,
  appVersion = null,
  handoff,
  env = 'default',
  children,
}: AppProvidersProps) {
  const content = handoff ? <HandoffContext value={handoff}>{children}</HandoffContext> : children;
  return (
    <MantineProvider
      theme={theme}
      getStyleNonce={getStyleNonce}
      cssVariablesResolver={cssVariablesResolver}
      deduplicateCssVariables={false}
      env={env}
    >
      <ServicesContext value={services}>
        <SessionProvider store={session}>
          <AppVersionContext value={appVersion}>
            <Suspense fallback={null}>
              <ToastHost />
            </Suspense>
            {content}
          </AppVersionContext>
        </SessionProvider>
      </ServicesContext>
    </MantineProvider>
  );
}

export interface AppProps extends Omit<AppProvidersProps, 'children'> {
  router: AppRouter;
}

export function App({ router, ...providers }: AppProps) {
  return (
    <AppProviders {...providers}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
