// Hand-pinned behaviours of /forced-actions/select-facility that the generated paths do not explore:
// what each facility shows, keyboard use, the app's name in the refusal toast, Cancel (sign out),
// and axe on each view.
import { act, screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { selectFacilityTexts as t } from '../../src/client/flows/forced/select-facility/select-facility.texts';
import { attempts, facilities, UNEXPECTED_FAILURE } from '../machines/fixtures/handoff.fixtures';
import { users } from '../machines/fixtures/sign-in.fixtures';
import { mountSelectFacility } from './harness/handoff-pages';
import { facilityButtonOf, inlineAlerts, isToast } from './select-facility.paths';
import { APP_NAME, FACILITY_LIST } from './select-facility.model';
import { loansContext } from './single-sign-on.paths';

const violations = async () => {
  const result = await axe.run(document.body, {
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

/** The list, after the facilities and their app (GET apps/LOANS) were answered, or the lookup failed. */
async function listed({ appLookup = 'answered' }: { appLookup?: 'answered' | 'failed' } = {}) {
  const m = mountSelectFacility({ user: users.pending, context: loansContext });
  await act(() => m.api.answer({ type: 'xstate.done.actor.getFacilities', output: FACILITY_LIST }));
  expect((await m.api.waiting('getApp')).input).toEqual({ appCode: 'LOANS' });
  await act(() =>
    m.api.answer(
      appLookup === 'answered'
        ? { type: 'xstate.done.actor.getApp', output: { name: APP_NAME } }
        : { type: 'xstate.error.actor.getApp', error: new Error(UNEXPECTED_FAILURE) },
    ),
  );
  await screen.findByRole('list', { name: t.question });
  return m;
}

afterEach(() => {
  notifications.clean();
  vi.restoreAllMocks();
});

describe('select-facility page', () => {
  it('lists each facility with its name and alias or code', async () => {
    await listed();
    const items = screen.getByRole('list', { name: t.question }).querySelectorAll('li');
    expect([...items].map((li) => li.textContent)).toEqual([
      'Northside Community ClinicNorthside',
      'Riverside Family PracticeF002',
      'Bayview Aged CareBayview',
    ]);
  });

  it('a click hands off to that facility of the app that asked', async () => {
    const m = await listed();
    await m.user.click(facilityButtonOf(facilities.f002));
    expect((await m.api.waiting('selectFacilityHandoff')).input).toEqual({
      appCode: 'LOANS',
      facilityCode: 'F002',
    });
    // One handoff at a time: the other facilities and Cancel wait.
    expect(facilityButtonOf(facilities.f001)).toBeDisabled();
    expect(screen.getByRole('button', { name: t.cancel })).toBeDisabled();
  });

  it('a facility is chosen with the keyboard', async () => {
    const m = await listed();
    facilityButtonOf(facilities.f003).focus();
    await m.user.keyboard('{Enter}');
    expect((await m.api.waiting('selectFacilityHandoff')).input).toEqual({
      appCode: 'LOANS',
      facilityCode: 'F003',
    });
  });

  it('a refusal is the 8 s toast in the words of section 8, not an alert on the page', async () => {
    const show = vi.spyOn(notifications, 'show');
    const m = await listed();
    await m.user.click(facilityButtonOf(facilities.f001));
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.selectFacilityHandoff', output: attempts.refused }),
    );
    // The app by its name (GET apps/LOANS), as everywhere else: a facility carries only its code.
    const text =
      'The following error occurred and you cannot handoff to Loans. Your access to this facility has been suspended.';
    expect(isToast(await screen.findByText(text))).toBe(true);
    expect(show).toHaveBeenCalledTimes(1);
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ autoClose: 8_000, color: 'red' }));
    expect(inlineAlerts()).toEqual([]);
    expect(facilityButtonOf(facilities.f001)).toBeEnabled();
  });

  it('the list waits for the app lookup; when it fails, the toast names the app by its code', async () => {
    const m = mountSelectFacility({ user: users.pending, context: loansContext });
    await act(() => m.api.answer({ type: 'xstate.done.actor.getFacilities', output: FACILITY_LIST }));
    await m.api.waiting('getApp');
    expect(screen.queryByRole('list', { name: t.question })).not.toBeInTheDocument();
    await act(() =>
      m.api.answer({ type: 'xstate.error.actor.getApp', error: new Error(UNEXPECTED_FAILURE) }),
    );
    await screen.findByRole('list', { name: t.question });
    // Nothing of the failed lookup shows: it is not the user's concern.
    expect(screen.queryByText(new RegExp(UNEXPECTED_FAILURE))).not.toBeInTheDocument();
    await m.user.click(facilityButtonOf(facilities.f001));
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.selectFacilityHandoff', output: attempts.refused }),
    );
    const text =
      'The following error occurred and you cannot handoff to LOANS. Your access to this facility has been suspended.';
    expect(isToast(await screen.findByText(text))).toBe(true);
    expect(m.router.state.location.pathname).toBe('/forced-actions/select-facility');
  });

  it('a second refusal is told again', async () => {
    const show = vi.spyOn(notifications, 'show');
    const m = await listed();
    for (const facility of [facilities.f001, facilities.f002]) {
      await m.user.click(facilityButtonOf(facility));
      await act(() =>
        m.api.answer({ type: 'xstate.done.actor.selectFacilityHandoff', output: attempts.refused }),
      );
      await waitFor(() => expect(facilityButtonOf(facility)).toBeEnabled());
    }
    expect(show).toHaveBeenCalledTimes(2);
  });

  it('Cancel abandons the sign-in: signs out and goes to sign-in', async () => {
    const m = await listed();
    await m.user.click(screen.getByRole('button', { name: t.cancel }));
    await waitFor(() => expect(m.services.logout).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(m.router.state.location.pathname).toBe('/'));
    expect(m.store.getState().currentUser?.type).toBe('ANONYMOUS');
  });
});

describe('select-facility page: accessibility (axe, what jsdom can check)', () => {
  it('has none on the list with a refusal', async () => {
    const m = await listed();
    await m.user.click(facilityButtonOf(facilities.f001));
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.selectFacilityHandoff', output: attempts.refused }),
    );
    await screen.findByText(/The following error occurred/);
    expect(await violations()).toEqual([]);
  });

  it('has none with no facility to choose', async () => {
    const m = mountSelectFacility({ user: users.pending, context: loansContext });
    await act(() => m.api.answer({ type: 'xstate.done.actor.getFacilities', output: [] }));
    await screen.findByText(t.noFacilities);
    expect(await violations()).toEqual([]);
  });

  it('has none on a failed load', async () => {
    const m = mountSelectFacility({ user: users.pending, context: loansContext });
    await act(() =>
      m.api.answer({ type: 'xstate.error.actor.getFacilities', error: new Error(UNEXPECTED_FAILURE) }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(UNEXPECTED_FAILURE);
    expect(await violations()).toEqual([]);
  });
});
