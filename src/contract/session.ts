// Anonymous and session calls of section 7, and the app calls the foundation needs.
import * as v from 'valibot';
import { defineCall } from './call';
import { Unavailable } from './errors';
import { limits, requestBody, requiredSecret, requiredString } from './fields';
import { App, AuthenticationOutcome, Context, ContextFields, CurrentUser, HandoffTarget } from './entities';

export const Environment = v.object({
  /** development, test or production. */
  environment: v.picklist(['development', 'test', 'production']),
  applicationVersion: v.string(),
});

export const EnumValue = v.object({ code: v.string(), description: v.string() });
export const Enumeration = v.array(EnumValue);
export type Enumeration = v.InferOutput<typeof Enumeration>;

export const PropertyName = v.picklist([
  'skip-merge-accounts-cutoff-date',
  'sso-support-email',
  'support-email',
  'sms-gateway-status',
]);
export type PropertyName = v.InferOutput<typeof PropertyName>;

/** A property by name; sms-gateway-status answers `{ isSmsGatewayAvailable }` instead. */
export const Property = v.union([
  v.object({ name: v.string(), value: v.nullable(v.string()) }),
  v.object({ isSmsGatewayAvailable: v.boolean() }),
]);

export const LoginRequest = requestBody({
  username: requiredString(limits.signInUsername),
  password: requiredSecret(),
  captchaCode: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(limits.captchaCode)))),
  ...ContextFields.entries,
});
export type LoginRequest = v.InferInput<typeof LoginRequest>;

/**
 * The re-enter-password cookie (section 4.2): readable by the portal's JavaScript (not HttpOnly);
 * present while the session's password entry is recent. Its value is when that ends (Unix
 * seconds). When it is missing the portal shows the 'Re-enter password' modal.
 */
export const REENTER_PASSWORD_COOKIE = 'sam_reauth';
/**
 * Not in the spec: the 401's message for a call that needs a recent password entry, made after the
 * period (section 4.2). The portal shows the 'Re-enter password' modal and sends the call again,
 * instead of section 8's session-expired handling: the session itself is alive.
 */
export const REENTER_PASSWORD_REQUIRED_MESSAGE = 'Enter your password again to continue.';

const nameParam = requestBody({ name: v.pipe(v.string(), v.maxLength(100)) });

export const sessionCalls = {
  getContext: defineCall({ id: 'getContext', method: 'GET', path: 'anonymous/context', response: Context }),
  getCurrentUser: defineCall({
    id: 'getCurrentUser',
    method: 'GET',
    path: 'anonymous/current-user',
    response: CurrentUser,
  }),
  getEnvironment: defineCall({
    id: 'getEnvironment',
    method: 'GET',
    path: 'anonymous/environment',
    response: Environment,
  }),
  getFrameOrigin: defineCall({
    id: 'getFrameOrigin',
    method: 'GET',
    path: 'anonymous/frame-origin',
    response: v.object({ origin: v.nullable(v.string()) }),
  }),
  getRealmAuthEnabled: defineCall({
    id: 'getRealmAuthEnabled',
    method: 'GET',
    path: 'anonymous/realms/:realm/auth-enabled',
    params: requestBody({ realm: v.pipe(v.string(), v.maxLength(50)) }),
    response: v.boolean(),
  }),
  getEnum: defineCall({
    id: 'getEnum',
    method: 'GET',
    path: 'anonymous/enums/:name',
    params: nameParam,
    response: Enumeration,
  }),
  getProperty: defineCall({
    id: 'getProperty',
    method: 'GET',
    path: 'anonymous/properties/:name',
    params: requestBody({ name: PropertyName }),
    response: Property,
  }),
  getTrustedDevicePeriod: defineCall({
    id: 'getTrustedDevicePeriod',
    method: 'GET',
    path: 'anonymous/trusted-devices/period',
    response: v.picklist([1, 7]),
  }),
  login: defineCall({
    id: 'login',
    method: 'POST',
    path: 'anonymous/login',
    body: LoginRequest,
    response: AuthenticationOutcome,
    accepted: { 503: Unavailable },
  }),
  getFailedAuthCount: defineCall({
    id: 'getFailedAuthCount',
    method: 'GET',
    path: 'anonymous/login/failed-auth-count',
    query: requestBody({ username: v.optional(v.pipe(v.string(), v.maxLength(limits.signInUsername))) }),
    response: v.pipe(v.number(), v.integer(), v.minValue(0)),
  }),
  logout: defineCall({ id: 'logout', method: 'POST', path: 'logout', response: v.null() }),
  getReenterPasswordExpired: defineCall({
    id: 'getReenterPasswordExpired',
    method: 'GET',
    path: 'reenter-password/expired',
    response: v.boolean(),
  }),
  reenterPassword: defineCall({
    id: 'reenterPassword',
    method: 'POST',
    path: 'reenter-password',
    body: requestBody({ currentPassword: requiredSecret() }),
    response: v.null(),
  }),
  singleLogout: defineCall({
    id: 'singleLogout',
    method: 'POST',
    path: 'current-user/single-logout',
    body: requestBody({ ticketCode: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(50)))) }),
    response: v.null(),
  }),
  getAccessibleApps: defineCall({
    id: 'getAccessibleApps',
    method: 'GET',
    path: 'current-user/accessible-apps',
    response: v.array(HandoffTarget),
  }),
  getApp: defineCall({
    id: 'getApp',
    method: 'GET',
    path: 'apps/:appCode',
    params: requestBody({ appCode: v.pipe(v.string(), v.maxLength(50)) }),
    response: App,
  }),
} as const;
