// Generated admin identity paths executed against the mounted /admin pages: the identity search
// (the address's query is the search; pages; retry), the identity page (details, factors, sessions,
// trusted devices, the 'Sign out of all devices' modal with its Jira ticket: refused at its field,
// failed, cancelled, done with the notice and the page reloaded; the unlock: failed, done with the
// notice of what the server found, the page reloaded; the page's actions disabled while one runs or
// the page loads; on the admin's own account, the own-account wording, no Unlock, and sign-in once
// signed out) and the roles lists (READ_ONLY and
// VIEW_ACCESS_REQUESTS disabled). The scripted fake API answers as each step says.
import { screen, waitFor, within } from '@testing-library/react';
import type { EventObject } from 'xstate';
import { describe, expect, it } from 'vitest';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import { identityMachine } from '../../machines/admin/identity/identity.machine';
import { identityRolesMachine } from '../../machines/admin/identity-roles/identity-roles.machine';
import { identitySearchMachine } from '../../machines/admin/identity-search/identity-search.machine';
import { identityPagePath, identitySearchPath } from '../../src/client/flows/admin/identities.routes';
import { identityTexts } from '../../src/client/flows/admin/identities.texts';
import { signOutAllTexts } from '../../src/client/pages/profile.texts';
import AdminPage, { ADMIN_IDENTITIES_ROUTE, ADMIN_ROLES_ROUTE } from '../../src/client/pages/AdminPage';
import type { CurrentUser } from '../../src/contract/entities';
import { SIGN_IN_ROUTE } from '../../machines/routes';
import {
  answer,
  expectFailed,
  expectLoading,
  expectPager,
  mount,
  readOnlyAdmin,
  runPaths,
  type Mounted,
} from './access-requests.paths';
import {
  ADMIN_ROLES,
  IDENTITY,
  IDENTITY_EVENT_TYPES,
  IDENTITY_ID,
  IDENTITY_ROLES_EVENT_TYPES,
  IDENTITY_SEARCH_EVENT_TYPES,
  identityOwnAccountPaths,
  identityPaths,
  identityRolesPaths,
  identitySearchPaths,
  TICKET,
  type IdentityRolesSnapshot,
  type IdentitySearchSnapshot,
  type IdentitySnapshot,
} from './admin-identities.model';
import type { MachineCoverage } from './harness/coverage';
import { enter } from './harness/user';

const ts = identityTexts.search;
const ti = identityTexts.identity;
const tr = identityTexts.roles;
const SOURCES = [
  'searchIdentities',
  'loadIdentity',
  'signOutIdentity',
  'unlockIdentity',
  'loadHistoryPage',
  'loadRoles',
] as const;

/** The admin signed in whose own account IDENTITY is. */
const identityItself: CurrentUser = {
  ...readOnlyAdmin,
  id: IDENTITY_ID,
  username: IDENTITY.username,
  name: IDENTITY.name,
};

const mountAdmin = (
  machine: typeof identitySearchMachine | typeof identityMachine | typeof identityRolesMachine,
  coverage: MachineCoverage,
  entry: string,
  user: CurrentUser = readOnlyAdmin,
) =>
  mount({
    machine,
    // The identity page's history runs the history machine: scripted too (left waiting here).
    machines: [identitySearchMachine, identityMachine, identityRolesMachine, historyMachine],
    sources: SOURCES,
    route: '/admin/*',
    entry,
    page: <AdminPage />,
    user,
    inspect: coverage.inspect,
  });

