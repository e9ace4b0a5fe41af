// Anonymous password-reset calls of section 7 and the password reset details of section 3.
import * as v from 'valibot';
import { defineCall } from './call';
import { ContextFields } from './entities';
import { Unavailable } from './errors';
import { email, limits, requestBody, requiredString } from './fields';
import { NewPasswordFields, sendCodeCall, verifyCodeCall, VerifyCodeBody } from './forced';

/** One account of several sharing the reset email; the user picks one by username. */
export const ResetIdentity = v.object({ username: v.string(), name: v.nullable(v.string()) });

/** What the reset wizard routes on (section 4.5). `mobile` is masked by the server. */
export const PasswordResetDetails = v.object({
  email: v.string(),
  username: v.nullable(v.string()),
  /** Not empty when several accounts share the email: the wizard goes to user-selection. */
  identities: v.array(ResetIdentity),
  /** Question codes the user may be challenged with. */
  challenges: v.array(v.string()),
  mobile: v.nullable(v.string()),
  isAuthAppEnrolled: v.boolean(),
  isSmsFactorEnrolled: v.boolean(),
  isSmsGatewayAvailable: v.boolean(),
  isSecurityQuestionsEnrolled: v.boolean(),
});
export type PasswordResetDetails = v.InferOutput<typeof PasswordResetDetails>;

/**
 * Ours, not the spec's: the account's only second factor is SMS and SMS codes cannot be sent now, so
 * the reset cannot be finished. The server refuses submit with it (422); the wizard's set-password
 * step shows it at once, in place of the password form (details: SMS enrolled, gateway down, no
 * authenticator app, no security questions).
 */
export const SMS_ONLY_UNAVAILABLE_MESSAGE =
  'SMS verification codes are currently unavailable, and your account has no other way to confirm it is you. Try again later.';

/** Start: email and captcha, plus the context fields except realmCode and showInHeader. */
export const PasswordResetStartRequest = requestBody({
  email,
  captchaCode: requiredString(limits.captchaCode),
  appCode: ContextFields.entries.appCode,
  type: ContextFields.entries.type,
});
export type PasswordResetStartRequest = v.InferInput<typeof PasswordResetStartRequest>;

const RESET = 'anonymous/password-reset';
// Not shown: the later code checks answer 204; the wizard routes on the details it already holds.
const resetVerify = { body: VerifyCodeBody, response: v.null() };

export const resetCalls = {
  // Not shown: start answers 204 and emails a code; 503 means reset is unavailable.
  passwordResetStart: defineCall({
    id: 'passwordResetStart',
    method: 'POST',
    path: `${RESET}/start`,
    body: PasswordResetStartRequest,
    response: v.null(),
    accepted: { 503: Unavailable },
  }),
  // Not shown: the answer; the details of the chosen account, so the wizard can route on its factors.
  passwordResetSelectUser: defineCall({
    id: 'passwordResetSelectUser',
    method: 'POST',
    path: `${RESET}/select-user`,
    body: requiredString(limits.signInUsername),
    response: PasswordResetDetails,
  }),
  passwordResetVerifySecurityQuestion: defineCall({
    id: 'passwordResetVerifySecurityQuestion',
    method: 'POST',
    path: `${RESET}/verify-security-question`,
    // The reset answer is required, max 50 (no minimum: it is checked, not set).
    body: requestBody({
      question: requiredString(50),
      answer: requiredString(limits.answerMax),
    }),
    response: v.null(),
  }),
  passwordResetSubmit: defineCall({
    id: 'passwordResetSubmit',
    method: 'POST',
    path: `${RESET}/submit`,
    body: requestBody({ ...NewPasswordFields.entries }),
    response: v.null(),
  }),
  passwordResetSendEmail: sendCodeCall('passwordReset', RESET, 'email'),
  passwordResetSendSms: sendCodeCall('passwordReset', RESET, 'sms'),
  // The email code check answers the details the wizard routes on (section 4.5).
  passwordResetVerifyEmail: verifyCodeCall('passwordReset', RESET, 'email', {
    body: VerifyCodeBody,
    response: PasswordResetDetails,
  }),
  passwordResetVerifyMobile: verifyCodeCall('passwordReset', RESET, 'mobile', resetVerify),
  passwordResetVerifyAuthenticatorApp: verifyCodeCall(
    'passwordReset',
    RESET,
    'authenticator-app',
    resetVerify,
  ),
} as const;
