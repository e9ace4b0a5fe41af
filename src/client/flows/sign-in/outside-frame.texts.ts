// Texts of the sign-in page's view for a JWT application's sign-in opened in a tab of its own, not
// inside the application (section 4.1 posts the token to the parent frame; here there is none).
import { JWT_OUTSIDE_FRAME_MESSAGE } from '../../../../machines/shared/jwt-outside-frame';

export const outsideFrameTexts = {
  heading: 'Open the application to continue',
  message: JWT_OUTSIDE_FRAME_MESSAGE,
  /** The way back: the applications page (sign-in when the session has ended). */
  link: 'Go to your applications',
} as const;
