// Demo access requests (seeded with the rest of the demo data): a list for auditor1 to search and
// page, and one request (AR-TRSY4K7M) whose history runs over two pages of five. Approved requests
// match grants the demo accounts already hold, so seeding them changes no one's access.
import type { Kysely } from 'kysely';
import { randomUuid, type Random } from '../adapters/random';
import { recordAccessRequestEvent } from '../db/repositories/access-requests';
import type { Database } from '../db/schema';
import { ACCESS_REQUEST_EVENT_TYPES, type AccessRequestEventType } from '../domain/access-requests';

interface DemoEvent {
  /** Hours before the seeding time. */
  hoursAgo: number;
  type: AccessRequestEventType;
  actor?: string;
  actorApp?: string;
  apiCall?: boolean;
  description: string;
  ticket?: string;
}

export interface DemoAccessRequest {
  code: string;
  app: string;
  facility?: string;
  requester: string;
  status: 'PENDING' | 'APPROVED';
  events: DemoEvent[];
}

const ticket = (code: string) => ({ code, url: `https://jira.example.com/browse/${code}` });

export const DEMO_ACCESS_REQUESTS: readonly DemoAccessRequest[] = [
  {
    code: 'AR-TRSY4K7M',
    app: 'TREASURY',
    requester: 'C10004',
    status: 'PENDING',
    events: [
      { hoursAgo: 150, type: 'REQUESTED', actor: 'C10004', description: 'Requested access to Treasury.' },
      {
        hoursAgo: 150,
        type: 'AWAITING_MANUAL_WORKFLOW',
        description: 'Treasury undertakes a manual workflow for access requests.',
      },
      {
        hoursAgo: 150,
        type: 'NOTIFICATION_SENT',
        apiCall: true,
        description: 'Email to c10004@example.com: Access request AR-TRSY4K7M',
      },
      {
        hoursAgo: 120,
        type: 'NOTE_ADDED',
        actor: 'admin1',
        ticket: 'SD-1042',
        description: 'Asked the Treasury desk to confirm the requester.\nWaiting on their manager.',
      },
      {
        hoursAgo: 72,
        type: 'REMINDER_SENT',
        actorApp: 'TREASURY',
        apiCall: true,
        description: 'Treasury reminded its approvers of the open request.',
      },
      {
        hoursAgo: 48,
        type: 'NOTE_ADDED',
        actor: 'admin1',
        ticket: 'SD-1042',
        description:
          'Manager approval received by phone.\nAwaiting written confirmation.\nFollow up on Monday.',
      },
      {
        hoursAgo: 24,
        type: 'REMINDER_SENT',
        actorApp: 'TREASURY',
        apiCall: true,
        description: 'Treasury reminded its approvers of the open request.',
      },
    ],
  },
  {
    code: 'AR-LNS8FQ2W',
    app: 'LOANS',
    facility: 'F001',
    requester: 'C10008',
    status: 'APPROVED',
    events: [
      {
        hoursAgo: 720,
        type: 'REQUESTED',
        actor: 'C10008',
        description: 'Requested access to Loans at Northside Community Clinic.',
      },
      {
        hoursAgo: 720,
        type: 'AWAITING_MANUAL_WORKFLOW',
        description: 'Loans undertakes a manual workflow for access requests.',
      },
      {
        hoursAgo: 700,
        type: 'APPROVED',
        actor: 'admin1',
        ticket: 'SD-0977',
        description: 'Approved after the clinic confirmed the requester.',
      },
      {
        hoursAgo: 700,
        type: 'ACCESS_GRANTED',
        description: 'Access to Loans at Northside Community Clinic granted.',
      },
      {
        hoursAgo: 700,
        type: 'NOTIFICATION_SENT',
        apiCall: true,
        description: 'Email to c10008@example.com: Access request AR-LNS8FQ2W',
      },
    ],
  },
  {
    code: 'AR-PAY3XQ9R',
    app: 'PAYROLL',
    requester: 'C10010',
    status: 'APPROVED',
    events: [
      { hoursAgo: 300, type: 'REQUESTED', actor: 'C10010', description: 'Requested access to Payroll.' },
      { hoursAgo: 300, type: 'APPROVED', description: 'Payroll approves all access requests immediately.' },
      { hoursAgo: 300, type: 'ACCESS_GRANTED', description: 'Access to Payroll granted.' },
      {
        hoursAgo: 300,
        type: 'NOTIFICATION_SENT',
        apiCall: true,
        description: 'Email to c10010@example.com: Access request AR-PAY3XQ9R',
      },
    ],
  },
  {
    code: 'AR-LNSB3Y6T',
    app: 'LOANS',
    facility: 'F003',
    requester: 'C10003',
    status: 'PENDING',
    events: [
      {
        hoursAgo: 5,
        type: 'REQUESTED',
        actor: 'C10003',
        description: 'Requested access to Loans at Bayview Aged Care.',
      },
      {
        hoursAgo: 5,
        type: 'AWAITING_MANUAL_WORKFLOW',
        description: 'Loans undertakes a manual workflow for access requests.',
      },
      {
        hoursAgo: 5,
        type: 'NOTIFICATION_SENT',
        apiCall: true,
        description: 'Email to c10003@example.com: Access request AR-LNSB3Y6T',
      },
    ],
  },
];

/** Inserts the demo access requests inside the seeding transaction. */
export async function seedDemoAccessRequests(
  trx: Kysely<Database>,
  deps: { random: Random; now: Date; identityIds: Map<string, string>; facilityIds: Map<string, string> },
): Promise<void> {
  const idOf = (username: string) => {
    const id = deps.identityIds.get(username);
    if (!id) throw new Error(`Demo access requests name an unknown account ${username}`);
    return id;
  };
  const at = (hoursAgo: number) => new Date(deps.now.getTime() - hoursAgo * 3600_000);
  for (const request of DEMO_ACCESS_REQUESTS) {
    const id = randomUuid(deps.random);
    const facilityId = request.facility ? deps.facilityIds.get(`${request.app}/${request.facility}`) : null;
    if (facilityId === undefined)
      throw new Error(`Demo access request ${request.code} names an unknown facility`);
    const decided = request.events.find((e) => e.type === 'APPROVED');
    await trx
      .insertInto('access_requests')
      .values({
        id,
        code: request.code,
        app_code: request.app,
        facility_id: facilityId,
        requester_identity_id: idOf(request.requester),
        status: request.status,
        created_at: at(request.events[0]!.hoursAgo),
        decided_at: decided ? at(decided.hoursAgo) : null,
      })
      .execute();
    for (const event of request.events) {
      await recordAccessRequestEvent(trx, {
        accessRequestId: id,
        eventDate: at(event.hoursAgo),
        actorIdentityId: event.actor ? idOf(event.actor) : null,
        actorAppCode: event.actorApp ?? null,
        type: event.type,
        variant: ACCESS_REQUEST_EVENT_TYPES[event.type].variant,
        isApiCall: event.apiCall ?? false,
        description: event.description,
        ticket: event.ticket ? ticket(event.ticket) : null,
      });
    }
  }
}
