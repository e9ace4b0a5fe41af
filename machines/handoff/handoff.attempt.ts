// What the three handoff machines (handoff, single-sign-on, forced/select-facility) share about a
// handoff call's answer.
import type { HandoffAttempt, HandoffRefusal } from './handoff.types';

/** Said when an unexpected failure carries no message of its own. */
export const HANDOFF_FAILED_MESSAGE = 'The handoff could not be completed';

export const isReadyAttempt = (
  attempt: HandoffAttempt,
): attempt is Extract<HandoffAttempt, { type: 'ready' }> => attempt.type === 'ready';

export const isRefusedAttempt = (
  attempt: HandoffAttempt,
): attempt is Extract<HandoffAttempt, { type: 'refused' }> => attempt.type === 'refused';

/** The message of an unexpected failure: the error's own when it has one. */
export function failureMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return HANDOFF_FAILED_MESSAGE;
}

/** The refusal a handoff attempt (or an unexpected failure) makes for `appName`. */
export const refusalOf = (appName: string, message: string): HandoffRefusal => ({ appName, message });
