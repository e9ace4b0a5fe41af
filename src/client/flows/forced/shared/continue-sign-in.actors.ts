// The forced steps' shared actors over the api module: the sign-in continuation every step invokes,
// and the mapping of expected refusals (422, an accepted 503) to the results the machines route by.
import { fromPromise } from 'xstate';
import { continueSignInMachine } from '../../../../../machines/forced/continue-sign-in/continue-sign-in.machine';
import type { MfaStart } from '../../../../../machines/forced/continue-sign-in/continue-sign-in.types';
import type { Refusal, ResendResult } from '../../../../../machines/forced/continue-sign-in/forced-step';
import type { CurrentUser } from '../../../../contract/entities';
import type { CustomerUnavailable } from '../../../../contract/forced';
import { getCurrentUser, isApiError, isRefusal, resendCode, startMfa } from '../../../api';
import { unlessAborted } from '../../shared/actor-calls';
import { postJwtToParent } from '../../sign-in/sign-in.actions';

/** A refusal (a 422 without reroute, or a 429: see isRefusal), or null for anything else. */
export function refusalOf(error: unknown): Refusal | null {
  if (!isRefusal(error)) return null;
  return { message: error.body.message, fieldErrors: error.body.errors ?? [] };
}

/** An accepted 503 with the customer message (SMS and code resends), or null. */
export function customerUnavailableOf(error: unknown): string | null {
  if (!isApiError(error) || error.kind !== 'http' || error.handled || error.status !== 503) return null;
  const detail = error.detail as CustomerUnavailable | undefined;
  return detail?.customerMessage ?? error.body.customerMessage ?? error.body.message;
}

/** Runs a call whose expected refusals are results; anything else is thrown for onError. */
export async function withRefusals<T, R>(
  call: () => Promise<T>,
  onSuccess: (value: T) => R,
  onRefused: (refusal: Refusal) => R,
): Promise<R> {
  try {
    return onSuccess(await call());
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) return onRefused(refusal);
    throw error;
  }
}

/** `{prefix}/send-email|send-sms`: sent, refused (422, message in red) or unavailable (503). */
export async function resend(
  call: Parameters<typeof resendCode>[0],
  signal: AbortSignal,
): Promise<ResendResult> {
  try {
    await resendCode(call, { signal });
    return { type: 'sent' };
  } catch (error) {
    const unavailable = customerUnavailableOf(error);
    if (unavailable !== null) return { type: 'unavailable', message: unavailable };
    const refusal = refusalOf(error);
    if (refusal) return { type: 'refused', message: refusal.message };
    throw error;
  }
}

/** The continuation with its real actors and the JWT hand-off to the parent frame. */
export const continueSignIn = continueSignInMachine.provide({
  actors: {
    getCurrentUser: fromPromise<CurrentUser>(({ signal }) =>
      unlessAborted(signal, (signal) => getCurrentUser({ signal })),
    ),
    startMfa: fromPromise<MfaStart>(({ signal }) => unlessAborted(signal, (signal) => startMfa({ signal }))),
  },
  actions: { postJwtToParent },
  // A JWT goes to the parent frame only (section 4.1): in a tab of its own there is none.
  guards: { isOutsideFrame: () => window.self === window.top },
});
