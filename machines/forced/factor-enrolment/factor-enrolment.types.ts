import type { AuthenticationOutcome } from '../../../src/contract/entities';
import type { ContinueSignInOutput } from '../continue-sign-in/continue-sign-in.types';
import type {
  CodeChannel,
  CodeCheckResult,
  ForcedStepOutput,
  LandingInput,
  OutcomeResult,
  Refusal,
  ResendResult,
} from '../continue-sign-in/forced-step';

export type { CodeChannel, CodeCheckResult, ContinueSignInOutput, OutcomeResult, ResendResult };

/** A security question of the server-loaded enumeration. */
export interface SecurityQuestion {
  code: string;
  description: string;
}

/** What the wizard reads before its first screen. */
export interface EnrolmentFacts {
  /** GET forced-actions/factor-enrolment/mfa-required: the heading says which enrolment this is. */
  mfaRequired: boolean;
  /** The sms-gateway-status property. */
  isSmsGatewayAvailable: boolean;
  /** The security-questions enumeration. */
  questions: SecurityQuestion[];
}

export interface FactorEnrolmentInput extends LandingInput {
  /** The address the page was opened at (a reload resumes at its step). */
  path: string;
}

/** POST enrol-sms: the mobile the server stored, a refusal, or 503 with the customer message. */
export type EnrolSmsResult =
  | { type: 'enrolled'; mobile: string }
  | ({ type: 'refused' } & Refusal)
  | { type: 'unavailable'; message: string };

/** The security questions and answers (section 5); the answers pass through, never stored. */
export interface SecurityQuestionsInput {
  question1: string;
  answer1: string;
  question2: string;
  answer2: string;
}

export interface FactorEnrolmentContext extends LandingInput {
  entryPath: string;
  mfaRequired: boolean;
  isSmsGatewayAvailable: boolean;
  questions: SecurityQuestion[];
  /** The mobile the server answered to enrol-sms (shown on sms-verification). */
  mobile: string | null;
  /** The SMS-unavailable alert on security-questions: the customer message, or section 8's text. */
  smsUnavailableMessage: string | null;
  /** The last 422 of the current screen, shown on its fields until the next try. */
  refusal: Refusal | null;
  /** A refused resend (422, or 503 on email): shown in red, and the resend link is disabled. */
  resendRefusal: string | null;
  outcome: AuthenticationOutcome | null;
  /** How sign-in continued (the final output). */
  handover: ForcedStepOutput | null;
  errorMessage: string | null;
}

export type FactorEnrolmentEvent =
  /** The user entered the code of the current screen (valid by section 5). */
  | { type: 'user.verify'; code: string }
  /** The resend link of the current screen. */
  | { type: 'user.resend' }
  /** select-sms-factor: enrol this mobile (valid by section 5). */
  | { type: 'user.enrolSms'; mobile: string }
  /** select-sms-factor: keep email (with security questions) instead of SMS. */
  | { type: 'user.chooseEmail' }
  /** security-questions: the two questions and answers (valid by section 5). */
  | ({ type: 'user.submit' } & SecurityQuestionsInput)
  /** The address changed without the machine asking (see RouteChangedEvent). */
  | { type: 'route.changed'; path: string };

export type FactorEnrolmentOutput = ForcedStepOutput;
