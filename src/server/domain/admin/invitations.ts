// The admin's invitations: create (through the registration area's invitation domain, naming the
// admin, with the invitation email sent at once; an email that cannot be sent removes the
// invitation again), list (with who created and who revoked each), and revoke (an open invitation is REVOKED now, naming the admin, so its code registers no one;
// registration refuses it as it refuses an expired one).
import type { Kysely } from 'kysely';
import type { Clock } from '../../adapters/clock';
import type { MailSender } from '../../adapters/mail';
import type { Random } from '../../adapters/random';
import {
  invitationFixesName,
  type CreateInvitationBody,
  type InvitationStatus,
  type InvitationSummary,
  type PageMetadata,
} from '../../../contract/admin';
import type { FieldError } from '../../../contract/errors';
import { messages } from '../../../contract/fields';
import {
  findAdminInvitation,
  listAdminInvitations,
  type AdminInvitationRow,
} from '../../db/repositories/admin';
import {
  invitationCreators,
  invitationRevocations,
  lockInvitationState,
  revokeInvitation,
  type InvitationRevocation,
} from '../../db/repositories/invitations';
import type { Database } from '../../db/schema';
import { noteChange } from '../../observability/context';
import { refuse } from '../errors';
import {
  createInvitation,
  INVITATION_DEFAULT_VALIDITY_DAYS,
  InvitationError,
  sendInvitationEmail,
} from '../registration/invitations';
import { INVITATION_NAME_REQUIRED_MESSAGE } from '../registration/messages';

export const INVITATION_PAGE_SIZE = 20;
export const FACILITY_REQUIRED_MESSAGE = 'Select a facility of this app.';
export const FACILITY_NOT_ALLOWED_MESSAGE = 'This app does not take a facility.';
export const UNKNOWN_APP_MESSAGE = 'No app has this code.';
/** Why an invitation that is not OPEN cannot be revoked (409). */
export const INVITATION_NOT_REVOCABLE_MESSAGES = {
  USED: 'This invitation has been used already, so it cannot be revoked.',
  EXPIRED: 'This invitation has expired already, so it cannot be revoked.',
  REVOKED: 'This invitation has been revoked already.',
} as const satisfies Record<Exclude<InvitationStatus, 'OPEN'>, string>;
export const INVITATION_EMAIL_FAILED_MESSAGE =
  'The invitation email could not be sent, so no invitation was created. Try again later.';

export interface AdminInvitationDeps {
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  mail: MailSender;
  publicUrl: string;
}

export class AdminInvitations {
  constructor(private readonly deps: AdminInvitationDeps) {}

  async list(pageNumber: number, query: string): Promise<{ data: InvitationSummary[]; page: PageMetadata }> {
    const { rows, totalElements } = await listAdminInvitations(this.deps.db, {
      number: pageNumber,
      size: INVITATION_PAGE_SIZE,
      query: query.trim(),
    });
    const now = this.deps.clock.now();
    const ids = rows.map((row) => row.id);
    const [revocations, creators] = await Promise.all([
      invitationRevocations(this.deps.db, ids),
      invitationCreators(this.deps.db, ids),
    ]);
    return {
      data: rows.map((row) => summaryOf(row, revocations.get(row.id), creators.get(row.id), now)),
      page: { number: pageNumber, size: INVITATION_PAGE_SIZE, totalElements },
    };
  }

