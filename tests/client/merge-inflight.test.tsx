// The merge wizard in the app's router while a call is under way (sections 2.6 and 4.4): the Back
// links are aria-disabled and do nothing (mouse or keyboard), and the browser's Back is put back
// to the step shown, so the merge's answer is seen and the current user reloaded; and the browser's
// Back from select-accounts returns to the duplicate-accounts notice, where Skip works again.
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mergeAccountsMachine } from '../../machines/forced/merge-accounts/merge-accounts.machine';
import {
  EMPTY_WIZARD,
  type MergeWizardData,
} from '../../machines/forced/merge-accounts/merge-accounts.types';
import { FORCED_ACTIONS_ROUTE } from '../../machines/routes';
import MergeAccountsPage from '../../src/client/flows/forced/merge-accounts/MergeAccountsPage';
import { mergeAccountsTexts as t } from '../../src/client/flows/forced/merge-accounts/merge-accounts.texts';
import type { IdentityCandidate, MergeDetails } from '../../src/contract/merge';
import { outcomes, users } from '../machines/continue-sign-in.fixtures';
import { mountForcedPage } from '../model/harness/forced-pages';
import { enter } from '../model/harness/user';

const SOURCES = [
  'loadMerge',
  'skipMerge',
  'selectAccounts',
  'changeEmail',
  'verifyEmail',
  'resendEmail',
  'loadPreferredUsernames',
  'choosePreferredUsername',
  'generateMergeDetails',
  'confirmMerge',
  'finishMerge',
  'continueSignIn',
  'logout',
] as const;
const NOTICE = '/forced-actions/duplicate-accounts';
const step = (name: string) => `/forced-actions/merge-accounts/${name}`;
const C7: IdentityCandidate = { id: 'id-7', username: 'C10007', name: 'Liam Walsh', isIdvConflict: false };
const C9: IdentityCandidate = { id: 'id-9', username: 'C10009', name: null, isIdvConflict: false };
const DETAILS: MergeDetails = {
  username: 'C10006',
  name: 'Liam Walsh',
  email: 'dup@example.com',
  mobile: null,
  phone: null,
  birthDate: '1983-04-17',
  accessibleFacilities: [],
};
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output });

function mount(entry: string) {
  return mountForcedPage({
    machine: mergeAccountsMachine,
    sources: SOURCES,
    route: `${FORCED_ACTIONS_ROUTE}/*`,
    entry,
    page: <MergeAccountsPage />,
    user: { ...users.pending, username: 'C10006', email: 'dup@example.com' },
  });
}
type Mounted = ReturnType<typeof mount>;

const button = (name: string) => screen.getByRole('button', { name });
const link = (name: string) => screen.getByRole('link', { name });
const pathOf = (m: Mounted) => m.router.state.location.pathname;
const loaded = (m: Mounted, stored: MergeWizardData | null, canSkip = true) =>
  act(() => m.api.answer(done('loadMerge', { candidates: [C7, C9], canSkip, stored })));
/** The browser's Back button. */
const browserBack = (m: Mounted) => act(() => m.router.navigate(-1));

