import type { Context } from '../../src/contract/entities';
import type { PasswordResetDetails, PasswordResetStartRequest } from '../../src/contract/reset';
import type { Refusal, ResendResult } from '../forced/continue-sign-in/forced-step';

export type { PasswordResetDetails, Refusal, ResendResult };

export interface PasswordResetInput {
  /** The context the portal was opened in, if the session has one: start sends part of it. */
  context?: Context | null;
}

/**
 * Section 7: start sends the email, the captcha code and the context fields except realmCode and
 * showInHeader (the app code and type, when the session has a context).
 */
export type StartResetInput = PasswordResetStartRequest;

/** The context fields start sends: the app code and type of the session's context, if any. */
export type StartContextFields = Pick<StartResetInput, 'appCode' | 'type'>;

/** Whether the realm lets anyone sign in (and so reset): GET anonymous/realms/{realm}/auth-enabled. */
export interface ResetAvailability {
  authEnabled: boolean;
  /** The security-questions enumeration: how each question code reads. */
  questions: SecurityQuestion[];
}

export interface SecurityQuestion {
  code: string;
  description: string;
}

/** POST start: sent (the same answer for any email), a 422 (captcha), or 503 (unavailable). */
export type StartResult =
  /** `email`: the email the reset was started with (the reset email from here on). */
  | { type: 'started'; email: string }
  | ({ type: 'refused' } & Refusal)
  | { type: 'unavailable'; message: string };

/** verify-email and select-user: the details the wizard routes on (section 4.5), or a 422. */
export type DetailsResult =
  { type: 'details'; details: PasswordResetDetails } | ({ type: 'refused' } & Refusal);

/** A second-factor check (authenticator app, SMS code, security answers), or a 422. */
export type CheckResult = { type: 'verified' } | ({ type: 'refused' } & Refusal);

/** submit: the password was reset, or a 422 (policy, blocklist, factor not verified). */
export type SubmitResult = { type: 'reset' } | ({ type: 'refused' } & Refusal);

/** One answered security question (section 5: the reset answer is required, max 50). */
export interface SecurityAnswer {
  question: string;
  answer: string;
}

export interface PasswordResetContext {
  /**
   * The captcha image being shown, counted from 0: each redraw is the next number. The view asks
   * for /captcha.jpg?{timestamp} with the time it asks, each time this changes.
   */
  captchaDraw: number;
  /** What start sends of the session's context (section 7); empty without one. */
  startContext: StartContextFields;
  /** Whether the realm allows authentication; null until loaded. */
  available: boolean | null;
  questions: SecurityQuestion[];
  /** The reset email: held from a successful start until the reset ends or starts again. */
  email: string | null;
  /** The reset details: held from the verified email code; cleared by the last step. */
  details: PasswordResetDetails | null;
  /**
   * The account (username) whose second factor was verified in this reset, as the server keeps its
   * proof: for that account only, and forgotten when the email code is verified again. For it,
   * set-password shows the form whatever the details say of SMS.
   */
  factorVerifiedFor: string | null;
  /**
   * The SMS code sent in this reset, while the wizard may count it valid: entering the SMS step
   * again with it (back and forward) sends no other code. Forgotten when verified (used) and when
   * the reset ends or starts again; a code of another account or mobile does not count.
   */
  smsCode: SentSmsCode | null;
  /** When the SMS send under way was asked for (Date.now()), until it answers. */
  smsSendStartedAt: number | null;
  /** The SMS step was entered without a valid code: its first code is to be sent. */
  smsCodeDue: boolean;
  /** Section 4.5: stored when SMS is enrolled but the gateway is down (or a send answered 503). */
  smsUnavailableMessage: string | null;
  /** The last 422 of the current screen. */
  refusal: Refusal | null;
  /** A refused send of a code: shown in red, and the resend link is disabled. */
  resendRefusal: string | null;
  errorMessage: string | null;
}

/** An SMS code the server took: for which account and (masked) mobile, and when it was asked for. */
export interface SentSmsCode {
  username: string;
  mobile: string | null;
  /** Date.now() when the send was asked for: the server's lifetime starts no earlier. */
  sentAt: number;
}

export type PasswordResetEvent =
  /** Start: the email and the captcha's code (valid by section 5). */
  | { type: 'user.start'; email: string; captchaCode: string }
  /** A new captcha image. */
  | { type: 'user.refreshCaptcha' }
  /** The code of the current code screen (email, authenticator app, SMS). */
  | { type: 'user.verify'; code: string }
  /** The resend link of the current code screen. */
  | { type: 'user.resend' }
  /** user-selection: the account to reset. */
  | { type: 'user.select'; username: string }
  /** "I don't have access" on the authenticator app or SMS screen (section 4.5's skips). */
  | { type: 'user.skip' }
  /** security-question-verification: an answer to each question asked. */
  | { type: 'user.answer'; answers: SecurityAnswer[] }
  /** set-password: the new password and its confirmation (valid by section 5). */
  | { type: 'user.submit'; password: string; confirmPassword: string }
  /** The address changed without the machine asking (see RouteChangedEvent). */
  | { type: 'route.changed'; path: string };

/** Where the wizard hands over when the password is reset: sign-in. */
export interface PasswordResetOutput {
  route: string;
}
