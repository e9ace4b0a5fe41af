// Access-request fixtures shared by the machine tests and the generated path suites.
import type { Paged } from '../../machines/access-requests/access-requests.types';
import type { AccessRequestDetails, AccessRequestSummary, HistoryItem } from '../../src/contract/admin';

export const UNEXPECTED_FAILURE = 'The server could not be reached.';
export const LIST_SIZE = 20;
export const HISTORY_SIZE = 5;

export const REQUEST_DETAILS: AccessRequestDetails = {
  id: '3f0c5a8e-2b1d-4c7a-9e6f-1a2b3c4d5e6f',
  code: 'AR-TRSY4K7M',
  app: { code: 'TREASURY', name: 'Treasury' },
  facility: null,
  requester: { id: '9b1d2c3e-4f5a-4b6c-8d7e-0f1a2b3c4d5e', username: 'C10004', name: 'Dana Citizen' },
  status: 'PENDING',
  createdDate: '2026-11-15T04:00:00.000Z',
  decidedDate: null,
};

/** REQUEST_DETAILS once decided (the server's answer to approve or reject, and a reload after). */
export const decidedDetails = (status: 'APPROVED' | 'REJECTED'): AccessRequestDetails => ({
  ...REQUEST_DETAILS,
  status,
  decidedDate: '2026-11-16T09:30:00.000Z',
});

/** The server's refusal of a ticket code that is not a Jira key (a 422 at the field). */
export const TICKET_REFUSAL = 'Enter a Jira ticket code like SUP-999999';
export const ALREADY_DECIDED =
  'This access request has already been approved; only a pending request can be decided.';

const summary = (n: number, query: string): AccessRequestSummary => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  code: `AR-${query ? query.toUpperCase().slice(0, 4) : 'LIST'}${String(n).padStart(4, '0')}`,
  app: n % 2 ? { code: 'LOANS', name: 'Loans' } : { code: 'PAYROLL', name: 'Payroll' },
  facility: n % 2 ? { code: 'F001', name: 'Northside Community Clinic' } : null,
  requester: {
    id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    username: `C2${n}`,
    name: n % 3 ? `Person ${n}` : null,
  },
  status: n % 2 ? 'PENDING' : 'APPROVED',
  createdDate: new Date(Date.UTC(2026, 10, 20) - n * 3600_000).toISOString(),
});

/** Page `number` (zero-based) of a list of `total` requests matching `query`. */
export function listPage(number: number, total: number, query = ''): Paged<AccessRequestSummary> {
  const from = number * LIST_SIZE;
  const count = Math.max(0, Math.min(LIST_SIZE, total - from));
  return {
    data: Array.from({ length: count }, (_, i) => summary(from + i + 1, query)),
    page: { number, size: LIST_SIZE, totalElements: total },
  };
}

/** The n-th history item: every shape section 2.7 names (System, app, actor, ticket, multi-line). */
export function historyItem(n: number): HistoryItem {
  const variants = ['info', 'success', 'warning', 'danger'] as const;
  return {
    eventDate: new Date(Date.UTC(2026, 10, 20) - n * 3600_000).toISOString(),
    actorApp: n % 3 === 2 ? { code: 'TREASURY', name: 'Treasury' } : null,
    actor:
      n % 3 === 0
        ? { id: `20000000-0000-4000-8000-${String(n).padStart(12, '0')}`, username: `admin${n}` }
        : null,
    type: { text: `Event ${n}`, variant: variants[n % variants.length]! },
    ticket:
      n % 2 === 0 ? { code: `SD-${1000 + n}`, url: `https://jira.example.com/browse/SD-${1000 + n}` } : null,
    description:
      n % 2 === 0 ? `First line of ${n}.\nSecond line of ${n}.` : n % 5 === 1 ? null : `Item ${n}.`,
  };
}

/** Page `number` (zero-based) of a history of `total` items. */
export function historyPage(number: number, total: number): Paged<HistoryItem> {
  const from = number * HISTORY_SIZE;
  const count = Math.max(0, Math.min(HISTORY_SIZE, total - from));
  return {
    data: Array.from({ length: count }, (_, i) => historyItem(from + i)),
    page: { number, size: HISTORY_SIZE, totalElements: total },
  };
}
