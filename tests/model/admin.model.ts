// The admin machines as test models: the invitation list (search, pages, revoke, a new invitation)
// and the 'Invite someone' form, with fixture payloads for every event (answers follow the
// machine's context, so the state space stays finite).
import type { AnyStateMachine, EventObject, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { reachablePageCount, type Paged } from '../../machines/access-requests/access-requests.types';
import { appsMachine } from '../../machines/admin/apps/apps.machine';
import { createInvitationMachine } from '../../machines/admin/create-invitation/create-invitation.machine';
import { invitationsMachine } from '../../machines/admin/invitations/invitations.machine';
import { smsGatewayMachine } from '../../machines/admin/sms-gateway/sms-gateway.machine';
import type { AdminApp, CreateInvitationBody, InvitationSummary } from '../../src/contract/admin';
import { INVITATION_NOT_REVOCABLE_MESSAGES } from '../../src/server/domain/admin/invitations';
import { UNEXPECTED_FAILURE } from '../machines/access-requests.fixtures';
import { done, failed } from './handoff.model';
import { coveringPaths } from './harness/paths';

export type InvitationsSnapshot = SnapshotFrom<typeof invitationsMachine>;
export type CreateInvitationSnapshot = SnapshotFrom<typeof createInvitationMachine>;
export type AppsSnapshot = SnapshotFrom<typeof appsMachine>;
export type SmsGatewaySnapshot = SnapshotFrom<typeof smsGatewayMachine>;

export const INVITATION_PAGE_SIZE = 20;
export const SEARCH_QUERY = 'robin';
const totalOf = (query: string) => (query === '' ? 25 : 1);

/** When the fixtures' revoked invitations were revoked (by admin1, or by an admin since removed). */
export const REVOKED_AT = new Date(Date.UTC(2026, 10, 22, 3, 15)).toISOString();

const statusOf = (n: number): InvitationSummary['status'] =>
  n % 3 === 0 ? 'USED' : n % 5 === 0 ? 'REVOKED' : n % 7 === 0 ? 'EXPIRED' : 'OPEN';

export function invitation(n: number, status: InvitationSummary['status'] = statusOf(n)): InvitationSummary {
  return {
    id: `30000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    email: `invitee${n}@example.com`,
    app: n % 2 ? { code: 'LOANS', name: 'Loans' } : { code: 'PAYROLL', name: 'Payroll' },
    facility: n % 2 ? { code: 'F002', name: 'Riverside Family Practice' } : null,
    name: n % 4 ? `Invitee ${n}` : null,
    customerNumber: n % 5 ? `C2${String(n).padStart(4, '0')}` : null,
    isStaff: n % 7 === 0,
    status,
    createdDate: new Date(Date.UTC(2026, 10, 20) - n * 3600_000).toISOString(),
    expiresDate: new Date(Date.UTC(2026, 11, 4) - n * 3600_000).toISOString(),
    usedDate: status === 'USED' ? new Date(Date.UTC(2026, 10, 21)).toISOString() : null,
    revokedAt: status === 'REVOKED' ? REVOKED_AT : null,
    revokedBy: status === 'REVOKED' && n % 10 !== 0 ? 'admin1' : null,
  };
}

export function invitationPage(number: number, query: string): Paged<InvitationSummary> {
  const total = totalOf(query);
  const from = number * INVITATION_PAGE_SIZE;
  const count = Math.max(0, Math.min(INVITATION_PAGE_SIZE, total - from));
  return {
    data: Array.from({ length: count }, (_, i) => invitation(from + i + 1)),
    page: { number, size: INVITATION_PAGE_SIZE, totalElements: total },
  };
}

export const ADMIN_APPS: AdminApp[] = [
  {
    code: 'LOANS',
    name: 'Loans',
    contextType: 'SAML',
    facilityHandoff: 'SELECTED_BEFORE_HANDOFF',
    accessRequestHandling: 'MANUAL',
    facilities: [
      { code: 'F001', name: 'Northside Community Clinic', alias: 'Northside' },
      { code: 'F002', name: 'Riverside Family Practice', alias: null },
    ],
  },
  {
    code: 'PAYROLL',
    name: 'Payroll',
    contextType: 'SAML',
    facilityHandoff: 'NONE',
    accessRequestHandling: 'IMMEDIATE',
    facilities: [],
  },
];

/** What the form sends for the path's invitation. */
export const INVITATION_FORM: CreateInvitationBody = {
  email: 'robin.new@example.com',
  appCode: 'LOANS',
  facilityCode: 'F002',
  isStaff: true,
  validityDays: 14,
};
export const CREATED: InvitationSummary = {
  ...invitation(99, 'OPEN'),
  email: INVITATION_FORM.email,
  app: { code: 'LOANS', name: 'Loans' },
  facility: { code: 'F002', name: 'Riverside Family Practice' },
  isStaff: true,
};
export const REFUSAL = { message: 'LOANS has no facility with the code F002.', fieldName: 'facilityCode' };

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

export const invitationsFixtures = {
  'user.search': (s) => [{ type: 'user.search', query: s.context.query === '' ? SEARCH_QUERY : '' }],
  'user.page': (s) => {
    const result = s.context.result;
    // The last page the server serves (LIST_PAGE_LIMIT at most) when showing the first, else the first.
    if (!result || reachablePageCount(result.page) < 2) return [];
    return [{ type: 'user.page', page: s.context.page === 0 ? reachablePageCount(result.page) - 1 : 0 }];
  },
  'user.revoke': (s) => {
    const open = s.context.result?.data.find((i) => i.status === 'OPEN');
    return open ? [{ type: 'user.revoke', id: open.id }] : [];
  },
  'user.retry': () => [{ type: 'user.retry' }],
  'invitation.created': () => [{ type: 'invitation.created' }],
  'xstate.done.actor.loadInvitations': (s) => [
    done('loadInvitations', invitationPage(s.context.page, s.context.query)),
  ],
  'xstate.error.actor.loadInvitations': () => [failed('loadInvitations', UNEXPECTED_FAILURE)],
  'xstate.done.actor.revokeInvitation': (s) => {
    const chosen = s.context.result?.data.find((i) => i.id === s.context.revokeId);
    return chosen
      ? [
          done('revokeInvitation', {
            ...chosen,
            status: 'REVOKED' as const,
            revokedAt: REVOKED_AT,
            revokedBy: 'admin1',
          }),
        ]
      : [];
  },
  'xstate.error.actor.revokeInvitation': () => [
    failed('revokeInvitation', INVITATION_NOT_REVOCABLE_MESSAGES.REVOKED),
  ],
} satisfies Fixtures<InvitationsSnapshot>;

export const createInvitationFixtures = {
  'user.submit': () => [{ type: 'user.submit', form: INVITATION_FORM }],
  'user.again': () => [{ type: 'user.again' }],
  'user.retry': () => [{ type: 'user.retry' }],
  'xstate.done.actor.loadApps': () => [done('loadApps', ADMIN_APPS)],
  'xstate.error.actor.loadApps': () => [failed('loadApps', UNEXPECTED_FAILURE)],
  'xstate.done.actor.createInvitation': () => [
    done('createInvitation', { type: 'created' as const, invitation: CREATED }),
    done('createInvitation', {
      type: 'refused' as const,
      message: REFUSAL.message,
      fieldErrors: [{ fieldName: REFUSAL.fieldName, message: REFUSAL.message }],
    }),
  ],
  'xstate.error.actor.createInvitation': () => [failed('createInvitation', UNEXPECTED_FAILURE)],
} satisfies Fixtures<CreateInvitationSnapshot>;

export const appsFixtures = {
  'user.retry': () => [{ type: 'user.retry' }],
  'xstate.done.actor.loadApps': () => [done('loadApps', ADMIN_APPS)],
  'xstate.error.actor.loadApps': () => [failed('loadApps', UNEXPECTED_FAILURE)],
} satisfies Fixtures<AppsSnapshot>;

export const APPS_EVENT_TYPES = Object.keys(appsFixtures);

export const smsGatewayFixtures = {
  'user.switch': (s) => [{ type: 'user.switch', available: !s.context.available }],
  'user.retry': () => [{ type: 'user.retry' }],
  'xstate.done.actor.loadStatus': () => [done('loadStatus', true)],
  'xstate.error.actor.loadStatus': () => [failed('loadStatus', UNEXPECTED_FAILURE)],
  'xstate.done.actor.saveStatus': (s) => [done('saveStatus', s.context.wanted ?? false)],
  'xstate.error.actor.saveStatus': () => [failed('saveStatus', UNEXPECTED_FAILURE)],
} satisfies Fixtures<SmsGatewaySnapshot>;

export const SMS_GATEWAY_EVENT_TYPES = Object.keys(smsGatewayFixtures);
export const INVITATIONS_EVENT_TYPES = Object.keys(invitationsFixtures);
export const CREATE_INVITATION_EVENT_TYPES = Object.keys(createInvitationFixtures);

const serializeState = (snapshot: { value: unknown; context: unknown }) =>
  JSON.stringify({ value: snapshot.value, context: snapshot.context });

function describeEvent(event: EventObject): string {
  const e = event as EventObject & { query?: string; page?: number; output?: { type?: string } };
  if (e.type === 'user.search') return `search '${e.query}'`;
  if (e.type === 'user.page') return `page ${(e.page ?? 0) + 1}`;
  if (e.type.startsWith('xstate.done.actor.')) {
    const kind = e.output && typeof e.output === 'object' && 'type' in e.output ? ` (${e.output.type})` : '';
    return `${e.type.slice('xstate.done.actor.'.length)} answers${kind}`;
  }
  return e.type.replace(/^user\./, '').replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails');
}

function pathsOf(machine: AnyStateMachine, fixtures: Fixtures<never>) {
  const events = eventsFrom(fixtures, machine.id);
  return coveringPaths(
    new TestModel(machine, {
      events: events as never,
      serializeState,
      stateMatcher: (snapshot, key) => (snapshot as { matches: (k: never) => boolean }).matches(key as never),
    }) as never,
    machine,
    { input: undefined, events, serializeState, describeEvent } as never,
  );
}

export const invitationsPaths = () => pathsOf(invitationsMachine, invitationsFixtures as never);
export const createInvitationPaths = () =>
  pathsOf(createInvitationMachine, createInvitationFixtures as never);

export const appsPaths = () => pathsOf(appsMachine, appsFixtures as never);
export const smsGatewayPaths = () => pathsOf(smsGatewayMachine, smsGatewayFixtures as never);
