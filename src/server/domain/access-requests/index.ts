// Access requests: a signed-in user asks for an app (and facility) they lack. The app's
// access-request handling decides: IMMEDIATE approves it and creates the grant in the same
// transaction; MANUAL leaves it PENDING for the manual workflow. Every step is written to the
// request's own history, and the outbound notification email is recorded there as an API call.
// An admin decides a PENDING request (decide()): approved, with the same grant, or rejected with a
// reason, each for a Jira ticket; the decision, its grant and its history land in one transaction.
// A merge moves the retired accounts' PENDING requests to the surviving account, in the merge's
// transaction (movePendingAccessRequests), so a decision reaches the account that signs in; one
// whose requester is retired all the same is not decided.
import type { Kysely } from 'kysely';
import type { Clock } from '../../adapters/clock';
import type { MailSender } from '../../adapters/mail';
import { randomInt, randomUuid, type Random } from '../../adapters/random';
import {
  ACCESS_REQUEST_DECISIONS,
  type AccessRequestDecision,
  type DecidedAccessRequest,
} from '../../../contract/access-requests';
import type {
  AccessRequestDetails,
  AccessRequestStatus,
  AccessRequestSummary,
  HistoryItem,
  PageMetadata,
  RequestAccessResult,
} from '../../../contract/admin';
import {
  accessRequestExists,
  accessRequestHistory,
  accessRequestIdOf,
  findAccessRequest,
  grantAccess,
  listAccessRequests,
  lockAccessRequest,
  lockRequesterOf,
  recordAccessRequestEvent,
  setAccessRequestDecision,
  type AccessRequestEventRow,
  type AccessRequestRow,
  type LockedAccessRequest,
} from '../../db/repositories/access-requests';
import { moveAccessRequest, pendingAccessRequestsOf } from '../../db/repositories/merge';
import { recordIdentityEvent } from '../../db/repositories/history';
import type { Database, IdentityEventVariant } from '../../db/schema';
import { noteChange } from '../../observability/context';
import { refuse } from '../errors';
import { TICKET_FORMAT_MESSAGE } from '../profile/messages';
import { TICKET_PATTERN, TICKET_URL_PROPERTY } from '../profile/service';

/** Event codes of an access request's history, with the text and variant the history shows. */
export const ACCESS_REQUEST_EVENT_TYPES = {
  REQUESTED: { text: 'Access requested', variant: 'info' },
  APPROVED: { text: 'Approved', variant: 'success' },
  REJECTED: { text: 'Rejected', variant: 'danger' },
  ACCESS_GRANTED: { text: 'Access granted', variant: 'success' },
  AWAITING_MANUAL_WORKFLOW: { text: 'Awaiting manual workflow', variant: 'warning' },
  NOTE_ADDED: { text: 'Note added', variant: 'info' },
  REMINDER_SENT: { text: 'Reminder sent', variant: 'info' },
  NOTIFICATION_SENT: { text: 'Notification email sent', variant: 'info' },
  NOTIFICATION_FAILED: { text: 'Notification email not sent', variant: 'danger' },
  MOVED_BY_MERGE: { text: 'Moved by account merge', variant: 'info' },
  CLOSED_BY_MERGE: { text: 'Closed by account merge', variant: 'warning' },
} as const satisfies Record<string, { text: string; variant: IdentityEventVariant }>;
export type AccessRequestEventType = keyof typeof ACCESS_REQUEST_EVENT_TYPES;

export const LIST_PAGE_SIZE = 20;
export const HISTORY_PAGE_SIZE = 5;

export const FACILITY_REQUIRED_MESSAGE = 'Select a facility of this app.';
export const FACILITY_NOT_ALLOWED_MESSAGE = 'This app does not take a facility.';
export const UNKNOWN_FACILITY_MESSAGE = 'This app has no such facility.';
export const ALREADY_GRANTED_MESSAGE = 'You already have access to this app.';
/**
 * The requester's identity history event of an approval, with the approving admin as actor (as
 * registration records ACCESS_ADDED_FROM_INVITATION); its text is the code's words (admin/identities's
 * eventText: 'Access added by approval').
 */
