// Fixtures of the password reset wizard, shared by the transition tests and the generated paths.
import type {
  PasswordResetDetails,
  Refusal,
  ResendResult,
} from '../../machines/password-reset/password-reset.types';

export const RESET_EMAIL = 'chloe@example.com';
export const CAPTCHA = 'E2E42';
export const QUESTIONS = [
  { code: 'DRIVERS_LICENCE', description: "Driver's licence number" },
  { code: 'MEDICARE', description: 'Medicare card number' },
];

const base: PasswordResetDetails = {
  email: RESET_EMAIL,
  username: 'C10009',
  identities: [],
  challenges: [],
  mobile: null,
  isAuthAppEnrolled: false,
  isSmsFactorEnrolled: false,
  isSmsGatewayAvailable: true,
  isSecurityQuestionsEnrolled: false,
};
const questions = { isSecurityQuestionsEnrolled: true, challenges: ['DRIVERS_LICENCE', 'MEDICARE'] };
const sms = { isSmsFactorEnrolled: true, mobile: '+** *** *** 009' };

/** The accounts section 4.5 routes differently. */
export const details = {
  /** Authenticator app, SMS (gateway up) and security questions. */
  all: { ...base, ...questions, ...sms, isAuthAppEnrolled: true },
  smsOnly: { ...base, ...sms },
  /** SMS the only factor and the gateway down: the server would refuse the new password. */
  smsOnlyDown: { ...base, ...sms, isSmsGatewayAvailable: false },
  appAndQuestions: { ...base, ...questions, isAuthAppEnrolled: true },
  /** SMS enrolled but the gateway down: the SMS-unavailable message; questions instead. */
  smsDownQuestions: { ...base, ...questions, ...sms, isSmsGatewayAvailable: false },
  none: base,
  /** Several accounts share the email: user-selection. */
  shared: {
    ...base,
    username: null,
    identities: [
      { username: 'C10006', name: 'Liam Walsh' },
      { username: 'C10007', name: 'Liam Walsh' },
    ],
  },
  /** One of them chosen (no second factor). */
  sharedChosen: {
    ...base,
    username: 'C10007',
    identities: [
      { username: 'C10006', name: 'Liam Walsh' },
      { username: 'C10007', name: 'Liam Walsh' },
    ],
  },
} satisfies Record<string, PasswordResetDetails>;

export type DetailsKind = keyof typeof details;

/** Which fixture a context's details are (graph nodes and checks key on it). */
export const detailsKind = (d: PasswordResetDetails | null): DetailsKind | null =>
  d === null
    ? null
    : ((Object.entries(details).find(
        ([, v]) => JSON.stringify(v) === JSON.stringify(d),
      )?.[0] as DetailsKind) ?? null);

export const refusals = {
  captcha: {
    type: 'refused',
    message: 'The security code is incorrect. Enter the code in the new image.',
    fieldErrors: [{ fieldName: 'captchaCode', message: 'Incorrect security code' }],
  },
  code: {
    type: 'refused',
    message: 'The code is incorrect. Check it and try again.',
    fieldErrors: [{ fieldName: 'code', message: 'The code is incorrect. Check it and try again.' }],
  },
  account: { type: 'refused', message: 'Choose one of the accounts listed.', fieldErrors: [] },
  answer: {
    type: 'refused',
    message: 'The answer is incorrect.',
    fieldErrors: [{ fieldName: 'answer.MEDICARE', message: 'The answer is incorrect.' }],
  },
  password: {
    type: 'refused',
    message: 'This password is too common and easy to guess. Choose a less predictable password.',
    fieldErrors: [
      {
        fieldName: 'password',
        message: 'This password is too common and easy to guess. Choose a less predictable password.',
      },
    ],
  },
} satisfies Record<string, { type: 'refused' } & Refusal>;

export const GATEWAY_DOWN =
  'SMS verification codes are currently unavailable. You may try to enrol mobile as a factor at a later date.';

export const sends = {
  sent: { type: 'sent' },
  refused: {
    type: 'refused',
    message: 'A code was sent less than 30 seconds ago. Wait a moment before requesting another.',
  },
  unavailable: { type: 'unavailable', message: GATEWAY_DOWN },
} satisfies Record<string, ResendResult>;

export const NEW_PASSWORD = 'Quiet-Meadow-Lantern-77';
export const ANSWERS = [
  { question: 'DRIVERS_LICENCE', answer: 'DL10005' },
  { question: 'MEDICARE', answer: 'MC10005' },
];
