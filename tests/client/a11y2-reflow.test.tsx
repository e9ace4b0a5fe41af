// WCAG 1.4.10, content reflowing at 320 CSS px (jsdom lays nothing out, so these check the styles
// that make it): a page's own Container adds no side padding to the shell's; the registration's
// long button label wraps, the button growing in height, instead of being cut off; the admin roles
// lists shrink below 280 px; the profile's tables scroll inside their box instead of widening the
// page.
import { notifications } from '@mantine/notifications';
import { screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { identityRolesMachine } from '../../machines/admin/identity-roles/identity-roles.machine';
import { profileFormMachine } from '../../machines/profile/profile-form/profile-form.machine';
import { PROFILE_ROUTE } from '../../machines/routes';
import type { TrustedDevice } from '../../src/contract/profile';
import { IdentityRolesScreen } from '../../src/client/flows/admin/IdentityRolesScreen';
import { ProfileCallsContext, type ProfileCalls } from '../../src/client/flows/profile/profile-calls-context';
import { registrationTexts as t } from '../../src/client/flows/registration/registration.texts';
import ProfilePage from '../../src/client/pages/ProfilePage';
import { profileTexts } from '../../src/client/pages/profile.texts';
import { users } from '../machines/continue-sign-in.fixtures';
import { registrationFacts } from '../machines/registration.fixtures';
import { ADMIN_ROLES } from '../model/admin-identities.model';
import { mountForcedPage } from '../model/harness/forced-pages';
import { mountRegistration } from './mount-registration';
import { renderAdmin } from './render-admin';

afterEach(() => notifications.clean());

describe('registration at 320 CSS px', { timeout: 30_000 }, () => {
  it("its Container adds no side padding to the shell's", async () => {
    const { answer } = mountRegistration();
    await answer('prepareRegistration', registrationFacts.gatewayUp);
    const h1 = await screen.findByRole('heading', { level: 1, name: t.heading });
    const container = h1.closest<HTMLElement>('.mantine-Container-root');
    expect(container).not.toBeNull();
    expect(container!.style.paddingInline).toMatch(/^0(px|rem)?$/);
  });

  it("the authenticator step's long button label wraps and the button grows", async () => {
    const { toAuthenticatorStep } = mountRegistration();
    await toAuthenticatorStep();

    const scanned = await screen.findByRole('button', { name: t.authenticator.scanned });
    expect(scanned.style.height).toBe('auto');
    const label = scanned.querySelector<HTMLElement>('.mantine-Button-label');
    expect(label).not.toBeNull();
    expect(label!.style.whiteSpace).toBe('normal');
    expect(label!.style.height).toBe('auto');
  });
});

describe('the admin roles lists', () => {
  it('may be narrower than 280 px, on a narrow page', async () => {
    renderAdmin(<IdentityRolesScreen />, {
      [identityRolesMachine.id]: { actors: { loadRoles: fromPromise(async () => ADMIN_ROLES) } },
    });
    const lists = await screen.findAllByRole('region');
    const roleLists = lists.filter((el) => el.tagName === 'SECTION');
    expect(roleLists.length).toBeGreaterThan(0);
    for (const list of roleLists) expect(list.style.minWidth).toBe('min(280px, 100%)');
  });
});

describe('the profile page', () => {
  const device = (id: string): TrustedDevice => ({
    id,
    browser: { family: 'Chrome', versionMajor: '126', versionMinor: '0' },
    operatingSystem: { family: 'Windows', version: '10' },
    city: 'Sydney',
    country: 'Australia',
    continent: 'Oceania',
    lastActiveDate: '2026-03-02T09:00:00Z',
  });
  const calls = {
    loadFacts: vi.fn<ProfileCalls['loadFacts']>(async () => ({
      factors: ['AUTHENTICATOR_APP'],
      devices: [device('d1')],
      period: 7,
    })),
    deleteTrustedDevice: vi.fn<ProfileCalls['deleteTrustedDevice']>(async () => null),
    clearTrustedDevices: vi.fn<ProfileCalls['clearTrustedDevices']>(async () => null),
    accessibleApps: vi.fn<ProfileCalls['accessibleApps']>(async () => []),
    signOutOfAllDevices: vi.fn<ProfileCalls['signOutOfAllDevices']>(async () => null),
  };

  it('scrolls its tables inside their boxes', async () => {
    mountForcedPage({
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
    });
    const tables = [
      await screen.findByRole('table', { name: profileTexts.mfa }),
      await screen.findByRole('table', { name: profileTexts.trustedDevices }),
    ];
    for (const table of tables) {
      const scroller = table.closest<HTMLElement>('[data-scrollarea-viewport]');
      expect(scroller, 'the table is in a scroll container').not.toBeNull();
      expect(table.closest('[style*="--table-min-width"]')).not.toBeNull();
      expect(within(scroller!).getByRole('table')).toBe(table);
    }
  });
});
