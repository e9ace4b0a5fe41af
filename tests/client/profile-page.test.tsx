// /profile beyond the personal details: the MFA table's actions per factor, the trusted-device
// table (delete one, clear all, with the section 8 toasts and the period text of section 4.7), an
// SMS 503 handed over by a wizard, and 'Sign out of all devices' (the applications listed, no
// ticket field for one's own account, then sign-in, having forgotten locally all that the header's
// Sign out forgets: section 4.1; its modal closes by its close button, Escape or a click outside,
// but not while the sign-out runs).
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { profileFormMachine } from '../../machines/profile/profile-form/profile-form.machine';
import { PROFILE_ROUTE, PROFILE_ROUTES } from '../../machines/routes';
import { ANONYMOUS_USER } from '../../src/contract/entities';
import type { TrustedDevice } from '../../src/contract/profile';
import { MERGE_WIZARD_STORAGE_KEY } from '../../src/client/app/session/session-store';
import { onNotice, type Notice } from '../../src/client/app/notices';
import { ProfileCallsContext, type ProfileCalls } from '../../src/client/flows/profile/profile-calls-context';
import { profileToasts } from '../../src/client/flows/profile/profile.texts';
import { SignOutAllDevicesModal } from '../../src/client/flows/profile/SignOutAllDevicesModal';
import ProfilePage from '../../src/client/pages/ProfilePage';
import { profileTexts as t, signOutAllTexts } from '../../src/client/pages/profile.texts';
import { users } from '../machines/continue-sign-in.fixtures';
import { contexts } from './fixtures';
import { mountForcedPage } from '../model/harness/forced-pages';

const device = (id: string, family: string, lastActiveDate: string): TrustedDevice => ({
  id,
  browser: { family, versionMajor: '126', versionMinor: '0' },
  operatingSystem: { family: 'Windows', version: '10' },
  city: 'Sydney',
  country: 'Australia',
  continent: 'Oceania',
  lastActiveDate,
});

function fakeCalls(overrides: Partial<ProfileCalls> = {}) {
  return {
    loadFacts: vi.fn<ProfileCalls['loadFacts']>(async () => ({
      factors: ['AUTHENTICATOR_APP'],
      devices: [
        device('d1', 'Chrome', '2026-03-02T09:00:00Z'),
        device('d2', 'Firefox', '2026-03-01T09:00:00Z'),
      ],
      period: 7,
    })),
    deleteTrustedDevice: vi.fn<ProfileCalls['deleteTrustedDevice']>(async () => null),
    clearTrustedDevices: vi.fn<ProfileCalls['clearTrustedDevices']>(async () => null),
    accessibleApps: vi.fn<ProfileCalls['accessibleApps']>(async () => [
      {
        appName: 'Loans',
        appCode: 'LOANS',
        facilityCode: 'F001',
        facilityName: 'One',
        facilityAliasOrCode: 'F001',
      },
      {
        appName: 'Loans',
        appCode: 'LOANS',
        facilityCode: 'F002',
        facilityName: 'Two',
        facilityAliasOrCode: 'F002',
      },
      {
        appName: 'Payroll',
        appCode: 'PAYROLL',
        facilityCode: null,
        facilityName: null,
        facilityAliasOrCode: null,
      },
    ]),
    signOutOfAllDevices: vi.fn<ProfileCalls['signOutOfAllDevices']>(async () => null),
    ...overrides,
  };
}

const notices: Notice[] = [];
const stop = onNotice((n) => notices.push(n));
afterEach(() => {
  notices.length = 0;
});
afterAll(stop);

function mount(calls = fakeCalls(), entryState?: unknown) {
  const m = mountForcedPage({
    machine: profileFormMachine,
    sources: [],
    route: PROFILE_ROUTE,
    entry: PROFILE_ROUTE,
    entryState,
    page: (
      <ProfileCallsContext.Provider value={calls}>
        <ProfilePage />
      </ProfileCallsContext.Provider>
    ),
    user: users.customer,
  });
  return { ...m, calls };
}

