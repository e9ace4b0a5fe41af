// The captcha images of sign-in, password reset and registration: section 7's
// GET /captcha.jpg?{timestamp}. Their machines number the images (a new number whenever a new image
// is needed); the view asks for each with the time it asks. Every request replaces the session's
// challenge, so an image answered from a cache would show a code that no longer counts.
import { useState } from 'react';
import { captchaImageUrl } from '../../api/session';

/**
 * The address of captcha image `draw`, stamped with the time this view first shows it: Date.now(),
 * or one past the last stamp when that is not later, so a redraw within the same millisecond is
 * still a new address.
 */
export function useCaptchaImageSrc(draw: number): string {
  // [draw, timestamp]: a pair rather than an object, for the sign-in page's byte budget.
  const [image, setImage] = useState(() => [draw, Date.now()] as const);
  let shown = image;
  if (image[0] !== draw) {
    // Stored while rendering: React renders again at once, before anything is shown.
    shown = [draw, Math.max(Date.now(), image[1] + 1)];
    setImage(shown);
  }
  return captchaImageUrl(shown[1]);
}
