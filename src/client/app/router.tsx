// The route tree: the shell around every page, each page a lazy chunk (the sign-in page loads
// little), guarded routes behind the guard loader, and every unknown path redirected to /not-found.
import type { ComponentType } from 'react';
import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { loadChunk } from './chunk-reload';
import { guardLoader } from './guards/guard-loader';
import {
  ACCESS_REQUESTS_ROUTE,
  ADMIN_ROUTE,
  APPLICATIONS_ROUTE,
  COOKIES_DISABLED_ROUTE,
  ERROR_ROUTE,
  FORCED_ACTIONS_ROUTE,
  NOT_FOUND_ROUTE,
  PERMISSION_DENIED_ROUTE,
  PRIVACY_STATEMENT_ROUTE,
  PROFILE_ROUTE,
  SESSION_EXPIRED_ERROR_ROUTE,
  SIGN_IN_ROUTE,
  WEBSITE_TERMS_ROUTE,
} from './routes';
import type { SessionStore } from './session/session-store';
import { PageLoader } from './shell/PageLoader';
import { RouteErrorPage } from './shell/RouteErrorPage';
import { ShellLayout } from './shell/ShellLayout';

type PageModule = { default: ComponentType };

/** A route's `lazy`: the page's chunk (default export), with the chunk-failure reload. */
function page(name: string, load: () => Promise<PageModule>) {
  return async () => {
    const module = await loadChunk(load, name);
    return { Component: module.default };
  };
}

export function createRoutes(session: SessionStore): RouteObject[] {
  const guard = guardLoader(session);
  return [
    {
      id: 'root',
      element: <ShellLayout />,
      HydrateFallback: PageLoader,
      children: [
        {
          errorElement: <RouteErrorPage />,
          children: [
            {
              path: SIGN_IN_ROUTE,
              loader: guard,
              lazy: page('SignInPage', () => import('../flows/sign-in/SignInPage')),
            },
            { path: ERROR_ROUTE, lazy: page('ErrorPage', () => import('../pages/ErrorPage')) },
            { path: NOT_FOUND_ROUTE, lazy: page('NotFoundPage', () => import('../pages/NotFoundPage')) },
            {
              path: PERMISSION_DENIED_ROUTE,
              lazy: page('PermissionDeniedPage', () => import('../pages/PermissionDeniedPage')),
            },
            {
              path: SESSION_EXPIRED_ERROR_ROUTE,
              lazy: page('SessionExpiredErrorPage', () => import('../pages/SessionExpiredErrorPage')),
            },
            {
              path: COOKIES_DISABLED_ROUTE,
              lazy: page('CookiesDisabledPage', () => import('../pages/CookiesDisabledPage')),
            },
            {
              path: PRIVACY_STATEMENT_ROUTE,
              lazy: page('PrivacyStatementPage', () => import('../pages/PrivacyStatementPage')),
            },
            {
              path: WEBSITE_TERMS_ROUTE,
              lazy: page('WebsiteTermsPage', () => import('../pages/WebsiteTermsPage')),
            },
            {
              path: PROFILE_ROUTE,
              loader: guard,
              lazy: page('ProfilePage', () => import('../pages/ProfilePage')),
            },
            {
              path: APPLICATIONS_ROUTE,
              loader: guard,
              lazy: page('ApplicationsPage', () => import('../pages/ApplicationsPage')),
            },
            {
              path: `${ACCESS_REQUESTS_ROUTE}/*`,
              loader: guard,
              lazy: page('AccessRequestsPage', () => import('../pages/AccessRequestsPage')),
            },
            {
              // Guarded now; the forced steps' views are mounted here when they exist.
              path: `${FORCED_ACTIONS_ROUTE}/*`,
              loader: async (args: LoaderFunctionArgs) => (await guard(args)) ?? redirect(NOT_FOUND_ROUTE),
            },
            {
              path: `${ADMIN_ROUTE}/*`,
              loader: guard,
              lazy: page('AdminPage', () => import('../pages/AdminPage')),
            },
            { path: '*', loader: () => redirect(NOT_FOUND_ROUTE) },
          ],
        },
      ],
    },
  ];
}
