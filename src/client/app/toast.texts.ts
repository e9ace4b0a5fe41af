// The 'Update available' toast (section 2.2), apart from shellTexts, which the sign-in page carries:
// the toast host that shows it is loaded on its own.

export const toastTexts = {
  updateAvailable: 'Update available',
  updateAvailableMessage: 'A new version of this site is available.',
} as const;
