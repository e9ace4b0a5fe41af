// The idle warning's texts (WCAG 2.2.1; not in the spec, so written as a bank's customer would
// expect them: what will happen, when, and the two choices).
export const idleWarningTexts = {
  title: 'Your session is about to end',
  explanation: (time: string) =>
    `You have not used the portal for a while. For your security, you will be signed out at ${time}.`,
  staySignedIn: 'Stay signed in',
  signOut: 'Sign out',
} as const;
