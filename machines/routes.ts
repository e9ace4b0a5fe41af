// Routes that machines and the app share (spec section 2). Machines name routes only through
// these constants, so a flow's state meta, its final outputs and the router can never disagree.
import type { FactorType, ForcedAction } from '../src/contract/entities';

export const SIGN_IN_ROUTE = '/';
export const APPLICATIONS_ROUTE = '/profile/my-applications';
export const PROFILE_ROUTE = '/profile';
export const ACCESS_REQUESTS_ROUTE = '/access-requests';
export const REGISTRATION_ROUTE = '/registration';
export const PASSWORD_RESET_ROUTE = '/password-reset';
export const USER_GUIDE_ROUTE = '/docs/user-guide';
export const SINGLE_SIGN_ON_ROUTE = '/single-sign-on';
export const SINGLE_SIGN_ON_ERROR_ROUTE = '/single-sign-on-error';
export const SESSION_EXPIRED_ERROR_ROUTE = '/session-expired-error';
export const ERROR_ROUTE = '/error';
export const NOT_FOUND_ROUTE = '/not-found';
export const PERMISSION_DENIED_ROUTE = '/permission-denied';
export const COOKIES_DISABLED_ROUTE = '/cookies-disabled';

/** Base of the forced sign-in flow (section 2.6). */
export const FORCED_ACTIONS_ROUTE = '/forced-actions';

/** A forced action other than MFA, or MFA followed by the factor that must be verified. */
export type ForcedActionRouteKey = Exclude<ForcedAction, 'MFA'> | `MFA_${FactorType}`;

/** Section 2.6: where each forced action (and each MFA factor) is answered. */
export const FORCED_ACTION_ROUTES = {
  CHANGE_EXPIRED_PASSWORD: `${FORCED_ACTIONS_ROUTE}/change-expired-password`,
  FACTOR_ENROLMENT: `${FORCED_ACTIONS_ROUTE}/factor-enrolment`,
  SELECT_FACILITY: `${FORCED_ACTIONS_ROUTE}/select-facility`,
  DUPLICATE_ACCOUNTS: `${FORCED_ACTIONS_ROUTE}/duplicate-accounts`,
  MFA_AUTHENTICATOR_APP: `${FORCED_ACTIONS_ROUTE}/mfa/authenticator-app-verification`,
  MFA_SMS: `${FORCED_ACTIONS_ROUTE}/mfa/sms-verification`,
  MFA_EMAIL: `${FORCED_ACTIONS_ROUTE}/mfa/email-verification`,
} as const satisfies Record<ForcedActionRouteKey, string>;

/** The route of an MFA verification screen: MFA_ followed by the factor name. */
export const mfaRoute = (factor: FactorType): string => FORCED_ACTION_ROUTES[`MFA_${factor}`];

/** The route of a forced action that is not MFA (MFA needs the next factor first: see mfaRoute). */
export const forcedActionRoute = (action: Exclude<ForcedAction, 'MFA'>): string =>
  FORCED_ACTION_ROUTES[action];
