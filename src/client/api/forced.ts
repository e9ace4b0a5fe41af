// Forced sign-in step calls of src/contract/forced.ts, each taking `{ signal }` last.
import { forcedCalls } from '../../contract/forced';
import { request, type CallOptions } from './request';

/** Starts MFA after a FORCED_ACTION MFA outcome: the next factor and any SMS-unavailable message. */
export const startMfa = ({ signal }: CallOptions = {}) => request(forcedCalls.mfaStart, { signal });
