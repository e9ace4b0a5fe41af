// Password reset calls of src/contract/reset.ts (section 7), each taking `{ signal }` last.
import { resetCalls, type PasswordResetStartRequest } from '../../contract/reset';
import { request, type CallOptions } from './request';

/**
 * 204 for any email (no enumeration); 503 (accepted) means reset is unavailable. The body carries the
 * context's app code and type when the session has a context (section 7).
 */
export const startPasswordReset = (body: PasswordResetStartRequest, { signal }: CallOptions = {}) =>
  request(resetCalls.passwordResetStart, { body, signal });

/** The details the wizard routes on (section 4.5) once the email code is right. */
export const verifyPasswordResetEmail = (code: string, { signal }: CallOptions = {}) =>
  request(resetCalls.passwordResetVerifyEmail, { body: { code }, signal });

/** The chosen account's details (the username as a bare JSON string). */
export const selectPasswordResetUser = (username: string, { signal }: CallOptions = {}) =>
  request(resetCalls.passwordResetSelectUser, { body: username, signal });

export const verifyPasswordResetAuthenticatorApp = (code: string, { signal }: CallOptions = {}) =>
  request(resetCalls.passwordResetVerifyAuthenticatorApp, { body: { code }, signal });

export const verifyPasswordResetMobile = (code: string, { signal }: CallOptions = {}) =>
  request(resetCalls.passwordResetVerifyMobile, { body: { code }, signal });

export const verifyPasswordResetSecurityQuestion = (
  body: { question: string; answer: string },
  { signal }: CallOptions = {},
) => request(resetCalls.passwordResetVerifySecurityQuestion, { body, signal });

/** `anonymous/password-reset/send-email|send-sms` (503 accepted with the customer message). */
export const sendPasswordResetCode = (channel: 'email' | 'sms', { signal }: CallOptions = {}) =>
  request(channel === 'email' ? resetCalls.passwordResetSendEmail : resetCalls.passwordResetSendSms, {
    signal,
  });

export const submitPasswordReset = (
  body: { password: string; confirmPassword: string },
  { signal }: CallOptions = {},
) => request(resetCalls.passwordResetSubmit, { body, signal });
