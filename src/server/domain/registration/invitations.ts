// Invitations: who may register (bound to an email address), for which app, facility and roles,
// until when, once. The code is shown once (in the invitation email) and stored only as its
// SHA-256: a generated code carries 100 bits from the CSPRNG, so an unkeyed hash is as safe as
// the session tokens' (codes typed by people are trimmed and upper-cased first).
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import * as v from 'valibot';
import { invitationFixesName } from '../../../contract/admin';
import type { FieldError } from '../../../contract/errors';
import { email as emailSchema, isoDate, limits, messages } from '../../../contract/fields';
import type { Clock } from '../../adapters/clock';
import type { MailSender } from '../../adapters/mail';
import { randomInt, randomUuid, type Random } from '../../adapters/random';
import { customerNumberHeld, insertInvitation } from '../../db/repositories/invitations';
import type { Database } from '../../db/schema';
import { customerNumberTakenMessage } from '../messages';
import { normaliseUsername } from '../passwords';
import { INVITATION_NAME_REQUIRED_MESSAGE, invitationEmailSubject, invitationEmailText } from './messages';

export const INVITATION_DEFAULT_VALIDITY_DAYS = 14;
/** Base32 without the look-alikes (0/O, 1/I/L, U): 5 bits a character. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';
const CODE_GROUPS = 5;
const CODE_GROUP_LENGTH = 4;

export function normaliseInvitationCode(code: string): string {
  return code.trim().toUpperCase();
}

export function invitationCodeHash(code: string): string {
  return createHash('sha256').update(normaliseInvitationCode(code), 'utf8').digest('hex');
}

/** A new code such as 'K7QM-2XWP-9HTB-CR4N-ZE6A' (20 characters of a 30-letter alphabet, ~98 bits). */
export function newInvitationCode(random: Random): string {
  const groups: string[] = [];
  for (let g = 0; g < CODE_GROUPS; g++) {
    let group = '';
    for (let i = 0; i < CODE_GROUP_LENGTH; i++)
      group += CODE_ALPHABET[randomInt(random, CODE_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

export const InviteRoleInput = v.object({
  name: v.pipe(v.string(), v.trim(), v.nonEmpty()),
  scopeType: v.nullable(v.string()),
  scope: v.nullable(v.string()),
});

export const NewInvitationInput = v.object({
  email: emailSchema,
  appCode: v.pipe(v.string(), v.trim(), v.nonEmpty('Required field')),
  facilityCode: v.nullable(v.pipe(v.string(), v.trim(), v.nonEmpty())),
  roles: v.array(InviteRoleInput),
  customerNumber: v.nullable(v.pipe(v.string(), v.trim(), v.regex(/^C\d{5}$/, 'Must be in the form C99999'))),
  name: v.nullable(v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(limits.name))),
  birthDate: v.nullable(isoDate),
  username: v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(limits.registrationUsernameMin),
      v.maxLength(limits.registrationUsernameMax),
    ),
  ),
  mobile: v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(limits.mobile))),
  isStaff: v.boolean(),
  /** Username of the identity the invitation adds the facility to; null for a new account. */
  existingUsername: v.nullable(v.string()),
  validityDays: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(365)),
});
export type NewInvitationInput = v.InferInput<typeof NewInvitationInput>;

/** A refused invitation; `field` names the input at fault when there is one (the admin's form shows it there). */
export class InvitationError extends Error {
  constructor(
    message: string,
    readonly field?: FieldError,
  ) {
    super(message);
    this.name = 'InvitationError';
  }
}

export interface CreatedInvitation {
  id: string;
  code: string;
  email: string;
  expiresAt: Date;
  productName: string;
  facility: string | null;
  existingAccount: boolean;
}

/**
 * Creates an invitation (refusing unknown apps, facilities and identities, a facility the app does
 * not have, a new account whose name the invitee could not enter at registration but that names no
 * one, and a customer number that a live identity other than the invited one holds: registering
 * from it would make a second account of that customer) and answers its code, which exists nowhere else from then on. `createdBy` is the
 * identity id of the admin creating it (null when no admin does: the invite command).
 */
