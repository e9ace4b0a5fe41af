// Generated admin paths executed against the mounted /admin/invitations page: the invitation list
// (search, pages, revoke, a new invitation on top) and the 'Invite someone' form (apps loaded,
// refusals at their fields, the sent invitation). The scripted fake API answers as each step says.
import { screen, waitFor, within } from '@testing-library/react';
import type { EventObject } from 'xstate';
import { describe, expect, it } from 'vitest';
import { appsMachine } from '../../machines/admin/apps/apps.machine';
import { createInvitationMachine } from '../../machines/admin/create-invitation/create-invitation.machine';
import { invitationsMachine } from '../../machines/admin/invitations/invitations.machine';
import { smsGatewayMachine } from '../../machines/admin/sms-gateway/sms-gateway.machine';
import { formatDateTime } from '../../src/client/app/format';
import { adminTexts } from '../../src/client/flows/admin/admin.texts';
import AdminPage, {
  ADMIN_APPS_ROUTE,
  ADMIN_INVITATIONS_ROUTE,
  ADMIN_SMS_GATEWAY_ROUTE,
} from '../../src/client/pages/AdminPage';
import { readOnlyAdmin } from './access-requests.paths';
import {
  answer,
  expectFailed,
  expectLoading,
  expectPager,
  mount,
  runPaths,
  type Mounted,
} from './access-requests.paths';
import {
  ADMIN_APPS,
  APPS_EVENT_TYPES,
  SMS_GATEWAY_EVENT_TYPES,
  smsGatewayPaths,
  type SmsGatewaySnapshot,
  appsPaths,
  type AppsSnapshot,
  CREATE_INVITATION_EVENT_TYPES,
  CREATED,
  createInvitationPaths,
  INVITATION_FORM,
  invitationPage,
  INVITATIONS_EVENT_TYPES,
  invitationsPaths,
  REFUSAL,
  type CreateInvitationSnapshot,
  type InvitationsSnapshot,
} from './admin.model';
import { done } from './handoff.model';
import type { MachineCoverage } from './harness/coverage';
import { enter } from './harness/user';

const ti = adminTexts.invitations;
const tc = adminTexts.create;
const SOURCES = [
  'loadInvitations',
  'revokeInvitation',
  'loadApps',
  'createInvitation',
  'loadStatus',
  'saveStatus',
] as const;

const mountAdmin = (
  machine:
    | typeof invitationsMachine
    | typeof createInvitationMachine
    | typeof appsMachine
    | typeof smsGatewayMachine,
  coverage: MachineCoverage,
  entry: string = ADMIN_INVITATIONS_ROUTE,
) =>
  mount({
    machine,
    machines: [invitationsMachine, createInvitationMachine, appsMachine, smsGatewayMachine],
    sources: SOURCES,
    route: '/admin/*',
    entry,
    page: <AdminPage />,
    user: readOnlyAdmin,
    inspect: coverage.inspect,
  });

const form = () => screen.getByRole('form', { name: tc.heading });

/** Fills the form with the path's invitation and sends it. */
async function submitInvitation(m: Mounted) {
  const f = form();
  const email = within(f).getByRole('textbox', { name: new RegExp(`^${tc.email}`) });
  await enter(m.user, email, INVITATION_FORM.email);
  await m.user.selectOptions(
    within(f).getByRole('combobox', { name: new RegExp(`^${tc.app}`) }),
    INVITATION_FORM.appCode,
  );
  await m.user.selectOptions(
    within(f).getByRole('combobox', { name: new RegExp(`^${tc.facility}`) }),
    INVITATION_FORM.facilityCode!,
  );
  const staff = within(f).getByRole('checkbox', { name: tc.isStaff });
  if (!(staff as HTMLInputElement).checked) await m.user.click(staff);
  await m.user.click(within(f).getByRole('button', { name: tc.submit }));
}