export const ACCESS_ADDED_BY_APPROVAL_EVENT = 'ACCESS_ADDED_BY_APPROVAL';
/** 403: separation of duties, an admin's own request is for another admin to decide. */
export const OWN_REQUEST_MESSAGE = 'Another admin must decide your own access request.';
/** 409 for a decision on a request that is not PENDING (nothing is changed). */
export const alreadyDecidedMessage = (status: 'APPROVED' | 'REJECTED') =>
  `This access request has already been ${status === 'APPROVED' ? 'approved' : 'rejected'}; only a pending request can be decided.`;
/** 409 for a decision on a request whose requester was merged into another account (nothing is changed). */
export const REQUESTER_RETIRED_MESSAGE =
  'This access request was made from an account that has since been merged into another account and can no longer sign in, so it cannot be decided. The customer can request access again from the account they now use.';

/** The request's history entry when a merge moves it to the surviving account. */
export const movedByMergeDescription = (retiredUsername: string, survivorUsername: string) =>
  `The requesting account ${retiredUsername} was merged into ${survivorUsername}; this request is now for ${survivorUsername}.`;
/** The request's history entry when a merge closes it for the survivor's own open request. */
export const closedByMergeDescription = (
  retiredUsername: string,
  survivorUsername: string,
  keptCode: string,
  target: string,
) =>
  `The requesting account ${retiredUsername} was merged into ${survivorUsername}, which already has pending request ${keptCode} for ${target}; this request was closed in favour of that one.`;

/** Reads a server property (the Jira browse URL a ticket code is appended to). */
export interface PropertyReader {
  property(
    name: string,
  ): Promise<{ name: string; value: string | null } | { isSmsGatewayAvailable: boolean }>;
}

// Codes leave out look-alike characters (0/O, 1/I) because people read them out to support.
const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const CODE_LENGTH = 8;

export interface AccessRequestDeps {
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  mail: MailSender;
  reference: PropertyReader;
}

/** What a notification email tells the requester. */
type Notification =
  | { kind: 'filed'; status: AccessRequestStatus }
  | { kind: 'decided'; status: 'APPROVED' }
  | { kind: 'decided'; status: 'REJECTED'; reason: string };

export class AccessRequestService {
  constructor(private readonly deps: AccessRequestDeps) {}

  newCode(): string {
    let code = 'AR-';
    for (let i = 0; i < CODE_LENGTH; i++)
      code += CODE_ALPHABET[randomInt(this.deps.random, CODE_ALPHABET.length)];
    return code;
  }

