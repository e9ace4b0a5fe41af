// Forced sign-in step calls of src/contract/forced.ts, each taking `{ signal }` last.
import { forcedCalls } from '../../contract/forced';
import { request, type CallOptions } from './request';

/** Starts MFA after a FORCED_ACTION MFA outcome: the next factor and any SMS-unavailable message. */
export const startMfa = ({ signal }: CallOptions = {}) => request(forcedCalls.mfaStart, { signal });

/** "I don't have access": the next factor and any SMS-unavailable message. */
export const skipMfa = ({ signal }: CallOptions = {}) => request(forcedCalls.mfaSkip, { signal });

/** 2xx: the authentication outcome; 422 (policy or blocklist) rejects with handled = false. */
export const changeExpiredPassword = (
  body: { password: string; confirmPassword: string },
  { signal }: CallOptions = {},
) => request(forcedCalls.changeExpiredPassword, { body, signal });

export const getMfaRequired = ({ signal }: CallOptions = {}) =>
  request(forcedCalls.getMfaRequired, { signal });

/** The mobile the server stored; 503 (accepted) carries the customer message. */
export const enrolSms = (mobile: string, { signal }: CallOptions = {}) =>
  request(forcedCalls.factorEnrolmentEnrolSms, { body: mobile, signal });

export const submitFactorEnrolment = (
  body: { question1: string; answer1: string; question2: string; answer2: string },
  { signal }: CallOptions = {},
) => request(forcedCalls.factorEnrolmentSubmit, { body, signal });

/** The `{prefix}/send-email|send-sms` resends of factor enrolment and MFA (503 accepted). */
export const resendCode = (
  call:
    | typeof forcedCalls.factorEnrolmentSendEmail
    | typeof forcedCalls.factorEnrolmentSendSms
    | typeof forcedCalls.mfaSendEmail
    | typeof forcedCalls.mfaSendSms,
  { signal }: CallOptions = {},
) => request(call, { signal });

/** Factor enrolment's email and SMS code checks (204). */
export const verifyEnrolmentCode = (
  call: typeof forcedCalls.factorEnrolmentVerifyEmail | typeof forcedCalls.factorEnrolmentVerifyMobile,
  code: string,
  { signal }: CallOptions = {},
) => request(call, { body: { code }, signal });

/** An MFA code check: the authentication outcome once the code is accepted. */
export const verifyMfaCode = (
  call:
    | typeof forcedCalls.mfaVerifyAuthenticatorApp
    | typeof forcedCalls.mfaVerifyMobile
    | typeof forcedCalls.mfaVerifyEmail,
  body: { code: string; trustDevice: boolean },
  { signal }: CallOptions = {},
) => request(call, { body, signal });
