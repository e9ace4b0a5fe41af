// Every user-visible string of the 'Re-enter password' modal (sections 2.2 and 4.2). Strings quoted
// from the spec are word for word; tests import them from here.
export const reenterPasswordTexts = {
  /** Section 2.2: the modal's title, and its two buttons. */
  title: 'Re-enter password',
  signOut: 'Sign out',
  submit: 'Submit',
  explanation: 'For your security, enter your password again to keep using the portal.',
  password: 'Password',
  required: 'Required field',
} as const;
