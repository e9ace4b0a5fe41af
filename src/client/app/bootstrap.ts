// Start-up: wires the session to the api, the app-version watcher to the version header, the
// router to the navigation module, the chunk-failure reload, and the cookies check (section 8).
import { createBrowserRouter } from 'react-router-dom';
import { onApplicationVersion } from '../api';
import { installPreloadErrorReload } from './chunk-reload';
import { registerNavigator } from './navigation';
import { createRoutes } from './router';
import { COOKIES_DISABLED_ROUTE } from './routes';
import { portalServices } from './services';
import { sessionStore } from './session/session-store';
import { createAppVersionActor } from './version/app-version';
import type { AppProps } from './App';

export function startPortal(): AppProps {
  installPreloadErrorReload();
  sessionStore.configure(() => portalServices.loadSession());

  const appVersion = createAppVersionActor();
  appVersion.start();
  onApplicationVersion((version) => appVersion.send({ type: 'version.observed', version }));

  const router = createBrowserRouter(createRoutes(sessionStore));
  registerNavigator(
    (to, options) => router.navigate(to, options),
    () => `${router.state.location.pathname}${router.state.location.search}`,
  );

  if (!navigator.cookieEnabled) void router.navigate(COOKIES_DISABLED_ROUTE, { replace: true });

  return { router, session: sessionStore, services: portalServices, appVersion };
}
