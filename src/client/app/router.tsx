// The route tree: the shell around every page, each page a lazy chunk (the sign-in page loads
// little), guarded routes behind the guard loader, and every unknown path redirected to /not-found.
import type { ComponentType } from 'react';
import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { loadChunk } from './chunk-reload';
import { guardLoader } from './guards/guard-loader';
import { singleSignOnErrorGuard, singleSignOnGuard, type GuardDecision } from './guards/guards';
import {
  ACCESS_REQUESTS_ROUTE,
  ADMIN_ROUTE,
  APPLICATIONS_ROUTE,
  COOKIES_DISABLED_ROUTE,
  ERROR_ROUTE,
  FORCED_ACTION_ROUTES,
  FORCED_ACTIONS_ROUTE,
  MERGE_ACCOUNTS_ROUTE,
  MFA_ROUTE,
  NOT_FOUND_ROUTE,
  PASSWORD_RESET_ROUTE,
  PERMISSION_DENIED_ROUTE,
  REGISTRATION_ROUTE,
  PRIVACY_STATEMENT_ROUTE,
  PROFILE_ROUTE,
  PROFILE_ROUTES,
  SESSION_EXPIRED_ERROR_ROUTE,
  SIGN_IN_ROUTE,
  SINGLE_SIGN_ON_ERROR_ROUTE,
  SINGLE_SIGN_ON_ROUTE,
  USER_GUIDE_ROUTE,
  WEBSITE_TERMS_ROUTE,
} from './routes';
import { ANONYMOUS_USER, type SessionState, type SessionStore } from './session/session-store';
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

/** A loader that asks `decide` about the session once its first load has answered. */
function sessionGuardLoader(session: SessionStore, decide: (state: SessionState) => GuardDecision) {
  return async ({ request }: LoaderFunctionArgs): Promise<Response | null> => {
    try {
      await session.ready();
    } catch (error) {
      // The api layer has already navigated away (to /error or /cookies-disabled).
      if (request.signal.aborted) return null;
      throw error;
    }
    const decision = decide(session.getState());
    return decision.type === 'allow' ? null : redirect(decision.to);
  };
}