export function defineInvitationsPaths(coverage: MachineCoverage): void {
  const paths = invitationsPaths();
  const checks = (m: Mounted) => ({
    loading: (s: InvitationsSnapshot) =>
      expectLoading(
        m,
        'loadInvitations',
        { query: s.context.query, page: s.context.page },
        s.context.result !== null,
      ),
    ready: async (s: InvitationsSnapshot) => {
      const result = s.context.result!;
      await expectPager(result.page);
      const rows = screen.getAllByTestId('invitation-row');
      expect(rows).toHaveLength(result.data.length);
      result.data.forEach((invitation, i) => {
        expect(rows[i]).toHaveTextContent(invitation.email);
        expect(rows[i]).toHaveTextContent(ti.status[invitation.status]!);
        const revokedDetail = invitation.revokedAt
          ? ti.revokedDetail(formatDateTime(invitation.revokedAt), invitation.revokedBy)
          : null;
        if (invitation.status === 'REVOKED') expect(rows[i]).toHaveTextContent(revokedDetail!);
        else expect(revokedDetail).toBeNull();
        const revoke = within(rows[i]!).queryByRole('button', { name: ti.revokeLabel(invitation.email) });
        if (invitation.status === 'OPEN') expect(revoke).toBeEnabled();
        else expect(revoke).toBeNull();
      });
      if (s.context.revoked)
        expect(screen.getByText(ti.revoked(s.context.revoked.email))).toBeInTheDocument();
      if (s.context.revokeError) {
        expect(screen.getByRole('alert')).toHaveTextContent(s.context.revokeError);
      } else {
        expect(screen.queryByRole('alert')).toBeNull();
      }
      expect(screen.getByRole('searchbox', { name: ti.searchLabel })).toHaveValue(s.context.query);
    },
    revoking: async (s: InvitationsSnapshot) => {
      const chosen = s.context.result!.data.find((i) => i.id === s.context.revokeId)!;
      await waitFor(() =>
        expect(screen.getByRole('button', { name: ti.revokeLabel(chosen.email) })).toHaveAttribute(
          'data-loading',
          'true',
        ),
      );
      const call = await m.api.waiting('revokeInvitation');
      expect(call.input).toEqual({ id: chosen.id });
    },
    failed: async (s: InvitationsSnapshot) => {
      if (s.context.revokeError === null) return expectFailed(s.context.errorMessage, ti.loadFailed);
      // A revoke failed while an invitation was sent (the first page was loaded for it): its reason
      // stays above the list's failure.
      const failure = await screen.findByRole('alert', { name: ti.loadFailed });
      expect(failure).toHaveTextContent(s.context.errorMessage ?? '');
      expect(screen.getByRole('alert', { name: ti.revokeFailed })).toHaveTextContent(s.context.revokeError);
      expect(screen.getByRole('button', { name: ti.retry })).toBeEnabled();
    },
  });

  describe(`admin/invitations: ${paths.length} generated paths against /admin/invitations`, () => {
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(
        Object.keys(invitationsMachine.root.states).sort(),
      );
    });
    runPaths<InvitationsSnapshot>(paths, {
      eventTypes: INVITATIONS_EVENT_TYPES,
      mount: () => mountAdmin(invitationsMachine, coverage),
      // The form beside the list loads its apps first.
      before: (m) => answer(m, done('loadApps', ADMIN_APPS)),
      checks,
      perform: async (m, event) => {
        const e = event as { type: string; query?: string; page?: number; id?: string };
        switch (e.type) {
          case 'user.search': {
            const box = screen.getByRole('searchbox', { name: ti.searchLabel });
            await enter(m.user, box, e.query ?? '');
            await m.user.click(screen.getByRole('button', { name: ti.search }));
            return;
          }
          case 'user.page':
            await m.user.click(screen.getByRole('button', { name: String((e.page ?? 0) + 1) }));
            return;
          case 'user.revoke': {
            const email = invitationPage(0, '')
              .data.concat(invitationPage(1, '').data)
              .find((i) => i.id === e.id)!.email;
            await m.user.click(screen.getByRole('button', { name: ti.revokeLabel(email) }));
            return;
          }
          case 'user.retry':
            await m.user.click(screen.getByRole('button', { name: ti.retry }));
            return;
          case 'invitation.created':
            // A new invitation sent from the form beside the list.
            await submitInvitation(m);
            await answer(m, done('createInvitation', { type: 'created', invitation: CREATED }));
            await m.user.click(await screen.findByRole('button', { name: tc.again }));
            return;
          default:
            await answer(m, event);
        }
      },
    });
  });
}

export function defineCreateInvitationPaths(coverage: MachineCoverage): void {
  const paths = createInvitationPaths();
  const checks = (m: Mounted) => ({
    loadingApps: () => expectLoading(m, 'loadApps', undefined, true),
    loadFailed: (s: CreateInvitationSnapshot) => expectFailed(s.context.loadError, tc.loadFailed),
    editing: async (s: CreateInvitationSnapshot) => {
      const f = await screen.findByRole('form', { name: tc.heading });
      const apps = within(f).getByRole('combobox', { name: new RegExp(`^${tc.app}`) });
      expect(
        within(apps)
          .getAllByRole('option')
          .map((o) => o.getAttribute('value')),
      ).toEqual(['', ...ADMIN_APPS.map((a) => a.code)]);
      if (s.context.refusal) {
        expect(within(f).getByRole('alert')).toHaveTextContent(s.context.refusal.message);
        if (s.context.refusal.fieldErrors.length > 0) {
          // The field error sits at its field (the facility, shown for LOANS).
          expect(
            within(f).getByRole('combobox', { name: new RegExp(`^${tc.facility}`) }),
          ).toHaveAccessibleDescription(REFUSAL.message);
        }
      } else {
        expect(within(f).queryByRole('alert')).toBeNull();
      }
      expect(within(f).getByRole('button', { name: tc.submit })).toBeEnabled();
    },
    creating: async (s: CreateInvitationSnapshot) => {
      await waitFor(() =>
        expect(within(form()).getByRole('button', { name: tc.submit })).toHaveAttribute(
          'data-loading',
          'true',
        ),
      );
      // LOANS's handoff includes a facility: the constant option text is shown with the app.
      expect(form()).toHaveTextContent(tc.handoff.SELECTED_BEFORE_HANDOFF);
      const call = await m.api.waiting('createInvitation');
      expect(call.input).toEqual(s.context.form);
    },
    created: async (s: CreateInvitationSnapshot) => {
      // A status region, beside the list's result count (another).
      const sent = await screen.findByText(tc.sent(s.context.created!.email));
      expect(sent.closest('[role="status"]')).not.toBeNull();
      expect(screen.getByRole('button', { name: tc.again })).toBeEnabled();
    },
  });

  describe(`admin/create-invitation: ${paths.length} generated paths against the 'Invite someone' form`, () => {
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(
        Object.keys(createInvitationMachine.root.states).sort(),
      );
    });
    runPaths<CreateInvitationSnapshot>(paths, {
      eventTypes: CREATE_INVITATION_EVENT_TYPES,
      mount: () => mountAdmin(createInvitationMachine, coverage),
      checks,
      perform: async (m, event: EventObject) => {
        switch (event.type) {
          case 'user.submit':
            await submitInvitation(m);
            return;
          case 'user.again':
            await m.user.click(screen.getByRole('button', { name: tc.again }));
            return;
          case 'user.retry':
            await m.user.click(screen.getByRole('button', { name: tc.retry }));
            return;
          default:
            await answer(m, event);
        }
      },
    });
  });
}

