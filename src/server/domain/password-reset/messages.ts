// Texts the password reset answers with. Spec texts are word for word (marked); the others are ours.

/** Section 8, word for word: 503 on reset start. */
export const RESET_UNAVAILABLE_MESSAGE = 'Reset password is currently unavailable.';

/** A call of a later step without the earlier ones in this session (or after the reset ended). */
export const RESET_NOT_STARTED_MESSAGE =
  'Your password reset has expired or was not started. Start the password reset again.';
export const TOO_MANY_RESET_FAILURES_MESSAGE =
  'Too many incorrect codes or answers. Start the password reset again.';
export const RESET_SEND_LIMIT_MESSAGE =
  'You have requested the maximum number of codes. Start the password reset again later.';

export const CHOOSE_LISTED_ACCOUNT_MESSAGE = 'Choose one of the accounts listed.';
export const QUESTION_NOT_ASKED_MESSAGE = 'Answer the question shown.';
export const ANSWER_INCORRECT_MESSAGE = 'The answer is incorrect.';

/** Submit before the account's second factor was verified in this reset. */
export const FACTOR_REQUIRED_MESSAGE =
  'Confirm it is you with your authenticator app, SMS code or security questions before setting a new password.';
/**
 * The account's only second factor is SMS and SMS codes cannot be sent now. Defined in the contract:
 * the wizard's set-password step shows the same words before anything is typed.
 */
export { SMS_ONLY_UNAVAILABLE_MESSAGE } from '../../../contract/reset';

export const RESET_NOTICE_SUBJECT = 'Your password was reset';
export const resetNoticeText = (username: string, when: Date) =>
  `The password of your account ${username} was reset on ${when.toUTCString()}.\n\n` +
  'Every device you had trusted and every other session of your account were signed out.\n\n' +
  'If you did not reset your password, contact us straight away.';

/** Identity history: the event's type code and description. */
export const PASSWORD_RESET_EVENT = 'PASSWORD_RESET';
export const resetEventDescription = (proof: string) =>
  `Password reset by the user with the email code and ${proof}. Trusted devices and other sessions were signed out.`;
