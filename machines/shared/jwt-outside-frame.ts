/**
 * A JWT application's sign-in opened in a tab of its own: section 4.1 posts the token to the parent
 * frame, and there is none, so nothing is posted and the user is told this (the sign-in page's
 * jwtOutsideFrame view, and a forced step whose continuation answers a JWT outside a frame).
 */
export const JWT_OUTSIDE_FRAME_MESSAGE =
  'This sign-in belongs to an application that shows it within its own pages, so it cannot be completed here. Open the application and sign in there.';
