// Section 8's global handling: what happens for every call, whoever made it. The flow that made the
// call still gets the ApiError (with handled = true) so its machine can stop waiting.
import type { CallDef } from '../../contract/call';
import type { ErrorBody } from '../../contract/errors';
import { storeErrorDetails } from '../app/error-details';
import { currentAppPath, navigateTo, toAppPath } from '../app/navigation';
import { announce } from '../app/notices';
import {
  COOKIES_DISABLED_ROUTE,
  ERROR_ROUTE,
  NOT_FOUND_ROUTE,
  PERMISSION_DENIED_ROUTE,
  SIGN_IN_ROUTE,
} from '../app/routes';
import { sessionStore } from '../app/session/session-store';
import { shellTexts } from '../app/texts';

/** What section 8 does for an answer, decided from status, body and the call's accepted statuses. */
export type GlobalAction =
  | { type: 'error' }
  | { type: 'sessionExpired'; url: string }
  | { type: 'permissionDenied' }
  | { type: 'notFound' }
  | { type: 'reroute'; route: string; message: string }
  /** Left to the flow: an accepted status, a 422 without reroute, or any status section 8 does not name. */
  | { type: 'none' };

/**
 * Where a server-given `url` or `reroute` may send the user: a page of this origin, else the sign-in
 * page (where a 401 without a url goes). Never another origin, never a `javascript:` address.
 */
const safeRoute = (to: string | undefined): string => (to && toAppPath(to)) || SIGN_IN_ROUTE;

export function globalActionFor(call: CallDef, status: number, body: ErrorBody): GlobalAction {
  if (status === 422 && body.reroute) {
    return { type: 'reroute', route: safeRoute(body.reroute), message: body.message };
  }
  if (status in call.accepted) return { type: 'none' };
  if (status === 400 || status >= 500) return { type: 'error' };
  if (status === 401) return { type: 'sessionExpired', url: safeRoute(body.url) };
  if (status === 403) return { type: 'permissionDenied' };
  if (status === 404) return { type: 'notFound' };
  return { type: 'none' };
}

/** Section 8, 400 or 5xx (also no answer and an answer that breaks the contract): show /error. */
export function showErrorPage(body: ErrorBody): void {
  storeErrorDetails({
    message: body.message,
    stackTraceHash: body.stackTraceHash ?? null,
    timestamp: body.timestamp ?? new Date().toISOString(),
  });
  navigateTo(ERROR_ROUTE);
}

export function showCookiesDisabled(): void {
  navigateTo(COOKIES_DISABLED_ROUTE, { replace: true });
}

/** Carries out a decided action; returns whether anything was done. */
export function applyGlobalAction(action: GlobalAction, body: ErrorBody): boolean {
  switch (action.type) {
    case 'error':
      showErrorPage(body);
      return true;
    case 'sessionExpired':
      announce({ message: shellTexts.sessionExpired, tone: 'warning' });
      // Section 4.1's target path: signing in again comes back to the profile or access-requests
      // page (or the admin page) the session ended on, as the guard remembers a page opened then.
      sessionStore.rememberTargetPath(currentAppPath());
      sessionStore.invalidate();
      navigateTo(action.url);
      return true;
    case 'permissionDenied':
      navigateTo(PERMISSION_DENIED_ROUTE);
      return true;
    case 'notFound':
      navigateTo(NOT_FOUND_ROUTE);
      return true;
    case 'reroute':
      announce({ message: action.message, tone: 'warning' });
      sessionStore.invalidate();
      sessionStore.clearTargetPaths();
      navigateTo(action.route);
      return true;
    case 'none':
      return false;
  }
}