  /**
   * The admin (`adminIdentityId`) invites someone: the invitation names its creator, and once it
   * is created and its email sent an audit line (INVITATION_CREATED) names the admin too (never
   * the code). Refusals create nothing.
   */
  async create(body: CreateInvitationBody, adminIdentityId: string): Promise<InvitationSummary> {
    const { db, mail, publicUrl } = this.deps;
    const app = await db
      .selectFrom('apps')
      .select(['code', 'facility_handoff'])
      .where('code', '=', body.appCode)
      .executeTakeFirst();
    if (!app)
      throw refuse.unprocessable(UNKNOWN_APP_MESSAGE, [
        { fieldName: 'appCode', message: UNKNOWN_APP_MESSAGE },
      ]);
    // The form's refusals, each at its field and all at once; the message is the first one's.
    const refusals: Array<{ message: string; error: FieldError }> = [];
    if (app.facility_handoff === 'SELECTED_BEFORE_HANDOFF' && !body.facilityCode) {
      refusals.push({
        message: FACILITY_REQUIRED_MESSAGE,
        error: { fieldName: 'facilityCode', message: FACILITY_REQUIRED_MESSAGE },
      });
    }
    if (app.facility_handoff === 'NONE' && body.facilityCode) {
      refusals.push({
        message: FACILITY_NOT_ALLOWED_MESSAGE,
        error: { fieldName: 'facilityCode', message: FACILITY_NOT_ALLOWED_MESSAGE },
      });
    }
    // Section 5: this invitee cannot enter the name at registration, so it must be given here
    // (without it the registration would stop at collect-details for good).
    if (invitationFixesName(body) && !body.name) {
      refusals.push({
        message: INVITATION_NAME_REQUIRED_MESSAGE,
        error: { fieldName: 'name', message: messages.required },
      });
    }
    if (refusals.length > 0) {
      throw refuse.unprocessable(
        refusals[0]!.message,
        refusals.map((r) => r.error),
      );
    }
    let created;
    try {
      created = await createInvitation(
        this.deps,
        {
          email: body.email,
          appCode: app.code,
          facilityCode: body.facilityCode ?? null,
          roles: [],
          customerNumber: body.customerNumber || null,
          name: body.name || null,
          birthDate: null,
          username: null,
          mobile: null,
          isStaff: body.isStaff,
          existingUsername: null,
          validityDays: body.validityDays ?? INVITATION_DEFAULT_VALIDITY_DAYS,
        },
        adminIdentityId,
      );
    } catch (error) {
      if (error instanceof InvitationError)
        throw refuse.unprocessable(error.message, error.field ? [error.field] : undefined);
      throw error;
    }
    try {
      await sendInvitationEmail(mail, created, publicUrl);
    } catch {
      await db.deleteFrom('invitations').where('id', '=', created.id).execute();
      throw refuse.unavailable(INVITATION_EMAIL_FAILED_MESSAGE);
    }
    const invitationId = created.id;
    noteChange({
      event: 'INVITATION_CREATED',
      fields: {
        actorIdentityId: adminIdentityId,
        invitationId,
        appCode: app.code,
        facilityCode: body.facilityCode ?? null,
      },
      committed: async (read) =>
        (await read
          .selectFrom('invitations')
          .select('id')
          .where('id', '=', invitationId)
          .where('created_by_identity_id', '=', adminIdentityId)
          .executeTakeFirst()) !== undefined,
    });
    return this.summary(invitationId);
  }

  /**
   * The admin revokes an OPEN invitation, in one transaction: the row locked, its status checked,
   * the revocation (when, which admin) written; the audit line follows once it committed. Refusals
   * change nothing: 404 no such invitation; 409 used, expired or revoked already.
   */
  async revoke(id: string, adminIdentityId: string): Promise<InvitationSummary> {
    if (!UUID.test(id)) throw refuse.notFound();
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const state = await lockInvitationState(trx, id);
      if (!state) throw refuse.notFound();
      const status = statusOf(state, now);
      if (status !== 'OPEN') throw refuse.conflict(INVITATION_NOT_REVOCABLE_MESSAGES[status]);
      if (!(await revokeInvitation(trx, { id, adminIdentityId, now }))) {
        throw refuse.conflict(INVITATION_NOT_REVOCABLE_MESSAGES.REVOKED);
      }
      noteChange({
        event: 'INVITATION_REVOKED',
        fields: { actorIdentityId: adminIdentityId, invitationId: id },
        committed: async (read) =>
          (await read
            .selectFrom('invitations')
            .select('id')
            .where('id', '=', id)
            .where('revoked_by_identity_id', '=', adminIdentityId)
            .executeTakeFirst()) !== undefined,
      });
      return this.summary(id, trx);
    });
  }

  private async summary(id: string, db: Kysely<Database> = this.deps.db): Promise<InvitationSummary> {
    const row = await findAdminInvitation(db, id);
    if (!row) throw refuse.notFound();
    const [revocations, creators] = await Promise.all([
      invitationRevocations(db, [id]),
      invitationCreators(db, [id]),
    ]);
    return summaryOf(row, revocations.get(id), creators.get(id), this.deps.clock.now());
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function statusOf(
  state: { usedAt: Date | null; expiresAt: Date; revokedAt: Date | null },
  now: Date,
): InvitationStatus {
  if (state.usedAt) return 'USED';
  if (state.revokedAt) return 'REVOKED';
  return state.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : 'OPEN';
}

function summaryOf(
  row: AdminInvitationRow,
  revocation: InvitationRevocation | undefined,
  createdBy: string | undefined,
  now: Date,
): InvitationSummary {
  return {
    id: row.id,
    email: row.email,
    app: row.app_code && row.app_name ? { code: row.app_code, name: row.app_name } : null,
    facility:
      row.facility_code && row.facility_name ? { code: row.facility_code, name: row.facility_name } : null,
    name: row.name,
    customerNumber: row.customer_number,
    isStaff: row.is_staff,
    status: statusOf(
      { usedAt: row.used_at, expiresAt: row.expires_at, revokedAt: revocation?.revokedAt ?? null },
      now,
    ),
    createdDate: row.created_at.toISOString(),
    expiresDate: row.expires_at.toISOString(),
    usedDate: row.used_at?.toISOString() ?? null,
    revokedAt: revocation?.revokedAt.toISOString() ?? null,
    revokedBy: revocation?.revokedBy ?? null,
    createdBy: createdBy ?? null,
  };
}
