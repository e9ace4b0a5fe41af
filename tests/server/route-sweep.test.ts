// The access matrix of every /rest/ui/ call (sections 2, 6, 7 and 8), swept over real HTTP with
// every kind of caller (support/callers.ts): no session, an anonymous session part-way through a
// password reset, a sign-in stopped at each forced step, and signed-in customers, staff, admins,
// VIEW_ACCESS_REQUESTS holders and a holder of READ_ONLY alone.
//
// ACCESS_MATRIX below is the documented matrix: one rule per call of the contract's `calls`
// catalogue, and a request that passes the call's own schemas, so each answer reflects access and
// not validation. A call added to the catalogue without a row here fails the sweep.
//
// Refused callers must get the refusal of section 8 (401 'session expired' with the sign-in url when
// there is no signed-in session; 403 'permission denied' for a session of the wrong kind, at the
// wrong forced step or without the role), as JSON, with no cookie set and nothing changed in the
// database. Allowed callers must not be refused for access (no 401 or 403) and must not break the
// server (no 5xx): they may well get a 404 or 422 for data reasons.
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  buildPath,
  calls,
  FORCED_ACTIONS,
  REQUESTED_WITH_HEADER,
  type CallDef,
  type ForcedAction,
} from '../../src/contract';
import { SALARY_STAFF_ONLY_MESSAGE } from '../../src/server/domain/profile/messages';
import {
  MISSING_REQUESTED_WITH_MESSAGE,
  NOT_FOUND_MESSAGE,
  PERMISSION_DENIED_MESSAGE,
  SESSION_EXPIRED_MESSAGE,
} from '../../src/server/domain/messages';
import { routeUrlOf } from '../../src/server/http/route';
import {
  addSweepIdentities,
  Caller,
  CALLER_PROFILES,
  type CallerProfile,
  type Standing,
} from './support/callers';
import { API, startServer, type TestClient, type TestResponse, type TestServer } from './support/server';
import { targets } from './support/targets';

// ---- The matrix --------------------------------------------------------------------------------

/**
 * Who may make a call:
 * - anyone: no session needed (route access 'anonymous' or 'any-session');
 * - signed-in: an AUTHENTICATED session (section 6's authenticated user);
 * - staff: a signed-in staff member (isStaff; section 6: only staff have a salary number);
 * - admin: a signed-in admin (isAdmin);
 * - access-request-viewer: a signed-in admin or holder of VIEW_ACCESS_REQUESTS (section 2.7);
 * - { step }: an AUTHENTICATION_PENDING session whose current forced step is `step` (section 2.6);
 * - { signedInOrStep }: a signed-in session, or one pending at that step (for the app it signs in to).
 * READ_ONLY opens nothing: it only turns history actors into links (section 6).
 */
type Rule =
  | 'anyone'
  | 'signed-in'
  | 'staff'
  | 'admin'
  | 'access-request-viewer'
  | { step: ForcedAction }
  | { signedInOrStep: ForcedAction };

interface Sample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/** Data the samples point at, read from the seeded database. */
interface Fixtures {
  realmCode: string;
  /** C10001's identity id. */
  identityId: string;
  accessRequest: { id: string; code: string; appCode: string };
}

interface Row {
  rule: Rule;
  sample?: (f: Fixtures) => Sample;
}

const WRONG_PASSWORD = 'not-the-password-1';
const NEW_PASSWORD = 'Sweep-Password-2026';
const WRONG_CODE = { code: '000000' };
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const QUESTIONS = {
  question1: 'DRIVERS_LICENCE',
  answer1: 'sweep-1',
  question2: 'MEDICARE',
  answer2: 'sweep-2',
};
const fixed = (sample: Sample) => () => sample;

const anyone: Row = { rule: 'anyone' };
const signedIn: Row = { rule: 'signed-in' };
const admin: Row = { rule: 'admin' };
const at = (step: ForcedAction, sample?: Sample): Row => ({
  rule: { step },
  ...(sample ? { sample: fixed(sample) } : {}),
});

