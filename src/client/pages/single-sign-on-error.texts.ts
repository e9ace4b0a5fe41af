// Texts of /single-sign-on-error (section 2.1). The quoted sentences are word for word.
export const singleSignOnErrorTexts = {
  heading: 'Single sign on error',
  noAccess: (app: string) => `You do not have access to ${app}.`,
  /** A signed-in user's way on to their landing page. */
  continueToPortal: 'Continue to the portal',
} as const;