export function createRoutes(session: SessionStore): RouteObject[] {
  const guard = guardLoader(session);
  const unknownForcedStep = async (args: LoaderFunctionArgs) =>
    (await guard(args)) ?? redirect(NOT_FOUND_ROUTE);
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
            {
              // Open to anyone: the start step clears the current user (section 2.5).
              path: `${REGISTRATION_ROUTE}/*`,
              lazy: page('RegistrationPage', () => import('../flows/registration/RegistrationPage')),
            },
            {
              // Open to anyone: the page itself clears the current user (section 2.4).
              path: `${PASSWORD_RESET_ROUTE}/*`,
              lazy: page('PasswordResetPage', () => import('../flows/password-reset/PasswordResetPage')),
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
              // Open to anyone but a pending sign-in (sections 2.1 and 6): the guide and its search
              // are one lazy chunk.
              path: USER_GUIDE_ROUTE,
              loader: guard,
              lazy: page('UserGuidePage', () => import('../guide/UserGuidePage')),
            },
            {
              path: SINGLE_SIGN_ON_ROUTE,
              loader: sessionGuardLoader(session, ({ currentUser, context }) =>
                singleSignOnGuard(currentUser ?? ANONYMOUS_USER, context),
              ),
              lazy: page('SingleSignOnPage', () => import('../flows/single-sign-on/SingleSignOnPage')),
            },
            {
              path: SINGLE_SIGN_ON_ERROR_ROUTE,
              loader: sessionGuardLoader(session, ({ currentUser, singleSignOnAppName }) =>
                singleSignOnErrorGuard(currentUser ?? ANONYMOUS_USER, singleSignOnAppName),
              ),
              lazy: page('SingleSignOnErrorPage', () => import('../pages/SingleSignOnErrorPage')),
            },
            {
              path: PROFILE_ROUTE,
              loader: guard,
              lazy: page('ProfilePage', () => import('../pages/ProfilePage')),
            },
            // Profile screens (section 2.3): single-step screens, and wizards whose machine owns
            // the step addresses under their route.
            {
              path: PROFILE_ROUTES.CHANGE_NAME,
              loader: guard,
              lazy: page('ChangeNamePage', () => import('../flows/profile/ChangeNamePage')),
            },
            {
              path: PROFILE_ROUTES.CHANGE_PASSWORD,
              loader: guard,
              lazy: page('ChangePasswordPage', () => import('../flows/profile/ChangePasswordPage')),
            },
            {
              path: PROFILE_ROUTES.CHANGE_PHONE,
              loader: guard,
              lazy: page('ChangePhonePage', () => import('../flows/profile/ChangePhonePage')),
            },
            {
              path: PROFILE_ROUTES.CHANGE_DATE_OF_BIRTH,
              loader: guard,
              lazy: page('ChangeDateOfBirthPage', () => import('../flows/profile/ChangeDateOfBirthPage')),
            },
            {
              path: PROFILE_ROUTES.CHANGE_SECURITY_QUESTIONS,
              loader: guard,
              lazy: page(
                'ChangeSecurityQuestionsPage',
                () => import('../flows/profile/ChangeSecurityQuestionsPage'),
              ),
            },
            {
              path: PROFILE_ROUTES.REMOVE_MOBILE,
              loader: guard,
              lazy: page('RemoveMobilePage', () => import('../flows/profile/RemoveMobilePage')),
            },
            {
              path: PROFILE_ROUTES.UNENROL_SMS,
              loader: guard,
              lazy: page('UnenrolSmsPage', () => import('../flows/profile/UnenrolSmsPage')),
            },
            {
              path: PROFILE_ROUTES.UNENROL_AUTHENTICATOR_APP,
              loader: guard,
              lazy: page(
                'UnenrolAuthenticatorAppPage',
                () => import('../flows/profile/UnenrolAuthenticatorAppPage'),
              ),
            },
            {
              path: `${PROFILE_ROUTES.CHANGE_EMAIL}/*`,
              loader: guard,
              lazy: page('ChangeEmailPage', () => import('../flows/profile/ChangeEmailPage')),
            },
            {
              path: `${PROFILE_ROUTES.CHANGE_MOBILE}/*`,
              loader: guard,
              lazy: page('ChangeMobilePage', () => import('../flows/profile/ChangeMobilePage')),
            },
            {
              path: `${PROFILE_ROUTES.ENROL_SMS}/*`,
              loader: guard,
              lazy: page('EnrolSmsPage', () => import('../flows/profile/EnrolSmsPage')),
            },
            {
              path: `${PROFILE_ROUTES.ENROL_AUTHENTICATOR_APP}/*`,
              loader: guard,
              lazy: page(
                'EnrolAuthenticatorAppPage',
                () => import('../flows/profile/EnrolAuthenticatorAppPage'),
              ),
            },
            {
              path: `${PROFILE_ROUTES.CHANGE_AUTHENTICATOR_APP}/*`,
              loader: guard,
              lazy: page(
                'ChangeAuthenticatorAppPage',
                () => import('../flows/profile/ChangeAuthenticatorAppPage'),
              ),
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
              // The forced sign-in steps (section 2.6): each step's page is a child route; the
              // guard lets only a pending sign-in in.
              path: FORCED_ACTIONS_ROUTE,
              loader: guard,
              children: [
                // Forced-step pages: one entry per step, added by each step's flow.
                {
                  // Duplicate accounts and the merge wizard: one page (a layout route, so it stays
                  // mounted from the notice through the wizard's steps) and one machine.
                  lazy: page(
                    'MergeAccountsPage',
                    () => import('../flows/forced/merge-accounts/MergeAccountsPage'),
                  ),
                  children: [
                    { path: FORCED_ACTION_ROUTES.DUPLICATE_ACCOUNTS },
                    { path: `${MERGE_ACCOUNTS_ROUTE}/*` },
                  ],
                },
                {
                  path: FORCED_ACTION_ROUTES.SELECT_FACILITY,
                  lazy: page(
                    'SelectFacilityPage',
                    () => import('../flows/forced/select-facility/SelectFacilityPage'),
                  ),
                },
                {
                  path: FORCED_ACTION_ROUTES.CHANGE_EXPIRED_PASSWORD,
                  lazy: page(
                    'ChangeExpiredPasswordPage',
                    () => import('../flows/forced/change-expired-password/ChangeExpiredPasswordPage'),
                  ),
                },
                {
                  // One page for the wizard's steps: its machine owns the step addresses.
                  path: `${FORCED_ACTION_ROUTES.FACTOR_ENROLMENT}/*`,
                  lazy: page(
                    'FactorEnrolmentPage',
                    () => import('../flows/forced/factor-enrolment/FactorEnrolmentPage'),
                  ),
                },
                {
                  // One page for the three MFA screens: a skip moves between them in one machine.
                  path: `${MFA_ROUTE}/*`,
                  lazy: page('MfaPage', () => import('../flows/forced/mfa/MfaPage')),
                },
                // Anything else: the guard's answer first (loaders run side by side), else not found.
                { path: '*', loader: unknownForcedStep },
                { index: true, loader: unknownForcedStep },
              ],
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
