// Entities of section 3 that more than one area shares.
import * as v from 'valibot';
import { isoDate, isoDateTime } from './fields';

export const ROLES = ['VIEW_ACCESS_REQUESTS', 'READ_ONLY', 'ADMIN'] as const;
export const Role = v.string();

export const UserType = v.picklist(['ANONYMOUS', 'AUTHENTICATION_PENDING', 'AUTHENTICATED']);
export type UserType = v.InferOutput<typeof UserType>;

export const CurrentUser = v.object({
  id: v.nullable(v.string()),
  username: v.nullable(v.string()),
  name: v.nullable(v.string()),
  email: v.nullable(v.string()),
  mobile: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  birthDate: v.nullable(isoDate),
  isAuthenticated: v.boolean(),
  isAdmin: v.boolean(),
  isStaff: v.boolean(),
  roles: v.array(Role),
  type: UserType,
});
export type CurrentUser = v.InferOutput<typeof CurrentUser>;

/** The current user of a visitor who has not signed in (or whose session ended). */
export const ANONYMOUS_USER: CurrentUser = Object.freeze({
  id: null,
  username: null,
  name: null,
  email: null,
  mobile: null,
  phone: null,
  birthDate: null,
  isAuthenticated: false,
  isAdmin: false,
  isStaff: false,
  roles: [],
  type: 'ANONYMOUS',
});

export const ContextType = v.picklist(['DIRECT', 'SAML', 'JWT']);
export type ContextType = v.InferOutput<typeof ContextType>;

/** The portal's own app code: a context of SAM means "no other application asked". */
export const PORTAL_APP_CODE = 'SAM';

export const Context = v.object({
  appCode: v.string(),
  realmCode: v.string(),
  showInHeader: v.boolean(),
  type: ContextType,
});
export type Context = v.InferOutput<typeof Context>;

/** Context fields sent with sign-in (login payload) and reset start. */
export const ContextFields = v.object({
  appCode: v.optional(v.pipe(v.string(), v.maxLength(50))),
  realmCode: v.optional(v.pipe(v.string(), v.maxLength(50))),
  showInHeader: v.optional(v.boolean()),
  type: v.optional(ContextType),
});

export const HandoffTarget = v.object({
  appName: v.string(),
  appCode: v.string(),
  facilityCode: v.nullable(v.string()),
  facilityName: v.nullable(v.string()),
  facilityAliasOrCode: v.nullable(v.string()),
});
export type HandoffTarget = v.InferOutput<typeof HandoffTarget>;

export const Facility = v.object({
  code: v.string(),
  name: v.string(),
  aliasOrCode: v.string(),
  app: v.object({ code: v.string() }),
});
export type Facility = v.InferOutput<typeof Facility>;

export const FacilityHandoff = v.picklist(['NONE', 'SELECTED_BEFORE_HANDOFF']);
export const AccessRequestHandling = v.picklist(['IMMEDIATE', 'MANUAL']);

export const App = v.object({
  code: v.string(),
  name: v.string(),
  contextType: ContextType,
  facilityHandoff: FacilityHandoff,
  accessRequestHandling: AccessRequestHandling,
  frameOrigin: v.nullable(v.string()),
});
export type App = v.InferOutput<typeof App>;

export const PreviousSignInAttempt = v.object({
  date: isoDateTime,
  ipAddress: v.nullable(v.string()),
  cityName: v.nullable(v.string()),
  countryName: v.nullable(v.string()),
  continentName: v.nullable(v.string()),
  isSuccessful: v.boolean(),
  isGeolocationDifferent: v.boolean(),
});
export type PreviousSignInAttempt = v.InferOutput<typeof PreviousSignInAttempt>;

export const SamlHandoffData = v.object({
  assertionConsumerServiceUrl: v.pipe(v.string(), v.url()),
  samlResponse: v.string(),
  relayState: v.nullable(v.string()),
});
export type SamlHandoffData = v.InferOutput<typeof SamlHandoffData>;

export const FORCED_ACTIONS = [
  'CHANGE_EXPIRED_PASSWORD',
  'FACTOR_ENROLMENT',
  'MFA',
  'SELECT_FACILITY',
  'DUPLICATE_ACCOUNTS',
] as const;
export const ForcedAction = v.picklist(FORCED_ACTIONS);
export type ForcedAction = v.InferOutput<typeof ForcedAction>;

export const FactorType = v.picklist(['AUTHENTICATOR_APP', 'EMAIL', 'SMS']);
export type FactorType = v.InferOutput<typeof FactorType>;

export const OUTCOMES = ['SAML_HANDOFF', 'JWT', 'FORCED_ACTION', 'DIRECT_LOGIN'] as const;

/**
 * Authentication outcome (section 3). `outcome` is a plain string on purpose: an outcome this
 * portal does not know must reach the sign-in machine, which reports 'Unknown authentication outcome'.
 */
export const AuthenticationOutcome = v.object({
  outcome: v.string(),
  jwt: v.optional(v.nullable(v.string())),
  /** Exact origin the JWT is posted to (never '*'); present with outcome JWT. */
  frameOrigin: v.optional(v.nullable(v.string())),
  currentUser: v.optional(v.nullable(CurrentUser)),
  previousSignInAttempt: v.optional(v.nullable(PreviousSignInAttempt)),
  forcedAction: v.optional(v.nullable(ForcedAction)),
  isSingleSignOn: v.optional(v.boolean()),
  appName: v.optional(v.nullable(v.string())),
  saml: v.optional(v.nullable(SamlHandoffData)),
});
export type AuthenticationOutcome = v.InferOutput<typeof AuthenticationOutcome>;

export const MfaNext = v.object({
  nextFactor: v.nullable(FactorType),
  smsUnavailableMessage: v.nullable(v.string()),
});
