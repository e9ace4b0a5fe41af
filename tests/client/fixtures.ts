// Shared fixtures of the client suite: users of every kind, contexts, handoff targets, a fake fetch.
import type { Context, CurrentUser, HandoffTarget, PreviousSignInAttempt } from '../../src/contract/entities';

const base: CurrentUser = {
  id: 'u-1',
  username: 'C10001',
  name: 'Casey Customer',
  email: 'c10001@example.com',
  mobile: '+61 400 000 001',
  phone: null,
  birthDate: '1980-05-17',
  isAuthenticated: true,
  isAdmin: false,
  isStaff: false,
  roles: [],
  type: 'AUTHENTICATED',
};

export const users = {
  anonymous: {
    ...base,
    id: null,
    username: null,
    name: null,
    email: null,
    mobile: null,
    birthDate: null,
    isAuthenticated: false,
    type: 'ANONYMOUS',
  },
  customer: base,
  pending: { ...base, isAuthenticated: false, type: 'AUTHENTICATION_PENDING' },
  pendingFlaggedAuthenticated: { ...base, isAuthenticated: true, type: 'AUTHENTICATION_PENDING' },
  auditor: {
    ...base,
    id: 'u-9',
    username: 'auditor1',
    name: 'Avery Auditor',
    roles: ['VIEW_ACCESS_REQUESTS'],
  },
  admin: {
    ...base,
    id: 'u-0',
    username: 'admin1',
    name: 'Ada Admin',
    isAdmin: true,
    isStaff: true,
    roles: ['ADMIN'],
  },
  staff: { ...base, id: 'u-5', username: 'S10005', name: 'Sam Staff', isStaff: true },
} satisfies Record<string, CurrentUser>;

export const contexts = {
  portal: { appCode: 'SAM', realmCode: 'BANK', showInHeader: false, type: 'DIRECT' },
  loans: { appCode: 'LOANS', realmCode: 'RETAIL', showInHeader: true, type: 'SAML' },
} satisfies Record<string, Context>;

export const targets = {
  loansF001: {
    appName: 'Loans',
    appCode: 'LOANS',
    facilityCode: 'F001',
    facilityName: 'Harbour Branch',
    facilityAliasOrCode: 'HB1',
  },
  loansF002: {
    appName: 'Loans',
    appCode: 'LOANS',
    facilityCode: 'F002',
    facilityName: 'Bay Branch',
    facilityAliasOrCode: 'F002',
  },
  payroll: {
    appName: 'Payroll',
    appCode: 'PAYROLL',
    facilityCode: null,
    facilityName: null,
    facilityAliasOrCode: null,
  },
} satisfies Record<string, HandoffTarget>;

export const previousAttempt: PreviousSignInAttempt = {
  date: '2025-11-20T21:30:00.000Z',
  ipAddress: '203.0.113.7',
  cityName: 'Sydney',
  countryName: 'Australia',
  continentName: 'Oceania',
  isSuccessful: true,
  isGeolocationDifferent: false,
};

export interface FakeAnswer {
  status?: number;
  body?: unknown;
  /** Raw text instead of JSON. */
  text?: string;
  headers?: Record<string, string>;
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): FakeAnswer => ({
  status,
  body,
  headers,
});

/** What the fake fetch saw of a request (the body read as text, as a real fetch would consume it). */
export interface SentRequest {
  url: URL;
  method: string;
  headers: Headers;
  credentials: RequestCredentials;
  body: string;
  signal: AbortSignal;
  json(): unknown;
}

/** A fetch that answers from a handler and records every request it saw. */
export function fakeFetch(
  handler: (request: SentRequest) => FakeAnswer | Promise<FakeAnswer> | Promise<never>,
) {
  const requests: SentRequest[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    // Like a real fetch: an already aborted signal rejects at once.
    if (request.signal.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    const body = await request.text();
    const sent: SentRequest = {
      url: new URL(request.url),
      method: request.method,
      headers: request.headers,
      credentials: request.credentials,
      body,
      signal: request.signal,
      json: () => JSON.parse(body) as unknown,
    };
    requests.push(sent);
    const answer = await handler(sent);
    const status = answer.status ?? 200;
    const text = answer.text ?? (answer.body === undefined ? null : JSON.stringify(answer.body));
    return new Response(status === 204 ? null : text, {
      status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  };
  return { fetch: fetchImpl as typeof fetch, requests };
}
