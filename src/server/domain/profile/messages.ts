// Texts of the profile's answers, notices and history. Spec texts are word for word (marked);
// the others are ours.

/** Section 2.3, word for word: name and date of birth once the identity is verified. */
export const IDENTITY_VERIFIED_WARNING =
  'You cannot edit this field because you have been identity verified, and if the data is wrong you must visit a branch to be re-identified.';

export const PHONE_FORMAT_MESSAGE =
  'Enter the phone number using digits, spaces, brackets or dashes, with an optional leading +';
export const EMAIL_SAME_MESSAGE = 'The new email address is the same as your current email address.';
export const EMAIL_NOT_STARTED_MESSAGE = 'Enter your new email address before verifying a code.';
export const MOBILE_NOT_STARTED_MESSAGE = 'Enter your new mobile number before verifying a code.';
export const NO_MOBILE_MESSAGE = 'There is no mobile number on your account.';
export const SMS_NOT_ENROLLED_MESSAGE = 'The SMS factor is not enabled on your account.';
export const APP_NOT_ENROLLED_MESSAGE = 'The authenticator app factor is not enabled on your account.';
export const NO_CHANGE_MESSAGE = 'Nothing was changed.';
export const TRUSTED_DEVICE_NOT_FOUND_MESSAGE = 'That trusted device no longer exists.';
export const SALARY_STAFF_ONLY_MESSAGE = 'Only staff have a salary number.';
export const TICKET_FORMAT_MESSAGE = 'Enter a Jira ticket code like SUP-999999';

/** History event codes the profile writes (identity_events.type). */
export const profileEvents = {
  nameChanged: 'PROFILE_NAME_CHANGED',
  birthDateChanged: 'PROFILE_BIRTH_DATE_CHANGED',
  phoneChanged: 'PROFILE_PHONE_CHANGED',
  passwordChanged: 'PASSWORD_CHANGED',
  securityQuestionsChanged: 'SECURITY_QUESTIONS_CHANGED',
  emailChanged: 'EMAIL_CHANGED',
  mobileChanged: 'MOBILE_CHANGED',
  mobileRemoved: 'MOBILE_REMOVED',
  smsEnabled: 'SMS_FACTOR_ENABLED',
  smsDisabled: 'SMS_FACTOR_DISABLED',
  appEnabled: 'AUTHENTICATOR_APP_ENABLED',
  appChanged: 'AUTHENTICATOR_APP_CHANGED',
  appDisabled: 'AUTHENTICATOR_APP_DISABLED',
  trustedDeviceRemoved: 'TRUSTED_DEVICE_REMOVED',
  trustedDevicesCleared: 'TRUSTED_DEVICES_CLEARED',
  signedOutEverywhere: 'SIGNED_OUT_OF_ALL_DEVICES',
} as const;

/** What a security notice to the account's (old) email address says changed. */
export type NoticeSubject =
  'email' | 'mobile' | 'password' | 'security questions' | 'SMS factor' | 'authenticator app factor';

export const noticeSubject = (what: NoticeSubject) => `Your ${what} was changed`;

export const noticeText = (what: NoticeSubject, detail: string) =>
  `The ${what} of your account was changed: ${detail}\n\n` +
  'Devices you had trusted to skip verification codes have been signed out of that trust.\n' +
  'If you did not make this change, reset your password straight away and contact us: someone ' +
  'may know your password.';