/** The access matrix: one row per call id of the contract's catalogue. */
const ACCESS_MATRIX: Record<string, Row> = {
  // Anonymous and session (section 7)
  getContext: anyone,
  getCurrentUser: anyone,
  getEnvironment: anyone,
  getFrameOrigin: anyone,
  getRealmAuthEnabled: { rule: 'anyone', sample: (f) => ({ params: { realm: f.realmCode } }) },
  getEnum: { rule: 'anyone', sample: fixed({ params: { name: 'security-questions' } }) },
  getProperty: { rule: 'anyone', sample: fixed({ params: { name: 'support-email' } }) },
  getTrustedDevicePeriod: anyone,
  login: { rule: 'anyone', sample: fixed({ body: { username: 'sweep.nobody', password: WRONG_PASSWORD } }) },
  getFailedAuthCount: { rule: 'anyone', sample: fixed({ query: { username: 'C10001' } }) },
  logout: anyone,
  getReenterPasswordExpired: signedIn,
  reenterPassword: { rule: 'signed-in', sample: fixed({ body: { currentPassword: WRONG_PASSWORD } }) },
  singleLogout: { rule: 'signed-in', sample: fixed({ body: {} }) },
  getAccessibleApps: signedIn,
  // The select-facility step names its app (LOANS, where C10008 signs in from) in the handoff toast.
  getApp: { rule: { signedInOrStep: 'SELECT_FACILITY' }, sample: fixed({ params: { appCode: 'LOANS' } }) },

  // Handoff and apps
  getHandoffTargets: signedIn,
  samlHandoff: { rule: 'signed-in', sample: fixed({ body: { appCode: 'PAYROLL', facilityCode: null } }) },
  ssoSamlHandoff: { rule: 'signed-in', sample: fixed({ body: { appCode: 'PAYROLL', facilityCode: null } }) },
  getSelectFacilityFacilities: at('SELECT_FACILITY'),
  selectFacilitySamlHandoff: at('SELECT_FACILITY', { body: { appCode: 'LOANS', facilityCode: 'F999' } }),

  // Forced actions
  changeExpiredPassword: at('CHANGE_EXPIRED_PASSWORD', {
    body: { password: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}x` },
  }),
  getMfaRequired: at('FACTOR_ENROLMENT'),
  factorEnrolmentEnrolSms: at('FACTOR_ENROLMENT', { body: '+61 400 000 003' }),
  factorEnrolmentSubmit: at('FACTOR_ENROLMENT', { body: QUESTIONS }),
  getFactorEnrolmentSetupKey: at('FACTOR_ENROLMENT'),
  getFactorEnrolmentQrCode: at('FACTOR_ENROLMENT'),
  factorEnrolmentSendEmail: at('FACTOR_ENROLMENT'),
  factorEnrolmentSendSms: at('FACTOR_ENROLMENT'),
  factorEnrolmentVerifyEmail: at('FACTOR_ENROLMENT', { body: WRONG_CODE }),
  factorEnrolmentVerifyMobile: at('FACTOR_ENROLMENT', { body: WRONG_CODE }),
  factorEnrolmentVerifyAuthenticatorApp: at('FACTOR_ENROLMENT', { body: WRONG_CODE }),
  mfaStart: at('MFA'),
  mfaSkip: at('MFA'),
  mfaSendEmail: at('MFA'),
  mfaSendSms: at('MFA'),
  mfaVerifyEmail: at('MFA', { body: WRONG_CODE }),
  mfaVerifyMobile: at('MFA', { body: WRONG_CODE }),
  mfaVerifyAuthenticatorApp: at('MFA', { body: { ...WRONG_CODE, trustDevice: false } }),

  // Merge (the DUPLICATE_ACCOUNTS step)
  getMergeIdentities: at('DUPLICATE_ACCOUNTS'),
  getPreferredUsernames: at('DUPLICATE_ACCOUNTS'),
  skipMerge: at('DUPLICATE_ACCOUNTS'),
  mergeContinueSignIn: at('DUPLICATE_ACCOUNTS'),
  mergeSelectAccounts: at('DUPLICATE_ACCOUNTS', { body: { identities: [] } }),
  mergeChangeEmail: at('DUPLICATE_ACCOUNTS', { body: { email: 'sweep.merge@example.com' } }),
  mergePreferredUsername: at('DUPLICATE_ACCOUNTS', { body: { username: 'C10006' } }),
  generateMergeDetails: at('DUPLICATE_ACCOUNTS'),
  confirmMerge: at('DUPLICATE_ACCOUNTS'),
  mergeSendEmail: at('DUPLICATE_ACCOUNTS'),
  mergeSendSms: at('DUPLICATE_ACCOUNTS'),
  mergeVerifyEmail: at('DUPLICATE_ACCOUNTS', { body: WRONG_CODE }),
  mergeVerifyMobile: at('DUPLICATE_ACCOUNTS', { body: WRONG_CODE }),
  mergeVerifyAuthenticatorApp: at('DUPLICATE_ACCOUNTS', { body: WRONG_CODE }),

  // Password reset (anonymous visitors; a signed-in caller may start one too, which clears its user)
  passwordResetStart: {
    rule: 'anyone',
    sample: fixed({ body: { email: 'c10001@example.com', captchaCode: 'WRONG' } }),
  },
  passwordResetSelectUser: { rule: 'anyone', sample: fixed({ body: 'C10001' }) },
  passwordResetVerifySecurityQuestion: {
    rule: 'anyone',
    sample: fixed({ body: { question: 'DRIVERS_LICENCE', answer: 'wrong' } }),
  },
  passwordResetSubmit: {
    rule: 'anyone',
    sample: fixed({ body: { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD } }),
  },
  passwordResetSendEmail: anyone,
  passwordResetSendSms: anyone,
  passwordResetVerifyEmail: { rule: 'anyone', sample: fixed({ body: WRONG_CODE }) },
  passwordResetVerifyMobile: { rule: 'anyone', sample: fixed({ body: WRONG_CODE }) },
  passwordResetVerifyAuthenticatorApp: { rule: 'anyone', sample: fixed({ body: WRONG_CODE }) },

  // Registration (anonymous visitors)
  registrationStart: {
    rule: 'anyone',
    sample: fixed({
      body: { email: 'new.customer@example.com', inviteCode: 'INVITE-NEW-0001', captchaCode: 'WRONG' },
    }),
  },
  registrationCollectDetails: { rule: 'anyone', sample: fixed({ body: { name: 'Sweep Name' } }) },
  getRegistrationQrCode: anyone,
  getRegistrationSetupKey: anyone,
  registrationEnrolEmail: anyone,
  registrationEnrolSms: { rule: 'anyone', sample: fixed({ body: '+61 400 000 099' }) },
  registrationEnrolSecurityQuestions: { rule: 'anyone', sample: fixed({ body: QUESTIONS }) },
  registrationSubmitNew: {
    rule: 'anyone',
    sample: fixed({ body: { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD } }),
  },
  registrationSubmitExisting: {
    rule: 'anyone',
    sample: fixed({ body: { username: 'C10001', password: WRONG_PASSWORD } }),
  },
  registrationSendSms: anyone,
  registrationVerifyMobile: { rule: 'anyone', sample: fixed({ body: WRONG_CODE }) },
  registrationVerifyAuthenticatorApp: { rule: 'anyone', sample: fixed({ body: WRONG_CODE }) },

  // Profile (authenticated users; current password wrong, so nothing is changed by an allowed call)
  updateProfile: {
    rule: 'signed-in',
    sample: fixed({ body: { currentPassword: WRONG_PASSWORD, phone: '+61 2 9000 0099' } }),
  },
  changePassword: {
    rule: 'signed-in',
    sample: fixed({
      body: { currentPassword: WRONG_PASSWORD, newPassword: NEW_PASSWORD, confirmNewPassword: NEW_PASSWORD },
    }),
  },
  changeSecurityQuestions: {
    rule: 'signed-in',
    sample: fixed({ body: { currentPassword: WRONG_PASSWORD, ...QUESTIONS } }),
  },
  removeMobile: { rule: 'signed-in', sample: fixed({ body: { currentPassword: WRONG_PASSWORD } }) },
  unenrolSms: { rule: 'signed-in', sample: fixed({ body: { currentPassword: WRONG_PASSWORD } }) },
  unenrolAuthenticatorApp: {
    rule: 'signed-in',
    sample: fixed({ body: { currentPassword: WRONG_PASSWORD } }),
  },
  changeEmailStart: {
    rule: 'signed-in',
    sample: fixed({ body: { currentPassword: WRONG_PASSWORD, email: 'sweep.new@example.com' } }),
  },
  changeEmailCancel: signedIn,
  changeEmailSendEmail: signedIn,
  changeEmailVerifyEmail: { rule: 'signed-in', sample: fixed({ body: WRONG_CODE }) },
  changeMobileStart: {
    rule: 'signed-in',
    sample: fixed({ body: { currentPassword: WRONG_PASSWORD, mobile: '+61 400 000 099' } }),
  },
  changeMobileCancel: signedIn,
  changeMobileSendSms: signedIn,
  changeMobileVerifyMobile: { rule: 'signed-in', sample: fixed({ body: WRONG_CODE }) },
  changeAuthenticatorApp: {
    rule: 'signed-in',
    sample: fixed({ body: { ...WRONG_CODE, currentPassword: WRONG_PASSWORD } }),
  },
  getAuthenticatorAppQrCode: signedIn,
  getAuthenticatorAppSetupKey: signedIn,
  getEnrolledFactors: signedIn,
  getIdentityVerified: signedIn,
  getSalaryNumber: { rule: 'staff' },
  getActiveTrustedDevices: signedIn,
  clearTrustedDevices: signedIn,
  deleteTrustedDevice: { rule: 'signed-in', sample: fixed({ params: { id: NO_SUCH_ID } }) },

  // Admin and access requests (section 2.7)
  requestAccess: { rule: 'signed-in', sample: fixed({ body: { appCode: 'TREASURY' } }) },
  getAdminRoles: admin,
  getAccessRequests: { rule: 'access-request-viewer', sample: fixed({ query: { page: '0', query: 'AR' } }) },
  getAccessRequestId: {
    rule: 'access-request-viewer',
    sample: (f) => ({ params: { appCode: f.accessRequest.appCode, code: f.accessRequest.code } }),
  },
  getAccessRequestHistory: {
    rule: 'access-request-viewer',
    sample: (f) => ({ params: { id: f.accessRequest.id }, query: { page: '0' } }),
  },
  getAccessRequest: {
    rule: 'access-request-viewer',
    sample: (f) => ({ params: { id: f.accessRequest.id } }),
  },
  getAccessRequestApiCalls: {
    rule: 'access-request-viewer',
    sample: (f) => ({ params: { id: f.accessRequest.id } }),
  },
  getAdminApps: admin,
  listInvitations: { rule: 'admin', sample: fixed({ query: { page: '0' } }) },
  // An unknown app: the admin's answer is a 4xx and no invitation is sent.
  createInvitation: {
    rule: 'admin',
    sample: fixed({ body: { email: 'sweep.invitee@example.com', appCode: 'NOPE', isStaff: false } }),
  },
  revokeInvitation: { rule: 'admin', sample: fixed({ params: { id: NO_SUCH_ID } }) },
  unlockIdentity: { rule: 'admin', sample: fixed({ params: { identityId: NO_SUCH_ID } }) },
  setSmsGatewayStatus: { rule: 'admin', sample: fixed({ body: { isSmsGatewayAvailable: true } }) },

  // Admin identity screens (section 2.7's identity search and identity page)
  searchIdentities: { rule: 'admin', sample: fixed({ query: { page: '0', query: 'C1000' } }) },
  getIdentity: { rule: 'admin', sample: (f) => ({ params: { id: f.identityId } }) },
  getIdentityHistory: {
    rule: 'admin',
    sample: (f) => ({ params: { id: f.identityId }, query: { page: '0' } }),
  },
  // An unknown identity: an allowed admin gets a 404 and signs nobody out.
  signOutIdentity: {
    rule: 'admin',
    sample: fixed({ params: { id: NO_SUCH_ID }, body: { ticketCode: 'SUP-999999' } }),
  },

  // An admin's decision on a pending access request (VIEW_ACCESS_REQUESTS holders only view): an
  // unknown request, so an allowed admin gets a 404 and decides nothing.
  approveAccessRequest: {
    rule: 'admin',
    sample: fixed({ params: { id: NO_SUCH_ID }, body: { ticketCode: 'SUP-999999' } }),
  },
  rejectAccessRequest: {
    rule: 'admin',
    sample: fixed({ params: { id: NO_SUCH_ID }, body: { ticketCode: 'SUP-999999', reason: 'Route sweep.' } }),
  },
};

interface Refusal {
  status: 401 | 403;
  body: { message: string; url?: string };
}

const SESSION_EXPIRED: Refusal = { status: 401, body: { message: SESSION_EXPIRED_MESSAGE, url: '/' } };
const PERMISSION_DENIED: Refusal = { status: 403, body: { message: PERMISSION_DENIED_MESSAGE } };

/** The refusal (section 8) a caller standing where `standing` says gets under `rule`; null: allowed. */
function refusalFor(rule: Rule, standing: Standing): Refusal | null {
  if (rule === 'anyone') return null;
  if (standing.type === 'NONE' || standing.type === 'ANONYMOUS') return SESSION_EXPIRED;
  if (typeof rule === 'object' && 'signedInOrStep' in rule) {
    if (standing.type === 'AUTHENTICATED') return null;
    return standing.step === rule.signedInOrStep ? null : PERMISSION_DENIED;
  }
  if (typeof rule === 'object') {
    return standing.type === 'AUTHENTICATION_PENDING' && standing.step === rule.step
      ? null
      : PERMISSION_DENIED;
  }
  if (standing.type === 'AUTHENTICATION_PENDING') return PERMISSION_DENIED;
  switch (rule) {
    case 'signed-in':
      return null;
    case 'staff':
      return standing.isStaff ? null : { status: 403, body: { message: SALARY_STAFF_ONLY_MESSAGE } };
    case 'admin':
      return standing.isAdmin ? null : PERMISSION_DENIED;
    case 'access-request-viewer':
      return standing.isAdmin || standing.roles.includes('VIEW_ACCESS_REQUESTS') ? null : PERMISSION_DENIED;
  }
}

// ---- Helpers -----------------------------------------------------------------------------------

type AnyCall = CallDef;
const catalogue = Object.values(calls) as AnyCall[];

function rowOf(call: AnyCall): Row {
  const row = ACCESS_MATRIX[call.id];
  if (!row) throw new Error(`${call.id} has no row in ACCESS_MATRIX`);
  return row;
}

function send(
  client: TestClient,
  call: AnyCall,
  sample: Sample,
  options: { requestedWith?: boolean } = {},
): Promise<TestResponse> {
  const query = new URLSearchParams(sample.query ?? {}).toString();
  const url = `${API}${buildPath(call.path, sample.params)}${query ? `?${query}` : ''}`;
  return client.request(call.method, url, {
    ...(call.body !== undefined ? { json: sample.body } : {}),
    ...options,
  });
}

/**
 * Columns a request may write without it being a change the caller made: a session's sliding
 * expiry (touched on use) and the per-client request counts of the rate limits.
 */
const UNTRACKED: Record<string, readonly string[] | 'all'> = {
  sessions: ['last_seen_at', 'expires_at'],
  rate_limits: 'all',
};

/** Every row of every table as sorted JSON lines, less what UNTRACKED leaves out. */
async function fingerprint(server: TestServer): Promise<Record<string, string[]>> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
      and table_name not like 'kysely_%'
    order by table_name`.execute(server.db);
  const out: Record<string, string[]> = {};
  for (const { table_name: table } of tables.rows) {
    const untracked = UNTRACKED[table] ?? [];
    if (untracked === 'all') continue;
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(server.db);
    out[table] = rows.rows
      .map((row) => JSON.stringify(Object.entries(row).filter(([column]) => !untracked.includes(column))))
      .sort();
  }
  return out;
}

function changedTables(before: Record<string, string[]>, after: Record<string, string[]>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => JSON.stringify(before[n]) !== JSON.stringify(after[n]));
}

const label = (call: AnyCall) => `${call.id} (${call.method} ${call.path})`;

// ---- The sweep ---------------------------------------------------------------------------------

describe('the access matrix', () => {
  it('has exactly one row per call of the catalogue', () => {
    const ids = catalogue.map((c) => c.id);
    expect(
      ids.filter((id) => !(id in ACCESS_MATRIX)),
      'calls without a row',
    ).toEqual([]);
    expect(
      Object.keys(ACCESS_MATRIX).filter((id) => !ids.includes(id)),
      'rows without a call',
    ).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sends, for every call, a request its own schemas accept', () => {
    const fixtures: Fixtures = {
      realmCode: 'REALM',
      identityId: NO_SUCH_ID,
      accessRequest: { id: NO_SUCH_ID, code: 'AR-1', appCode: 'LOANS' },
    };
    const problems: string[] = [];
    for (const call of catalogue) {
      const sample = rowOf(call).sample?.(fixtures) ?? {};
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = call[part];
        const value = sample[part] ?? (part === 'body' ? undefined : {});
        if (!schema) {
          if (sample[part] !== undefined) problems.push(`${call.id}: ${part} given but the call has none`);
          continue;
        }
        const parsed = v.safeParse(schema, value);
        if (!parsed.success) {
          problems.push(`${call.id} ${part}: ${parsed.issues.map((i) => i.message).join('; ')}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('has a caller for every forced step', () => {
    const steps = CALLER_PROFILES.flatMap((p) =>
      p.standing.type === 'AUTHENTICATION_PENDING' ? [p.standing.step] : [],
    );
    expect([...steps].sort()).toEqual([...FORCED_ACTIONS].sort());
  });
});

describe.each(targets)('route sweep on $name', (target) => {
  let server: TestServer;
  let fixtures: Fixtures;
  const callers = new Map<CallerProfile['kind'], Caller>();

  beforeAll(async () => {
    server = await startServer(target);
    await addSweepIdentities(server.db);
    const realm = await server.db
      .selectFrom('realms')
      .select('code')
      .where('is_default', '=', true)
      .executeTakeFirstOrThrow();
    const request = await server.db
      .selectFrom('access_requests')
      .innerJoin('apps', 'apps.code', 'access_requests.app_code')
      .select(['access_requests.id', 'access_requests.code', 'apps.code as appCode'])
      .orderBy('access_requests.code')
      .executeTakeFirstOrThrow();
    const customer = await server.db
      .selectFrom('identities')
      .select('id')
      .where('username', '=', 'C10001')
      .executeTakeFirstOrThrow();
    fixtures = { realmCode: realm.code, identityId: customer.id, accessRequest: request };
    for (const profile of CALLER_PROFILES) callers.set(profile.kind, new Caller(server, profile));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves every call of the catalogue, and no /rest/ui/ route outside it', () => {
    for (const call of catalogue) {
      expect(server.app.hasRoute({ method: call.method, url: routeUrlOf(call.path) }), label(call)).toBe(
        true,
      );
    }
    const listed = new Set(catalogue.map((c) => `${c.method} ${anyParam(routeUrlOf(c.path))}`));
    const served = servedApiRoutes(server).filter((r) => !listed.has(r));
    expect(served, 'routes under /rest/ui/ that the catalogue does not name').toEqual([]);
  });

  for (const profile of CALLER_PROFILES) {
    it(`as ${profile.kind} (${profile.note}): refused or allowed as the matrix says`, async () => {
      const caller = callers.get(profile.kind)!;
      const problems: string[] = [];
      const refused = catalogue.filter((c) => refusalFor(rowOf(c).rule, profile.standing) !== null);
      const allowed = catalogue.filter((c) => refusalFor(rowOf(c).rule, profile.standing) === null);

      // Refusals first, on one session, with the whole database compared around them.
      const held = await caller.client();
      const before = await fingerprint(server);
      for (const call of refused) {
        const refusal = refusalFor(rowOf(call).rule, profile.standing)!;
        const client = profile.standing.type === 'NONE' ? server.client() : held;
        const res = await send(client, call, rowOf(call).sample?.(fixtures) ?? {});
        const where = `${label(call)} as ${profile.kind}`;
        if (res.status !== refusal.status) {
          problems.push(`${where}: expected ${refusal.status}, got ${res.status} ${res.text.slice(0, 200)}`);
          continue;
        }
        if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) {
          problems.push(`${where}: refusal is not JSON`);
        } else if (JSON.stringify(res.body) !== JSON.stringify(refusal.body)) {
          problems.push(`${where}: refusal body ${res.text}`);
        }
        if (res.setCookies.length > 0)
          problems.push(`${where}: refusal set cookies ${res.setCookies.join()}`);
      }
      const after = await fingerprint(server);
      expect(changedTables(before, after), `tables changed by refused calls as ${profile.kind}`).toEqual([]);
      if (profile.standing.type !== 'NONE') {
        expect(await caller.stands(held), `session of ${profile.kind} after refusals`).toBe(true);
      }

      // Allowed calls, each on a session that stands where the profile says.
      for (const call of allowed) {
        const client = await caller.client();
        const res = await send(client, call, rowOf(call).sample?.(fixtures) ?? {});
        const where = `${label(call)} as ${profile.kind}`;
        if (res.status === 401 || res.status === 403 || res.status >= 500) {
          problems.push(`${where}: allowed, got ${res.status} ${res.text.slice(0, 200)}`);
        } else if (res.status >= 400 && typeof (res.body as { message?: unknown })?.message !== 'string') {
          problems.push(`${where}: ${res.status} without a JSON message`);
        }
      }

      expect(problems).toEqual([]);
      expect(refused.length + allowed.length).toBe(catalogue.length);
    });
  }

  it('refuses every state-changing call without X-Requested-With, for a caller it would allow', async () => {
    const problems: string[] = [];
    const before = await fingerprint(server);
    for (const call of catalogue.filter((c) => c.method !== 'GET')) {
      const rule = rowOf(call).rule;
      const profile = CALLER_PROFILES.find((p) => refusalFor(rule, p.standing) === null)!;
      const client = await callers.get(profile.kind)!.client();
      const res = await send(client, call, rowOf(call).sample?.(fixtures) ?? {}, { requestedWith: false });
      if (
        res.status !== 403 ||
        (res.body as { message?: string })?.message !== MISSING_REQUESTED_WITH_MESSAGE
      ) {
        problems.push(`${label(call)} as ${profile.kind} without ${REQUESTED_WITH_HEADER}: ${res.status}`);
      }
    }
    expect(problems).toEqual([]);
    expect(changedTables(before, await fingerprint(server))).toEqual([]);
  });

  it('answers the endpoints outside /rest/ui/ alike for every caller (their own rules, not the session)', async () => {
    const subject = fixtures.identityId;
    const problems: string[] = [];
    for (const profile of CALLER_PROFILES) {
      const client = await callers.get(profile.kind)!.client();
      for (const endpoint of ENDPOINTS) {
        const res = await client.get(endpoint.path.replace(':sub', subject), {
          requestedWith: false,
          headers: { accept: endpoint.accept ?? '*/*' },
        });
        if (res.status !== endpoint.status(server)) {
          problems.push(`${endpoint.path} as ${profile.kind}: ${res.status} ${res.text.slice(0, 120)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

/**
 * Endpoints outside /rest/ui/ and what each caller gets: the public ones (health, keys, metadata,
 * captcha) are open to all; the dev outbox exists outside production only, for anyone (see the
 * production sweep below); a JWT's valid-after time needs the app's Bearer token, and no session
 * stands in for it, an admin's included.
 */
const ENDPOINTS: ReadonlyArray<{
  path: string;
  accept?: string;
  status: (server: TestServer) => number;
}> = [
  { path: '/health', status: () => 200 },
  { path: '/.well-known/jwks.json', status: () => 200 },
  { path: '/saml/metadata', status: () => 200 },
  { path: '/captcha.jpg?1', status: () => 200 },
  { path: '/dev/outbox', accept: 'application/json', status: (s) => (s.config.isProduction ? 404 : 200) },
  { path: '/jwt/valid-after/:sub', status: () => 401 },
];

describe.each(targets)('production on $name', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target, {
      env: { NODE_ENV: 'production', SEED_DEMO: 'true', LOG_LEVEL: 'silent' },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('has no dev outbox, whoever asks (an admin included)', async () => {
    for (const kind of ['anonymous', 'customer', 'admin'] as const) {
      const caller = new Caller(
        server,
        CALLER_PROFILES.find((p) => p.kind === kind)!,
      );
      const client = await caller.client();
      for (const accept of ['application/json', 'text/html']) {
        const res = await client.get('/dev/outbox', { headers: { accept }, requestedWith: false });
        expect(res.status, `${kind} ${accept}`).toBe(404);
        expect(res.body, `${kind} ${accept}`).toEqual({ message: NOT_FOUND_MESSAGE });
      }
    }
  });
});

/** A route path with its parameter names dropped (the router merges names at one position). */
const anyParam = (url: string) => url.replace(/:[^/]+/g, ':');

/** `METHOD /rest/ui/...` of every route the server serves under the API base (HEAD left out). */
function servedApiRoutes(server: TestServer): string[] {
  const out: string[] = [];
  const tree = server.app.printRoutes({ commonPrefix: false });
  // Each line: indentation of tree characters, then a path segment and its methods in parentheses.
  const stack: Array<{ depth: number; path: string }> = [];
  for (const line of tree.split('\n')) {
    const match = /^([\s│├└─]*)(\S.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length;
    while (stack.length > 0 && stack.at(-1)!.depth >= depth) stack.pop();
    const path = (stack.at(-1)?.path ?? '') + match[2]!;
    stack.push({ depth, path });
    if (!match[3] || !path.startsWith(API)) continue;
    for (const method of match[3].split(',').map((m) => m.trim())) {
      if (method !== 'HEAD') out.push(`${method} ${anyParam(path)}`);
    }
  }
  return out.sort();
}
