// Hand-pinned behaviours of the /single-sign-on page that the generated paths do not explore: the
// spec's sentences word for word, keyboard use, 'Not you? Sign out', and axe on each view.
import { act, screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { singleSignOnTexts as t } from '../../src/client/flows/single-sign-on/single-sign-on.texts';
import type { HandoffTarget } from '../../src/contract/entities';
import { attempts, ready, targets, UNEXPECTED_FAILURE } from '../machines/fixtures/handoff.fixtures';
import { users } from '../machines/fixtures/sign-in.fixtures';
import { mountSingleSignOn, restorePage } from './harness/handoff-pages';
import { facilityButton, loansContext } from './single-sign-on.paths';

type Mounted = ReturnType<typeof mountSingleSignOn>;

afterEach(() => vi.restoreAllMocks());

const violations = async () => {
  const result = await axe.run(document.body, {
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

async function withTargets(list: HandoffTarget[]) {
  const m = mountSingleSignOn({ user: users.customer, context: loansContext });
  await act(() => m.api.answer({ type: 'xstate.done.actor.getHandoffTargets', output: list }));
  return m;
}

const refuse = (m: Mounted) =>
  act(() => m.api.answer({ type: 'xstate.done.actor.ssoSamlHandoff', output: attempts.refused }));

describe('single-sign-on page: the spec sentences', () => {
  it('says them word for word', () => {
    expect(t.confirm('Loans')).toBe('Would you like to handoff to Loans?');
    expect(t.choose('Loans')).toBe('Which Loans Facility would you like to handoff to?');
    expect(t.noAccess('Loans')).toBe('You do not have access to Loans.');
    expect(t.refused('Loans', 'Your access to this facility has been suspended.')).toBe(
      'The following error occurred and you cannot handoff to Loans. Your access to this facility has been suspended.',
    );
    expect(t.refused('Loans', 'Facility closed')).toBe(
      'The following error occurred and you cannot handoff to Loans. Facility closed.',
    );
  });

  it('says who is signed in', async () => {
    await withTargets([targets.loansF001]);
    expect(await screen.findByText('You are signed in as Casey Customer (C10001).')).toBeInTheDocument();
  });

  it('one target: the question, Yes and Cancel', async () => {
    await withTargets([targets.loansF001]);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Would you like to handoff to Loans?' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Yes' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('several facilities: the question names the list of facilities', async () => {
    await withTargets([targets.loansF001, targets.loansF002]);
    const list = await screen.findByRole('list', {
      name: 'Which Loans Facility would you like to handoff to?',
    });
    expect(list.querySelectorAll('li')).toHaveLength(2);
    expect(facilityButton(targets.loansF001)).toHaveTextContent('Northside Community Clinic');
    expect(facilityButton(targets.loansF001)).toHaveTextContent('Northside');
    expect(facilityButton(targets.loansF002)).toHaveTextContent('Riverside Family Practice');
    expect(facilityButton(targets.loansF002)).toHaveTextContent('F002');
  });

  it('no target: no access to the app, by its name', async () => {
    const m = await withTargets([]);
    await act(() => m.api.answer({ type: 'xstate.done.actor.getApp', output: { name: 'Loans' } }));
    expect(await screen.findByText('You do not have access to Loans.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Yes' })).not.toBeInTheDocument();
  });

  it('a refused handoff is shown inline as section 8 says', async () => {
    const m = await withTargets([targets.loansF001]);
    await m.user.click(await screen.findByRole('button', { name: 'Yes' }));
    await refuse(m);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The following error occurred and you cannot handoff to Loans. Your access to this facility has been suspended.',
    );
    // The question stays, so the user can try again or cancel.
    expect(screen.getByRole('button', { name: 'Yes' })).toBeEnabled();
  });
});

describe('single-sign-on page: keyboard and sign-out', () => {
  it('Yes is reached with Tab and works with Enter', async () => {
    const m = await withTargets([targets.loansF001]);
    await screen.findByRole('button', { name: t.yes });
    const yes = screen.getByRole('button', { name: t.yes });
    while (document.activeElement !== yes) {
      await m.user.tab();
      if (document.activeElement === document.body) throw new Error('Yes is not reachable by Tab');
    }
    await m.user.keyboard('{Enter}');
    const call = await m.api.waiting('ssoSamlHandoff');
    expect(call.input).toEqual({ appCode: 'LOANS', facilityCode: 'F001' });
  });

  it('a facility is chosen with the keyboard', async () => {
    const m = await withTargets([targets.loansF001, targets.loansF002]);
    await screen.findByRole('list');
    facilityButton(targets.loansF002).focus();
    await m.user.keyboard(' ');
    expect((await m.api.waiting('ssoSamlHandoff')).input).toEqual({ appCode: 'LOANS', facilityCode: 'F002' });
  });

  it("'Not you? Sign out' signs out and goes to sign-in", async () => {
    const m = await withTargets([targets.loansF001]);
    await m.user.click(await screen.findByRole('button', { name: t.signOut }));
    await waitFor(() => expect(m.services.logout).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(m.router.state.location.pathname).toBe('/'));
    expect(m.store.getState().currentUser?.isAuthenticated).toBe(false);
    expect(m.api.calls.filter((c) => c.src === 'ssoSamlHandoff')).toEqual([]);
  });

  it('back from the application asks again and posts nothing more', async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    const m = await withTargets([targets.loansF001]);
    await m.user.click(await screen.findByRole('button', { name: t.yes }));
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.ssoSamlHandoff', output: ready(targets.loansF001) }),
    );
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    await restorePage();
    expect(await screen.findByRole('button', { name: t.yes })).toBeEnabled();
    expect(screen.queryByTestId('saml-post-form')).not.toBeInTheDocument();
    expect(submit).toHaveBeenCalledTimes(1);
  });
});

describe('single-sign-on page: accessibility (axe, what jsdom can check)', () => {
  it('has none on the question with a refusal', async () => {
    const m = await withTargets([targets.loansF001]);
    await m.user.click(await screen.findByRole('button', { name: t.yes }));
    await refuse(m);
    await screen.findByRole('alert');
    expect(await violations()).toEqual([]);
  });

  it('has none on the list of facilities while one is being handed off to', async () => {
    const m = await withTargets([targets.loansF001, targets.loansF002]);
    await screen.findByRole('list');
    await m.user.click(facilityButton(targets.loansF002));
    await waitFor(() => expect(facilityButton(targets.loansF002)).toHaveAttribute('data-loading', 'true'));
    expect(await violations()).toEqual([]);
  });

  it('has none on no access, whose way on leads to the applications page', async () => {
    const m = await withTargets([]);
    await act(() => m.api.answer({ type: 'xstate.done.actor.getApp', output: { name: 'Loans' } }));
    await screen.findByText(t.noAccess('Loans'));
    expect(await violations()).toEqual([]);
    await m.user.click(screen.getByRole('button', { name: t.continueToPortal }));
    await waitFor(() => expect(m.router.state.location.pathname).toBe('/profile/my-applications'));
  });

  it('has none on a failed load, whose alert names the failure', async () => {
    const m = mountSingleSignOn({ user: users.customer, context: loansContext });
    await act(() =>
      m.api.answer({ type: 'xstate.error.actor.getHandoffTargets', error: new Error(UNEXPECTED_FAILURE) }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(UNEXPECTED_FAILURE);
    expect(await violations()).toEqual([]);
  });
});