export function defineAppsPaths(coverage: MachineCoverage): void {
  const paths = appsPaths();
  const checks = (m: Mounted) => ({
    loading: () => expectLoading(m, 'loadApps', undefined, false),
    ready: async (s: AppsSnapshot) => {
      const sections = await screen.findAllByTestId('admin-app');
      expect(sections).toHaveLength(s.context.apps.length);
      s.context.apps.forEach((app, i) => {
        const section = sections[i]!;
        expect(within(section).getByRole('heading', { level: 3 })).toHaveTextContent(
          `${app.name} (${app.code})`,
        );
        // Section 3's constant option texts, word for word.
        expect(section).toHaveTextContent(tc.handoff[app.facilityHandoff]);
        expect(section).toHaveTextContent(tc.handling[app.accessRequestHandling]);
        for (const facility of app.facilities) expect(section).toHaveTextContent(facility.name);
        if (app.facilities.length === 0) expect(section).toHaveTextContent(adminTexts.apps.noFacilities);
      });
    },
    failed: (s: AppsSnapshot) => expectFailed(s.context.errorMessage, adminTexts.apps.loadFailed),
  });

  describe(`admin/apps: ${paths.length} generated paths against /admin/apps`, () => {
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(Object.keys(appsMachine.root.states).sort());
    });
    runPaths<AppsSnapshot>(paths, {
      eventTypes: APPS_EVENT_TYPES,
      mount: () => mountAdmin(appsMachine, coverage, ADMIN_APPS_ROUTE),
      checks,
      perform: async (m, event: EventObject) => {
        if (event.type === 'user.retry')
          await m.user.click(screen.getByRole('button', { name: adminTexts.apps.retry }));
        else await answer(m, event);
      },
    });
  });
}

export function defineSmsGatewayPaths(coverage: MachineCoverage): void {
  const paths = smsGatewayPaths();
  const ts = adminTexts.smsGateway;
  const toggle = () => screen.getByRole('switch', { name: ts.switchLabel });
  const checks = (m: Mounted) => ({
    loading: () => expectLoading(m, 'loadStatus', undefined, false),
    ready: async (s: SmsGatewaySnapshot) => {
      await waitFor(() => expect(toggle()).toBeEnabled());
      if (s.context.available) expect(toggle()).toBeChecked();
      else expect(toggle()).not.toBeChecked();
      expect(screen.getByTestId('sms-gateway-state')).toHaveTextContent(s.context.available ? ts.on : ts.off);
      if (s.context.saved !== null)
        expect(screen.getByRole('status')).toHaveTextContent(ts.saved(s.context.saved));
      else expect(screen.queryByRole('status')).toBeNull();
      if (s.context.saveError) expect(screen.getByRole('alert')).toHaveTextContent(s.context.saveError);
      else expect(screen.queryByRole('alert')).toBeNull();
    },
    saving: async (s: SmsGatewaySnapshot) => {
      await waitFor(() => expect(toggle()).toBeDisabled());
      const call = await m.api.waiting('saveStatus');
      expect(call.input).toEqual({ available: s.context.wanted });
    },
    failed: (s: SmsGatewaySnapshot) => expectFailed(s.context.errorMessage, ts.loadFailed),
  });

  describe(`admin/sms-gateway: ${paths.length} generated paths against /admin/sms-gateway`, () => {
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(
        Object.keys(smsGatewayMachine.root.states).sort(),
      );
    });
    runPaths<SmsGatewaySnapshot>(paths, {
      eventTypes: SMS_GATEWAY_EVENT_TYPES,
      mount: () => mountAdmin(smsGatewayMachine, coverage, ADMIN_SMS_GATEWAY_ROUTE),
      checks,
      perform: async (m, event: EventObject) => {
        if (event.type === 'user.switch') await m.user.click(toggle());
        else if (event.type === 'user.retry')
          await m.user.click(screen.getByRole('button', { name: ts.retry }));
        else await answer(m, event);
      },
    });
  });
}
