// Error bodies of section 8. Every non-2xx answer of the server is one of these JSON shapes.
import * as v from 'valibot';
import { isoDateTime } from './fields';

export const FieldError = v.object({ fieldName: v.string(), message: v.string() });
export type FieldError = v.InferOutput<typeof FieldError>;

/** Any error answer: the fields present depend on the status (see below). */
export const ErrorBody = v.object({
  message: v.string(),
  /** 400 / 5xx: a hash that support can match with the server log (the "trace id"). */
  stackTraceHash: v.optional(v.string()),
  timestamp: v.optional(isoDateTime),
  /** 422: field errors; 400: which fields failed validation. */
  errors: v.optional(v.array(FieldError)),
  /** 422 with a reroute: the route to go to after the session is invalidated. */
  reroute: v.optional(v.string()),
  /** 401: where to go to sign in again. */
  url: v.optional(v.string()),
  /** 503 on SMS and reset calls: the message for the customer. */
  customerMessage: v.optional(v.string()),
});
export type ErrorBody = v.InferOutput<typeof ErrorBody>;

/** 503 answers that the spec accepts as results. */
export const Unavailable = v.object({ message: v.string(), customerMessage: v.optional(v.string()) });

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Sign in again to continue.';
export const NO_RESPONSE_MESSAGE = 'no response received';
export const UNKNOWN_OUTCOME_MESSAGE = 'Unknown authentication outcome';
