// The admin identity machines as test models: the identity search (a list of 25 on two pages, a
// search with 3), the identity page (loaded, signed out once for a ticket, the ticket refused;
// unlocked once, by this admin or, the server answers, by another first; the admin's own account,
// not unlockable here and signed out to sign in) and the roles lists, with fixture payloads for
// every event (answers follow the machine's context, so the state space stays finite).
import type { AnyStateMachine, EventObject, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { reachablePageCount, type Paged } from '../../machines/access-requests/access-requests.types';
import { identityMachine } from '../../machines/admin/identity/identity.machine';
import { identityRolesMachine } from '../../machines/admin/identity-roles/identity-roles.machine';
import { identitySearchMachine } from '../../machines/admin/identity-search/identity-search.machine';
import type { AdminRoles } from '../../src/contract/admin';
import type { IdentityDetails, IdentitySummary } from '../../src/contract/admin-identities';
import { TICKET_FORMAT_MESSAGE } from '../../src/server/domain/profile/messages';
import { UNEXPECTED_FAILURE } from '../machines/access-requests.fixtures';
import { done, failed } from './handoff.model';
import { coveringPaths } from './harness/paths';

export type IdentitySearchSnapshot = SnapshotFrom<typeof identitySearchMachine>;
export type IdentitySnapshot = SnapshotFrom<typeof identityMachine>;
export type IdentityRolesSnapshot = SnapshotFrom<typeof identityRolesMachine>;

export const IDENTITY_PAGE_SIZE = 20;
export const IDENTITY_SEARCH = 'C1000';
const totalOf = (query: string) => (query === '' ? 25 : 3);

export function identity(n: number): IdentitySummary {
  return {
    id: `40000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    username: `C1${String(n).padStart(4, '0')}`,
    name: `Customer ${n}`,
    email: n % 4 ? `c1${String(n).padStart(4, '0')}@example.com` : null,
    mobile: n % 3 ? `+61 400 000 ${String(n).padStart(3, '0')}` : null,
    customerNumber: `C1${String(n).padStart(4, '0')}`,
    isStaff: n % 7 === 0,
    isAdmin: n % 11 === 0,
    isRetired: n % 13 === 0,
  };
}

export function identityPage(number: number, query: string): Paged<IdentitySummary> {
  const total = totalOf(query);
  const from = number * IDENTITY_PAGE_SIZE;
  const count = Math.max(0, Math.min(IDENTITY_PAGE_SIZE, total - from));
  return {
    data: Array.from({ length: count }, (_, i) => identity(from + i + 1)),
    page: { number, size: IDENTITY_PAGE_SIZE, totalElements: total },
  };
}

export const IDENTITY_ID = '40000000-0000-4000-8000-000000000001';
export const TICKET = 'SUP-424242';

/** C10001 as the page shows it: two sessions, a trusted device, three applications. */
export const IDENTITY: IdentityDetails = {
  id: IDENTITY_ID,
  username: 'C10001',
  name: 'Olivia Bennett',
  email: 'c10001@example.com',
  mobile: '+61 400 000 001',
  customerNumber: 'C10001',
  isStaff: false,
  isAdmin: false,
  isRetired: false,
  phone: '+61 2 9000 0001',
  birthDate: '1985-03-14',
  salaryNumber: null,
  isIdentityVerified: true,
  isPasswordExpired: false,
  isMfaRequired: false,
  lockedDate: null,
  roles: [],
  createdDate: '2026-01-05T09:00:00.000Z',
  enrolledFactors: ['AUTHENTICATOR_APP', 'EMAIL'],
  hasSecurityQuestions: true,
  accessibleApps: [
    {
      appName: 'Loans',
      appCode: 'LOANS',
      facilityCode: 'F001',
      facilityName: 'Northside Community Clinic',
      facilityAliasOrCode: 'Northside',
    },
    {
      appName: 'Loans',
      appCode: 'LOANS',
      facilityCode: 'F002',
      facilityName: 'Riverside Family Practice',
      facilityAliasOrCode: 'F002',
    },
    {
      appName: 'Payroll',
      appCode: 'PAYROLL',
      facilityCode: null,
      facilityName: null,
      facilityAliasOrCode: null,
    },
  ],
  sessions: [
    {
      browser: { family: 'Firefox', versionMajor: '128' },
      operatingSystem: { family: 'Ubuntu', version: null },
      type: 'AUTHENTICATED',
      signedInDate: '2026-11-21T08:00:00.000Z',
      lastActiveDate: '2026-11-21T09:30:00.000Z',
    },
    {
      browser: { family: null, versionMajor: null },
      operatingSystem: { family: null, version: null },
      type: 'AUTHENTICATION_PENDING',
      signedInDate: '2026-11-21T07:00:00.000Z',
      lastActiveDate: '2026-11-21T07:01:00.000Z',
    },
  ],
  trustedDevices: [
    {
      id: 'd1',
      browser: { family: 'Safari', versionMajor: '17', versionMinor: '4' },
      operatingSystem: { family: 'Mac OS', version: '14.4' },
      city: 'Sydney',
      country: 'Australia',
      continent: 'Oceania',
      lastActiveDate: '2026-11-20T22:00:00.000Z',
    },
  ],
};
/** The same identity after the sign-out: no sessions, no trusted devices. */
export const IDENTITY_SIGNED_OUT: IdentityDetails = { ...IDENTITY, sessions: [], trustedDevices: [] };
export const LOCKED_DATE = '2026-11-21T06:00:00.000Z';

/** The identity as the page loads it: locked until unlocked, without sessions once signed out. */
export const identityAnswer = (context: { signOuts: number; unlocks: number }): IdentityDetails => ({
  ...(context.signOuts === 0 ? IDENTITY : IDENTITY_SIGNED_OUT),
  lockedDate: context.unlocks > 0 ? null : LOCKED_DATE,
});

export const ADMIN_ROLES: AdminRoles = {
  samAdmin: [
    { value: 'ADMIN', disabled: false },
    { value: 'READ_ONLY', disabled: true },
    { value: 'VIEW_ACCESS_REQUESTS', disabled: true },
  ],
  accessRequestUser: [
    { value: 'ADMIN', disabled: false },
    { value: 'READ_ONLY', disabled: true },
    { value: 'VIEW_ACCESS_REQUESTS', disabled: true },
  ],
};

type Fixtures<S> = Record<string, (s: S) => EventObject[]>;

function eventsFrom<S extends { _nodes: Array<{ ownEvents: unknown }> }>(
  fixtures: Fixtures<S>,
  name: string,
) {
  return (snapshot: S): EventObject[] => {
    const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
    return [...types].flatMap((type) => {
      const make = fixtures[type];
      if (!make) throw new Error(`No fixtures for the event '${type}' of ${name}.`);
      return make(snapshot);
    });
  };
}

export const identitySearchFixtures = {
  'user.search': (s) => [{ type: 'user.search', query: s.context.query === '' ? IDENTITY_SEARCH : '' }],
  'user.page': (s) => {
    const result = s.context.result;
    // The last page the server serves (LIST_PAGE_LIMIT at most) when showing the first, else the first.
    if (!result || reachablePageCount(result.page) < 2) return [];
    return [{ type: 'user.page', page: s.context.page === 0 ? reachablePageCount(result.page) - 1 : 0 }];
  },
  'user.retry': () => [{ type: 'user.retry' }],
  'xstate.done.actor.searchIdentities': (s) => [
    done('searchIdentities', identityPage(s.context.page, s.context.query)),
  ],
  'xstate.error.actor.searchIdentities': () => [failed('searchIdentities', UNEXPECTED_FAILURE)],
} satisfies Fixtures<IdentitySearchSnapshot>;

export const identityFixtures = {
  'user.retry': () => [{ type: 'user.retry' }],
  // The sign-out and the unlock are explored apart (each from the fresh page): together they would
  // multiply the generated paths, not the states and transitions they take.
  'user.openSignOut': (s) =>
    s.context.unlocks === 0 && s.context.unlockError === null ? [{ type: 'user.openSignOut' }] : [],
  'user.cancel': () => [{ type: 'user.cancel' }],
  'user.confirmSignOut': () => [{ type: 'user.confirmSignOut', ticketCode: TICKET }],
  'user.unlock': (s) =>
    s.context.identity?.lockedDate &&
    s.context.signOuts === 0 &&
    s.context.signOutRefusal === null &&
    s.context.unlockError === null
      ? [{ type: 'user.unlock' }]
      : [],
  'xstate.done.actor.loadIdentity': (s) => [done('loadIdentity', identityAnswer(s.context))],
  'xstate.error.actor.loadIdentity': () => [failed('loadIdentity', UNEXPECTED_FAILURE)],
  // Signed out once at most (the state space stays finite); the ticket refused at its field.
  'xstate.done.actor.signOutIdentity': (s) => [
    ...(s.context.signOuts === 0 ? [done('signOutIdentity', { type: 'signedOut' as const })] : []),
    done('signOutIdentity', { type: 'refused' as const, message: TICKET_FORMAT_MESSAGE }),
  ],
  'xstate.error.actor.signOutIdentity': () => [failed('signOutIdentity', UNEXPECTED_FAILURE)],
  // Unlocked here, or found unlocked already (another admin lifted the lock first).
  'xstate.done.actor.unlockIdentity': () => [
    done('unlockIdentity', { username: 'C10001', wasLocked: true }),
    done('unlockIdentity', { username: 'C10001', wasLocked: false }),
  ],
  'xstate.error.actor.unlockIdentity': () => [failed('unlockIdentity', UNEXPECTED_FAILURE)],
} satisfies Fixtures<IdentitySnapshot>;

export const identityRolesFixtures = {
  'user.retry': () => [{ type: 'user.retry' }],
  'xstate.done.actor.loadRoles': () => [done('loadRoles', ADMIN_ROLES)],
  'xstate.error.actor.loadRoles': () => [failed('loadRoles', UNEXPECTED_FAILURE)],
} satisfies Fixtures<IdentityRolesSnapshot>;

export const IDENTITY_SEARCH_EVENT_TYPES = Object.keys(identitySearchFixtures);
export const IDENTITY_EVENT_TYPES = Object.keys(identityFixtures);
export const IDENTITY_ROLES_EVENT_TYPES = Object.keys(identityRolesFixtures);

const serializeState = (snapshot: { value: unknown; context: unknown }) =>
  JSON.stringify({ value: snapshot.value, context: snapshot.context });

function describeEvent(event: EventObject): string {
  const e = event as EventObject & {
    query?: string;
    page?: number;
    output?: { type?: string; wasLocked?: boolean };
  };
  if (e.type === 'user.search') return `search '${e.query}'`;
  if (e.type === 'user.page') return `page ${(e.page ?? 0) + 1}`;
  if (e.type.startsWith('xstate.done.actor.')) {
    const kind =
      e.output && typeof e.output === 'object' && 'type' in e.output
        ? ` (${e.output.type})`
        : e.output && typeof e.output === 'object' && 'wasLocked' in e.output
          ? e.output.wasLocked
            ? ' (unlocked)'
            : ' (already unlocked)'
          : '';
    return `${e.type.slice('xstate.done.actor.'.length)} answers${kind}`;
  }
  return e.type.replace(/^user\./, '').replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails');
}

function pathsOf(
  machine: AnyStateMachine,
  fixtures: Fixtures<never>,
  input: unknown,
  toState?: (snapshot: { matches: (key: never) => boolean }) => boolean,
) {
  const events = eventsFrom(fixtures, machine.id);
  return coveringPaths(
    new TestModel(machine, {
      events: events as never,
      serializeState,
      stateMatcher: (snapshot, key) => (snapshot as { matches: (k: never) => boolean }).matches(key as never),
    }) as never,
    machine,
    { input, events, serializeState, describeEvent, ...(toState ? { toState } : {}) } as never,
  );
}

export const identitySearchPaths = () =>
  pathsOf(identitySearchMachine, identitySearchFixtures as never, { query: '' });
export const identityPaths = () => pathsOf(identityMachine, identityFixtures as never, { id: IDENTITY_ID });
/**
 * The admin's own account (locked, as the page first loads it): Unlock is not offered, and the
 * paths that end with it signed out, where the page is not loaded again and the admin goes to sign
 * in (the rest is the page for another identity's, above).
 */
export const identityOwnAccountPaths = () =>
  pathsOf(
    identityMachine,
    { ...identityFixtures, 'user.unlock': () => [] } as never,
    { id: IDENTITY_ID, ownAccount: true },
    (snapshot) => snapshot.matches('signedOutOwnAccount' as never),
  );
export const identityRolesPaths = () =>
  pathsOf(identityRolesMachine, identityRolesFixtures as never, undefined);
