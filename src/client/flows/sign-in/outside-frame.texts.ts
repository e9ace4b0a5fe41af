// Texts of the sign-in page's view for a JWT application's sign-in opened in a tab of its own, not
// inside the application (section 4.1 posts the token to the parent frame; here there is none).
export const outsideFrameTexts = {
  heading: 'Open the application to continue',
  message:
    'This sign-in belongs to an application that shows it within its own pages, so it cannot be completed here. Open the application and sign in there.',
  /** The way back: the applications page (sign-in when the session has ended). */
  link: 'Go to your applications',
} as const;
