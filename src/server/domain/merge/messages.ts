// Texts the merge calls answer with (section 8 leaves the server's merge texts open; the portal
// adds its own 'Go back to ...' sentence after each). The field names are MERGE_ERROR_FIELDS.

export const MERGE_VALIDATION_MESSAGE = 'The accounts cannot be merged as they are.';

export const IDV_CONFLICT_MESSAGE =
  'One of the selected accounts was identity verified as a different person. Call the helpdesk to merge it.';
export const NOT_A_CANDIDATE_MESSAGE = 'This account does not share your email address.';
export const SELECTED_TWICE_MESSAGE = 'Each account can be selected once.';
export const PASSWORD_INCORRECT_MESSAGE = 'The password is incorrect.';
export const ACCOUNT_LOCKED_MESSAGE =
  'This account has had too many incorrect passwords. Sign in to it directly once, then merge it.';
export const TOO_MANY_PASSWORD_FAILURES_MESSAGE = 'Too many incorrect passwords. Sign in again to continue.';
export const ACCOUNT_GONE_MESSAGE = (username: string) =>
  `The account ${username} has changed since it was selected and can no longer be merged.`;
/** Not in the spec: the notice to the merged accounts' addresses once the merge is committed. */
export const MERGE_NOTICE_SUBJECT = 'Your accounts were merged';
export const mergeNoticeText = (survivor: string, merged: readonly string[], when: Date) =>
  `Your account${merged.length === 1 ? '' : 's'} ${merged.join(', ')} ${merged.length === 1 ? 'was' : 'were'} ` +
  `merged into ${survivor} on ${when.toUTCString()}. Sign in as ${survivor} from now on: the other ` +
  `username${merged.length === 1 ? '' : 's'} no longer sign${merged.length === 1 ? 's' : ''} in.\n\n` +
  'If you did not merge them, contact us straight away: someone may know your password.';
export const ACCOUNTS_CHANGED_MESSAGE =
  'The selected accounts have changed since they were selected and can no longer be merged.';

export const EMAIL_SAME_MESSAGE = 'The new email address must be different from your current email address.';
export const EMAIL_IN_USE_MESSAGE = 'This email address is used by another account. Choose another one.';
export const EMAIL_NOT_VERIFIED_MESSAGE = 'Verify the new email address first.';

export const USERNAME_NOT_OFFERED_MESSAGE = 'Choose one of the usernames of the accounts being merged.';
export const USERNAME_NOT_CHOSEN_MESSAGE = 'Choose the username to keep first.';

/** send-sms, verify-mobile and verify-authenticator-app under the merge prefix. */
export const EMAIL_CODE_ONLY_MESSAGE =
  'Merging accounts verifies only the new email address. Use the code sent to that address.';
export const SELECT_ACCOUNTS_FIRST_MESSAGE = 'Select the accounts to merge first.';
export const NOT_FINISHED_MESSAGE = 'Finish the merge, or skip it, before continuing.';
export const MERGE_FINISHED_MESSAGE = 'The accounts have already been merged.';
export const SKIP_CLOSED_MESSAGE =
  'Skipping the merge is no longer possible. Merge your accounts, or choose None, to continue.';

/** History texts. */
export const mergedDescription = (survivor: string, merged: readonly string[]) =>
  `Merged ${merged.join(', ')} into ${survivor}.`;
export const retiredDescription = (survivor: string) => `Merged into ${survivor}; this account was retired.`;
export const emailChangedDescription = (from: string | null, to: string) =>
  `Email changed from ${from ?? '(none)'} to ${to} to resolve duplicate accounts.`;
