// Profile self-service calls of section 7 and the trusted device and enrolled factors of section 3.
import * as v from 'valibot';
import { defineCall } from './call';
import { CurrentUser, FactorType } from './entities';
import { ErrorBody } from './errors';
import {
  email,
  isoDate,
  isoDateTime,
  limits,
  messages,
  newPassword,
  oneTimeCode,
  optionalString,
  requestBody,
  requiredSecret,
  requiredString,
} from './fields';
import {
  CustomerUnavailable,
  mobile,
  SecurityQuestionsFields,
  sendCodeCall,
  verifyCodeCall,
  VerifyCodeBody,
} from './forced';
import { QrCodeDataUrl, SetupKey } from './registration';

/** Today as YYYY-MM-DD in local time; read at each validation, never at module load. */
export function todayIsoDate(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The hours the furthest-ahead time zone (UTC+14, Kiribati) is ahead of UTC. */
const FURTHEST_AHEAD_MS = 14 * 60 * 60 * 1000;

/**
 * The latest date that is today somewhere on Earth: the UTC date 14 hours from now. Whatever the
 * browser's time zone, its today is never later than this.
 */
export function latestTodayIsoDate(now: Date = new Date()): string {
  return new Date(now.getTime() + FURTHEST_AHEAD_MS).toISOString().slice(0, 10);
}

/**
 * Date of birth: 1900-01-01 up to today. Today is the user's: the portal's form holds the date to
 * the browser's today (its picker and typed-date check, ProfileFormPage), while this schema, which
 * the server applies too, takes any date up to the latest today anywhere: the server's own today
 * (UTC in a container) is a day behind a user east of it in the morning, who would otherwise have
 * a date the form offered refused as a malformed request.
 */
export const birthDate = v.pipe(
  v.string(messages.required),
  v.nonEmpty(messages.required),
  isoDate,
  v.check((value) => value >= limits.birthDateMin, messages.minValue(limits.birthDateMin)),
  v.check(
    (value) => value <= latestTodayIsoDate(),
    () => messages.maxValue(latestTodayIsoDate()),
  ),
);

export const TrustedDevice = v.object({
  id: v.string(),
  browser: v.object({
    family: v.nullable(v.string()),
    versionMajor: v.nullable(v.string()),
    versionMinor: v.nullable(v.string()),
  }),
  operatingSystem: v.object({ family: v.nullable(v.string()), version: v.nullable(v.string()) }),
  city: v.nullable(v.string()),
  country: v.nullable(v.string()),
  continent: v.nullable(v.string()),
  lastActiveDate: isoDateTime,
});
export type TrustedDevice = v.InferOutput<typeof TrustedDevice>;

export const EnrolledFactors = v.array(FactorType);
export type EnrolledFactors = v.InferOutput<typeof EnrolledFactors>;

const currentPassword = requiredSecret();
const CurrentPasswordBody = requestBody({ currentPassword });

/** Current password plus exactly one of name, birthDate (null clears it), phone (null or '' clears it). */
export const UpdateProfileRequest = v.pipe(
  requestBody({
    currentPassword,
    name: v.optional(requiredString(limits.name)),
    birthDate: v.optional(v.nullable(birthDate)),
    phone: optionalString(limits.phone),
  }),
  v.check(
    (body) => [body.name, body.birthDate, body.phone].filter((field) => field !== undefined).length === 1,
    messages.required,
  ),
);
export type UpdateProfileRequest = v.InferInput<typeof UpdateProfileRequest>;

export const ChangeMobileStartRequest = requestBody({
  currentPassword,
  mobile,
  /** True from the enable-SMS wizard: the verified mobile also becomes the SMS factor. */
  enrolSmsFactor: v.optional(v.boolean()),
});

/** Mobile start answers either "verify the code sent to this mobile" or, when none is needed, the updated user. */
export const SmsVerificationRequired = v.object({
  isSmsVerificationRequired: v.literal(true),
  mobile: v.string(),
});
export const ChangeMobileStartResult = v.union([SmsVerificationRequired, CurrentUser]);

const CHANGE_EMAIL = 'profile/change-email';
const CHANGE_MOBILE = 'profile/change-mobile';
const CHANGE_APP = 'profile/change-authenticator-app';
// Verification paths are not shown: they follow the `{prefix}/verify-*` pattern of the other
// prefixes. Section 7: "the result is the updated user".
const profileVerify = { body: VerifyCodeBody, response: CurrentUser };

export const profileCalls = {
  updateProfile: defineCall({
    id: 'updateProfile',
    method: 'PATCH',
    path: 'profile',
    body: UpdateProfileRequest,
    response: CurrentUser,
  }),
  changePassword: defineCall({
    id: 'changePassword',
    method: 'POST',
    path: 'profile/change-password',
    body: requestBody({ currentPassword, newPassword, confirmNewPassword: requiredSecret() }),
    response: v.null(),
  }),
  changeSecurityQuestions: defineCall({
    id: 'changeSecurityQuestions',
    method: 'POST',
    path: 'profile/change-security-questions',
    body: requestBody({ currentPassword, ...SecurityQuestionsFields.entries }),
    response: v.null(),
  }),
  // Not shown: the answer; the mobile is a user field, so like PATCH profile it is the updated user.
  removeMobile: defineCall({
    id: 'removeMobile',
    method: 'POST',
    path: `${CHANGE_MOBILE}/remove`,
    body: CurrentPasswordBody,
    response: CurrentUser,
  }),
  unenrolSms: defineCall({
    id: 'unenrolSms',
    method: 'POST',
    path: 'profile/unenrol-sms',
    body: CurrentPasswordBody,
    response: v.null(),
  }),
  unenrolAuthenticatorApp: defineCall({
    id: 'unenrolAuthenticatorApp',
    method: 'POST',
    path: 'profile/unenrol-authenticator-app',
    body: CurrentPasswordBody,
    response: v.null(),
  }),
  // Not shown: start answers 204 once the code is sent to the new email.
  changeEmailStart: defineCall({
    id: 'changeEmailStart',
    method: 'POST',
    path: `${CHANGE_EMAIL}/start`,
    body: requestBody({ currentPassword, email }),
    response: v.null(),
  }),
  changeEmailCancel: defineCall({
    id: 'changeEmailCancel',
    method: 'POST',
    path: `${CHANGE_EMAIL}/cancel`,
    response: v.null(),
  }),
  changeEmailSendEmail: sendCodeCall('changeEmail', CHANGE_EMAIL, 'email'),
  changeEmailVerifyEmail: verifyCodeCall('changeEmail', CHANGE_EMAIL, 'email', profileVerify),
  changeMobileStart: defineCall({
    id: 'changeMobileStart',
    method: 'POST',
    path: `${CHANGE_MOBILE}/start`,
    body: ChangeMobileStartRequest,
    response: ChangeMobileStartResult,
    accepted: { 503: CustomerUnavailable },
  }),
  changeMobileCancel: defineCall({
    id: 'changeMobileCancel',
    method: 'POST',
    path: `${CHANGE_MOBILE}/cancel`,
    response: v.null(),
  }),
  changeMobileSendSms: sendCodeCall('changeMobile', CHANGE_MOBILE, 'sms'),
  changeMobileVerifyMobile: verifyCodeCall('changeMobile', CHANGE_MOBILE, 'mobile', profileVerify),
  // Enables or replaces the authenticator app: the code proves the app holds the new secret.
  changeAuthenticatorApp: defineCall({
    id: 'changeAuthenticatorApp',
    method: 'POST',
    path: CHANGE_APP,
    body: requestBody({ code: oneTimeCode, currentPassword }),
    response: v.null(),
  }),
  getAuthenticatorAppQrCode: defineCall({
    id: 'getAuthenticatorAppQrCode',
    method: 'GET',
    path: `${CHANGE_APP}/qr-code`,
    response: QrCodeDataUrl,
  }),
  getAuthenticatorAppSetupKey: defineCall({
    id: 'getAuthenticatorAppSetupKey',
    method: 'GET',
    path: `${CHANGE_APP}/setup-key`,
    response: SetupKey,
  }),
  getEnrolledFactors: defineCall({
    id: 'getEnrolledFactors',
    method: 'GET',
    path: 'profile/enrolled-factors',
    response: EnrolledFactors,
  }),
  getIdentityVerified: defineCall({
    id: 'getIdentityVerified',
    method: 'GET',
    path: 'profile/identity-verified',
    response: v.boolean(),
  }),
  // Not shown: the answer; null for a user without one (only staff have a salary number).
  getSalaryNumber: defineCall({
    id: 'getSalaryNumber',
    method: 'GET',
    path: 'profile/salary-number',
    response: v.object({ salaryNumber: v.nullable(v.string()) }),
  }),
  getActiveTrustedDevices: defineCall({
    id: 'getActiveTrustedDevices',
    method: 'GET',
    path: 'profile/trusted-devices/active',
    response: v.array(TrustedDevice),
  }),
  clearTrustedDevices: defineCall({
    id: 'clearTrustedDevices',
    method: 'POST',
    path: 'profile/trusted-devices/clear',
    response: v.null(),
  }),
  deleteTrustedDevice: defineCall({
    id: 'deleteTrustedDevice',
    method: 'DELETE',
    path: 'profile/trusted-devices/:id',
    params: v.strictObject({ id: v.pipe(v.string(), v.nonEmpty(), v.maxLength(100)) }),
    response: v.null(),
    // A device already gone (removed in another tab, cleared, or expired and swept) is a result,
    // not section 8's /not-found: the page shows the list as it now is.
    accepted: { 404: ErrorBody },
  }),
} as const;
