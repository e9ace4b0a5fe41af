// Every user-visible string of /registration (sections 2.5, 5 and 8). Strings quoted from the spec
// are word for word; tests import them from here.
import { fieldTexts } from '../shared/field.texts';
import { forcedTexts } from '../forced/shared/forced.texts';

export const registrationTexts = {
  /** Section 2.5: the wizard's heading. */
  heading: 'Registration',
  preparing: 'Loading',
  start: {
    title: 'Start your registration',
    instructions:
      'Enter the email address your invitation was sent to and the invitation code from the invitation email.',
    email: 'Email',
    inviteCode: 'Invitation code',
    captchaAlt: 'Security code image',
    refreshCaptcha: 'Show another image',
    securityCode: 'Security code',
    submit: 'Next',
  },
  invitation: {
    title: 'Your invitation',
    product: 'Application',
    facility: 'Facility',
    roles: 'Roles',
    customerNumber: 'Customer number',
    birthDate: 'Date of birth',
    email: 'Email',
  },
  details: {
    title: 'Your details',
    username: 'Username',
    name: 'Full name',
    /** Section 2.5: the username hints. */
    customerHint: 'Must be in the form C99999',
    domainAccountHint: 'Use your internal domain account name, e.g. jsmith',
    salaryNumberHint: 'Use your salary number, e.g. 100001',
    nameFixed: 'Your name comes from our records.',
    submit: 'Next',
  },
  authenticator: {
    title: 'Set up an authenticator app',
    instructions:
      'Scan the QR code with an authenticator app on your phone, or enter the setup key in the app. Then enter the code the app shows.',
    qrAlt: 'QR code for your authenticator app',
    setupKey: 'Setup key',
    scanned: 'I have added the account to my app',
    chooseSms: 'Use SMS instead',
    chooseEmail: 'Use email instead',
  },
  authenticatorVerification: {
    title: 'Verify your authenticator app',
    instructions: 'Enter the 6-digit code your authenticator app shows. It changes every 30 seconds.',
    submit: 'Verify',
    back: 'Show the QR code again',
  },
  securityQuestions: { title: 'Security questions', submitLabel: 'Next' },
  setPassword: {
    title: 'Set your password',
    password: 'Password',
    confirmPassword: 'Confirm password',
    /** Section 5's password hint. */
    hint: 'At least 14 characters with at least 1 letter and 1 number',
    mismatch: fieldTexts.passwordMismatch,
    submit: 'Create account',
  },
  verifyIdentity: {
    title: 'Sign in to accept the invitation',
    instructions:
      'This invitation adds access to the account you already have. Sign in with its username and password to accept it.',
    username: 'Username',
    password: 'Password',
    submit: 'Accept invitation',
    /** Section 8: the help text on a 422 of the existing-account submission. */
    help: 'If you cannot remember your password, cancel this registration, reset your password, and then retry registration from the link in your invitation email.',
  },
  cancel: 'Cancel',
  ...forcedTexts,
} as const;
