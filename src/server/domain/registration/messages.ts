// Texts the registration calls answer with. Spec texts are word for word (marked); the others are ours.

/**
 * One neutral answer for every invitation that cannot be used (unknown code, another email, used,
 * expired), so a guesser learns nothing about which codes exist or whose they are.
 */
export const INVITATION_INVALID_MESSAGE =
  'This invitation cannot be used. Check the email address and invitation code in your invitation email, or ask for a new invitation.';

/** The session no longer holds an invitation (it expired, or the wizard was opened mid-way). */
export const REGISTRATION_NOT_STARTED_MESSAGE =
  'Your registration has expired. Enter the details from your invitation email to start again.';

/** Section 2.5, word for word: the customer username hint. */
export const CUSTOMER_USERNAME_MESSAGE = 'Must be in the form C99999';
/** Section 5's generic numeric message, for staff whose username is their salary number. */
export const NUMERIC_USERNAME_MESSAGE = 'Must be numeric. Cannot contain letters or symbols.';
export const DOMAIN_ACCOUNT_USERNAME_MESSAGE =
  'Use your internal domain account name: letters, digits, dots, dashes or underscores.';
export const USERNAME_TAKEN_MESSAGE = 'This username is already taken. Choose another.';
/** Not in the spec: the registration's limit of usernames looked up was reached. */
export const TOO_MANY_USERNAMES_MESSAGE = 'Too many usernames tried. Start the registration again.';
export const USERNAME_NOT_EDITABLE_MESSAGE = 'The username is set by your invitation and cannot be changed.';
export const NAME_NOT_EDITABLE_MESSAGE = 'The name is set by your invitation and cannot be changed.';
export const DETAILS_REQUIRED_MESSAGE = 'Enter your details before continuing.';
/**
 * Not in the spec: an invitation for a non-staff invitee with a customer number names no one. Such
 * an invitee cannot enter the name at registration (section 5), so the invitation must carry it.
 */
export const INVITATION_NAME_REQUIRED_MESSAGE =
  "Enter the invitee's name: a customer with a customer number who is not staff cannot enter it when registering.";
export const CHOOSE_FACTOR_FIRST_MESSAGE = 'Set up a verification method before continuing.';
export const SECURITY_QUESTIONS_FIRST_MESSAGE = 'Set your security questions before continuing.';
export const EXISTING_IDENTITY_ONLY_MESSAGE =
  'This invitation adds access to your existing account. Sign in with that account to accept it.';
export const NEW_ACCOUNT_ONLY_MESSAGE = 'This invitation is for a new account.';
export const SIGNED_IN_MESSAGE = 'Sign out before registering from an invitation.';

// The invitation email.
export const invitationEmailSubject = (productName: string) => `Your invitation to ${productName}`;
export function invitationEmailText(input: {
  productName: string;
  facility: string | null;
  code: string;
  registrationUrl: string;
  expiresAt: Date;
  existingAccount: boolean;
}): string {
  const what = input.facility ? `${input.productName} (${input.facility})` : input.productName;
  const action = input.existingAccount
    ? 'To add it to your existing account, open the link, enter this email address and the invitation code, and sign in with your username and password.'
    : 'To create your account, open the link and enter this email address and the invitation code.';
  return (
    `You have been invited to use ${what}.\n\n` +
    `${action}\n\n` +
    `Registration: ${input.registrationUrl}\n` +
    `Invitation code: ${input.code}\n\n` +
    `The invitation can be used once and expires on ${input.expiresAt.toISOString().slice(0, 10)}.\n` +
    'If you did not expect this invitation, ignore this email.'
  );
}
