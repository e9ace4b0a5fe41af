// User-visible texts the server answers with. Spec texts are word for word; the others are ours.
export { SESSION_EXPIRED_MESSAGE } from '../../contract/errors';

/** Wrong username and wrong password answer exactly this, so neither reveals which was wrong. */
export const INCORRECT_CREDENTIALS_MESSAGE = 'Incorrect username or password.';
/** Login 503 when the realm's sign-in is disabled. */
export const SIGN_IN_UNAVAILABLE_MESSAGE = 'Sign-in is currently unavailable.';
/** Spec text of /permission-denied. */
export const PERMISSION_DENIED_MESSAGE =
  'You do not have permission to access this page or perform this action.';
export const NOT_FOUND_MESSAGE = 'The page you are looking for does not exist.';

export const CAPTCHA_REQUIRED_MESSAGE = 'Enter the security code shown in the image.';
export const CAPTCHA_INCORRECT_MESSAGE = 'The security code is incorrect. Enter the code in the new image.';
/** Field message for a missing security code (section 5: 'Required field'). */
export const CAPTCHA_FIELD_REQUIRED = 'Required field';
export const CAPTCHA_FIELD_INCORRECT = 'Incorrect security code';
/** Not in the spec: a code typed after the image's five minutes, right or wrong. */
export const CAPTCHA_EXPIRED_MESSAGE = 'The security code has expired. Enter the code in the new image.';
export const CAPTCHA_FIELD_EXPIRED = 'Expired security code';

export const VALIDATION_FAILED_MESSAGE = 'The request is not valid.';
/** Field message for a value holding U+0000 (no field of any form can carry it). */
export const INVALID_CHARACTER_MESSAGE = 'Contains a character that is not allowed.';
export const MALFORMED_BODY_MESSAGE = 'The request body is not valid JSON.';
export const BODY_TOO_LARGE_MESSAGE = 'The request body is too large.';
export const UNSUPPORTED_MEDIA_MESSAGE = 'The request body must be JSON.';
export const MISSING_REQUESTED_WITH_MESSAGE = 'This request must carry the X-Requested-With header.';
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests. Wait a minute and try again.';
export const UNEXPECTED_ERROR_MESSAGE = 'An unexpected error occurred.';
export const UNKNOWN_REALM_MESSAGE = 'Unknown realm';

/**
 * Not in the spec: an invitation to a new account for a customer number that a live account holds
 * already (the admin's form shows it at the customer number; the invite command prints it). That
 * customer is invited to their existing account instead.
 */
export const customerNumberTakenMessage = (customerNumber: string) =>
  `Customer number ${customerNumber} already belongs to an account.`;
