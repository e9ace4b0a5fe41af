// Anonymous registration calls of section 7 (from an invitation) and the invite details of section 3.
import * as v from 'valibot';
import { defineCall } from './call';
import { AuthenticationOutcome } from './entities';
import { email, isoDate, limits, messages, requestBody, requiredSecret, requiredString } from './fields';
import {
  CustomerUnavailable,
  mobile,
  NewPasswordFields,
  SecurityQuestionsFields,
  sendCodeCall,
  verifyCodeCall,
  VerifyCodeBody,
} from './forced';

export const InviteRole = v.object({
  name: v.string(),
  scopeType: v.optional(v.nullable(v.string())),
  scope: v.optional(v.nullable(v.string())),
});
export type InviteRole = v.InferOutput<typeof InviteRole>;

export const InviteDetails = v.object({
  productName: v.string(),
  facilityName: v.nullable(v.string()),
  facilityAliasOrCode: v.nullable(v.string()),
  roles: v.array(InviteRole),
  customerNumber: v.nullable(v.string()),
  name: v.nullable(v.string()),
  birthDate: v.nullable(isoDate),
  username: v.nullable(v.string()),
  email: v.string(),
  mobile: v.nullable(v.string()),
  /** The invite attaches a facility to an existing account: the wizard goes to verify-identity. */
  existingIdentity: v.boolean(),
  isStaff: v.boolean(),
  /**
   * Not named by the spec: the invitee's email domain belongs to the first affiliated organisation
   * (its staff usernames are internal domain accounts) or to the second (salary numbers).
   */
  isPrimaryAffiliateEmailDomain: v.boolean(),
  isSecondaryAffiliateEmailDomain: v.boolean(),
});
export type InviteDetails = v.InferOutput<typeof InviteDetails>;

/** Setup key of an authenticator app (registration and profile). */
export const SetupKey = v.object({ setupKey: v.string() });
export type SetupKey = v.InferOutput<typeof SetupKey>;
/** Not shown: the QR-code answer is the image as a bare JSON string holding a data URL. */
export const QrCodeDataUrl = v.pipe(v.string(), v.regex(/^data:image\/[a-z+.-]+;base64,/));

export const registrationUsername = v.pipe(
  requiredString(limits.registrationUsernameMax),
  v.minLength(limits.registrationUsernameMin, messages.minSize(limits.registrationUsernameMin)),
);

export const RegistrationStartRequest = requestBody({
  email,
  inviteCode: requiredString(limits.invitationCode),
  captchaCode: requiredString(limits.captchaCode),
});
export type RegistrationStartRequest = v.InferInput<typeof RegistrationStartRequest>;

/** Name and/or username: each is sent only when the invitee may edit it, but one must be. */
export const CollectDetailsRequest = v.pipe(
  requestBody({
    name: v.optional(requiredString(limits.name)),
    username: v.optional(registrationUsername),
  }),
  v.check((body) => body.name !== undefined || body.username !== undefined, messages.required),
);
export type CollectDetailsRequest = v.InferInput<typeof CollectDetailsRequest>;

const REGISTRATION = 'anonymous/registration';
// Verification paths are not shown: they follow the `{prefix}/verify-*` pattern of the other
// prefixes. Section 7 says "the result is the updated user"; a registrant has no user yet, so the
// answer is the invite details with what the wizard has collected (the user to be).
const registrationVerify = { body: VerifyCodeBody, response: InviteDetails };

export const registrationCalls = {
  registrationStart: defineCall({
    id: 'registrationStart',
    method: 'POST',
    path: `${REGISTRATION}/start`,
    body: RegistrationStartRequest,
    response: InviteDetails,
  }),
  // Not shown: the answer; the invite details with what was collected.
  registrationCollectDetails: defineCall({
    id: 'registrationCollectDetails',
    method: 'POST',
    path: `${REGISTRATION}/collect-details`,
    body: CollectDetailsRequest,
    response: InviteDetails,
  }),
  getRegistrationQrCode: defineCall({
    id: 'getRegistrationQrCode',
    method: 'GET',
    path: `${REGISTRATION}/qr-code`,
    response: QrCodeDataUrl,
  }),
  getRegistrationSetupKey: defineCall({
    id: 'getRegistrationSetupKey',
    method: 'GET',
    path: `${REGISTRATION}/setup-key`,
    response: SetupKey,
  }),
  registrationEnrolEmail: defineCall({
    id: 'registrationEnrolEmail',
    method: 'POST',
    path: `${REGISTRATION}/enrol-email`,
    response: v.null(),
  }),
  registrationEnrolSms: defineCall({
    id: 'registrationEnrolSms',
    method: 'POST',
    path: `${REGISTRATION}/enrol-sms`,
    body: mobile,
    // "success returns details appended to the invite": the invite details with the mobile.
    response: InviteDetails,
    accepted: { 503: CustomerUnavailable },
  }),
  registrationEnrolSecurityQuestions: defineCall({
    id: 'registrationEnrolSecurityQuestions',
    method: 'POST',
    path: `${REGISTRATION}/enrol-security-questions`,
    body: requestBody({ ...SecurityQuestionsFields.entries }),
    response: v.null(),
  }),
  registrationSubmitNew: defineCall({
    id: 'registrationSubmitNew',
    method: 'POST',
    path: `${REGISTRATION}/submit-new`,
    // Strength rules are not shown for registration: the bank-wide rule of section 9 applies.
    body: requestBody({ ...NewPasswordFields.entries }),
    response: AuthenticationOutcome,
  }),
  registrationSubmitExisting: defineCall({
    id: 'registrationSubmitExisting',
    method: 'POST',
    path: `${REGISTRATION}/submit-existing`,
    body: requestBody({ username: requiredString(limits.signInUsername), password: requiredSecret() }),
    response: AuthenticationOutcome,
  }),
  // Registration verifies the authenticator app and SMS; the email is proved by the invitation.
  registrationSendSms: sendCodeCall('registration', REGISTRATION, 'sms'),
  registrationVerifyMobile: verifyCodeCall('registration', REGISTRATION, 'mobile', registrationVerify),
  registrationVerifyAuthenticatorApp: verifyCodeCall(
    'registration',
    REGISTRATION,
    'authenticator-app',
    registrationVerify,
  ),
} as const;