describe('/profile', () => {
  it('links each detail to its screen', async () => {
    mount();
    await screen.findByRole('heading', { level: 1, name: t.heading });
    const details = screen.getByRole('region', { name: t.personalDetails });
    expect(within(details).getByRole('link', { name: t.edit(t.name) })).toHaveAttribute(
      'href',
      PROFILE_ROUTES.CHANGE_NAME,
    );
    expect(within(details).getByRole('link', { name: t.edit(t.email) })).toHaveAttribute(
      'href',
      PROFILE_ROUTES.CHANGE_EMAIL,
    );
    expect(within(details).getByRole('link', { name: t.removeMobile })).toHaveAttribute(
      'href',
      PROFILE_ROUTES.REMOVE_MOBILE,
    );
    expect(within(details).getByRole('link', { name: t.edit(t.password) })).toHaveAttribute(
      'href',
      PROFILE_ROUTES.CHANGE_PASSWORD,
    );
  });

  it('offers change and disable for an enrolled app, enable for SMS', async () => {
    mount();
    const table = await screen.findByRole('table', { name: t.mfa });
    const row = (name: string) => within(table).getByRole('cell', { name }).closest('tr') as HTMLElement;
    expect(within(row('Authenticator app')).getByText(t.enabled)).toBeInTheDocument();
    expect(within(row('Authenticator app')).getByRole('link', { name: /^Change/ })).toHaveAttribute(
      'href',
      PROFILE_ROUTES.CHANGE_AUTHENTICATOR_APP,
    );
    expect(within(row('Authenticator app')).getByRole('link', { name: /^Disable/ })).toHaveAttribute(
      'href',
      PROFILE_ROUTES.UNENROL_AUTHENTICATOR_APP,
    );
    expect(within(row('SMS')).getByText(t.notEnabled)).toBeInTheDocument();
    expect(within(row('SMS')).getByRole('link', { name: /^Enable/ })).toHaveAttribute(
      'href',
      PROFILE_ROUTES.ENROL_SMS,
    );
  });

  it('lists trusted devices with the 7-day period, deletes one and clears all with the toasts', async () => {
    const m = mount();
    expect(await screen.findByText(t.trustedIntro('7 days'))).toBeInTheDocument();
    const table = screen.getByRole('table', { name: t.trustedDevices });
    expect(within(table).getByText('Chrome 126.0')).toBeInTheDocument();
    expect(within(table).getAllByText('Sydney, Australia, Oceania')).toHaveLength(2);
    await m.user.click(
      within(table).getByRole('button', { name: t.deleteDeviceLabel('Chrome 126.0, Windows 10') }),
    );
    await waitFor(() =>
      expect(m.calls.deleteTrustedDevice).toHaveBeenCalledWith('d1', expect.any(AbortSignal)),
    );
    await waitFor(() =>
      expect(notices).toContainEqual({ message: profileToasts.deletedTrustedDevice, tone: 'success' }),
    );
    await waitFor(() => expect(m.calls.loadFacts).toHaveBeenCalledTimes(2));
    await m.user.click(await screen.findByRole('button', { name: t.clearAll }));
    await waitFor(() =>
      expect(notices).toContainEqual({ message: profileToasts.clearedTrustedDevices, tone: 'success' }),
    );
  });

  it('says 24 hours for the server value 1', async () => {
    mount(fakeCalls({ loadFacts: async () => ({ factors: [], devices: [], period: 1 }) }));
    expect(await screen.findByText(t.trustedIntro('24 hours'))).toBeInTheDocument();
    expect(screen.getByText(t.noTrustedDevices)).toBeInTheDocument();
  });

  it('shows the SMS-unavailable message a wizard handed over', async () => {
    mount(fakeCalls(), { smsUnavailableMessage: 'SMS verification codes are currently unavailable.' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'SMS verification codes are currently unavailable.',
    );
  });

  it('signs out of all devices: lists the applications, no ticket field, then sign-in', async () => {
    const m = mount();
    await m.user.click(await screen.findByRole('button', { name: t.signOutAll }));
    const dialog = await screen.findByRole('dialog', { name: signOutAllTexts.title });
    expect(within(dialog).getByText(signOutAllTexts.ownIntro)).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['Loans', 'Payroll']),
    );
    expect(within(dialog).queryByLabelText(signOutAllTexts.ticket)).toBeNull();
    await m.user.click(within(dialog).getByRole('button', { name: signOutAllTexts.confirm }));
    await waitFor(() => expect(m.calls.signOutOfAllDevices).toHaveBeenCalledWith(null));
    expect(await screen.findByTestId('landed-path')).toHaveTextContent('/');
    expect(m.store.getState().currentUser?.isAuthenticated).toBe(false);
  });

  it("signs out here as the header's Sign out does: the user, the target paths, the context, the single sign-on app and the merge data go", async () => {
    const calls = fakeCalls();
    const m = mountForcedPage({
      machine: profileFormMachine,
      sources: [],
      route: PROFILE_ROUTE,
      entry: PROFILE_ROUTE,
      page: (
        <ProfileCallsContext.Provider value={calls}>
          <ProfilePage />
        </ProfileCallsContext.Provider>
      ),
      user: users.customer,
      context: contexts.loans,
      targetPath: PROFILE_ROUTES.CHANGE_NAME,
      adminTargetPath: '/admin/apps',
    });
    await m.store.ready();
    m.store.rememberSingleSignOnApp('Loans');
    window.sessionStorage.setItem(MERGE_WIZARD_STORAGE_KEY, JSON.stringify({ newEmail: 'a@b.co' }));
    expect(m.store.getState()).toMatchObject({
      context: contexts.loans,
      targetPath: PROFILE_ROUTES.CHANGE_NAME,
      adminTargetPath: '/admin/apps',
      singleSignOnAppName: 'Loans',
    });

    await m.user.click(await screen.findByRole('button', { name: t.signOutAll }));
    const dialog = await screen.findByRole('dialog', { name: signOutAllTexts.title });
    await m.user.click(within(dialog).getByRole('button', { name: signOutAllTexts.confirm }));
    await waitFor(() => expect(calls.signOutOfAllDevices).toHaveBeenCalledWith(null));
    expect(await screen.findByTestId('landed-path')).toHaveTextContent(/^\/$/);
    expect(m.store.getState()).toEqual({
      currentUser: ANONYMOUS_USER,
      context: null,
      targetPath: null,
      adminTargetPath: null,
      singleSignOnAppName: null,
      pendingStep: null,
    });
    expect(window.sessionStorage.getItem('portal.targetPath')).toBeNull();
    expect(window.sessionStorage.getItem('portal.adminTargetPath')).toBeNull();
    expect(window.sessionStorage.getItem('portal.singleSignOnApp')).toBeNull();
    expect(window.sessionStorage.getItem(MERGE_WIZARD_STORAGE_KEY)).toBeNull();
    // The session already ended on the server with the others: no second call to end it.
    expect(m.services.logout).not.toHaveBeenCalled();
  });

  it(
    'closes the sign-out modal by its close button, Escape or a click outside',
    { timeout: 20_000 },
    async () => {
      const m = mount();
      const signOutAll = await screen.findByRole('button', { name: t.signOutAll });
      for (const close of [
        async (dialog: HTMLElement) => m.user.click(closeButtonsOf(dialog)[0]),
        async () => m.user.keyboard('{Escape}'),
        async () => m.user.click(modalOverlay()),
      ]) {
        await m.user.click(signOutAll);
        const dialog = await screen.findByRole('dialog', { name: signOutAllTexts.title });
        await close(dialog);
        await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      }
      expect(m.calls.signOutOfAllDevices).not.toHaveBeenCalled();
    },
  );

  it(
    'offers no way to close the sign-out modal while the sign-out runs (close button disabled, Escape and a click outside do nothing); once refused, it closes again',
    { timeout: 20_000 },
    async () => {
      let answer: (refusal: string | null) => void = () => {};
      const m = mount(
        fakeCalls({
          signOutOfAllDevices: vi.fn<ProfileCalls['signOutOfAllDevices']>(
            () => new Promise((resolve) => (answer = resolve)),
          ),
        }),
      );
      await m.user.click(await screen.findByRole('button', { name: t.signOutAll }));
      const dialog = await screen.findByRole('dialog', { name: signOutAllTexts.title });
      await m.user.click(within(dialog).getByRole('button', { name: signOutAllTexts.confirm }));
      await waitFor(() => expect(m.calls.signOutOfAllDevices).toHaveBeenCalledWith(null));
      expect(within(dialog).getByRole('button', { name: signOutAllTexts.confirm })).toHaveAttribute(
        'data-loading',
        'true',
      );

      const [close, cancel] = closeButtonsOf(dialog);
      expect(cancel).toBeDisabled();
      expect(close).toBeDisabled();
      await m.user.click(close);
      await m.user.keyboard('{Escape}');
      await m.user.click(modalOverlay());
      expect(screen.getByRole('dialog', { name: signOutAllTexts.title })).toBe(dialog);

      await act(async () => answer('The sign-out could not be completed.'));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(
        'The sign-out could not be completed.',
      );
      expect(close).toBeEnabled();
      expect(cancel).toBeEnabled();
      await m.user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(await screen.findByRole('button', { name: t.signOutAll })).toBeInTheDocument();
    },
  );

  it('says the list of applications could not be loaded (not that none are affected), and still signs out', async () => {
    const m = mount(
      fakeCalls({
        accessibleApps: vi.fn<ProfileCalls['accessibleApps']>(async () => {
          throw new Error('The applications could not be loaded');
        }),
      }),
    );
    await m.user.click(await screen.findByRole('button', { name: t.signOutAll }));
    const dialog = await screen.findByRole('dialog', { name: signOutAllTexts.title });
    expect(await within(dialog).findByText(signOutAllTexts.ownAppsUnavailable)).toHaveAttribute(
      'role',
      'status',
    );
    expect(signOutAllTexts.ownAppsUnavailable).toBe(
      'The list of applications could not be loaded. You will still be signed out of all of them.',
    );
    expect(within(dialog).queryByText(signOutAllTexts.noApps)).toBeNull();
    await m.user.click(within(dialog).getByRole('button', { name: signOutAllTexts.confirm }));
    await waitFor(() => expect(m.calls.signOutOfAllDevices).toHaveBeenCalledWith(null));
    expect(await screen.findByTestId('landed-path')).toHaveTextContent('/');
  });
});

