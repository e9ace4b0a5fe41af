// The admin's identity screens: search (username, name, email, mobile, customer number), one
// identity with its factors, live sessions and trusted devices, its history (identity_events, five
// per page), and signing it out of all devices for a Jira ticket, which the profile service does in
// one transaction and records with the admin as actor.
import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../adapters/clock';
import { describeUserAgent } from '../../adapters/user-agent';
import type { HistoryItem, PageMetadata } from '../../../contract/admin';
import type { IdentityDetails, IdentitySession, IdentitySummary } from '../../../contract/admin-identities';
import type { FactorType } from '../../../contract/entities';
import { totalFromPage } from '../../db/repositories/admin';
import { identityHistory, type IdentityEventRow } from '../../db/repositories/history';
import type { Lockout } from '../lockout';
import { grantsOf } from '../../db/repositories/reference';
import { activeTrustedDevices } from '../../db/repositories/trusted-devices';
import type { Database } from '../../db/schema';
import { handoffTargetsFrom } from '../current-user';
import { refuse } from '../errors';
import { toTrustedDevice } from '../factors/trusted-devices';
import type { ProfileService } from '../profile/service';

export const IDENTITY_PAGE_SIZE = 20;
export const IDENTITY_HISTORY_PAGE_SIZE = 5;
export const IDENTITY_NOT_FOUND_MESSAGE = 'No identity has this id.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FACTOR_ORDER: readonly FactorType[] = ['AUTHENTICATOR_APP', 'SMS', 'EMAIL'];

/** Texts of the history event codes whose words are not simply the code's. */
const EVENT_TEXTS: Readonly<Record<string, string>> = {
  SMS_FACTOR_ENABLED: 'SMS factor enabled',
  SMS_FACTOR_DISABLED: 'SMS factor disabled',
  PROFILE_NAME_CHANGED: 'Name changed',
  PROFILE_BIRTH_DATE_CHANGED: 'Date of birth changed',
  PROFILE_PHONE_CHANGED: 'Phone changed',
};
const ACRONYMS = new Set(['SMS', 'JWT', 'MFA', 'SAML', 'API', 'IDV']);

/** The history type text of an event code: its own text, else its words ('ACCESS_ADDED': 'Access added'). */
export function eventText(code: string): string {
  const known = EVENT_TEXTS[code];
  if (known) return known;
  const words = code.split('_').filter(Boolean);
  return words
    .map((word, i) => {
      if (ACRONYMS.has(word)) return word;
      const lower = word.toLowerCase();
      return i === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
    })
    .join(' ');
}

export function historyItemOf(row: IdentityEventRow): HistoryItem {
  return {
    eventDate: row.event_date.toISOString(),
    actorApp:
      row.actor_app_code && row.actor_app_name
        ? { code: row.actor_app_code, name: row.actor_app_name }
        : null,
    actor: row.actor_id && row.actor_username ? { id: row.actor_id, username: row.actor_username } : null,
    type: { text: eventText(row.type), variant: row.variant },
    ticket: row.ticket_code && row.ticket_url ? { code: row.ticket_code, url: row.ticket_url } : null,
    description: row.description,
  };
}

/** LIKE pattern matching `text` anywhere, lower case, with LIKE's own characters escaped. */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A mobile's digits: the expression of identities_search's mobile column (migration 0022), written
 * the same, constants and all, so the planner can match it to the index.
 */
const MOBILE_DIGITS = sql<string>`regexp_replace(coalesce(i.mobile, ''), '[^0-9]', '', 'g')`;

export interface AdminIdentityDeps {
  db: Kysely<Database>;
  clock: Clock;
  profile: Pick<ProfileService, 'signOutOfAllDevices'>;
  /** The failure limit: whether the identity is locked. */
  lockout: Pick<Lockout, 'lockedAt'>;
}

type IdentityRow = {
  id: string;
  username: string;
  name: string;
  email: string | null;
  mobile: string | null;
  customer_number: string | null;
  is_staff: boolean;
  is_admin: boolean;
  retired_at: Date | null;
};

function summaryOf(row: IdentityRow): IdentitySummary {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    mobile: row.mobile,
    customerNumber: row.customer_number,
    isStaff: row.is_staff,
    isAdmin: row.is_admin,
    isRetired: row.retired_at !== null,
  };
}

const SUMMARY_COLUMNS = [
  'i.id',
  'i.username',
  'i.name',
  'i.email',
  'i.mobile',
  'i.customer_number',
  'i.is_staff',
  'i.is_admin',
  'i.retired_at',
] as const;

export class AdminIdentities {
  constructor(private readonly deps: AdminIdentityDeps) {}

