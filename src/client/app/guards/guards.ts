// Route guards of sections 2.1, 2.3, 2.6, 2.7 and 6 as pure functions of (current user, path).
// The route wrapper (guard-loader.ts) carries out what they decide.
import { PORTAL_APP_CODE, type Context, type CurrentUser } from '../../../contract/entities';
import {
  ACCESS_REQUESTS_ROUTE,
  ADMIN_ROUTE,
  APPLICATIONS_ROUTE,
  FORCED_ACTION_ROUTES,
  FORCED_ACTIONS_ROUTE,
  MERGE_ACCOUNTS_ROUTE,
  PERMISSION_DENIED_ROUTE,
  PROFILE_ROUTE,
  SIGN_IN_ROUTE,
  USER_GUIDE_ROUTE,
} from '../routes';
import type { TargetPathKind } from '../session/session-store';

export type GuardDecision =
  | { type: 'allow' }
  /** Go to `to`; with `remember`, keep the asked-for path as the target or admin target path. */
  | { type: 'redirect'; to: string; remember?: TargetPathKind };

/**
 * `pendingStep`: the route of the forced step a pending sign-in was last sent to (the session
 * store's), when known.
 */
export type Guard = (user: CurrentUser, path: string, pendingStep?: string | null) => GuardDecision;

export const VIEW_ACCESS_REQUESTS = 'VIEW_ACCESS_REQUESTS';

const allow: GuardDecision = { type: 'allow' };
const redirect = (to: string, remember?: TargetPathKind): GuardDecision =>
  remember ? { type: 'redirect', to, remember } : { type: 'redirect', to };

/** In the middle of the forced sign-in steps (section 2.6). */
export const isPending = (user: CurrentUser): boolean => user.type === 'AUTHENTICATION_PENDING';

/** Fully signed in: authenticated and past every forced step. */
export const isSignedIn = (user: CurrentUser): boolean => user.isAuthenticated && !isPending(user);

export const holdsViewAccessRequests = (user: CurrentUser): boolean =>
  user.roles.includes(VIEW_ACCESS_REQUESTS);

/** Where a signed-in user lands (section 2.1). */
export const landingRoute = (user: CurrentUser): string =>
  holdsViewAccessRequests(user) ? ACCESS_REQUESTS_ROUTE : APPLICATIONS_ROUTE;

const isUnder = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

/** Section 2.3: the applications page is a route under /profile ending in -applications. */
export const isApplicationsPath = (path: string): boolean => /^\/profile\/[^/]+-applications\/?$/.test(path);

/** '/': signed-in users go to their landing page; anyone else (anonymous, pending) stays. */
export const signInGuard: Guard = (user) => (isSignedIn(user) ? redirect(landingRoute(user)) : allow);

/** Profile routes: a signed-in user; anyone else signs in first and the path is remembered. */
export const profileGuard: Guard = (user) =>
  isSignedIn(user) ? allow : redirect(SIGN_IN_ROUTE, 'targetPath');

/** The applications page: a profile route that VIEW_ACCESS_REQUESTS holders are denied. */
export const applicationsGuard: Guard = (user, path) => {
  const asProfile = profileGuard(user, path);
  if (asProfile.type === 'redirect') return asProfile;
  return holdsViewAccessRequests(user) ? redirect(PERMISSION_DENIED_ROUTE) : allow;
};

/** Access requests (section 2.7): admins and VIEW_ACCESS_REQUESTS holders. */
export const accessRequestsGuard: Guard = (user) => {
  if (!isSignedIn(user)) return redirect(SIGN_IN_ROUTE, 'targetPath');
  return user.isAdmin || holdsViewAccessRequests(user) ? allow : redirect(PERMISSION_DENIED_ROUTE);
};

/**
 * Forced steps: only while authentication is pending; anyone else goes to '/'. And only the step
 * the sign-in is at (section 6, 'only the forced-action flows'): Back into a step already passed
 * goes to the current one, which the server answers, instead of to a step whose calls it refuses.
 */
