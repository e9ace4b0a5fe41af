import type { AccessRequestDetails } from '../../../src/contract/admin';

/** Opened by id (/access-requests/{id}) or by app code and request code (/access-requests/{appCode}/{code}). */
export type RequestInput = { id: string } | { appCode: string; code: string };

export interface RequestContext {
  input: RequestInput;
  /** The request's id: given, or resolved from the app code and code. */
  id: string | null;
  details: AccessRequestDetails | null;
  errorMessage: string | null;
}

export type RequestEvent =
  /** 'Try again' after a failed load. */
  { type: 'user.retry' };
