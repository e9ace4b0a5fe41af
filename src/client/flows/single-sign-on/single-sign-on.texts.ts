// Every user-visible string of /single-sign-on (sections 2.1 and 8). Strings quoted from the spec
// are word for word; tests import them from here.
import { handoffRefusedMessage } from '../handoff/handoff.texts';

export const singleSignOnTexts = {
  heading: 'Single sign on',
  /** Section 2.1: the page says who is signed in. */
  signedInAs: (name: string | null, username: string | null) =>
    name && username && name !== username
      ? `You are signed in as ${name} (${username}).`
      : `You are signed in as ${name ?? username ?? 'an unknown user'}.`,
  notYou: 'Not you?',
  signOut: 'Sign out',
  /** Section 2.1, word for word: one target. */
  confirm: (app: string) => `Would you like to handoff to ${app}?`,
  /** Section 2.1, word for word: several facilities. */
  choose: (app: string) => `Which ${app} Facility would you like to handoff to?`,
  /** Section 2.1, word for word: no target. */
  noAccess: (app: string) => `You do not have access to ${app}.`,
  yes: 'Yes',
  cancel: 'Cancel',
  /** No access: the way on to the user's landing page in the portal. */
  continueToPortal: 'Continue to the portal',
  loading: 'Loading',
  loadFailed: 'The applications you can hand off to could not be loaded.',
  retry: 'Try again',
  /** Section 8, word for word: the handoff error, shown inline. */
  refused: handoffRefusedMessage,
  handingOff: (app: string) => `Handing off to ${app}`,
  continueHandoff: 'Continue',
} as const;
