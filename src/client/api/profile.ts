// Profile calls of src/contract/profile.ts (section 7), each taking `{ signal }` last. Imported by
// the profile flows' actor files only, so the profile contract loads with the profile pages.
import { profileCalls as calls, type UpdateProfileRequest } from '../../contract/profile';
import { sessionCalls } from '../../contract/session';
import { acceptedAnswer } from './api-error';
import { request, type CallOptions } from './request';

/** PATCH profile: the current password and one of name, birthDate, phone; the updated user. */
export const updateProfile = (body: UpdateProfileRequest, { signal }: CallOptions = {}) =>
  request(calls.updateProfile, { body, signal });

export const changePassword = (
  body: { currentPassword: string; newPassword: string; confirmNewPassword: string },
  { signal }: CallOptions = {},
) => request(calls.changePassword, { body, signal });

export const changeSecurityQuestions = (
  body: { currentPassword: string; question1: string; answer1: string; question2: string; answer2: string },
  { signal }: CallOptions = {},
) => request(calls.changeSecurityQuestions, { body, signal });

/** The updated user (without a mobile). */
export const removeMobile = (body: { currentPassword: string }, { signal }: CallOptions = {}) =>
  request(calls.removeMobile, { body, signal });

export const unenrolSms = (body: { currentPassword: string }, { signal }: CallOptions = {}) =>
  request(calls.unenrolSms, { body, signal });

export const unenrolAuthenticatorApp = (body: { currentPassword: string }, { signal }: CallOptions = {}) =>
  request(calls.unenrolAuthenticatorApp, { body, signal });

export const changeEmailStart = (
  body: { currentPassword: string; email: string },
  { signal }: CallOptions = {},
) => request(calls.changeEmailStart, { body, signal });

export const changeEmailResend = ({ signal }: CallOptions = {}) =>
  request(calls.changeEmailSendEmail, { signal });

export const changeEmailVerify = (code: string, { signal }: CallOptions = {}) =>
  request(calls.changeEmailVerifyEmail, { body: { code }, signal });

export const changeEmailCancel = ({ signal }: CallOptions = {}) =>
  request(calls.changeEmailCancel, { signal });

/** 503 (accepted) carries the customer message; otherwise a code was sent, or the updated user. */
export const changeMobileStart = (
  body: { currentPassword: string; mobile: string; enrolSmsFactor?: boolean },
  { signal }: CallOptions = {},
) => request(calls.changeMobileStart, { body, signal });

export const changeMobileResend = ({ signal }: CallOptions = {}) =>
  request(calls.changeMobileSendSms, { signal });

export const changeMobileVerify = (code: string, { signal }: CallOptions = {}) =>
  request(calls.changeMobileVerifyMobile, { body: { code }, signal });

export const changeMobileCancel = ({ signal }: CallOptions = {}) =>
  request(calls.changeMobileCancel, { signal });

export const getAuthenticatorAppSetupKey = ({ signal }: CallOptions = {}) =>
  request(calls.getAuthenticatorAppSetupKey, { signal });

export const getAuthenticatorAppQrCode = ({ signal }: CallOptions = {}) =>
  request(calls.getAuthenticatorAppQrCode, { signal });

/** Enables the app, or replaces the enrolled one once the new one's code matches. */
export const changeAuthenticatorApp = (
  body: { code: string; currentPassword: string },
  { signal }: CallOptions = {},
) => request(calls.changeAuthenticatorApp, { body, signal });

export const getEnrolledFactors = ({ signal }: CallOptions = {}) =>
  request(calls.getEnrolledFactors, { signal });

export const getIdentityVerified = ({ signal }: CallOptions = {}) =>
  request(calls.getIdentityVerified, { signal });

export const getActiveTrustedDevices = ({ signal }: CallOptions = {}) =>
  request(calls.getActiveTrustedDevices, { signal });

export const clearTrustedDevices = ({ signal }: CallOptions = {}) =>
  request(calls.clearTrustedDevices, { signal });

/** Removes a trusted device; one that is already gone (another tab, expiry) counts as removed. */
export async function deleteTrustedDevice(id: string, { signal }: CallOptions = {}): Promise<null> {
  try {
    return await request(calls.deleteTrustedDevice, { params: { id }, signal });
  } catch (error) {
    if (acceptedAnswer(error, calls.deleteTrustedDevice)?.status === 404) return null;
    throw error;
  }
}

export const getTrustedDevicePeriod = ({ signal }: CallOptions = {}) =>
  request(sessionCalls.getTrustedDevicePeriod, { signal });

/** Sign out of all devices: every session and trusted device of the signed-in identity. */
export const signOutOfAllDevices = (body: { ticketCode?: string | null }, { signal }: CallOptions = {}) =>
  request(sessionCalls.singleLogout, { body, signal });
