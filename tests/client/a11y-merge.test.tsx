// The merge wizard's steps keep the keyboard user's focus when they refuse (WCAG 2.4.3, 3.3.1):
// Next and Merge are disabled while they send, so the focus they had would fall to the page; it goes
// to the banner that says why, or to the choice the error is about. The other accounts' passwords
// can be filled by a password manager (WCAG 3.3.8).
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { mergeAccountsTexts as t } from '../../src/client/flows/forced/merge-accounts/merge-accounts.texts';
import {
  ChoosePreferredUsernameForm,
  ConfirmationView,
} from '../../src/client/flows/forced/merge-accounts/MergeSteps';
import { SelectAccountsForm } from '../../src/client/flows/forced/merge-accounts/SelectAccountsForm';
import type { IdentityCandidate, MergeDetails } from '../../src/contract/merge';

const C7: IdentityCandidate = { id: 'id-7', username: 'C10007', name: 'Liam Walsh', isIdvConflict: false };
const C8: IdentityCandidate = { id: 'id-8', username: 'C10008', name: null, isIdvConflict: true };
const wrap = (node: ReactNode) => (
  <MantineProvider>
    <MemoryRouter>{node}</MemoryRouter>
  </MantineProvider>
);
const user = () => userEvent.setup({ delay: null });

function selectAccounts(props: Partial<Parameters<typeof SelectAccountsForm>[0]> = {}) {
  const all = {
    candidates: [C8, C7],
    selectedIds: [] as string[],
    noneSelected: false,
    busy: false,
    refusal: null,
    idvConflict: null,
    onSelectionChanged: vi.fn(),
    onSubmit: vi.fn(),
    ...props,
  };
  const view = render(wrap(<SelectAccountsForm {...all} />));
  const update = (next: Partial<typeof all>) =>
    view.rerender(wrap(<SelectAccountsForm {...all} {...next} />));
  return { ...view, update };
}

describe('select accounts', () => {
  it("asks a password manager for the other accounts' passwords (current-password)", () => {
    selectAccounts({ selectedIds: ['id-7'] });
    expect(screen.getByLabelText(/^Password for C10007/)).toHaveAttribute('autocomplete', 'current-password');
  });

  it("'An option must be selected' moves the focus to the first account that can be ticked", async () => {
    selectAccounts();
    await user().click(screen.getByRole('button', { name: t.selectAccounts.next }));
    expect(screen.getByText('An option must be selected')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /^C10007/ })).toHaveFocus();
  });

  it('a refusal without a field error moves the focus to its banner', () => {
    const m = selectAccounts({ selectedIds: ['id-7'] });
    screen.getByRole('button', { name: t.selectAccounts.next }).focus();
    m.update({ busy: true });
    m.update({ refusal: { message: 'The accounts cannot be merged now.', fieldErrors: [] } });
    const banner = screen.getByRole('alert');
    expect(banner).toHaveTextContent('The accounts cannot be merged now.');
    expect(banner).toHaveFocus();
  });

  it('an identity-verification conflict moves the focus to its banner (Next stays disabled)', () => {
    const m = selectAccounts({ selectedIds: ['id-7'] });
    m.update({
      refusal: { message: 'Call the helpdesk.', fieldErrors: [{ fieldName: 'idvConflict', message: 'x' }] },
      idvConflict: 'Call the helpdesk to merge it.',
    });
    expect(screen.getByRole('alert')).toHaveFocus();
  });

  it('a refusal about the choice of accounts moves the focus to the accounts', () => {
    const m = selectAccounts({ selectedIds: ['id-7'] });
    m.update({
      refusal: {
        message: 'The accounts cannot be merged as they are.',
        fieldErrors: [{ fieldName: 'identities', message: 'C10007 changed.' }],
      },
    });
    expect(screen.getByText('C10007 changed.')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /^C10007/ })).toHaveFocus();
  });
});

describe('choose preferred username', () => {
  const props = {
    options: ['C10006', 'C10007'],
    initial: null,
    busy: false,
    refusal: null,
    backTo: '/back',
    onSubmit: vi.fn(),
  };

  it('without a choice, the focus goes to the choice, described by its error', async () => {
    render(wrap(<ChoosePreferredUsernameForm {...props} />));
    await user().click(screen.getByRole('button', { name: t.choosePreferredUsername.next }));
    const first = screen.getByRole('radio', { name: 'C10006' });
    expect(first).toHaveFocus();
    expect(screen.getByRole('radiogroup')).toHaveAccessibleDescription(t.choosePreferredUsername.required);
  });

  it('a refused username moves the focus to the chosen one, its error on the group', () => {
    const view = render(wrap(<ChoosePreferredUsernameForm {...props} initial="C10007" />));
    screen.getByRole('button', { name: t.choosePreferredUsername.next }).focus();
    const refusal = {
      message: 'The username cannot be used.',
      fieldErrors: [{ fieldName: 'preferredUsername', message: 'C10007 is no longer available.' }],
    };
    view.rerender(wrap(<ChoosePreferredUsernameForm {...props} initial="C10007" refusal={refusal} />));
    expect(screen.getByRole('radio', { name: 'C10007' })).toHaveFocus();
    expect(screen.getByRole('radiogroup')).toHaveAccessibleDescription('C10007 is no longer available.');
  });
});

describe('confirmation', () => {
  const details: MergeDetails = {
    username: 'C10006',
    name: 'Liam Walsh',
    email: 'liam@example.com',
    mobile: null,
    phone: null,
    birthDate: null,
    accessibleFacilities: [],
  };

  it('merge errors move the focus from Merge (now disabled) to their list', () => {
    const props = { details, errors: [], busy: false, backTo: '/back', onMerge: vi.fn() };
    const view = render(wrap(<ConfirmationView {...props} />));
    screen.getByRole('button', { name: t.confirmation.merge }).focus();
    view.rerender(wrap(<ConfirmationView {...props} busy />));
    const errors = [{ fieldName: 'email', message: 'In use.' }];
    view.rerender(wrap(<ConfirmationView {...props} errors={errors} />));
    expect(screen.getByRole('button', { name: t.confirmation.merge })).toBeDisabled();
    const list = screen.getByRole('alert');
    expect(list).toHaveTextContent(t.confirmation.errorsTitle);
    expect(list).toHaveFocus();
  });
});
