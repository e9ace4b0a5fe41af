// Expected refusals: a rule says no. The HTTP layer sends `status` with `body` as it is; anything
// else thrown is unexpected and becomes a 500 with a stack-trace hash.
import type { ErrorBody, FieldError } from '../../contract/errors';
import {
  NOT_FOUND_MESSAGE,
  PERMISSION_DENIED_MESSAGE,
  SESSION_EXPIRED_MESSAGE,
  VALIDATION_FAILED_MESSAGE,
} from './messages';

export class RequestRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    /** Extra response headers (a 429's Retry-After). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(body.message);
    this.name = 'RequestRefused';
  }
}

export const refuse = {
  invalid: (errors: FieldError[], message = VALIDATION_FAILED_MESSAGE) =>
    new RequestRefused(400, { message, errors }),
  sessionExpired: () => new RequestRefused(401, { message: SESSION_EXPIRED_MESSAGE, url: '/' }),
  forbidden: (message = PERMISSION_DENIED_MESSAGE) => new RequestRefused(403, { message }),
  notFound: (message = NOT_FOUND_MESSAGE) => new RequestRefused(404, { message }),
  /** 409: the request no longer fits the session (e.g. a framed sign-in whose session expired). */
  conflict: (message = SESSION_EXPIRED_MESSAGE) => new RequestRefused(409, { message }),
  unprocessable: (message: string, errors?: FieldError[]) =>
    new RequestRefused(422, errors ? { message, errors } : { message }),
  unavailable: (message: string, customerMessage?: string) =>
    new RequestRefused(503, customerMessage ? { message, customerMessage } : { message }),
};