export function defineIdentitySearchPaths(coverage: MachineCoverage): void {
  const paths = identitySearchPaths();
  const checks = (m: Mounted) => ({
    loading: async (s: IdentitySearchSnapshot) => {
      await expectLoading(
        m,
        'searchIdentities',
        { query: s.context.query, page: s.context.page },
        s.context.result !== null,
      );
      // The address carries the search.
      expect(m.router.state.location.search).toBe(
        s.context.query === '' ? '' : `?${new URLSearchParams({ query: s.context.query })}`,
      );
    },
    ready: async (s: IdentitySearchSnapshot) => {
      const result = s.context.result!;
      await expectPager(result.page);
      const rows = screen.queryAllByTestId('identity-row');
      expect(rows).toHaveLength(result.data.length);
      result.data.forEach((identity, i) => {
        const link = within(rows[i]!).getByRole('link', { name: identity.username });
        expect(link).toHaveAttribute('href', identityPagePath(identity.id));
        expect(rows[i]).toHaveTextContent(identity.name);
        if (identity.email) expect(rows[i]).toHaveTextContent(identity.email);
        if (identity.isRetired) expect(rows[i]).toHaveTextContent(ts.retired);
      });
      if (result.data.length === 0) expect(screen.getByText(ts.empty)).toBeInTheDocument();
      expect(screen.getByRole('searchbox', { name: ts.label })).toHaveValue(s.context.query);
    },
    failed: (s: IdentitySearchSnapshot) => expectFailed(s.context.errorMessage, ts.loadFailed),
  });

  describe(`admin/identity-search: ${paths.length} generated paths against /admin/identities`, () => {
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(
        Object.keys(identitySearchMachine.root.states).sort(),
      );
    });
    runPaths<IdentitySearchSnapshot>(paths, {
      eventTypes: IDENTITY_SEARCH_EVENT_TYPES,
      mount: () => mountAdmin(identitySearchMachine, coverage, ADMIN_IDENTITIES_ROUTE),
      checks,
      perform: async (m, event) => {
        const e = event as { type: string; query?: string; page?: number };
        switch (e.type) {
          case 'user.search': {
            const box = screen.getByRole('searchbox', { name: ts.label });
            await enter(m.user, box, e.query ?? '');
            await m.user.click(screen.getByRole('button', { name: ts.submit }));
            await waitFor(() =>
              expect(m.router.state.location.pathname + m.router.state.location.search).toBe(
                identitySearchPath(e.query ?? ''),
              ),
            );
            return;
          }
          case 'user.page':
            await m.user.click(screen.getByRole('button', { name: String((e.page ?? 0) + 1) }));
            return;
          case 'user.retry':
            await m.user.click(screen.getByRole('button', { name: ts.retry }));
            return;
          default:
            await answer(m, event);
        }
      },
    });
  });
}

const dialog = () => screen.getByRole('dialog', { name: signOutAllTexts.title });

