// Texts of the profile's screens (sections 2.3, 3, 4.7, 5 and 8). Spec texts are word for word
// (marked 'spec'); the others are ours.
import { fieldTexts } from '../shared/field.texts';

/** Spec, section 2.3: name and date of birth once the identity is verified. */
export const IDENTITY_VERIFIED_WARNING =
  'You cannot edit this field because you have been identity verified, and if the data is wrong you must visit a branch to be re-identified.';

/** Spec, section 3. */
export const PHONE_HINT = 'Include country code for non-Australian phone numbers, e.g. +64 2 8888 8888';

/** Spec, section 8: the success toasts. */
export const profileToasts = {
  dateOfBirth: 'Successfully updated date of birth',
  name: 'Successfully updated name',
  phone: 'Successfully updated phone',
  password: 'Successfully changed password',
  securityQuestions: 'Successfully changed security questions',
  removedMobile: 'Successfully removed mobile',
  disabledSms: 'Successfully disabled SMS factor',
  deletedTrustedDevice: 'Successfully deleted trusted device',
  clearedTrustedDevices: 'Successfully cleared all trusted devices',
  changedApp: 'Successfully changed authenticator app factor',
  enabledApp: 'Successfully enabled authenticator app factor',
  disabledApp: 'Successfully disabled authenticator app factor',
  email: 'Successfully updated email',
  mobile: 'Successfully updated mobile',
  enabledSms: 'Successfully enabled SMS factor',
} as const;

export const profileFormTexts = {
  currentPassword: 'Current password',
  currentPasswordHint: 'Your current password confirms it is you.',
  cancel: 'Cancel',
  back: 'Back to profile',
  save: 'Save',
  saving: 'Saving…',
  loading: 'Loading…',
  failedHeading: 'Something went wrong',
  required: 'Required field',
  /** A typed date that is no date (the spec has no message for it; its range has the contract's). */
  invalidDate: 'Invalid date: enter it as YYYY-MM-DD or DD Mon YYYY',
  checkFields: 'Check the fields below.',
  currentValue: 'Current value',
} as const;

export const screenTexts = {
  changeName: { heading: 'Change name', label: 'Name', submit: 'Change name' },
  changePassword: {
    heading: 'Change password',
    newPassword: 'New password',
    confirmNewPassword: 'Confirm new password',
    /** Spec, section 5. */
    hint: 'At least 14 characters with at least 1 letter and 1 number',
    mismatch: fieldTexts.passwordMismatch,
    notice: 'Changing your password signs you out of your other browsers and forgets your trusted devices.',
    submit: 'Change password',
  },
  changePhone: {
    heading: 'Change phone',
    label: 'Phone',
    submit: 'Change phone',
    clearHint: 'Leave empty to remove your phone number.',
  },
  changeDateOfBirth: {
    heading: 'Change date of birth',
    label: 'Date of birth',
    placeholder: 'Pick a date',
    /** Not in the spec: both forms the field reads (section 9's date helper reads the second). */
    hint: 'Type it as 1990-05-17 or 17 May 1990, or pick it from the calendar',
    clear: 'Clear date of birth',
    submit: 'Change date of birth',
    /** The names of the calendar's arrows, which have no text of their own. */
    calendar: {
      previousMonth: 'Previous month',
      nextMonth: 'Next month',
      previousYear: 'Previous year',
      nextYear: 'Next year',
      previousDecade: 'Previous decade',
      nextDecade: 'Next decade',
    },
  },
  changeSecurityQuestions: {
    heading: 'Change security questions',
    question: (n: number) => `Question ${n}`,
    answer: (n: number) => `Answer ${n}`,
    sameQuestion: 'Choose two different questions',
    intro: 'Choose two questions only you can answer. They help you reset your password.',
    submit: 'Change security questions',
  },
  removeMobile: {
    heading: 'Remove mobile',
    intro:
      'Your mobile number will be removed from your account, and SMS codes will no longer be sent to it.',
    submit: 'Remove mobile',
  },
  unenrolSms: {
    heading: 'Disable SMS factor',
    intro: 'Verification codes will no longer be sent to your mobile by SMS.',
    submit: 'Disable SMS factor',
  },
  unenrolAuthenticatorApp: {
    heading: 'Disable authenticator app factor',
    intro: 'Codes from your authenticator app will no longer be accepted.',
    submit: 'Disable authenticator app factor',
  },
} as const;

export const wizardTexts = {
  /** Spec, section 2.3: the wizards' headings. */
  headings: {
    changeEmail: 'Change email',
    changeMobile: 'Change mobile',
    enrolSms: 'Enable SMS factor',
    enrolAuthenticatorApp: 'Enable authenticator app factor',
    changeAuthenticatorApp: 'Change authenticator app',
  },
  progress: 'Progress',
  newEmail: 'New email',
  mobile: 'Mobile',
  mobileHint: fieldTexts.mobileHint,
  next: 'Next',
  cancel: 'Cancel',
  back: 'Back to profile',
  verify: 'Verify',
  emailCodeSent: (email: string) => `We sent a 6-digit code to ${email}. Enter it to confirm your new email.`,
  smsCodeSent: (mobile: string) =>
    `We sent a 6-digit code by SMS to ${mobile}. Enter it to confirm your mobile.`,
  stepDetails: 'Step 1 of 2',
  stepVerification: 'Step 2 of 2',
  cancelling: 'Cancelling…',
  appSetupIntro:
    'Open your authenticator app and scan this QR code, or type the setup key into the app. Then select Next.',
  qrCodeAlt: 'QR code for your authenticator app',
  setupKey: 'Setup key',
  appCodeIntro: 'Enter the 6-digit code your authenticator app shows now, and your current password.',
  /** The editing mode's notice (section 2.3). */
  changeAppNotice:
    'Once you verify the new app, your old authenticator app will stop working: its codes will no longer be accepted.',
  loadingSetup: 'Preparing your setup key…',
} as const;

/** 'Resent {type} verification code' (section 8). */
export const resentToast = (channel: 'email' | 'sms') =>
  `Resent ${channel === 'email' ? 'email' : 'SMS'} verification code`;
