// The handoff machine's actors over the api module: the only handoff file that imports it. The
// attempt mapping is shared with the single-sign-on and select-facility flows.
import { fromPromise } from 'xstate';
import type { HandoffAttempt, HandoffCallInput } from '../../../../machines/handoff/handoff.types';
import type { HandoffResult } from '../../../contract/handoff';
import { isApiError, samlHandoff } from '../../api';
import { unlessAborted } from '../shared/actor-calls';

/**
 * A handoff call's answer as the machines route it: 2xx is ready; an answer section 8 leaves to the
 * flow (422, or a status it does not name) is refused with the server's message; one section 8 has
 * already handled (navigated, told the user) is handled. Anything else is thrown: unexpected.
 */
export async function handoffAttempt(call: () => Promise<HandoffResult>): Promise<HandoffAttempt> {
  try {
    const { saml, ...target } = await call();
    return { type: 'ready', target, saml };
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.handled) return { type: 'handled' };
    if (error.kind === 'http') return { type: 'refused', message: error.body.message };
    throw error;
  }
}

export const handoffActors = {
  samlHandoff: fromPromise<HandoffAttempt, HandoffCallInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) => handoffAttempt(() => samlHandoff(input, { signal }))),
  ),
};
