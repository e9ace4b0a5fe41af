// Every user-visible string of /forced-actions/change-expired-password (sections 2.6 and 5). Strings
// quoted from the spec are word for word; tests import them from here.
import { fieldTexts } from '../../shared/field.texts';
import { messages } from '../../../../contract/fields';
import { forcedTexts } from '../shared/forced.texts';

export const changeExpiredPasswordTexts = {
  heading: 'Change password',
  intro: 'Your password has expired. Choose a new password to continue signing in.',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
  /** Section 5's hint, word for word. */
  hint: messages.passwordHint,
  mismatch: fieldTexts.passwordMismatch,
  submit: 'Change password',
  cancel: 'Cancel',
  ...forcedTexts,
} as const;
