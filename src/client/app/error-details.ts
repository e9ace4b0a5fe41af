// The details of the last globally handled failure, shown by the /error page (section 8: message,
// stack-trace hash as the trace id, timestamp). Kept in session storage so a reload of /error keeps them.
import * as v from 'valibot';

export const ErrorDetails = v.object({
  message: v.string(),
  stackTraceHash: v.nullable(v.string()),
  timestamp: v.nullable(v.string()),
});
export type ErrorDetails = v.InferOutput<typeof ErrorDetails>;

const KEY = 'portal.errorDetails';

export function storeErrorDetails(details: ErrorDetails): void {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(details));
  } catch {
    // Storage refused (private mode, quota): the page then shows no details.
  }
}

export function readErrorDetails(): ErrorDetails | null {
  let raw: string | null;
  try {
    raw = window.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const parsed = v.safeParse(ErrorDetails, JSON.parse(raw));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}