export const forcedActionsGuard: Guard = (user, path, pendingStep) => {
  if (!isPending(user)) return redirect(SIGN_IN_ROUTE);
  return !pendingStep || stepOf(path) === stepOf(pendingStep) ? allow : redirect(pendingStep);
};

/**
 * The forced step a page belongs to: its first two segments (/forced-actions/mfa for each MFA
 * screen), the merge wizard's pages being the duplicate-accounts step's.
 */
const stepOf = (path: string) =>
  path
    .split('/')
    .slice(0, 3)
    .join('/')
    .replace(MERGE_ACCOUNTS_ROUTE, FORCED_ACTION_ROUTES.DUPLICATE_ACCOUNTS);

/**
 * Admin routes (section 2.7): signed-in admins only. Anyone else (anonymous, pending at a forced
 * step, or signed in without being an admin) has the admin target path stored and goes to '/', as
 * the spec says; '/' then lands a signed-in user as usual (section 2.1), so a customer or a
 * VIEW_ACCESS_REQUESTS holder ends on their own landing page, and signing in as an admin returns
 * to the stored path.
 */
export const adminGuard: Guard = (user) =>
  isSignedIn(user) && user.isAdmin ? allow : redirect(SIGN_IN_ROUTE, 'adminTargetPath');

/**
 * /single-sign-on (section 2.1): only a signed-in user whose context is a SAML request of an
 * application other than the portal itself; anyone else goes to '/'. The context is the session's,
 * so the route's loader asks this beside the path guards.
 */
export const singleSignOnGuard = (user: CurrentUser, context: Context | null): GuardDecision =>
  isSignedIn(user) && context?.type === 'SAML' && context.appCode !== PORTAL_APP_CODE
    ? allow
    : redirect(SIGN_IN_ROUTE);

/**
 * Section 6: a sign-in pending at a forced step has only the forced-action flows; elsewhere it goes
 * to '/'. The pages of section 8 (error, not found, permission denied, session expired, cookies
 * disabled) stay open to everyone, since any call can send anyone to them, and so do the privacy
 * statement and website terms the footer links on every page. Registration and password reset
 * stay open too: their start step clears the current user (sections 2.4 and 2.5), so entering them
 * abandons the pending sign-in, and the sign-in page at '/' links to both.
 */
export const notPendingGuard: Guard = (user) => (isPending(user) ? redirect(SIGN_IN_ROUTE) : allow);

/**
 * /single-sign-on-error (section 2.1): needs the stored single sign-on app name, otherwise '/';
 * a pending sign-in goes to '/' (section 6).
 */
export const singleSignOnErrorGuard = (
  user: CurrentUser,
  singleSignOnAppName: string | null,
): GuardDecision => (singleSignOnAppName && !isPending(user) ? allow : redirect(SIGN_IN_ROUTE));

/** The guard that applies to a path, or null for public pages. */
export function guardFor(path: string): Guard | null {
  if (path === SIGN_IN_ROUTE) return signInGuard;
  if (isApplicationsPath(path)) return applicationsGuard;
  if (isUnder(path, PROFILE_ROUTE)) return profileGuard;
  if (isUnder(path, ACCESS_REQUESTS_ROUTE)) return accessRequestsGuard;
  if (isUnder(path, FORCED_ACTIONS_ROUTE)) return forcedActionsGuard;
  if (isUnder(path, ADMIN_ROUTE)) return adminGuard;
  if (isUnder(path, USER_GUIDE_ROUTE)) return notPendingGuard;
  return null;
}

/** The decision for a path: its guard's, or allow for public pages. */
export function decide(user: CurrentUser, path: string, pendingStep: string | null = null): GuardDecision {
  return guardFor(path)?.(user, path, pendingStep) ?? allow;
}
