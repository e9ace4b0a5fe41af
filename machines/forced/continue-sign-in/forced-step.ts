// What every forced-step machine shares: the answers its provided actors give (expected refusals
// are results, routed by guards on onDone), how it hands over when it is done, and the helpers
// for messages. The sign-in continuation itself is the continue-sign-in machine beside this file.
import type { AuthenticationOutcome } from '../../../src/contract/entities';
import { UNKNOWN_OUTCOME_MESSAGE } from '../../../src/contract/errors';
import type { FieldError } from '../../../src/contract/errors';
import type { ContinueSignInOutput } from './continue-sign-in.types';

/** Where sign-in lands when it completes (section 4.1), handed to the continuation. */
export interface LandingInput {
  /** Remembered /profile or /access-requests path the user asked for before signing in. */
  targetPath: string | null;
  /** Remembered /admin path the user asked for before signing in. */
  adminTargetPath: string | null;
}

/** A 422 without reroute: the server's message and the field errors it names. */
export interface Refusal {
  message: string;
  fieldErrors: FieldError[];
}

/** A call whose success is an authentication outcome (the step is done, sign-in continues). */
export type OutcomeResult =
  { type: 'outcome'; outcome: AuthenticationOutcome } | ({ type: 'refused' } & Refusal);

/** A code check that only moves a wizard on (factor enrolment). */
export type CodeCheckResult = { type: 'verified' } | ({ type: 'refused' } & Refusal);

/** `{prefix}/send-email|send-sms` (section 8): 422 and 503 are results. */
export type ResendResult =
  | { type: 'sent' }
  /** 422: the message is shown in red and the resend link is disabled. */
  | { type: 'refused'; message: string }
  /** 503: the customer message is stored and the flow falls back. */
  | { type: 'unavailable'; message: string };

/** The channel a code is (re)sent on; the toast names it ('Resent {type} verification code'). */
export type CodeChannel = 'email' | 'sms';

/** How a forced step hands over: sign-in continued (landing or the next step), or cancelled. */
export type ForcedStepOutput =
  | Exclude<ContinueSignInOutput, { kind: 'failed' }>
  /** Cancel: the session was invalidated; go to sign-in. */
  | { kind: 'cancelled'; route: string };

/** The app provides every actor (machine.provide); a machine never calls the network itself. */
export const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));

/** Message of an unexpected failure: the server's message when there is one. */
export const messageOf = (error: unknown): string => {
  if (typeof error === 'object' && error !== null) {
    const body = (error as { body?: { message?: unknown } }).body;
    if (typeof body?.message === 'string') return body.message;
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return UNKNOWN_OUTCOME_MESSAGE;
};

export const required = <T>(value: T | null, what: string): T => {
  if (value === null) throw new Error(`The step finished without ${what}.`);
  return value;
};
