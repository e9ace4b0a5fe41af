// The duplicate-accounts notice and the merge wizard's strings (sections 2.6, 4.4, 5 and 8).
// Strings quoted from the spec are word for word; tests import them from here.
import { MERGE_ERROR_FIELDS } from '../../../../contract/merge';
import { forcedTexts } from '../shared/forced.texts';

/** Section 8: what each merge 422 error asks the user to do, by the field it names. */
export const IDENTITY_ERROR_HINT = 'Go back to Select accounts to resolve this.';
export const EMAIL_ERROR_HINT = 'Go back to Change email to choose a new email address.';
export const USERNAME_ERROR_HINT = 'Go back to Choose preferred username and select a new username';

/** One line of the confirmation step's error list (section 8's four texts). */
export function mergeErrorText(error: { fieldName: string; message: string }): string {
  if (error.fieldName === MERGE_ERROR_FIELDS.idvConflict) return error.message;
  if (error.fieldName === MERGE_ERROR_FIELDS.email) return `${error.message} ${EMAIL_ERROR_HINT}`;
  if (error.fieldName === MERGE_ERROR_FIELDS.preferredUsername)
    return `${error.message} ${USERNAME_ERROR_HINT}`;
  return `${error.message} ${IDENTITY_ERROR_HINT}`;
}

export const mergeAccountsTexts = {
  ...forcedTexts,
  notice: {
    heading: 'Duplicate accounts',
    body: (email: string | null) =>
      `Several accounts share your email address${email ? ` ${email}` : ''}. Merge them into one account, ` +
      'or give this account an email address of its own.',
    skipNote: 'You can skip this for now; merging can be skipped only for a limited time.',
    startMerge: 'Start merge',
    skip: 'Skip',
  },
  heading: 'Merge accounts',
  selectAccounts: {
    title: 'Select accounts',
    instructions:
      'Tick each account that is yours and enter its password. Choose None if none of these accounts is yours.',
    accounts: 'Accounts that share your email address',
    password: (username: string) => `Password for ${username}`,
    none: 'None of these accounts are mine',
    /** Section 5, word for word. */
    optionRequired: 'An option must be selected',
    idvConflict:
      'This account was identity verified as a different person and cannot be merged here. Contact the helpdesk to merge it.',
    next: 'Next',
  },
  changeEmail: {
    title: 'Change email',
    instructions: 'Choose an email address that only your account will use. We will send a code to it.',
    email: 'New email',
    sameAsCurrent: 'The new email cannot be the same as your current email',
    next: 'Next',
    back: 'Back',
  },
  emailVerification: {
    title: 'Email verification',
    instructions: (email: string | null) => `Enter the code we sent to ${email ?? 'your new email address'}.`,
    submit: 'Verify',
    back: 'Back',
  },
  choosePreferredUsername: {
    title: 'Choose preferred username',
    instructions: 'Choose the username you will sign in with once the accounts are merged.',
    legend: 'Preferred username',
    /** Section 5: a preferred username must be chosen. */
    required: 'A preferred username must be chosen',
    next: 'Next',
    back: 'Back',
  },
  confirmation: {
    title: 'Confirmation',
    instructions: 'This is your account once merged. Merging cannot be undone.',
    username: 'Username',
    name: 'Name',
    email: 'Email',
    mobile: 'Mobile',
    phone: 'Phone',
    birthDate: 'Date of birth',
    facilities: 'Facilities',
    noFacilities: 'No facilities',
    errorsTitle: 'The accounts cannot be merged',
    merge: 'Merge',
    back: 'Back',
  },
  emailChanged: {
    title: 'Email changed',
    body: (email: string | null) => `Your account's email address is now ${email ?? 'the new address'}.`,
    continue: 'Continue',
  },
  completed: {
    title: 'Accounts merged',
    body: (preferred: string | null, merged: readonly string[]) =>
      `${merged.join(', ')} ${merged.length === 1 ? 'has' : 'have'} been merged into ${preferred ?? 'your account'}. ` +
      `Sign in with ${preferred ?? 'your username'} from now on.`,
    continue: 'Continue',
  },
  notSet: 'Not set',
} as const;
