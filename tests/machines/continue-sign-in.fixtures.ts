// Fixtures of the forced steps (continue sign-in, change expired password, factor enrolment, MFA,
// re-enter password), shared by the hand-written transition tests and the generated path suites.
import type { AuthenticationOutcome } from '../../src/contract/entities';
import type { MfaNext } from '../../machines/forced/mfa/mfa.types';
import type { ContinueSignInOutput } from '../../machines/forced/continue-sign-in/continue-sign-in.types';
import type { OutcomeResult, ResendResult } from '../../machines/forced/continue-sign-in/forced-step';
import type { EnrolmentFacts } from '../../machines/forced/factor-enrolment/factor-enrolment.types';
import { previousSignInAttempt, users } from './fixtures/sign-in.fixtures';

export { previousSignInAttempt, users };

export const SMS_UNAVAILABLE =
  'SMS verification codes are currently unavailable. You may try to enrol mobile as a factor at a later date.';

export const noLanding = { targetPath: null, adminTargetPath: null } as const;

export const outcomes = {
  directLogin: { outcome: 'DIRECT_LOGIN', currentUser: users.customer, previousSignInAttempt },
  singleSignOn: {
    outcome: 'DIRECT_LOGIN',
    currentUser: users.customer,
    previousSignInAttempt,
    isSingleSignOn: true,
    appName: 'Loans',
  },
  samlHandoff: {
    outcome: 'SAML_HANDOFF',
    saml: {
      assertionConsumerServiceUrl: 'https://loans.example.com/saml/acs',
      samlResponse: 'PHNhbWxwOlJlc3BvbnNlLz4=',
      relayState: 'loans-home',
    },
  },
  jwtHandoff: {
    outcome: 'JWT',
    jwt: 'header.payload.signature',
    frameOrigin: 'https://treasury.example.com',
  },
  jwtWithoutOrigin: { outcome: 'JWT', jwt: 'header.payload.signature', frameOrigin: null },
  mfa: { outcome: 'FORCED_ACTION', forcedAction: 'MFA' },
  factorEnrolment: { outcome: 'FORCED_ACTION', forcedAction: 'FACTOR_ENROLMENT' },
  selectFacility: { outcome: 'FORCED_ACTION', forcedAction: 'SELECT_FACILITY' },
  duplicateAccounts: { outcome: 'FORCED_ACTION', forcedAction: 'DUPLICATE_ACCOUNTS' },
  unknown: { outcome: 'PASSKEY_CEREMONY' },
} satisfies Record<string, AuthenticationOutcome>;

export const mfaNexts = {
  authenticatorApp: { nextFactor: 'AUTHENTICATOR_APP', smsUnavailableMessage: null },
  sms: { nextFactor: 'SMS', smsUnavailableMessage: null },
  emailBecauseSmsIsDown: { nextFactor: 'EMAIL', smsUnavailableMessage: SMS_UNAVAILABLE },
  email: { nextFactor: 'EMAIL', smsUnavailableMessage: null },
  none: { nextFactor: null, smsUnavailableMessage: null },
} satisfies Record<string, MfaNext>;

/** What a step's continuation answers (the step's own tests fake the child). */
export const continuations = {
  signedIn: {
    kind: 'signedIn',
    route: '/profile/my-applications',
    currentUser: users.customer,
    previousSignInAttempt,
    singleSignOnAppName: null,
  },
  forwardedToMfa: {
    kind: 'forcedAction',
    route: '/forced-actions/mfa/authenticator-app-verification',
    currentUser: users.pending,
    smsUnavailableMessage: null,
  },
  failed: { kind: 'failed', message: 'Unknown authentication outcome' },
} satisfies Record<string, ContinueSignInOutput>;

export const PASSWORD_POLICY_REFUSAL = {
  type: 'refused',
  message: 'The new password does not meet the password policy.',
  fieldErrors: [{ fieldName: 'password', message: 'This password is too common. Choose another one.' }],
} as const satisfies OutcomeResult;

export const WRONG_CODE = {
  type: 'refused',
  message: 'The code you entered is incorrect.',
  fieldErrors: [{ fieldName: 'code', message: 'The code you entered is incorrect.' }],
} as const satisfies OutcomeResult;

export const resends = {
  sent: { type: 'sent' },
  refused: { type: 'refused', message: 'Too many codes have been sent. Try again in a few minutes.' },
  unavailable: { type: 'unavailable', message: SMS_UNAVAILABLE },
} satisfies Record<string, ResendResult>;

export const SECURITY_QUESTIONS = [
  { code: 'DRIVERS_LICENCE', description: "Driver's licence number" },
  { code: 'MEDICARE', description: 'Medicare card number' },
  { code: 'PASSPORT', description: 'Passport number' },
];

export const enrolmentFacts = {
  mfaRequired: { mfaRequired: true, isSmsGatewayAvailable: true, questions: SECURITY_QUESTIONS },
  securityOnly: { mfaRequired: false, isSmsGatewayAvailable: true, questions: SECURITY_QUESTIONS },
  gatewayDown: { mfaRequired: true, isSmsGatewayAvailable: false, questions: SECURITY_QUESTIONS },
} satisfies Record<string, EnrolmentFacts>;

export const MOBILE = '+61 400 000 003';

export const securityAnswers = {
  question1: 'DRIVERS_LICENCE',
  answer1: 'DL 1234 5678',
  question2: 'MEDICARE',
  answer2: '2123 45670 1',
} as const;