describe('merge wizard: a call under way cannot be left', () => {
  afterEach(() => sessionStorage.clear());

  it('Merge: Back is disabled, the browser Back is put back, and the merge ends at completed', async () => {
    const m = mount(step('choose-preferred-username'));
    await loaded(m, {
      ...EMPTY_WIZARD,
      selectedIdentities: [{ id: C7.id, username: C7.username }],
      notSelectedIdentities: [],
    });
    await act(() => m.api.answer(done('loadPreferredUsernames', ['C10006', 'C10007'])));
    await m.user.click(await screen.findByRole('radio', { name: 'C10006' }));
    await m.user.click(button(t.choosePreferredUsername.next));
    await act(() => m.api.answer(done('choosePreferredUsername', { type: 'done' })));
    await act(() => m.api.answer(done('generateMergeDetails', { type: 'details', details: DETAILS })));
    await waitFor(() => expect(button(t.confirmation.merge)).toBeEnabled());
    expect(pathOf(m)).toBe(step('confirmation'));
    expect(link(t.confirmation.back)).not.toHaveAttribute('aria-disabled');
    const reload = vi.spyOn(m.store, 'reload');

    await m.user.click(button(t.confirmation.merge));
    await m.api.waiting('confirmMerge');
    const back = link(t.confirmation.back);
    expect(back).toHaveAttribute('aria-disabled', 'true');
    // By mouse, and by the keyboard: the step stays, and so does its address.
    await m.user.click(back);
    back.focus();
    await m.user.keyboard('{Enter}');
    expect(back).toHaveFocus();
    expect(pathOf(m)).toBe(step('confirmation'));
    // The browser's Back: the address returns to the step shown, and the merge goes on.
    await browserBack(m);
    await waitFor(() => expect(pathOf(m)).toBe(step('confirmation')));
    expect(screen.getByRole('heading', { level: 2, name: t.confirmation.title })).toBeInTheDocument();
    expect(button(t.confirmation.merge)).toHaveAttribute('data-loading', 'true');

    await act(() =>
      m.api.answer(
        done('confirmMerge', {
          type: 'merged',
          result: { preferredUsername: 'C10006', mergedUsernames: ['C10007'] },
        }),
      ),
    );
    expect(await screen.findByRole('heading', { level: 2, name: t.completed.title })).toBeInTheDocument();
    await waitFor(() => expect(pathOf(m)).toBe(step('completed')));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('checking a code: Back is disabled and the browser Back is put back until the answer', async () => {
    const m = mount(step('email-verification'));
    await loaded(m, {
      ...EMPTY_WIZARD,
      selectedIdentities: [{ id: C7.id, username: C7.username }],
      notSelectedIdentities: [{ username: C9.username, name: C9.name }],
      newEmail: 'liam@example.com',
    });
    await enter(m.user, await screen.findByLabelText(/^Verification code/, { selector: 'input' }), '482913');
    await m.user.click(button(t.emailVerification.submit));
    await m.api.waiting('verifyEmail');
    const back = link(t.emailVerification.back);
    expect(back).toHaveAttribute('aria-disabled', 'true');
    back.focus();
    await m.user.keyboard('{Enter}');
    expect(pathOf(m)).toBe(step('email-verification'));
    await act(() => m.router.navigate(step('change-email')));
    await waitFor(() => expect(pathOf(m)).toBe(step('email-verification')));
    await act(() => m.api.answer(done('verifyEmail', { type: 'done' })));
    expect(
      await screen.findByRole('heading', { level: 2, name: t.choosePreferredUsername.title }),
    ).toBeInTheDocument();
    await waitFor(() => expect(pathOf(m)).toBe(step('choose-preferred-username')));
  });

  it('sending a new email: Back is disabled until the answer', async () => {
    const m = mount(step('change-email'));
    await loaded(m, {
      ...EMPTY_WIZARD,
      selectedIdentities: [],
      notSelectedIdentities: [{ username: C9.username, name: C9.name }],
    });
    await enter(
      m.user,
      await screen.findByLabelText(/^New email/, { selector: 'input' }),
      'liam@example.com',
    );
    await m.user.click(button(t.changeEmail.next));
    await m.api.waiting('changeEmail');
    expect(link(t.changeEmail.back)).toHaveAttribute('aria-disabled', 'true');
    await m.user.click(link(t.changeEmail.back));
    expect(pathOf(m)).toBe(step('change-email'));
    await act(() => m.api.answer(done('changeEmail', { type: 'done' })));
    await waitFor(() => expect(pathOf(m)).toBe(step('email-verification')));
    expect(link(t.emailVerification.back)).not.toHaveAttribute('aria-disabled');
  });
});

describe('merge wizard: the browser Back from select-accounts', () => {
  afterEach(() => sessionStorage.clear());

  it('returns to the notice, where Start merge and Skip work again', async () => {
    const m = mount(NOTICE);
    await loaded(m, null);
    await m.user.click(await screen.findByRole('button', { name: t.notice.startMerge }));
    await waitFor(() => expect(pathOf(m)).toBe(step('select-accounts')));

    await browserBack(m);
    expect(await screen.findByRole('heading', { level: 1, name: t.notice.heading })).toBeInTheDocument();
    expect(pathOf(m)).toBe(NOTICE);
    await m.user.click(button(t.notice.startMerge));
    await waitFor(() => expect(pathOf(m)).toBe(step('select-accounts')));
    expect(screen.getByRole('heading', { level: 2, name: t.selectAccounts.title })).toBeInTheDocument();

    await browserBack(m);
    expect(await screen.findByRole('heading', { level: 1, name: t.notice.heading })).toBeInTheDocument();
    await m.user.click(button(t.notice.skip));
    await act(() => m.api.answer(done('skipMerge', { type: 'outcome', outcome: outcomes.directLogin })));
    await m.api.waiting('continueSignIn');
  });
});
