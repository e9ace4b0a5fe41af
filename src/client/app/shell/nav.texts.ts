// The authenticated header's strings (section 2.2): the application grid, the person menu and the
// links for admins and VIEW_ACCESS_REQUESTS holders. Apart from shellTexts, which the sign-in page
// carries, since no one on the sign-in page sees them. Spec strings are word for word.

export const navTexts = {
  accessRequests: 'Access Requests',
  /** Admins only: the admin screens (section 2.2's admin navbar lives there). */
  administration: 'Administration',
  applicationGrid: 'Applications',
  /** Spec 2.2, word for word (no full stop, unlike the applications page). */
  noOtherApplications: 'You do not have access to any other applications',
  /** Not in the spec: the grid's list did not load (opening the menu again tries again). */
  applicationsLoadFailed: 'Your applications could not be loaded.',
  /** The person menu's accessible name starts with the visible name (WCAG 2.5.3). */
  accountMenu: (name: string) => `${name} account menu`,
  profile: 'Profile',
  signOut: 'Sign out',
} as const;
