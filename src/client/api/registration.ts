// Registration calls of src/contract/registration.ts, each taking `{ signal }` last.
import { registrationCalls as calls } from '../../contract/registration';
import { request, type CallOptions } from './request';

export const startRegistration = (
  body: { email: string; inviteCode: string; captchaCode: string },
  { signal }: CallOptions = {},
) => request(calls.registrationStart, { body, signal });

export const collectRegistrationDetails = (
  body: { name?: string; username?: string },
  { signal }: CallOptions = {},
) => request(calls.registrationCollectDetails, { body, signal });

export const getRegistrationQrCode = ({ signal }: CallOptions = {}) =>
  request(calls.getRegistrationQrCode, { signal });

export const getRegistrationSetupKey = ({ signal }: CallOptions = {}) =>
  request(calls.getRegistrationSetupKey, { signal });

export const verifyRegistrationAuthenticatorApp = (code: string, { signal }: CallOptions = {}) =>
  request(calls.registrationVerifyAuthenticatorApp, { body: { code }, signal });

export const enrolRegistrationEmail = ({ signal }: CallOptions = {}) =>
  request(calls.registrationEnrolEmail, { signal });

/** The invite details with the mobile; 503 (accepted) carries the customer message. */
export const enrolRegistrationSms = (mobile: string, { signal }: CallOptions = {}) =>
  request(calls.registrationEnrolSms, { body: mobile, signal });

/** Resends the SMS code (503 accepted; 422 refused). */
export const resendRegistrationSms = ({ signal }: CallOptions = {}) =>
  request(calls.registrationSendSms, { signal });

export const verifyRegistrationMobile = (code: string, { signal }: CallOptions = {}) =>
  request(calls.registrationVerifyMobile, { body: { code }, signal });

export const enrolRegistrationSecurityQuestions = (
  body: { question1: string; answer1: string; question2: string; answer2: string },
  { signal }: CallOptions = {},
) => request(calls.registrationEnrolSecurityQuestions, { body, signal });

/** The authentication outcome of the new account's first sign-in. */
export const submitNewRegistration = (
  body: { password: string; confirmPassword: string },
  { signal }: CallOptions = {},
) => request(calls.registrationSubmitNew, { body, signal });

/** The authentication outcome of the existing account; 422 when its username or password is wrong. */
export const submitExistingRegistration = (
  body: { username: string; password: string },
  { signal }: CallOptions = {},
) => request(calls.registrationSubmitExisting, { body, signal });
