// The help-screenshot catalogue (section 1): one image per screen the guide shows, made from the
// running product by `npm run screenshots` (scripts/screenshots.ts) and committed under
// src/client/guide/screenshots/. Plain data: the capture script (Node) and the guide page share it.

export const SCREENSHOT_SIZE = { width: 1024, height: 700 } as const;

export const screenshotCatalogue = {
  'sign-in': { file: 'sign-in.png', alt: 'The sign-in page with the username and password fields.' },
  registration: {
    file: 'registration.png',
    alt: 'The first step of registration, asking for the email address and invitation code.',
  },
  'password-reset': {
    file: 'password-reset.png',
    alt: 'The first step of the password reset, asking for the email address of the account.',
  },
  profile: {
    file: 'profile.png',
    alt: 'The profile page with personal details, multi-factor authentication and trusted devices.',
  },
  'merge-accounts': {
    file: 'merge-accounts.png',
    alt: 'The Select accounts step of the merge wizard: a checkbox and a password field per account, and None.',
  },
} as const satisfies Record<string, { file: string; alt: string }>;

export type ScreenshotName = keyof typeof screenshotCatalogue;

export const screenshotNames = Object.keys(screenshotCatalogue) as ScreenshotName[];
