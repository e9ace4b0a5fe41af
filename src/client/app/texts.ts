// Every user-visible string of the shell (header, footer, toasts, api notices) that the sign-in page
// may show; the authenticated header's are in shell/nav.texts.ts and the 'Update available' toast's
// in toast.texts.ts, so the sign-in page does not carry them. Strings quoted from the spec are word
// for word; tests and the user guide import them from here.
import { NO_RESPONSE_MESSAGE, SESSION_EXPIRED_MESSAGE } from '../../contract/errors';

export const shellTexts = {
  brand: 'Identity Portal',
  /** Document title of a page: its heading, then the brand. */
  documentTitle: (heading: string) => `${heading} - Identity Portal`,
  skipToContent: 'Skip to main content',
  loading: 'Loading',

  // Header, unauthenticated (section 2.2)
  signIn: 'Sign in',
  userGuide: 'User guide',
  appBadge: (appCode: string) => `App: ${appCode}`,
  realmBadge: (realmCode: string) => `Realm: ${realmCode}`,
  mainNavigation: 'Main',

  // Footer (section 2.2)
  footerNavigation: 'Legal',
  disclaimer:
    'The information on this site is general in nature and does not take into account your objectives, ' +
    'financial situation or needs. It is not financial advice. Consider whether it is appropriate for ' +
    'you before acting on it.',
  privacyStatement: 'Privacy statement',
  websiteTerms: 'Website terms',

  // Toasts (sections 2.2 and 8); the 'Update available' toast's own texts are in toast.texts.ts
  reloadPage: 'Reload page',
  dismiss: 'Dismiss',
  sessionExpired: SESSION_EXPIRED_MESSAGE,

  // Back button (section 2.2)
  back: 'Back',

  // Failed lazy chunk that a reload did not cure
  pageLoadFailedTitle: 'This page could not be loaded',
  pageLoadFailed: 'Part of this site did not load. Reload the page to try again.',
} as const;

/** Messages the api layer stores for the /error page (section 8). */
export const apiTexts = {
  /** Section 8: 'go to /error with a message noting "no response received"'. */
  noResponse: `The portal could not reach the server: ${NO_RESPONSE_MESSAGE}.`,
  /** A 2xx answer that does not match the contract is treated like a 5xx. */
  invalidResponse: 'The server sent an answer the portal could not understand.',
  /** A non-2xx answer without the error body of section 8. */
  httpStatus: (status: number) => `The server answered with status ${status}.`,
} as const;

/** The previous sign-in toast (section 2.2; the wording is ours: the spec does not give it). */
export const previousSignInTexts = {
  title: 'Previous sign-in',
  when: (date: string, place: string) => `Your previous sign-in attempt was on ${date} from ${place}.`,
  unknownPlace: 'an unknown location',
  ipAddress: (ip: string) => `IP address ${ip}.`,
  successful: 'It was successful.',
  unsuccessful: 'It was not successful.',
  differentLocation:
    'It came from a different location than usual. If this was not you, change your password now.',
} as const;
