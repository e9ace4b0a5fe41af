// Texts the factor flows answer with. Spec texts are word for word (marked); the others are ours.

/** Section 8, word for word: the customer message of an SMS 503. */
export const SMS_UNAVAILABLE_CUSTOMER_MESSAGE =
  'SMS verification codes are currently unavailable. You may try to enrol mobile as a factor at a later date.';
/** Section 4.5, word for word: stored when SMS is enrolled but the gateway is down. */
export const SMS_UNAVAILABLE_MESSAGE = 'SMS verification codes are currently unavailable.';
/** The admin's switch, turned on where nothing could send a code (no SMS_GATEWAY_URL in production). */
export const NO_SMS_GATEWAY_MESSAGE =
  'This server has no SMS gateway configured, so SMS verification codes cannot be switched on.';

export const EMAIL_UNAVAILABLE_MESSAGE = 'Email verification codes are currently unavailable.';
export const EMAIL_UNAVAILABLE_CUSTOMER_MESSAGE =
  'Email verification codes are currently unavailable. Try again in a few minutes.';

export const CODE_INCORRECT_MESSAGE = 'The code is incorrect. Check it and try again.';
export const CODE_EXPIRED_MESSAGE = 'The code has expired. Request a new code.';
export const CODE_NOT_SENT_MESSAGE = 'No code has been sent for this step. Request a new code.';
export const TOTP_ALREADY_USED_MESSAGE =
  'This code has already been used. Wait for the next code from your authenticator app.';
export const TOO_MANY_CODE_FAILURES_MESSAGE = 'Too many incorrect codes. Sign in again to continue.';

export const RESEND_TOO_SOON_MESSAGE =
  'A code was sent less than 30 seconds ago. Wait a moment before requesting another.';
export const RESEND_LIMIT_MESSAGE =
  'You have requested the maximum number of codes for this step. Sign in again to get a new code.';

export const NO_AUTHENTICATOR_APP_MESSAGE = 'No authenticator app is enrolled for your account.';
export const NO_SMS_FACTOR_MESSAGE = 'No mobile number is enrolled for SMS codes on your account.';
export const NO_EMAIL_MESSAGE = 'No email address is enrolled for codes on your account.';

export const MOBILE_FORMAT_MESSAGE =
  'Enter the mobile number in international format, starting with + and the country code, e.g. +61 400 000 000';
export const ENROL_EMAIL_FIRST_MESSAGE = 'Verify your email address before continuing.';
export const ENROL_MOBILE_FIRST_MESSAGE = 'Enter your mobile number before requesting a code.';
export const SETUP_AUTHENTICATOR_FIRST_MESSAGE = 'Show the setup key or QR code before verifying a code.';

export const QUESTION_UNKNOWN_MESSAGE = 'Choose a question from the list';
export const QUESTIONS_SAME_MESSAGE = 'Choose two different questions';
export const SECURITY_QUESTIONS_MESSAGE = 'Check the security questions and answers.';

export const REENTER_PASSWORD_INCORRECT_MESSAGE = 'The password is incorrect.';
export const TOO_MANY_PASSWORD_FAILURES_MESSAGE = 'Too many incorrect passwords. Sign in again to continue.';
export { REENTER_PASSWORD_REQUIRED_MESSAGE } from '../../../contract/session';

// The messages that carry a code.
export const CODE_EMAIL_SUBJECT = 'Your verification code';
export const codeEmailText = (code: string, minutes: number) =>
  `Your verification code is ${code}. It expires in ${minutes} minutes.\n\n` +
  'If you did not ask for this code, someone may know your password: change it and contact us.';
export const codeSmsText = (code: string, minutes: number) =>
  `Your verification code is ${code}. It expires in ${minutes} minutes. Never share this code.`;
