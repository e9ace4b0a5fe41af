import type { AuthenticationOutcome } from '../../src/contract/entities';
import type { InviteDetails } from '../../src/contract/registration';
import type { ContinueSignInOutput } from '../forced/continue-sign-in/continue-sign-in.types';
import type {
  CodeCheckResult,
  ForcedStepOutput,
  LandingInput,
  OutcomeResult,
  Refusal,
  ResendResult,
} from '../forced/continue-sign-in/forced-step';
import type {
  EnrolSmsResult,
  SecurityQuestion,
  SecurityQuestionsInput,
} from '../forced/factor-enrolment/factor-enrolment.types';

export type {
  CodeCheckResult,
  ContinueSignInOutput,
  EnrolSmsResult,
  InviteDetails,
  OutcomeResult,
  Refusal,
  ResendResult,
  SecurityQuestion,
  SecurityQuestionsInput,
};

/** What the start step reads after it has cleared the current user. */
export interface RegistrationFacts {
  /** The sms-gateway-status property. */
  isSmsGatewayAvailable: boolean;
  /** The security-questions enumeration. */
  questions: SecurityQuestion[];
}

/** Section 5's registration start: email, invitation code and the captcha's security code. */
export interface StartInput {
  email: string;
  inviteCode: string;
  captchaCode: string;
}

/** A call that answers the invite details (start, collect-details), or its 422. */
export type InviteResult = { type: 'invite'; invite: InviteDetails } | ({ type: 'refused' } & Refusal);

/** Collect-details: each field only when the invitee may edit it (section 5). */
export interface DetailsInput {
  name?: string;
  username?: string;
}

/** The authenticator app to set up: the QR code (a data URL) and the setup key. */
export interface AuthenticatorSetup {
  qrCode: string;
  setupKey: string;
}

/** Which code a verification screen checks. */
export type RegistrationCodeChannel = 'authenticator-app' | 'sms';

/** A call that only moves the wizard on (security questions), or its 422. */
export type StepResult = { type: 'done' } | ({ type: 'refused' } & Refusal);

export interface PasswordInput {
  password: string;
  confirmPassword: string;
}

export interface ExistingAccountInput {
  username: string;
  password: string;
}

export type RegistrationInput = LandingInput;

export interface RegistrationContext extends LandingInput {
  isSmsGatewayAvailable: boolean;
  questions: SecurityQuestion[];
  /**
   * The captcha image being shown, counted from 0: each redraw (after every failed start and on
   * refresh) is the next number. The view asks for /captcha.jpg?{timestamp} with the time it asks,
   * each time this changes.
   */
  captchaDraw: number;
  /** The invite held since start; null until then, and again after submission. */
  invite: InviteDetails | null;
  /** Section 5: editable only when the invitation sets none (username), staff or no customer number (name). */
  usernameEditable: boolean;
  nameEditable: boolean;
  authenticator: AuthenticatorSetup | null;
  /** The mobile the server answered to enrol-sms (shown on sms-verification). */
  mobile: string | null;
  /** The SMS-unavailable alert on security-questions. */
  smsUnavailableMessage: string | null;
  /** The last 422 of the current screen. */
  refusal: Refusal | null;
  /** A refused resend: shown in red, and the resend link is disabled. */
  resendRefusal: string | null;
  outcome: AuthenticationOutcome | null;
  handover: ForcedStepOutput | null;
  errorMessage: string | null;
}

export type RegistrationEvent =
  /** start: email, invitation code and security code (valid by section 5). */
  | ({ type: 'user.start' } & StartInput)
  /** start: a new captcha image. */
  | { type: 'user.refreshCaptcha' }
  /** collect-details: the editable fields (valid by section 5). */
  | ({ type: 'user.submitDetails' } & DetailsInput)
  /** select-authenticator-app-factor: the QR code is scanned; enter a code of the app. */
  | { type: 'user.scanned' }
  /** select-authenticator-app-factor: SMS instead of an authenticator app. */
  | { type: 'user.chooseSms' }
  /** select-authenticator-app-factor or select-sms-factor: email (with security questions) instead. */
  | { type: 'user.chooseEmail' }
  /** A verification screen's code (valid by section 5). */
  | { type: 'user.verify'; code: string }
  /** select-sms-factor: enrol this mobile (valid by section 5). */
  | { type: 'user.enrolSms'; mobile: string }
  /** sms-verification: send another code. */
  | { type: 'user.resend' }
  /** security-questions: the two questions and answers (valid by section 5). */
  | ({ type: 'user.submitQuestions' } & SecurityQuestionsInput)
  /** set-password: the password and its confirmation (valid by section 5). */
  | ({ type: 'user.submitPassword' } & PasswordInput)
  /** verify-identity: the existing account's username and password. */
  | ({ type: 'user.submitExisting' } & ExistingAccountInput)
  /** Cancel: leave registration for sign-in. */
  | { type: 'user.cancel' }
  /** The address changed without the machine asking (see RouteChangedEvent). */
  | { type: 'route.changed'; path: string };

export type RegistrationOutput = ForcedStepOutput;
