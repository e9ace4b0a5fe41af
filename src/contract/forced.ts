// Forced sign-in steps of section 7 (change expired password, factor enrolment, MFA), and the
// `{prefix}` one-time-code calls that every code-verifying area builds with the factories below.
import * as v from 'valibot';
import { defineCall, type AnySchema } from './call';
import { AuthenticationOutcome, MfaNext } from './entities';
import {
  limits,
  messages,
  newPassword,
  oneTimeCode,
  requestBody,
  requiredSecret,
  requiredString,
} from './fields';

/** 503 on a code resend, SMS enrolment or mobile start: the customer message is shown (section 8). */
export const CustomerUnavailable = v.object({ message: v.string(), customerMessage: v.string() });
export type CustomerUnavailable = v.InferOutput<typeof CustomerUnavailable>;

/**
 * Mobile number (enrolment, profile, registration): required, max 20 (section 5, which gives the
 * international format only as a hint to the user). The server also needs the number in that
 * format, since the SMS gateway cannot send to a national one: it refuses any other on the field
 * with a 422 that says so (normaliseMobile in src/server/domain/factors/enrolment.ts), after the
 * contract's checks, which are section 5's.
 */
export const mobile = requiredString(limits.mobile);

/** Security question code, from the server-loaded enumeration (defaults DRIVERS_LICENCE, MEDICARE). */
export const securityQuestion = requiredString(50);
/** Answer to a security question being set: required, 4 to 50. */
export const securityAnswer = v.pipe(
  requiredString(limits.answerMax),
  v.minLength(limits.answerMin, messages.minSize(limits.answerMin)),
);
/** The two questions and answers set at enrolment, registration and in the profile. */
export const SecurityQuestionsFields = v.object({
  question1: securityQuestion,
  answer1: securityAnswer,
  question2: securityQuestion,
  answer2: securityAnswer,
});

/** New password with its confirmation; server-side equality is not shown, so the schema does not check it. */
export const NewPasswordFields = v.object({ password: newPassword, confirmPassword: requiredSecret() });

// ---- `{prefix}` one-time-code calls -------------------------------------------------------------

export const VerifyCodeBody = requestBody({ code: oneTimeCode });
/** The MFA screens carry the trust-this-device checkbox; no other verify call does. */
export const MfaVerifyCodeBody = requestBody({
  code: oneTimeCode,
  trustDevice: v.optional(v.boolean(), false),
});

export type CodeChannel = 'email' | 'sms';
export type CodeFactor = 'email' | 'mobile' | 'authenticator-app';

