// The sign-in call's outcome, for the metrics and the audit log: one wrapper around the sign-in
// service, so every way a sign-in ends is counted in one place, whatever the domain throws.
import type { AuthenticationOutcome } from '../../contract/entities';
import { RequestRefused } from '../domain/errors';
import { ACCOUNT_LOCKED_MESSAGE } from '../domain/lockout';
import {
  CAPTCHA_EXPIRED_MESSAGE,
  CAPTCHA_INCORRECT_MESSAGE,
  CAPTCHA_REQUIRED_MESSAGE,
  INCORRECT_CREDENTIALS_MESSAGE,
} from '../domain/messages';
import { normaliseUsername } from '../domain/passwords';
import type { SignInResult } from '../domain/sign-in';
import { recordSignIn } from './context';
import type { SignInOutcome } from './metrics';

/** Usernames longer than this are cut in log lines (the field allows far less anyway). */
const LOGGED_USERNAME_MAX = 100;

export function outcomeOf(outcome: AuthenticationOutcome): SignInOutcome {
  if (outcome.outcome === 'FORCED_ACTION' && outcome.forcedAction) {
    return `forced_${outcome.forcedAction.toLowerCase()}`;
  }
  if (outcome.outcome === 'SAML_HANDOFF') return 'saml_handoff';
  if (outcome.outcome === 'JWT') return 'jwt';
  return 'direct_login';
}

/** The outcome a refusal stands for; null for what is not a sign-in decision (a 400, a 500). */
export function refusalOutcome(error: unknown): SignInOutcome | null {
  if (!(error instanceof RequestRefused)) return null;
  const message = error.body.message;
  if (message === INCORRECT_CREDENTIALS_MESSAGE) return 'incorrect_credentials';
  if (message === CAPTCHA_REQUIRED_MESSAGE) return 'captcha_required';
  if (message === CAPTCHA_INCORRECT_MESSAGE || message === CAPTCHA_EXPIRED_MESSAGE)
    return 'captcha_incorrect';
  if (message === ACCOUNT_LOCKED_MESSAGE) return 'locked';
  if (error.status === 503) return 'unavailable';
  if (error.status === 429) return 'waiting';
  if (error.status === 422) return 'refused';
  return null;
}

/** Runs a sign-in and records how it ended; the result or the refusal passes through unchanged. */
export async function observeSignIn(
  typedUsername: string,
  signIn: () => Promise<SignInResult>,
): Promise<SignInResult> {
  const username = normaliseUsername(typedUsername).slice(0, LOGGED_USERNAME_MAX);
  let result: SignInResult;
  try {
    result = await signIn();
  } catch (error) {
    const outcome = refusalOutcome(error);
    if (outcome) recordSignIn(outcome, { username, status: (error as RequestRefused).status });
    throw error;
  }
  recordSignIn(outcomeOf(result.outcome), {
    identityId: result.issued.session.identityId,
    username,
    sessionIdHash: result.issued.session.idHash,
  });
  return result;
}
