import type {
  AuthenticationOutcome,
  Context,
  CurrentUser,
  FactorType,
  ForcedAction,
  PreviousSignInAttempt,
  SamlHandoffData,
} from '../../src/contract/entities';
import type { FieldError } from '../../src/contract/errors';
import type { LoginRequest } from '../../src/contract/session';
import type { RouteChangedEvent } from '../shared/flow.types';

/** What the page knows when sign-in starts (from the session). */
export interface SignInInput {
  /** The context the portal was opened in (app, realm, header badges, SAML/JWT/DIRECT), if known. */
  context: Context | null;
  /** Remembered /profile or /access-requests path the user asked for before signing in. */
  targetPath: string | null;
  /** Remembered /admin path the user asked for before signing in. */
  adminTargetPath: string | null;
  /**
   * The page runs inside another page's frame (a JWT application's). A JWT outcome is posted to the
   * parent frame only then; in a tab of its own there is no application to take it.
   */
  insideFrame: boolean;
}

/** Input of the failed-auth-count actor: no username on the first load, the tried one after a refusal. */
export interface FailedAuthCountInput {
  username?: string;
}

/** The failed-auth count; each read redraws the captcha. */
export interface FailedAuthCount {
  count: number;
}

/** Input of the login actor: the login payload of section 3 (password passes through, never stored). */
export type LoginInput = LoginRequest;

/** The server refused the credentials or the security code (422 without reroute). */
export interface Refusal {
  /** The username that was tried: its failed count is fetched again. */
  username: string;
  /** The server's message, shown as is. */
  message: string;
  /** Field errors (e.g. captchaCode) shown on the matching field. */
  fieldErrors: FieldError[];
}

/**
 * What the login actor answers. Expected refusals are results, not errors: the machine routes them
 * with guards on onDone; onError is left for the unexpected.
 */
export type LoginResult =
  /** 2xx: the authentication outcome decides what happens next. */
  | { type: 'outcome'; outcome: AuthenticationOutcome }
  /** 422 without reroute: wrong credentials or security code. */
  | ({ type: 'refused' } & Refusal)
  /** 503: sign-in is unavailable. */
  | { type: 'unavailable'; message: string }
  /** 409 on the JWT frame handoff: the framed session has expired. */
  | { type: 'sessionExpired' };

/** Answer of forced-actions/mfa/start (section 7). */
export interface MfaStart {
  nextFactor: FactorType | null;
  smsUnavailableMessage: string | null;
}

export interface SignInContext {
  /** Sent with the login payload. */
  loginContext: Context | null;
  targetPath: string | null;
  adminTargetPath: string | null;
  /** See SignInInput. */
  insideFrame: boolean;
  /** The failed count of the username last tried reached 3: the security code is asked. */
  securityCodeRequired: boolean;
  /**
   * The captcha image being shown, counted from 0 (none yet): each redraw is the next number. The
   * view asks for /captcha.jpg?{timestamp} with the time it asks, each time this changes.
   */
  captchaDraw: number;
  /** The last refusal, shown until the next submit. */
  refusal: Refusal | null;
  /** The server's 503 message. */
  unavailableMessage: string | null;
  /** 'Unknown authentication outcome' or the message of an unexpected failure. */
  errorMessage: string | null;
  /** SAML_HANDOFF: what the hidden form posts to the assertion consumer service. */
  samlHandoff: SamlHandoffData | null;
  /** FORCED_ACTION: the step the server requires. */
  forcedAction: ForcedAction | null;
  /** DIRECT_LOGIN started from another application's single sign-on. */
  isSingleSignOn: boolean;
  /** The application named in the outcome (single sign-on error page). */
  appName: string | null;
  previousSignInAttempt: PreviousSignInAttempt | null;
  /** The user as loaded after the outcome. */
  currentUser: CurrentUser | null;
  /** MFA start: the message kept for the SMS verification screen. */
  smsUnavailableMessage: string | null;
  /** Where the finished flow hands over. */
  route: string | null;
}

export type SignInEvent =
  /**
   * The user submitted the form (valid by section 5). The password travels in this event to the
   * login actor's input and is never kept in context.
   */
  | { type: 'user.submit'; username: string; password: string; captchaCode: string | null }
  /** The user asked for another captcha image. */
  | { type: 'user.refreshCaptcha' }
  /** The address changed without the machine asking (see RouteChangedEvent). */
  | RouteChangedEvent;

/** How the page updates the session once the flow is done. */
export type SignInOutput =
  /** DIRECT_LOGIN finished: set the user, show the previous sign-in, forget target paths, go. */
  | {
      kind: 'signedIn';
      route: string;
      currentUser: CurrentUser;
      previousSignInAttempt: PreviousSignInAttempt | null;
      /** Set when the landing is the single-sign-on error page, which names the app. */
      singleSignOnAppName: string | null;
    }
  /** FORCED_ACTION: set the (pending) user and go to the forced step; target paths stay. */
  | {
      kind: 'forcedAction';
      route: string;
      currentUser: CurrentUser;
      smsUnavailableMessage: string | null;
    }
  /** 409 on the JWT frame handoff. */
  | { kind: 'sessionExpired'; route: string };