describe('the sign-out-of-all-devices modal for another identity (the admin case)', () => {
  function mountModal(
    ticket: 'optional' | 'mandatory',
    onConfirm: (code: string | null) => Promise<string | null>,
  ) {
    return mountForcedPage({
      machine: profileFormMachine,
      sources: [],
      route: PROFILE_ROUTE,
      entry: PROFILE_ROUTE,
      page: (
        <SignOutAllDevicesModal
          opened
          onClose={() => {}}
          otherName="Olivia Bennett"
          apps={[]}
          ticket={ticket}
          onConfirm={onConfirm}
        />
      ),
      user: users.customer,
    });
  }

  it('names the identity, shows the ticket field with its placeholder, and requires it when mandatory', async () => {
    const onConfirm = vi.fn(async (code: string | null) =>
      code === 'BAD' ? 'Enter a Jira ticket code like SUP-999999' : null,
    );
    const m = mountModal('mandatory', onConfirm);
    const dialog = await screen.findByRole('dialog', { name: signOutAllTexts.title });
    expect(within(dialog).getByText(signOutAllTexts.otherIntro('Olivia Bennett'))).toBeInTheDocument();
    expect(within(dialog).getByText(signOutAllTexts.noApps)).toBeInTheDocument();
    const ticket = within(dialog).getByLabelText(new RegExp(`^${signOutAllTexts.ticket}`));
    expect(ticket).toHaveAttribute('placeholder', 'SUP-999999');
    await m.user.click(within(dialog).getByRole('button', { name: signOutAllTexts.confirm }));
    expect(await within(dialog).findByText(signOutAllTexts.required)).toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
    await m.user.type(ticket, 'BAD');
    await m.user.click(within(dialog).getByRole('button', { name: signOutAllTexts.confirm }));
    expect(await within(dialog).findByText('Enter a Jira ticket code like SUP-999999')).toBeInTheDocument();
    await m.user.clear(ticket);
    await m.user.type(ticket, 'SUP-999999');
    await m.user.click(within(dialog).getByRole('button', { name: signOutAllTexts.confirm }));
    await waitFor(() => expect(onConfirm).toHaveBeenLastCalledWith('SUP-999999'));
  });

  it('sends no ticket when the optional field is left empty', async () => {
    const onConfirm = vi.fn(async () => null);
    const m = mountModal('optional', onConfirm);
    const dialog = await screen.findByRole('dialog', { name: signOutAllTexts.title });
    await m.user.click(within(dialog).getByRole('button', { name: signOutAllTexts.confirm }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledWith(null));
  });
});

/** The modal's close button (in its title bar) and its Cancel button: both are named Cancel. */
function closeButtonsOf(dialog: HTMLElement): [close: HTMLElement, cancel: HTMLElement] {
  const buttons = within(dialog).getAllByRole('button', { name: signOutAllTexts.cancel });
  const close = buttons.find((button) => button.textContent !== signOutAllTexts.cancel);
  const cancel = buttons.find((button) => button.textContent === signOutAllTexts.cancel);
  expect(close).toBeDefined();
  expect(cancel).toBeDefined();
  return [close!, cancel!];
}

/** The overlay behind the modal: a click on it is a click outside. */
function modalOverlay(): HTMLElement {
  const element = document.querySelector<HTMLElement>('.mantine-Modal-overlay');
  expect(element).not.toBeNull();
  return element!;
}
