// Every user-visible string of the sign-in page (sections 2.1, 5 and 8). Strings quoted from the
// spec are word for word; tests import them from here.
import { UNKNOWN_OUTCOME_MESSAGE } from '../../../contract/errors';
import { messages } from '../../../contract/fields';

export const signInTexts = {
  heading: 'Sign in',
  username: 'Username',
  password: 'Password',
  securityCode: 'Security code',
  captchaAlt: 'Security code image: type the characters you see',
  refreshCaptcha: 'Show a new security code image',
  capsLockOn: 'Caps Lock is on',
  submit: 'Sign in',
  registerLink: 'Received an invitation? Register your account here.',
  problemsLink: 'Having problems signing in?',
  privacyStatement:
    'We collect your username and the time, IP address and approximate location of each sign-in ' +
    'attempt to confirm who you are and to protect your account.',
  privacyStatementLink: 'Read our privacy statement',
  /** Heading of the 503 view; the server's message is shown under it. */
  unavailableHeading: 'Sign in is unavailable',
  errorHeading: 'Sign in failed',
  unknownOutcome: UNKNOWN_OUTCOME_MESSAGE,
  signingIn: 'Signing you in',
  handingOff: 'Handing off',
  /** Shown only when the browser does not run the hidden form's script. */
  continueHandoff: 'Continue',
  loading: 'Loading',
  validation: messages,
} as const;
