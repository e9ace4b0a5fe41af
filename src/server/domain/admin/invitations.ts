// The admin's invitations: create (through the registration area's invitation domain, with the
// invitation email sent at once; an email that cannot be sent removes the invitation again), list,
// and revoke (the invitation ends now, so its code registers no one).
import type { Kysely } from 'kysely';
import type { Clock } from '../../adapters/clock';
import type { MailSender } from '../../adapters/mail';
import type { Random } from '../../adapters/random';
import type { CreateInvitationBody, InvitationSummary, PageMetadata } from '../../../contract/admin';
import {
  endInvitation,
  findAdminInvitation,
  listAdminInvitations,
  type AdminInvitationRow,
} from '../../db/repositories/admin';
import type { Database } from '../../db/schema';
import { refuse } from '../errors';
import {
  createInvitation,
  INVITATION_DEFAULT_VALIDITY_DAYS,
  InvitationError,
  sendInvitationEmail,
} from '../registration/invitations';

export const INVITATION_PAGE_SIZE = 20;
export const FACILITY_REQUIRED_MESSAGE = 'Select a facility of this app.';
export const FACILITY_NOT_ALLOWED_MESSAGE = 'This app does not take a facility.';
export const UNKNOWN_APP_MESSAGE = 'No app has this code.';
export const INVITATION_ENDED_MESSAGE = 'This invitation has been used or has ended already.';
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
    return {
      data: rows.map((row) => summaryOf(row, now)),
      page: { number: pageNumber, size: INVITATION_PAGE_SIZE, totalElements },
    };
  }

  async create(body: CreateInvitationBody): Promise<InvitationSummary> {
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
    if (app.facility_handoff === 'SELECTED_BEFORE_HANDOFF' && !body.facilityCode) {
      throw refuse.unprocessable(FACILITY_REQUIRED_MESSAGE, [
        { fieldName: 'facilityCode', message: FACILITY_REQUIRED_MESSAGE },
      ]);
    }
    if (app.facility_handoff === 'NONE' && body.facilityCode) {
      throw refuse.unprocessable(FACILITY_NOT_ALLOWED_MESSAGE, [
        { fieldName: 'facilityCode', message: FACILITY_NOT_ALLOWED_MESSAGE },
      ]);
    }
    let created;
    try {
      created = await createInvitation(this.deps, {
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
      });
    } catch (error) {
      if (error instanceof InvitationError) throw refuse.unprocessable(error.message);
      throw error;
    }
    try {
      await sendInvitationEmail(mail, created, publicUrl);
    } catch {
      await db.deleteFrom('invitations').where('id', '=', created.id).execute();
      throw refuse.unavailable(INVITATION_EMAIL_FAILED_MESSAGE);
    }
    return this.summary(created.id);
  }

  async revoke(id: string): Promise<InvitationSummary> {
    if (!UUID.test(id)) throw refuse.notFound();
    const now = this.deps.clock.now();
    if (!(await findAdminInvitation(this.deps.db, id))) throw refuse.notFound();
    if (!(await endInvitation(this.deps.db, id, now))) throw refuse.conflict(INVITATION_ENDED_MESSAGE);
    return this.summary(id);
  }

  private async summary(id: string): Promise<InvitationSummary> {
    const row = await findAdminInvitation(this.deps.db, id);
    if (!row) throw refuse.notFound();
    return summaryOf(row, this.deps.clock.now());
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function summaryOf(row: AdminInvitationRow, now: Date): InvitationSummary {
  return {
    id: row.id,
    email: row.email,
    app: row.app_code && row.app_name ? { code: row.app_code, name: row.app_name } : null,
    facility:
      row.facility_code && row.facility_name ? { code: row.facility_code, name: row.facility_name } : null,
    name: row.name,
    customerNumber: row.customer_number,
    isStaff: row.is_staff,
    status: row.used_at ? 'USED' : row.expires_at.getTime() <= now.getTime() ? 'EXPIRED' : 'OPEN',
    createdDate: row.created_at.toISOString(),
    expiresDate: row.expires_at.toISOString(),
    usedDate: row.used_at?.toISOString() ?? null,
  };
}
