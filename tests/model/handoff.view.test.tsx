// Hand-pinned behaviours of the applications page's handoff that the generated paths do not
// explore: a new window for middle and ctrl clicks, the handoff a new window's address names, the
// toast's duration and words, the empty text, and axe.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handoffTexts } from '../../src/client/flows/handoff/handoff.texts';
import { applicationsTexts } from '../../src/client/pages/applications.texts';
import { attempts, targets } from '../machines/fixtures/handoff.fixtures';
import { users } from '../machines/fixtures/sign-in.fixtures';
import { HANDOFF_APPS } from './handoff.model';
import { cardOf } from './handoff.paths';
import { mountApplications } from './harness/handoff-pages';

afterEach(() => {
  notifications.clean();
  vi.restoreAllMocks();
});

const violations = async () => {
  const result = await axe.run(document.body, {
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

async function listed(entry?: string) {
  const m = mountApplications({ user: users.customer, apps: HANDOFF_APPS, entry });
  await waitFor(() => expect(screen.getAllByRole('link')).toHaveLength(HANDOFF_APPS.length));
  return m;
}

const handoffCalls = (m: ReturnType<typeof mountApplications>) =>
  m.api.calls.filter((c) => c.src === 'samlHandoff');

describe('applications page: handoff', () => {
  it('shows one card per facility target, with the facility', async () => {
    await listed();
    expect(cardOf(targets.loansF001)).toHaveTextContent('Northside Community Clinic (Northside)');
    expect(cardOf(targets.loansF002)).toHaveTextContent('Riverside Family Practice (F002)');
    expect(cardOf(targets.payroll)).toHaveTextContent(/^Payroll$/);
  });

  it('a middle click opens the card in a new window, without handing off here', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const m = await listed();
    await m.user.pointer({ keys: '[MouseMiddle]', target: cardOf(targets.loansF002) });
    expect(open).toHaveBeenCalledWith(
      '/profile/my-applications?handoff=LOANS&facility=F002',
      '_blank',
      'noopener',
    );
    expect(handoffCalls(m)).toEqual([]);
  });

  it('a ctrl click opens the card in a new window too', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const m = await listed();
    await m.user.keyboard('{Control>}');
    await m.user.click(cardOf(targets.payroll));
    await m.user.keyboard('{/Control}');
    expect(open).toHaveBeenCalledWith('/profile/my-applications?handoff=PAYROLL', '_blank', 'noopener');
    expect(handoffCalls(m)).toEqual([]);
  });

  it('the new window hands off to the target its address names, once, and clears the address', async () => {
    const m = await listed('/profile/my-applications?handoff=LOANS&facility=F002');
    expect((await m.api.waiting('samlHandoff')).input).toEqual({ appCode: 'LOANS', facilityCode: 'F002' });
    await waitFor(() => expect(m.router.state.location.search).toBe(''));
    expect(handoffCalls(m)).toHaveLength(1);
  });

  it('an address naming no accessible target hands off to nothing', async () => {
    const m = await listed('/profile/my-applications?handoff=LOANS&facility=F009');
    await waitFor(() => expect(m.router.state.location.search).toBe(''));
    expect(handoffCalls(m)).toEqual([]);
  });

  it('a refusal is a toast for 8 s in the words of section 8', async () => {
    const show = vi.spyOn(notifications, 'show');
    const m = await listed();
    await m.user.click(cardOf(targets.loansF001));
    await act(() => m.api.answer({ type: 'xstate.done.actor.samlHandoff', output: attempts.refused }));
    const text =
      'The following error occurred and you cannot handoff to Loans. Your access to this facility has been suspended.';
    expect(handoffTexts.refused('Loans', 'Your access to this facility has been suspended.')).toBe(text);
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ autoClose: 8_000, color: 'red' }));
    // The cards are usable again.
    expect(cardOf(targets.loansF001)).not.toHaveAttribute('aria-busy');
  });

  it('says so when there is no application', async () => {
    mountApplications({ user: users.customer, apps: [] });
    expect(await screen.findByText('You do not have access to any other applications.')).toBeInTheDocument();
    expect(applicationsTexts.none).toBe('You do not have access to any other applications.');
  });
});

describe('applications page: accessibility (axe, what jsdom can check)', () => {
  it('has none on the cards, one of them busy', async () => {
    const m = await listed();
    await m.user.click(cardOf(targets.loansF002));
    await waitFor(() => expect(cardOf(targets.loansF002)).toHaveAttribute('aria-busy', 'true'));
    expect(await violations()).toEqual([]);
  });
});