export function defineIdentityPaths(coverage: MachineCoverage): void {
  const paths = identityPaths();
  const ownAccountPaths = identityOwnAccountPaths();
  const checks = (m: Mounted) => ({
    loading: async (s: IdentitySnapshot) => {
      await expectLoading(m, 'loadIdentity', { id: IDENTITY_ID }, s.context.identity !== null);
      expect(screen.queryByRole('dialog')).toBeNull();
      // The page shown again while it reloads: nothing to act on until it is there.
      if (s.context.identity !== null) {
        expect(screen.getByRole('button', { name: ti.signOutAll })).toBeDisabled();
        if (s.context.identity.lockedDate && !s.context.ownAccount)
          expect(screen.getByRole('button', { name: ti.unlock })).toBeDisabled();
      }
    },
    ready: async (s: IdentitySnapshot) => {
      const identity = s.context.identity!;
      expect(await screen.findByRole('heading', { name: ti.heading(identity.username) })).toBeInTheDocument();
      const details = screen.getByTestId('identity-details');
      expect(details).toHaveTextContent(identity.name);
      expect(details).toHaveTextContent(identity.email!);
      expect(details).toHaveTextContent('14 Mar 1985');
      expect(details).toHaveTextContent('Loans (Northside Community Clinic)');
      const factors = screen.getByTestId('identity-factors');
      expect(factors).toHaveTextContent(ti.factorNames.AUTHENTICATOR_APP!);
      expect(factors).toHaveTextContent(ti.securityQuestions);
      expect(screen.queryAllByTestId('identity-session')).toHaveLength(identity.sessions.length);
      if (identity.sessions.length > 0) {
        const [first, second] = screen.getAllByTestId('identity-session');
        expect(first).toHaveTextContent('Firefox 128');
        expect(first).toHaveTextContent('Ubuntu');
        expect(second).toHaveTextContent(ti.unknownBrowser);
        expect(second).toHaveTextContent(ti.pendingSession);
      } else {
        expect(screen.getByText(ti.noSessions)).toBeInTheDocument();
      }
      expect(screen.queryAllByTestId('identity-trusted-device')).toHaveLength(identity.trustedDevices.length);
      if (identity.trustedDevices.length > 0)
        expect(screen.getByTestId('identity-trusted-device')).toHaveTextContent('Safari 17.4');
      // The history pages through the history machine with the identity's loader.
      const history = await m.api.waiting('loadHistoryPage');
      expect(history.input).toEqual({ id: IDENTITY_ID, page: 0 });
      if (s.context.signedOutTicket)
        expect(screen.getByTestId('signed-out-notice')).toHaveTextContent(
          ti.signedOut(identity.username, s.context.signedOutTicket),
        );
      else expect(screen.queryByTestId('signed-out-notice')).toBeNull();
      // The lock, its Unlock button, the unlock's notice or failure. The admin's own account has
      // no Unlock (the server refuses it): the notice says who unlocks it.
      if (identity.lockedDate && s.context.ownAccount) {
        expect(screen.getByTestId('locked-notice')).toHaveTextContent(ti.lockedTitle);
        expect(screen.getByTestId('locked-notice')).toHaveTextContent(ti.ownAccountUnlock);
        expect(screen.queryByRole('button', { name: ti.unlock, hidden: true })).toBeNull();
      } else if (identity.lockedDate) {
        expect(screen.getByTestId('locked-notice')).toHaveTextContent(ti.lockedTitle);
        expect(screen.getByTestId('locked-notice')).not.toHaveTextContent(ti.ownAccountUnlock);
        const unlock = screen.getByRole('button', { name: ti.unlock });
        if (s.matches({ ready: 'unlocking' })) {
          await waitFor(() => expect(unlock).toHaveAttribute('data-loading', 'true'));
          const call = await m.api.waiting('unlockIdentity');
          expect(call.input).toEqual({ id: IDENTITY_ID });
        } else if (s.matches({ ready: 'viewing' })) {
          expect(unlock).toBeEnabled();
        }
      } else {
        expect(screen.queryByTestId('locked-notice')).toBeNull();
      }
      if (s.context.unlockNotice)
        expect(screen.getByTestId('unlocked-notice')).toHaveTextContent(
          s.context.unlockNotice === 'unlocked'
            ? ti.unlocked(identity.username)
            : ti.alreadyUnlocked(identity.username),
        );
      else expect(screen.queryByTestId('unlocked-notice')).toBeNull();
      if (s.context.unlockError)
        expect(screen.getByRole('alert', { name: ti.unlockFailed })).toHaveTextContent(s.context.unlockError);
      else expect(screen.queryByRole('alert', { name: ti.unlockFailed })).toBeNull();
      // 'Sign out of all devices' only while the machine takes it (behind the modal, disabled too;
      // the modal's confirm has the same name).
      const signOutAll = screen
        .getAllByRole('button', { name: ti.signOutAll, hidden: true })
        .find((button) => button.closest('[role="dialog"]') === null);
      if (s.matches({ ready: 'viewing' })) expect(signOutAll).toBeEnabled();
      else expect(signOutAll).toBeDisabled();
      if (s.matches({ ready: 'unlocking' })) return;

      if (s.matches({ ready: 'viewing' })) {
        await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
        return;
      }
      const modal = await screen.findByRole('dialog', { name: signOutAllTexts.title });
      // Section 2.2: the wording for one's own account, or for another identity.
      if (s.context.ownAccount) {
        expect(modal).toHaveTextContent(signOutAllTexts.ownIntro);
        expect(modal).toHaveTextContent(signOutAllTexts.ownApps);
      } else {
        expect(modal).toHaveTextContent(signOutAllTexts.otherIntro(IDENTITY.name));
        expect(modal).toHaveTextContent(signOutAllTexts.otherApps);
      }
      expect(
        within(modal)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['Loans', 'Payroll']);
      const ticket = within(modal).getByRole('textbox', { name: new RegExp(`^${signOutAllTexts.ticket}`) });
      expect(ticket).toBeRequired();
      if (s.matches({ ready: 'signingOut' })) {
        await waitFor(() =>
          expect(within(modal).getByRole('button', { name: signOutAllTexts.confirm })).toHaveAttribute(
            'data-loading',
            'true',
          ),
        );
        const call = await m.api.waiting('signOutIdentity');
        expect(call.input).toEqual({ id: IDENTITY_ID, ticketCode: TICKET });
        return;
      }
      // Confirming: the last refusal at the ticket field, or none.
      if (s.context.signOutRefusal) {
        await waitFor(() =>
          expect(ticket).toHaveAccessibleDescription(expect.stringContaining(s.context.signOutRefusal!)),
        );
      } else {
        expect(ticket).toHaveValue('');
      }
      await waitFor(() =>
        expect(within(modal).getByRole('button', { name: signOutAllTexts.confirm })).toBeEnabled(),
      );
    },
    failed: (s: IdentitySnapshot) => expectFailed(s.context.errorMessage, ti.loadFailed),
    // Signed out of their own account: at sign-in, the page not loaded again (its 401 would have
    // said the session expired).
    signedOutOwnAccount: async () => {
      expect(await screen.findByTestId('landed-path')).toHaveTextContent(SIGN_IN_ROUTE);
      expect(m.router.state.location.pathname).toBe(SIGN_IN_ROUTE);
      const calls = m.api.calls.map((c) => c.src);
      expect(calls.lastIndexOf('loadIdentity')).toBeLessThan(calls.lastIndexOf('signOutIdentity'));
    },
  });

  const perform = async (m: Mounted, event: EventObject) => {
    switch (event.type) {
      case 'user.retry':
        await m.user.click(screen.getByRole('button', { name: ti.retry }));
        return;
      case 'user.unlock':
        await m.user.click(screen.getByRole('button', { name: ti.unlock }));
        return;
      case 'user.openSignOut':
        await m.user.click(screen.getByRole('button', { name: ti.signOutAll }));
        return;
      case 'user.cancel':
        // The text button (the close button in the title bar has the same name).
        await m.user.click(
          within(dialog())
            .getAllByRole('button', { name: signOutAllTexts.cancel })
            .find((button) => button.textContent === signOutAllTexts.cancel)!,
        );
        return;
      case 'user.confirmSignOut': {
        const ticket = within(dialog()).getByRole('textbox', {
          name: new RegExp(`^${signOutAllTexts.ticket}`),
        });
        await enter(m.user, ticket, TICKET);
        await m.user.click(within(dialog()).getByRole('button', { name: signOutAllTexts.confirm }));
        return;
      }
      default:
        await answer(m, event);
    }
  };

  describe(`admin/identity: ${paths.length + ownAccountPaths.length} generated paths against /admin/identities/{id}`, () => {
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(
        Object.keys(identityMachine.root.states).sort(),
      );
    });
    describe("another identity's page", () => {
      runPaths<IdentitySnapshot>(paths, {
        eventTypes: IDENTITY_EVENT_TYPES,
        mount: () => mountAdmin(identityMachine, coverage, identityPagePath(IDENTITY_ID)),
        checks,
        perform,
      });
    });
    describe("the admin's own account's page", () => {
      runPaths<IdentitySnapshot>(ownAccountPaths, {
        eventTypes: IDENTITY_EVENT_TYPES,
        mount: () => mountAdmin(identityMachine, coverage, identityPagePath(IDENTITY_ID), identityItself),
        checks,
        perform,
      });
    });
  });
}

