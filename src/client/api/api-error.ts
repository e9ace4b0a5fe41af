// The one error every call rejects with for a non-2xx answer, no answer, or an answer that breaks
// the contract. `handled` tells a flow's machine whether section 8's global handling already acted.
import type { AcceptedOf, CallDef } from '../../contract/call';
import type { ErrorBody } from '../../contract/errors';

export type ApiErrorKind =
  /** The server answered with a non-2xx status. */
  | 'http'
  /** The server answered 2xx (or an accepted status) with a body the contract does not allow. */
  | 'invalid-response'
  /** No answer: network failure or the 30 s timeout. */
  | 'no-response'
  /** The browser refuses cookies, so no call was made. */
  | 'cookies-disabled';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  status: number;
  body: ErrorBody;
  callId: string;
  handled: boolean;
  /** For an accepted status: the body as parsed by the call's `accepted` schema. */
  detail?: unknown;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when there was no answer. */
  readonly status: number;
  /** The validated error body, or a synthetic one with a message. */
  readonly body: ErrorBody;
  readonly callId: string;
  /** True when section 8's global handling has acted (navigated, notified): the caller only stops. */
  readonly handled: boolean;
  readonly detail: unknown;

  constructor(init: ApiErrorInit) {
    super(init.body.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.body = init.body;
    this.callId = init.callId;
    this.handled = init.handled;
    this.detail = init.detail;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * A refusal the flow that made the call shows at its form: a 422 section 8 left to the flow (no
 * reroute), or a 429 (too many attempts: the server's wait after repeated failures, a check already
 * in flight, or the rate limit), whose message says when to try again. Neither changed anything.
 */
export function isRefusal(error: unknown): error is ApiError {
  return (
    isApiError(error) &&
    error.kind === 'http' &&
    !error.handled &&
    (error.status === 422 || error.status === 429)
  );
}

/**
 * The accepted answer (the spec's "503 accepted") that `error` carries for `call`, typed by the
 * call's `accepted` map; null for any other error.
 */
export function acceptedAnswer<C extends CallDef>(error: unknown, call: C): AcceptedOf<C> | null {
  if (!isApiError(error) || error.handled || error.callId !== call.id || error.kind !== 'http') return null;
  if (!(error.status in call.accepted)) return null;
  return { status: error.status, body: error.detail } as AcceptedOf<C>;
}