  /**
   * Files the request (or answers the open one for the same app and facility). Refusals change
   * nothing: 404 unknown app; 422 facility missing, unexpected or unknown; 409 access held already.
   */
  async request(
    identityId: string,
    appCode: string,
    facilityCode: string | undefined,
  ): Promise<RequestAccessResult> {
    const { db, clock, random } = this.deps;
    const app = await db
      .selectFrom('apps')
      .select(['code', 'name', 'facility_handoff', 'access_request_handling'])
      .where('code', '=', appCode)
      .executeTakeFirst();
    if (!app) throw refuse.notFound();
    let facility: { id: string; name: string } | null = null;
    if (app.facility_handoff === 'SELECTED_BEFORE_HANDOFF') {
      if (facilityCode === undefined) {
        throw refuse.unprocessable(FACILITY_REQUIRED_MESSAGE, [
          { fieldName: 'facilityCode', message: FACILITY_REQUIRED_MESSAGE },
        ]);
      }
      const found = await db
        .selectFrom('facilities')
        .select(['id', 'name'])
        .where('app_code', '=', app.code)
        .where('code', '=', facilityCode)
        .executeTakeFirst();
      if (!found) {
        throw refuse.unprocessable(UNKNOWN_FACILITY_MESSAGE, [
          { fieldName: 'facilityCode', message: UNKNOWN_FACILITY_MESSAGE },
        ]);
      }
      facility = found;
    } else if (facilityCode !== undefined) {
      throw refuse.unprocessable(FACILITY_NOT_ALLOWED_MESSAGE, [
        { fieldName: 'facilityCode', message: FACILITY_NOT_ALLOWED_MESSAGE },
      ]);
    }

    const now = clock.now();
    const filed = await db.transaction().execute(async (trx) => {
      // Serialises one identity's requests, so two clicks file one request.
      const requester = await trx
        .selectFrom('identities')
        .select(['id', 'email', 'name'])
        .where('id', '=', identityId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const grant = await trx
        .selectFrom('access_grants')
        .select('id')
        .where('identity_id', '=', identityId)
        .where('app_code', '=', app.code)
        .where((eb) => (facility ? eb('facility_id', '=', facility.id) : eb('facility_id', 'is', null)))
        .executeTakeFirst();
      if (grant) throw refuse.conflict(ALREADY_GRANTED_MESSAGE);
      const open = await trx
        .selectFrom('access_requests')
        .select(['id', 'code', 'status'])
        .where('requester_identity_id', '=', identityId)
        .where('app_code', '=', app.code)
        .where('status', '=', 'PENDING')
        .where((eb) => (facility ? eb('facility_id', '=', facility.id) : eb('facility_id', 'is', null)))
        .executeTakeFirst();
      if (open) return { result: open, notify: null };

      const id = randomUuid(random);
      const code = await this.unusedCode(trx, app.code);
      const immediate = app.access_request_handling === 'IMMEDIATE';
      const status: AccessRequestStatus = immediate ? 'APPROVED' : 'PENDING';
      await trx
        .insertInto('access_requests')
        .values({
          id,
          code,
          app_code: app.code,
          facility_id: facility?.id ?? null,
          requester_identity_id: identityId,
          status,
          created_at: now,
          decided_at: immediate ? now : null,
        })
        .execute();
      const target = facility ? `${app.name} at ${facility.name}` : app.name;
      await recordAccessRequestEvent(trx, {
        accessRequestId: id,
        eventDate: now,
        actorIdentityId: identityId,
        type: 'REQUESTED',
        variant: ACCESS_REQUEST_EVENT_TYPES.REQUESTED.variant,
        description: `Requested access to ${target}.`,
      });
      if (immediate) {
        await grantAccess(trx, {
          id: randomUuid(random),
          identityId,
          appCode: app.code,
          facilityId: facility?.id ?? null,
          now,
        });
        await recordAccessRequestEvent(trx, {
          accessRequestId: id,
          eventDate: now,
          type: 'APPROVED',
          variant: ACCESS_REQUEST_EVENT_TYPES.APPROVED.variant,
          description: `${app.name} approves all access requests immediately.`,
        });
        await recordAccessRequestEvent(trx, {
          accessRequestId: id,
          eventDate: now,
          type: 'ACCESS_GRANTED',
          variant: ACCESS_REQUEST_EVENT_TYPES.ACCESS_GRANTED.variant,
          description: `Access to ${target} granted.`,
        });
      } else {
        await recordAccessRequestEvent(trx, {
          accessRequestId: id,
          eventDate: now,
          type: 'AWAITING_MANUAL_WORKFLOW',
          variant: ACCESS_REQUEST_EVENT_TYPES.AWAITING_MANUAL_WORKFLOW.variant,
          description: `${app.name} undertakes a manual workflow for access requests.`,
        });
      }
      return {
        result: { id, code, status },
        notify: requester.email
          ? {
              to: requester.email,
              name: requester.name,
              target,
              code,
              notification: { kind: 'filed', status } satisfies Notification,
            }
          : null,
      };
    });

    // The email goes out after the commit (a rolled-back request must not be announced); whether it
    // was handed over is recorded as the request's outbound call.
    if (filed.notify) await this.notify(filed.result.id, filed.notify);
    return {
      id: filed.result.id,
      code: filed.result.code,
      status: filed.result.status as AccessRequestStatus,
    };
  }

  private async unusedCode(trx: Kysely<Database>, appCode: string): Promise<string> {
    for (;;) {
      const code = this.newCode();
      if ((await accessRequestIdOf(trx, appCode, code)) === undefined) return code;
    }
  }

  private async notify(
    accessRequestId: string,
    n: { to: string; name: string | null; target: string; code: string; notification: Notification },
  ): Promise<void> {
    const subject = `Access request ${n.code}`;
    const hello = `Hello ${n.name ?? 'there'},\n\n`;
    const approved = `Your access request ${n.code} for ${n.target} has been approved. You can open it from your applications page.`;
    const text =
      hello +
      (n.notification.status === 'APPROVED'
        ? approved
        : n.notification.status === 'REJECTED'
          ? `Your access request ${n.code} for ${n.target} has been rejected.\n\nReason: ${n.notification.reason}\n\nIf you still need access, contact the support desk and quote ${n.code}.`
          : `We have received your access request ${n.code} for ${n.target}. It is being reviewed; we will let you know the outcome.`);
    let failure: string | null = null;
    try {
      await this.deps.mail.send({ to: n.to, subject, text });
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const type: AccessRequestEventType = failure ? 'NOTIFICATION_FAILED' : 'NOTIFICATION_SENT';
    await recordAccessRequestEvent(this.deps.db, {
      accessRequestId,
      eventDate: this.deps.clock.now(),
      type,
      variant: ACCESS_REQUEST_EVENT_TYPES[type].variant,
      isApiCall: true,
      description: failure ? `Email to ${n.to}: ${subject}\n${failure}` : `Email to ${n.to}: ${subject}`,
    });
  }

  /**
   * An admin approves or rejects a PENDING request for a Jira ticket. In one transaction: the
   * status and decision date, on approval the grant (as immediate handling grants it) and the
   * requester's identity history event (ACCESS_ADDED_BY_APPROVAL, the admin as actor), and the
   * history entry naming the admin with the ticket (and, for a rejection, the reason); the audit
   * line follows once it committed. The requester's email goes out after the commit, like the
   * filing notice, and is recorded as the request's outbound call. Refusals change nothing:
   * 404 no such request; 422 a ticket code that is not a Jira key; 403 the admin's own request;
   * 409 already decided, or made from an account a merge has retired (its requests that were
   * pending moved to the surviving account; one left behind is not decided for an account that can
   * no longer sign in, nor announced at its address).
   */
  async decide(input: {
    id: string;
    adminIdentityId: string;
    decision: AccessRequestDecision;
    ticketCode: string;
    reason?: string;
  }): Promise<DecidedAccessRequest> {
    const { db, clock, random } = this.deps;
    if (!UUID.test(input.id)) throw refuse.notFound();
    const ticketCode = input.ticketCode.trim();
    if (!TICKET_PATTERN.test(ticketCode)) {
      throw refuse.unprocessable(TICKET_FORMAT_MESSAGE, [
        { fieldName: 'ticketCode', message: TICKET_FORMAT_MESSAGE },
      ]);
    }
    const reason = input.reason?.trim() ?? '';
    const property = await this.deps.reference.property(TICKET_URL_PROPERTY);
    const browseUrl = 'value' in property ? property.value : null;
    // Without a configured Jira URL the code is kept in the description rather than as a link.
    const ticket = browseUrl ? { code: ticketCode, url: browseUrl + ticketCode } : null;
    const status = ACCESS_REQUEST_DECISIONS[input.decision];
    const now = clock.now();

    const decided = await lockedForDecision(db, input.id, async (trx, request) => {
      if (request.requester_identity_id === input.adminIdentityId)
        throw refuse.forbidden(OWN_REQUEST_MESSAGE);
      if (request.status !== 'PENDING') throw refuse.conflict(alreadyDecidedMessage(request.status));
      if (request.requesterRetired) throw refuse.conflict(REQUESTER_RETIRED_MESSAGE);
      if (!(await setAccessRequestDecision(trx, request.id, status, now))) {
        throw refuse.conflict(alreadyDecidedMessage(status));
      }
      const target = request.facility_name
        ? `${request.app_name} at ${request.facility_name}`
        : request.app_name;
      const ticketNote = ticket ? '' : `\nTicket ${ticketCode}.`;
      if (status === 'APPROVED') {
        const added = await grantAccess(trx, {
          id: randomUuid(random),
          identityId: request.requester_identity_id,
          appCode: request.app_code,
          facilityId: request.facility_id,
          now,
        });
        // The requester's own history (the admin's identity page) shows the access and who gave it.
        await recordIdentityEvent(trx, {
          identityId: request.requester_identity_id,
          eventDate: now,
          actorIdentityId: input.adminIdentityId,
          type: ACCESS_ADDED_BY_APPROVAL_EVENT,
          variant: 'success',
          description: `${
            added
              ? `Access to ${target} added: access request ${request.code} approved.`
              : `Access request ${request.code} for ${target} approved; the access was held already.`
          }${ticketNote}`,
          ticket,
        });
        await recordAccessRequestEvent(trx, {
          accessRequestId: request.id,
          eventDate: now,
          actorIdentityId: input.adminIdentityId,
          type: 'APPROVED',
          variant: ACCESS_REQUEST_EVENT_TYPES.APPROVED.variant,
          description: `Approved through the manual workflow.${ticketNote}`,
          ticket,
        });
        await recordAccessRequestEvent(trx, {
          accessRequestId: request.id,
          eventDate: now,
          type: 'ACCESS_GRANTED',
          variant: ACCESS_REQUEST_EVENT_TYPES.ACCESS_GRANTED.variant,
          description: `Access to ${target} granted.`,
        });
      } else {
        await recordAccessRequestEvent(trx, {
          accessRequestId: request.id,
          eventDate: now,
          actorIdentityId: input.adminIdentityId,
          type: 'REJECTED',
          variant: ACCESS_REQUEST_EVENT_TYPES.REJECTED.variant,
          description: `Reason: ${reason}${ticketNote}`,
          ticket,
        });
      }
      noteChange({
        event: status === 'APPROVED' ? 'ACCESS_REQUEST_APPROVED' : 'ACCESS_REQUEST_REJECTED',
        fields: {
          identityId: request.requester_identity_id,
          actorIdentityId: input.adminIdentityId,
          accessRequestId: request.id,
          accessRequestCode: request.code,
          appCode: request.app_code,
          ticketCode,
        },
        committed: async (read) =>
          (await read
            .selectFrom('access_requests')
            .select('id')
            .where('id', '=', request.id)
            .where('status', '=', status)
            .executeTakeFirst()) !== undefined,
      });
      return { request, target };
    });

    const { request, target } = decided;
    if (request.requester_email) {
      await this.notify(request.id, {
        to: request.requester_email,
        name: request.requester_name,
        target,
        code: request.code,
        notification:
          status === 'APPROVED' ? { kind: 'decided', status } : { kind: 'decided', status, reason },
      });
    }
    const details = await this.details(request.id);
    return { ...details, status, decidedDate: now.toISOString() };
  }

  async list(pageNumber: number, query: string) {
    const { rows, totalElements } = await listAccessRequests(this.deps.db, {
      number: pageNumber,
      size: LIST_PAGE_SIZE,
      query: query.trim(),
    });
    return {
      data: rows.map((r) => ({
        id: r.id,
        code: r.code,
        app: { code: r.app_code, name: r.app_name },
        facility:
          r.facility_code && r.facility_name ? { code: r.facility_code, name: r.facility_name } : null,
        requester: { id: r.requester_id, username: r.requester_username, name: r.requester_name },
        status: r.status,
        createdDate: r.created_at.toISOString(),
      })),
      page: { number: pageNumber, size: LIST_PAGE_SIZE, totalElements } satisfies PageMetadata,
    };
  }

  async idOf(appCode: string, code: string): Promise<{ id: string }> {
    const id = await accessRequestIdOf(this.deps.db, appCode, code);
    if (!id) throw refuse.notFound();
    return { id };
  }

  async details(id: string): Promise<AccessRequestDetails> {
    const row = UUID.test(id) ? await findAccessRequest(this.deps.db, id) : undefined;
    if (!row) throw refuse.notFound();
    return { ...summaryOf(row), decidedDate: row.decided_at?.toISOString() ?? null };
  }

  /** A page of the request's history; `apiCallsOnly` gives the api-calls tab. */
  async history(
    id: string,
    pageNumber: number,
    apiCallsOnly = false,
  ): Promise<{ data: HistoryItem[]; page: PageMetadata }> {
    if (!UUID.test(id) || !(await accessRequestExists(this.deps.db, id))) throw refuse.notFound();
    const { rows, totalElements } = await accessRequestHistory(this.deps.db, id, {
      number: pageNumber,
      size: HISTORY_PAGE_SIZE,
      apiCallsOnly,
    });
    return {
      data: rows.map(historyItemOf),
      page: { number: pageNumber, size: HISTORY_PAGE_SIZE, totalElements },
    };
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A merge moved the request to another account between the reads of its requester. */
class RequesterMoved extends Error {}

/**
 * Runs `decide` in a transaction holding the request's requester (`for key share`) and then the
 * request (`for update`): the order of a merge, which locks its accounts and then moves their
 * pending requests (lockRequesterOf). A decision that meets a merge of its requester waits for it;
 * when the merge has moved the request meanwhile, the transaction (nothing written yet) is run
 * again for the new requester. Each run that starts over follows a merge that retired the account
 * it locked, and a retired account is merged no more, so the runs come to an end. 404 when there is
 * no such request.
 */
async function lockedForDecision<T>(
  db: Kysely<Database>,
  id: string,
  decide: (trx: Kysely<Database>, request: LockedAccessRequest & { requesterRetired: boolean }) => Promise<T>,
): Promise<T> {
  for (;;) {
    try {
      return await db.transaction().execute(async (trx) => {
        const requester = await lockRequesterOf(trx, id);
        const request = requester ? await lockAccessRequest(trx, id) : undefined;
        if (!requester || !request) throw refuse.notFound();
        if (request.requester_identity_id !== requester.id) throw new RequesterMoved();
        return decide(trx, { ...request, requesterRetired: requester.retired_at !== null });
      });
    } catch (error) {
      if (!(error instanceof RequesterMoved)) throw error;
    }
  }
}

/**
 * A merge's part in access requests, in the merge's transaction (domain/merge/service.ts), with
 * the accounts locked: each retired account's PENDING request becomes the survivor's, so a
 * decision grants the account that signs in, unless the survivor already has one open for the
 * same app and facility (the oldest of the retired accounts' otherwise moves): then it is closed,
 * as REJECTED, the only closed status a request has. Each change is entered in the request's
 * history, with the merging user as actor. The retired accounts' decided requests stay theirs.
 */
export async function movePendingAccessRequests(
  trx: Kysely<Database>,
  merge: {
    survivor: { id: string; username: string };
    retired: ReadonlyArray<{ id: string; username: string }>;
    actorIdentityId: string;
    now: Date;
  },
): Promise<void> {
  const { survivor, actorIdentityId, now } = merge;
  const retiredUsername = new Map(merge.retired.map((r) => [r.id, r.username]));
  const pending = await pendingAccessRequestsOf(trx, [survivor.id, ...retiredUsername.keys()]);
  const key = (r: { app_code: string; facility_id: string | null }) => `${r.app_code} ${r.facility_id ?? ''}`;
  const open = new Map(
    pending.filter((r) => r.requester_identity_id === survivor.id).map((r) => [key(r), r.code]),
  );
  for (const request of pending) {
    const from = retiredUsername.get(request.requester_identity_id);
    if (from === undefined) continue;
    const kept = open.get(key(request));
    if (kept === undefined) {
      await moveAccessRequest(trx, request.id, survivor.id);
      open.set(key(request), request.code);
      await recordAccessRequestEvent(trx, {
        accessRequestId: request.id,
        eventDate: now,
        actorIdentityId,
        type: 'MOVED_BY_MERGE',
        variant: ACCESS_REQUEST_EVENT_TYPES.MOVED_BY_MERGE.variant,
        description: movedByMergeDescription(from, survivor.username),
      });
    } else {
      await setAccessRequestDecision(trx, request.id, 'REJECTED', now);
      const target = request.facility_name
        ? `${request.app_name} at ${request.facility_name}`
        : request.app_name;
      await recordAccessRequestEvent(trx, {
        accessRequestId: request.id,
        eventDate: now,
        actorIdentityId,
        type: 'CLOSED_BY_MERGE',
        variant: ACCESS_REQUEST_EVENT_TYPES.CLOSED_BY_MERGE.variant,
        description: closedByMergeDescription(from, survivor.username, kept, target),
      });
    }
  }
}

function summaryOf(r: AccessRequestRow): AccessRequestSummary {
  return {
    id: r.id,
    code: r.code,
    app: { code: r.app_code, name: r.app_name },
    facility: r.facility_code && r.facility_name ? { code: r.facility_code, name: r.facility_name } : null,
    requester: { id: r.requester_id, username: r.requester_username, name: r.requester_name },
    status: r.status,
    createdDate: r.created_at.toISOString(),
  };
}

function historyItemOf(row: AccessRequestEventRow): HistoryItem {
  const known = (ACCESS_REQUEST_EVENT_TYPES as Record<string, { text: string }>)[row.type];
  return {
    eventDate: row.event_date.toISOString(),
    actorApp:
      row.actor_app_code && row.actor_app_name
        ? { code: row.actor_app_code, name: row.actor_app_name }
        : null,
    actor: row.actor_id && row.actor_username ? { id: row.actor_id, username: row.actor_username } : null,
    type: { text: known?.text ?? row.type, variant: row.variant },
    ticket: row.ticket_code && row.ticket_url ? { code: row.ticket_code, url: row.ticket_url } : null,
    description: row.description,
  };
}