export function defineIdentityRolesPaths(coverage: MachineCoverage): void {
  const paths = identityRolesPaths();
  const checks = (m: Mounted) => ({
    loading: () => expectLoading(m, 'loadRoles', undefined, false),
    ready: async () => {
      for (const [testId, options] of [
        ['roles-sam-admin', ADMIN_ROLES.samAdmin],
        ['roles-access-request-user', ADMIN_ROLES.accessRequestUser],
      ] as const) {
        const list = await screen.findByTestId(testId);
        const rows = within(list).getAllByTestId('role-option');
        expect(rows.map((r) => r.firstChild?.textContent)).toEqual(options.map((o) => o.value));
        options.forEach((option, i) => {
          if (option.disabled) {
            expect(rows[i]).toHaveAttribute('aria-disabled', 'true');
            expect(rows[i]).toHaveTextContent(tr.disabled);
          } else {
            expect(rows[i]).not.toHaveAttribute('aria-disabled');
            expect(rows[i]).toHaveTextContent(tr.assignable);
          }
        });
      }
    },
    failed: (s: IdentityRolesSnapshot) => expectFailed(s.context.errorMessage, tr.loadFailed),
  });

  describe(`admin/identity-roles: ${paths.length} generated paths against /admin/roles`, () => {
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(
        Object.keys(identityRolesMachine.root.states).sort(),
      );
    });
    runPaths<IdentityRolesSnapshot>(paths, {
      eventTypes: IDENTITY_ROLES_EVENT_TYPES,
      mount: () => mountAdmin(identityRolesMachine, coverage, ADMIN_ROLES_ROUTE),
      checks,
      perform: async (m, event: EventObject) => {
        if (event.type === 'user.retry') await m.user.click(screen.getByRole('button', { name: tr.retry }));
        else await answer(m, event);
      },
    });
  });
}
