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

/**
 * An absolute route from a state's meta route: absolute as is, otherwise under the flow's base
 * path (the router, src/client/flows/shared/use-flow-route.ts, and the diagrams read it alike).
 */
export function resolveRoute(basePath: string | null, route: string): string {
  if (route.startsWith('/') || basePath === null) return route.startsWith('/') ? route : `/${route}`;
  const base = basePath.endsWith('/') ? basePath.slice(0, -1) : basePath;
  return route === '' ? base || '/' : `${base}/${route}`;
}

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

/** Section 2.6: the factor-enrolment steps, relative to FORCED_ACTION_ROUTES.FACTOR_ENROLMENT. */
export const FACTOR_ENROLMENT_STEPS = {
  EMAIL_VERIFICATION: '',
  SELECT_SMS_FACTOR: 'select-sms-factor',
  SMS_VERIFICATION: 'sms-verification',
  SECURITY_QUESTIONS: 'security-questions',
} as const;

/** Base of the MFA verification screens (section 2.6); each factor's screen is mfaRoute(factor). */
export const MFA_ROUTE = `${FORCED_ACTIONS_ROUTE}/mfa`;

/** Base of the merge wizard (section 2.6); its steps are relative to it. */
export const MERGE_ACCOUNTS_ROUTE = `${FORCED_ACTIONS_ROUTE}/merge-accounts`;

/** Section 2.6: the merge wizard's steps, relative to MERGE_ACCOUNTS_ROUTE. */
export const MERGE_ACCOUNTS_STEPS = {
  SELECT_ACCOUNTS: 'select-accounts',
  CHANGE_EMAIL: 'change-email',
  EMAIL_VERIFICATION: 'email-verification',
  CHOOSE_PREFERRED_USERNAME: 'choose-preferred-username',
  CONFIRMATION: 'confirmation',
  EMAIL_CHANGED: 'email-changed',
  COMPLETED: 'completed',
} as const;

/** Section 2.4: the password reset steps, relative to PASSWORD_RESET_ROUTE ('' is Get started). */
export const PASSWORD_RESET_STEPS = {
  START: '',
  EMAIL_VERIFICATION: 'email-verification',
  USER_SELECTION: 'user-selection',
  AUTHENTICATOR_APP_VERIFICATION: 'authenticator-app-verification',
  SMS_VERIFICATION: 'sms-verification',
  SECURITY_QUESTION_VERIFICATION: 'security-question-verification',
  SET_PASSWORD: 'set-password',
} as const;

/** Section 2.5: the registration steps, relative to REGISTRATION_ROUTE ('' is the start). */
export const REGISTRATION_STEPS = {
  START: '',
  COLLECT_DETAILS: 'collect-details',
  SELECT_AUTHENTICATOR_APP_FACTOR: 'select-authenticator-app-factor',
  AUTHENTICATOR_APP_VERIFICATION: 'authenticator-app-verification',
  SELECT_SMS_FACTOR: 'select-sms-factor',
  SMS_VERIFICATION: 'sms-verification',
  SECURITY_QUESTIONS: 'security-questions',
  SET_PASSWORD: 'set-password',
  VERIFY_IDENTITY: 'verify-identity',
} as const;

/** Section 2.3: the profile's single-step screens and two-step wizards. */
export const PROFILE_ROUTES = {
  CHANGE_NAME: `${PROFILE_ROUTE}/change-name`,
  CHANGE_PASSWORD: `${PROFILE_ROUTE}/change-password`,
  CHANGE_PHONE: `${PROFILE_ROUTE}/change-phone`,
  CHANGE_DATE_OF_BIRTH: `${PROFILE_ROUTE}/change-date-of-birth`,
  CHANGE_SECURITY_QUESTIONS: `${PROFILE_ROUTE}/change-security-questions`,
  REMOVE_MOBILE: `${PROFILE_ROUTE}/remove-mobile`,
  UNENROL_SMS: `${PROFILE_ROUTE}/unenrol-sms`,
  UNENROL_AUTHENTICATOR_APP: `${PROFILE_ROUTE}/unenrol-authenticator-app`,
  CHANGE_EMAIL: `${PROFILE_ROUTE}/change-email`,
  CHANGE_MOBILE: `${PROFILE_ROUTE}/change-mobile`,
  ENROL_SMS: `${PROFILE_ROUTE}/enrol-sms`,
  ENROL_AUTHENTICATOR_APP: `${PROFILE_ROUTE}/enrol-authenticator-app`,
  CHANGE_AUTHENTICATOR_APP: `${PROFILE_ROUTE}/change-authenticator-app`,
} as const;

/** Section 2.3: the wizards' second steps, relative to their wizard's route. */
export const PROFILE_WIZARD_STEPS = {
  EMAIL_VERIFICATION: 'email-verification',
  SMS_VERIFICATION: 'sms-verification',
  CODE_VERIFICATION: 'code-verification',
} as const;
