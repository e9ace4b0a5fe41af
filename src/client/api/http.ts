// The one ky instance every call goes through (section 7): base /rest/ui/, X-Requested-With, JSON,
// 30 s timeout, same-origin cookies, no retries (a retried POST could sign in twice), and the
// headers of every answer passed on (x-application-version, x-session-expires-in: version.ts).
import ky from 'ky';
import { API_BASE, REQUESTED_WITH_HEADER, REQUESTED_WITH_VALUE } from '../../contract/call';
import { notifyResponse } from './version';

/** Section 9: HTTP timeout 30 s. */
export const HTTP_TIMEOUT_MS = 30_000;

type Fetch = typeof globalThis.fetch;

let fetchOverride: Fetch | null = null;

/** Tests answer calls with a fake fetch; null restores the browser's. */
export function setApiFetch(fetchImpl: Fetch | null): void {
  fetchOverride = fetchImpl;
}

/** Absolute, so that Request objects also work where relative URLs do not resolve (jsdom on Node). */
function prefixUrl(): string {
  return typeof window === 'undefined' ? API_BASE : new URL(API_BASE, window.location.origin).href;
}

export const http = ky.create({
  prefixUrl: prefixUrl(),
  headers: {
    [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE,
    Accept: 'application/json',
  },
  credentials: 'same-origin',
  timeout: HTTP_TIMEOUT_MS,
  retry: 0,
  throwHttpErrors: false,
  fetch: (input, init) => (fetchOverride ?? globalThis.fetch)(input, init),
  hooks: {
    afterResponse: [
      (_request, _options, response) => {
        notifyResponse(response.headers);
      },
    ],
  },
});
