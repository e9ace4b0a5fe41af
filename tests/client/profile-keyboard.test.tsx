// The profile for keyboard and screen reader users (found by the keyboard journeys of
// tests/e2e/keyboard-profile.e2e.test.ts): the date of birth's calendar, open while the date is
// typed, names its arrows and draws no day in the red of weekends or the faded grey of other months
// (axe: button-name, and colour contrast under 4.5:1 in Chromium); deleting a trusted device puts
// the focus on the section's heading instead of losing it with the vanished button.
import { act, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { describe, expect, it, vi } from 'vitest';
import { profileFormMachine } from '../../machines/profile/profile-form/profile-form.machine';
import { PROFILE_ROUTE, PROFILE_ROUTES } from '../../machines/routes';
import type { TrustedDevice } from '../../src/contract/profile';
import ChangeDateOfBirthPage from '../../src/client/flows/profile/ChangeDateOfBirthPage';
import { ProfileCallsContext, type ProfileCalls } from '../../src/client/flows/profile/profile-calls-context';
import { screenTexts } from '../../src/client/flows/profile/profile.texts';
import ProfilePage from '../../src/client/pages/ProfilePage';
import { profileTexts as t } from '../../src/client/pages/profile.texts';
import { users } from '../machines/continue-sign-in.fixtures';
import { mountForcedPage } from '../model/harness/forced-pages';

describe('the date of birth, typed with its calendar open', () => {
  async function openCalendar() {
    const m = mountForcedPage({
      machine: profileFormMachine,
      sources: ['isIdentityVerified', 'submit'],
      route: PROFILE_ROUTES.CHANGE_DATE_OF_BIRTH,
      entry: PROFILE_ROUTES.CHANGE_DATE_OF_BIRTH,
      page: <ChangeDateOfBirthPage />,
      user: { ...users.customer, birthDate: '1985-03-12' },
    });
    await act(() => m.api.answer({ type: 'xstate.done.actor.isIdentityVerified', output: false }));
    const field = await screen.findByLabelText(/^Date of birth/, { selector: 'input' });
    await m.user.click(field);
    await waitFor(() => expect(document.querySelector('[data-dates-dropdown]')).not.toBeNull());
    return { m, field, calendar: document.querySelector<HTMLElement>('[data-dates-dropdown]')! };
  }

  it('names the arrows of the calendar, which axe accepts', async () => {
    const { calendar } = await openCalendar();
    const labels = screenTexts.changeDateOfBirth.calendar;
    expect(within(calendar).getByRole('button', { name: labels.previousMonth })).toBeInTheDocument();
    expect(within(calendar).getByRole('button', { name: labels.nextMonth })).toBeInTheDocument();
    const result = await axe.run(document.body, { runOnly: ['button-name'] });
    expect(result.violations.map((v) => v.id)).toEqual([]);
  });

  it('marks no day as a weekend or as another month’s (their colours are under 4.5:1)', async () => {
    const { calendar } = await openCalendar();
    expect(within(calendar).getAllByRole('button', { name: /^\d+ March 1985$/ })).toHaveLength(31);
    expect(calendar.querySelectorAll('[data-weekend]')).toHaveLength(0);
    expect(calendar.querySelectorAll('button[data-outside]:not([data-hidden])')).toHaveLength(0);
  });

  it('takes the typed date while the calendar stays open', async () => {
    const { m, field } = await openCalendar();
    await m.user.clear(field);
    await m.user.type(field, '1990-05-17');
    expect(field).toHaveValue('1990-05-17');
    expect(field).toHaveFocus();
    expect(screen.getByRole('button', { name: '17 May 1990' })).toHaveAttribute('data-selected', 'true');
  });
});

describe('a trusted device deleted by keyboard', () => {
  const device: TrustedDevice = {
    id: 'd1',
    browser: { family: 'Chrome', versionMajor: '126', versionMinor: '0' },
    operatingSystem: { family: 'Windows', version: '10' },
    city: 'Sydney',
    country: 'Australia',
    continent: 'Oceania',
    lastActiveDate: '2026-03-02T09:00:00Z',
  };

  it('gives the focus to the section’s heading once the table is drawn again', async () => {
    let devices = [device];
    const calls = {
      loadFacts: vi.fn<ProfileCalls['loadFacts']>(async () => ({ factors: [], devices, period: 7 })),
      deleteTrustedDevice: vi.fn<ProfileCalls['deleteTrustedDevice']>(async () => {
        devices = [];
        return null;
      }),
      clearTrustedDevices: vi.fn<ProfileCalls['clearTrustedDevices']>(async () => null),
      accessibleApps: vi.fn<ProfileCalls['accessibleApps']>(async () => []),
      signOutOfAllDevices: vi.fn<ProfileCalls['signOutOfAllDevices']>(async () => null),
    };
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
    });
    const remove = await screen.findByRole('button', {
      name: t.deleteDeviceLabel('Chrome 126.0, Windows 10'),
    });
    const heading = screen.getByRole('heading', { level: 2, name: t.trustedDevices });
    // Drawn first: the heading does not take the focus.
    expect(heading).not.toHaveFocus();
    act(() => remove.focus());
    await m.user.keyboard('{Enter}');
    await waitFor(() =>
      expect(calls.deleteTrustedDevice).toHaveBeenCalledWith('d1', expect.any(AbortSignal)),
    );
    expect(await screen.findByText(t.noTrustedDevices)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 2, name: t.trustedDevices })).toHaveFocus(),
    );
  });
});
