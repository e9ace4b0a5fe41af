// Access requests: a signed-in user asks for an app (and facility) they lack. The app's
// access-request handling decides: IMMEDIATE approves it and creates the grant in the same
// transaction; MANUAL leaves it PENDING for the manual workflow. Every step is written to the
// request's own history, and the outbound notification email is recorded there as an API call.
import type { Kysely } from 'kysely';
import type { Clock } from '../../adapters/clock';
import type { MailSender } from '../../adapters/mail';
import { randomInt, randomUuid, type Random } from '../../adapters/random';
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
  listAccessRequests,
  recordAccessRequestEvent,
  type AccessRequestEventRow,
  type AccessRequestRow,
} from '../../db/repositories/access-requests';
import type { Database, IdentityEventVariant } from '../../db/schema';
import { refuse } from '../errors';

/** Event codes of an access request's history, with the text and variant the history shows. */
export const ACCESS_REQUEST_EVENT_TYPES = {
  REQUESTED: { text: 'Access requested', variant: 'info' },
  APPROVED: { text: 'Approved', variant: 'success' },
  ACCESS_GRANTED: { text: 'Access granted', variant: 'success' },
  AWAITING_MANUAL_WORKFLOW: { text: 'Awaiting manual workflow', variant: 'warning' },
  NOTE_ADDED: { text: 'Note added', variant: 'info' },
  REMINDER_SENT: { text: 'Reminder sent', variant: 'info' },
  NOTIFICATION_SENT: { text: 'Notification email sent', variant: 'info' },
  NOTIFICATION_FAILED: { text: 'Notification email not sent', variant: 'danger' },
} as const satisfies Record<string, { text: string; variant: IdentityEventVariant }>;
export type AccessRequestEventType = keyof typeof ACCESS_REQUEST_EVENT_TYPES;

export const LIST_PAGE_SIZE = 20;
export const HISTORY_PAGE_SIZE = 5;

export const FACILITY_REQUIRED_MESSAGE = 'Select a facility of this app.';
export const FACILITY_NOT_ALLOWED_MESSAGE = 'This app does not take a facility.';
export const UNKNOWN_FACILITY_MESSAGE = 'This app has no such facility.';
export const ALREADY_GRANTED_MESSAGE = 'You already have access to this app.';

// Codes leave out look-alike characters (0/O, 1/I) because people read them out to support.
const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const CODE_LENGTH = 8;

export interface AccessRequestDeps {
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  mail: MailSender;
}

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
        await trx
          .insertInto('access_grants')
          .values({
            id: randomUuid(random),
            identity_id: identityId,
            app_code: app.code,
            facility_id: facility?.id ?? null,
            created_at: now,
          })
          .execute();
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
        notify: requester.email ? { to: requester.email, name: requester.name, target, code, status } : null,
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
    n: { to: string; name: string; target: string; code: string; status: AccessRequestStatus },
  ): Promise<void> {
    const subject = `Access request ${n.code}`;
    const text =
      n.status === 'APPROVED'
        ? `Hello ${n.name},\n\nYour access request ${n.code} for ${n.target} has been approved. You can open it from your applications page.`
        : `Hello ${n.name},\n\nWe have received your access request ${n.code} for ${n.target}. It is being reviewed; we will let you know the outcome.`;
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