const pascal = (kebab: string) => kebab.replace(/(?:^|-)([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * `POST {prefix}/send-email|send-sms`: resend a code. 204 on success; 503 is a result carrying the
 * customer message; a 422 (resend refused) is an error whose message the screen shows in red.
 * Id: `<area>Send<Channel>`, e.g. `mfaSendSms`.
 */
export function sendCodeCall(area: string, prefix: string, channel: CodeChannel) {
  return defineCall({
    id: `${area}Send${pascal(channel)}`,
    method: 'POST',
    path: `${prefix}/send-${channel}`,
    response: v.null(),
    accepted: { 503: CustomerUnavailable },
  });
}

/**
 * `POST {prefix}/verify-email|verify-mobile|verify-authenticator-app` with the code.
 * Id: `<area>Verify<Factor>`, e.g. `mfaVerifyAuthenticatorApp`.
 */
export function verifyCodeCall<TBody extends AnySchema, TResponse extends AnySchema>(
  area: string,
  prefix: string,
  factor: CodeFactor,
  schemas: { body: TBody; response: TResponse },
) {
  return defineCall({
    id: `${area}Verify${pascal(factor)}`,
    method: 'POST',
    path: `${prefix}/verify-${factor}`,
    body: schemas.body,
    response: schemas.response,
  });
}

const FACTOR_ENROLMENT = 'forced-actions/factor-enrolment';
const MFA = 'forced-actions/mfa';

// Not shown: the spec's enrolment pages offer email and SMS. The server also takes an authenticator
// app through the same wizard (setup key, QR code, verify-authenticator-app), enrolled at submit.
// Defined here rather than imported from registration.ts, which imports this module.
const EnrolmentSetupKey = v.object({ setupKey: v.string() });
const EnrolmentQrCode = v.pipe(v.string(), v.regex(/^data:image\/[a-z+.-]+;base64,/));

// Not shown: what the enrolment code checks answer. They only move the wizard on, so they answer 204.
const enrolmentVerify = { body: VerifyCodeBody, response: v.null() };
// A verified MFA code completes that step of sign-in, so it answers like sign-in does.
const mfaVerify = { body: MfaVerifyCodeBody, response: AuthenticationOutcome };

export const forcedCalls = {
  changeExpiredPassword: defineCall({
    id: 'changeExpiredPassword',
    method: 'POST',
    path: 'forced-actions/change-expired-password',
    body: requestBody({ ...NewPasswordFields.entries }),
    // Section 4.3: "the server's response decides the next step": the authentication outcome.
    response: AuthenticationOutcome,
  }),
  getMfaRequired: defineCall({
    id: 'getMfaRequired',
    method: 'GET',
    path: `${FACTOR_ENROLMENT}/mfa-required`,
    response: v.boolean(),
  }),
  factorEnrolmentEnrolSms: defineCall({
    id: 'factorEnrolmentEnrolSms',
    method: 'POST',
    path: `${FACTOR_ENROLMENT}/enrol-sms`,
    body: mobile,
    response: v.string(),
    accepted: { 503: CustomerUnavailable },
  }),
  factorEnrolmentSubmit: defineCall({
    id: 'factorEnrolmentSubmit',
    method: 'POST',
    path: `${FACTOR_ENROLMENT}/submit`,
    body: requestBody({ ...SecurityQuestionsFields.entries }),
    // Not shown: enrolment is the last forced step it handles, so sign-in continues from here.
    response: AuthenticationOutcome,
  }),
  getFactorEnrolmentSetupKey: defineCall({
    id: 'getFactorEnrolmentSetupKey',
    method: 'GET',
    path: `${FACTOR_ENROLMENT}/setup-key`,
    response: EnrolmentSetupKey,
  }),
  getFactorEnrolmentQrCode: defineCall({
    id: 'getFactorEnrolmentQrCode',
    method: 'GET',
    path: `${FACTOR_ENROLMENT}/qr-code`,
    response: EnrolmentQrCode,
  }),
  factorEnrolmentSendEmail: sendCodeCall('factorEnrolment', FACTOR_ENROLMENT, 'email'),
  factorEnrolmentSendSms: sendCodeCall('factorEnrolment', FACTOR_ENROLMENT, 'sms'),
  factorEnrolmentVerifyEmail: verifyCodeCall('factorEnrolment', FACTOR_ENROLMENT, 'email', enrolmentVerify),
  factorEnrolmentVerifyMobile: verifyCodeCall('factorEnrolment', FACTOR_ENROLMENT, 'mobile', enrolmentVerify),
  factorEnrolmentVerifyAuthenticatorApp: verifyCodeCall(
    'factorEnrolment',
    FACTOR_ENROLMENT,
    'authenticator-app',
    enrolmentVerify,
  ),
  mfaStart: defineCall({ id: 'mfaStart', method: 'POST', path: `${MFA}/start`, response: MfaNext }),
  mfaSkip: defineCall({ id: 'mfaSkip', method: 'POST', path: `${MFA}/skip`, response: MfaNext }),
  mfaSendEmail: sendCodeCall('mfa', MFA, 'email'),
  mfaSendSms: sendCodeCall('mfa', MFA, 'sms'),
  mfaVerifyEmail: verifyCodeCall('mfa', MFA, 'email', mfaVerify),
  mfaVerifyMobile: verifyCodeCall('mfa', MFA, 'mobile', mfaVerify),
  mfaVerifyAuthenticatorApp: verifyCodeCall('mfa', MFA, 'authenticator-app', mfaVerify),
} as const;