export async function createInvitation(
  deps: { db: Kysely<Database>; clock: Clock; random: Random },
  raw: NewInvitationInput,
  createdBy: string | null = null,
): Promise<CreatedInvitation> {
  const parsed = v.safeParse(NewInvitationInput, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = v.getDotPath(issue);
    // The message as a person reads it, at its field: the admin's form shows it there and in its
    // alert; the invite command names the option (scripts/invite.ts).
    throw new InvitationError(issue.message, path ? { fieldName: path, message: issue.message } : undefined);
  }
  const input = parsed.output;
  // Section 5: this invitee cannot enter the name at registration, so the invitation must carry it
  // (an existing account keeps its own name and collects no details).
  if (!input.existingUsername && invitationFixesName(input) && input.name === null) {
    throw new InvitationError(INVITATION_NAME_REQUIRED_MESSAGE, {
      fieldName: 'name',
      message: messages.required,
    });
  }
  const { db, clock, random } = deps;
  const app = await db
    .selectFrom('apps')
    .select(['code', 'name', 'facility_handoff'])
    .where('code', '=', input.appCode.toUpperCase())
    .executeTakeFirst();
  if (!app) throw new InvitationError(`No application has the code ${input.appCode}.`);
  let facility: { id: string; code: string; alias: string | null; name: string } | undefined;
  if (input.facilityCode) {
    facility = await db
      .selectFrom('facilities')
      .select(['id', 'code', 'alias', 'name'])
      .where('app_code', '=', app.code)
      .where('code', '=', input.facilityCode)
      .executeTakeFirst();
    if (!facility) {
      const message = `${app.code} has no facility with the code ${input.facilityCode}.`;
      throw new InvitationError(message, { fieldName: 'facilityCode', message });
    }
  }
  let existingId: string | null = null;
  if (input.existingUsername) {
    const existing = await db
      .selectFrom('identities')
      .select(['id', 'email'])
      .where(({ fn }) => fn('lower', ['username']), '=', normaliseUsername(input.existingUsername))
      .where('retired_at', 'is', null)
      .executeTakeFirst();
    if (!existing) throw new InvitationError(`No identity has the username ${input.existingUsername}.`);
    existingId = existing.id;
  }
  // An email that a live identity uses is allowed (shared addresses are what the merge is for); a
  // customer number is one customer's.
  if (input.customerNumber && (await customerNumberHeld(db, input.customerNumber, existingId))) {
    const message = customerNumberTakenMessage(input.customerNumber);
    throw new InvitationError(message, { fieldName: 'customerNumber', message });
  }
  const code = newInvitationCode(random);
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + input.validityDays * 24 * 3600_000);
  const id = randomUuid(random);
  await insertInvitation(db, {
    id,
    code_hash: invitationCodeHash(code),
    email: input.email,
    app_code: app.code,
    facility_id: facility?.id ?? null,
    roles: JSON.stringify(input.roles),
    customer_number: input.customerNumber,
    name: input.name,
    birth_date: input.birthDate,
    username: input.username,
    mobile: input.mobile,
    is_staff: input.isStaff,
    existing_identity_id: existingId,
    created_by_identity_id: createdBy,
    created_at: now,
    expires_at: expiresAt,
  });
  return {
    id,
    code,
    email: input.email,
    expiresAt,
    productName: app.name,
    facility: facility ? (facility.alias ?? facility.code) : null,
    existingAccount: existingId !== null,
  };
}

/** Sends the invitation email with the code and the registration link. */
export async function sendInvitationEmail(
  mail: MailSender,
  invitation: CreatedInvitation,
  publicUrl: string,
): Promise<void> {
  await mail.send({
    to: invitation.email,
    subject: invitationEmailSubject(invitation.productName),
    text: invitationEmailText({
      productName: invitation.productName,
      facility: invitation.facility,
      code: invitation.code,
      registrationUrl: `${publicUrl}/registration`,
      expiresAt: invitation.expiresAt,
      existingAccount: invitation.existingAccount,
    }),
    code: invitation.code,
  });
}