  /**
   * A page of identities matching `query` (empty: all) in username, name, email or customer number
   * (anywhere, case-insensitively), or mobile (its digits, however either is spaced); live
   * identities first, then by username. Each arm of the match is an expression of a trigram index
   * and the order is an index's (migration 0022): written otherwise, the planner reads every row.
   */
  async search(pageNumber: number, query: string): Promise<{ data: IdentitySummary[]; page: PageMetadata }> {
    const text = query.trim();
    const pattern = text ? containsPattern(text) : null;
    const digits = text.replace(/\D/g, '');
    // A mobile is searched by its digits only when the query is a number (a name has none).
    // A leading 0 is the Australian trunk prefix: 0400 000 005 is stored as +61 400 000 005.
    const mobilePatterns =
      digits.length >= 3 && /^[\d\s()+.-]+$/.test(text)
        ? [`%${digits}%`, ...(/^0\d/.test(digits) ? [`%61${digits.slice(1)}%`] : [])]
        : [];
    const filtered = this.deps.db
      .selectFrom('identities as i')
      .$if(pattern !== null, (qb) =>
        qb.where((eb) =>
          eb.or([
            ...['i.username', 'i.name', 'i.email', 'i.customer_number'].map((column) =>
              eb(sql`lower(${sql.ref(column)})`, 'like', pattern),
            ),
            ...mobilePatterns.map((mobile) => eb(MOBILE_DIGITS, 'like', mobile)),
          ]),
        ),
      );
    const offset = pageNumber * IDENTITY_PAGE_SIZE;
    const rows = await filtered
      .select(SUMMARY_COLUMNS)
      .orderBy(sql`i.retired_at is not null`)
      .orderBy(sql`lower(i.username)`)
      .orderBy('i.id')
      .limit(IDENTITY_PAGE_SIZE)
      .offset(offset)
      .execute();
    const totalElements =
      totalFromPage(offset, rows.length, IDENTITY_PAGE_SIZE) ??
      Number((await filtered.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow()).total);
    return {
      data: rows.map(summaryOf),
      page: { number: pageNumber, size: IDENTITY_PAGE_SIZE, totalElements },
    };
  }

  /** The identity page: details, roles, factors, applications, live sessions and trusted devices. */
  async details(id: string): Promise<IdentityDetails> {
    const { db } = this.deps;
    const identity = await this.#identity(id);
    const now = this.deps.clock.now();
    const [roles, factors, answers, grants, sessions, devices, lockedAt] = await Promise.all([
      db
        .selectFrom('identity_roles')
        .select('role_code')
        .where('identity_id', '=', id)
        .orderBy('role_code')
        .execute(),
      db.selectFrom('identity_factors').select('factor_type').where('identity_id', '=', id).execute(),
      db
        .selectFrom('security_answers')
        .select(sql<string>`count(*)`.as('n'))
        .where('identity_id', '=', id)
        .executeTakeFirstOrThrow(),
      grantsOf(db, id),
      db
        .selectFrom('sessions')
        .select(['type', 'created_at', 'last_seen_at', 'user_agent'])
        .where('identity_id', '=', id)
        .where('type', '!=', 'ANONYMOUS')
        .where('expires_at', '>', now)
        .where('absolute_expires_at', '>', now)
        .orderBy('last_seen_at', 'desc')
        .orderBy('id_hash')
        .execute(),
      activeTrustedDevices(db, id, now),
      this.deps.lockout.lockedAt(identity.username, db),
    ]);
    const kinds = new Set(factors.map((f) => f.factor_type));
    return {
      ...summaryOf(identity),
      phone: identity.phone,
      birthDate: identity.birth_date,
      salaryNumber: identity.is_staff ? identity.salary_number : null,
      isIdentityVerified: identity.identity_verified,
      isPasswordExpired: identity.password_expired,
      isMfaRequired: identity.mfa_required,
      lockedDate: lockedAt?.toISOString() ?? null,
      roles: roles.map((r) => r.role_code),
      createdDate: identity.created_at.toISOString(),
      enrolledFactors: FACTOR_ORDER.filter((kind) => kinds.has(kind)),
      hasSecurityQuestions: Number(answers.n) >= 2,
      accessibleApps: handoffTargetsFrom(grants),
      sessions: sessions.map((s): IdentitySession => {
        const device = describeUserAgent(s.user_agent ?? undefined);
        return {
          browser: { family: device.browserFamily, versionMajor: device.browserMajor },
          operatingSystem: { family: device.osFamily, version: device.osVersion },
          type: s.type === 'AUTHENTICATION_PENDING' ? 'AUTHENTICATION_PENDING' : 'AUTHENTICATED',
          signedInDate: s.created_at.toISOString(),
          lastActiveDate: s.last_seen_at.toISOString(),
        };
      }),
      trustedDevices: devices.map(toTrustedDevice),
    };
  }

  /** A page of the identity's history, newest first. */
  async history(id: string, pageNumber: number): Promise<{ data: HistoryItem[]; page: PageMetadata }> {
    await this.#identity(id);
    const { rows, totalElements } = await identityHistory(this.deps.db, id, {
      number: pageNumber,
      size: IDENTITY_HISTORY_PAGE_SIZE,
    });
    return {
      data: rows.map(historyItemOf),
      page: { number: pageNumber, size: IDENTITY_HISTORY_PAGE_SIZE, totalElements },
    };
  }

  /** Signs the identity out everywhere for the ticket; the history names the admin and the ticket. */
  async signOut(id: string, adminIdentityId: string, ticketCode: string): Promise<void> {
    await this.#identity(id);
    await this.deps.profile.signOutOfAllDevices({
      identityId: id,
      actorIdentityId: adminIdentityId,
      ticketCode,
    });
  }

  async #identity(id: string) {
    if (!UUID.test(id)) throw refuse.notFound(IDENTITY_NOT_FOUND_MESSAGE);
    const identity = await this.deps.db
      .selectFrom('identities as i')
      .select([
        ...SUMMARY_COLUMNS,
        'i.phone',
        'i.birth_date',
        'i.salary_number',
        'i.identity_verified',
        'i.password_expired',
        'i.mfa_required',
        'i.created_at',
      ])
      .where('i.id', '=', id)
      .executeTakeFirst();
    if (!identity) throw refuse.notFound(IDENTITY_NOT_FOUND_MESSAGE);
    return identity;
  }
}
