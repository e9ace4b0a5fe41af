// The merge wizard's view rules that the generated paths do not reach: None and account ticks clear
// each other, 'An option must be selected', a ticked account needs its password, an identity-
// verification conflict cannot be ticked and shows the helpdesk text, 422 field errors on the
// matching checkbox or password; section 8's four merge error texts; the skip cutoff; the stored
// wizard data (never a password, and nothing foreign accepted).
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_WIZARD } from '../../machines/forced/merge-accounts/merge-accounts.types';
import { isBeforeCutoff } from '../../src/client/flows/forced/merge-accounts/merge-accounts.actors';
import {
  clearMergeWizard,
  MERGE_WIZARD_STORAGE_KEY,
  readMergeWizard,
  writeMergeWizard,
} from '../../src/client/flows/forced/merge-accounts/merge-accounts.storage';
import {
  mergeAccountsTexts as t,
  mergeErrorText,
} from '../../src/client/flows/forced/merge-accounts/merge-accounts.texts';
import { SelectAccountsForm } from '../../src/client/flows/forced/merge-accounts/SelectAccountsForm';
import type { IdentityCandidate } from '../../src/contract/merge';

const C7: IdentityCandidate = { id: 'id-7', username: 'C10007', name: 'Liam Walsh', isIdvConflict: false };
const C8: IdentityCandidate = { id: 'id-8', username: 'C10008', name: null, isIdvConflict: true };

function mount(props: Partial<Parameters<typeof SelectAccountsForm>[0]> = {}) {
  const onSubmit = vi.fn();
  const onSelectionChanged = vi.fn();
  const view = render(
    <MantineProvider>
      <SelectAccountsForm
        candidates={[C7, C8]}
        selectedIds={[]}
        noneSelected={false}
        busy={false}
        refusal={null}
        idvConflict={null}
        onSelectionChanged={onSelectionChanged}
        onSubmit={onSubmit}
        {...props}
      />
    </MantineProvider>,
  );
  return { ...view, onSubmit, onSelectionChanged, user: userEvent.setup({ delay: null }) };
}

const box = (name: RegExp | string) => screen.getByRole('checkbox', { name });

describe('select accounts', () => {
  afterEach(() => sessionStorage.clear());

  it('asks for an option, then for the ticked account’s password', async () => {
    const m = mount();
    await m.user.click(screen.getByRole('button', { name: t.selectAccounts.next }));
    expect(screen.getByText('An option must be selected')).toBeInTheDocument();
    await m.user.click(box(/^C10007/));
    expect(screen.queryByText('An option must be selected')).toBeNull();
    await m.user.click(screen.getByRole('button', { name: t.selectAccounts.next }));
    expect(screen.getByText('Required field')).toBeInTheDocument();
    // The missing password has the focus, marked invalid.
    const password = screen.getByLabelText(/^Password for C10007/);
    expect(password).toHaveFocus();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    await m.user.type(password, 'Harbour-Lights-2026');
    await m.user.click(screen.getByRole('button', { name: t.selectAccounts.next }));
    expect(m.onSubmit).toHaveBeenCalledWith([{ id: 'id-7', password: 'Harbour-Lights-2026' }]);
  });

  it('None and an account tick clear each other, and each tick clears the conflict error', async () => {
    const m = mount();
    await m.user.click(box(/^C10007/));
    await m.user.click(box(t.selectAccounts.none));
    expect(box(/^C10007/)).not.toBeChecked();
    expect(screen.queryByLabelText(/^Password for C10007/)).toBeNull();
    await m.user.click(box(/^C10007/));
    expect(box(t.selectAccounts.none)).not.toBeChecked();
    expect(m.onSelectionChanged).toHaveBeenCalledTimes(3);
    await m.user.click(box(t.selectAccounts.none));
    await m.user.click(screen.getByRole('button', { name: t.selectAccounts.next }));
    expect(m.onSubmit).toHaveBeenCalledWith([]);
  });

  it('an identity-verification conflict cannot be ticked and names the helpdesk', async () => {
    mount();
    expect(box(/^C10008/)).toBeDisabled();
    expect(screen.getByText(t.selectAccounts.idvConflict)).toBeInTheDocument();
    expect(t.selectAccounts.idvConflict).toMatch(/helpdesk/);
  });

  it('a conflict refusal shows a banner and disables Next', () => {
    mount({ idvConflict: 'Call the helpdesk to merge it.' });
    expect(screen.getByRole('alert')).toHaveTextContent('Call the helpdesk to merge it.');
    expect(screen.getByRole('button', { name: t.selectAccounts.next })).toBeDisabled();
  });

  it('puts a 422 field error on the password of a ticked account, else on its checkbox', () => {
    const refusal = {
      message: 'The accounts cannot be merged as they are.',
      fieldErrors: [{ fieldName: 'identities.id-7.password', message: 'The password is incorrect.' }],
    };
    const ticked = mount({ selectedIds: ['id-7'], refusal });
    const password = screen.getByLabelText(/^Password for C10007/);
    expect(password).toHaveAccessibleDescription('The password is incorrect.');
    // Marked invalid, and the focus is on it to type it again.
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveFocus();
    ticked.unmount();
    mount({ refusal });
    expect(box(/^C10007/)).toHaveAccessibleDescription('The password is incorrect.');
  });
});

describe('merge error texts and helpers', () => {
  it('lists each merge error with section 8’s text for its field', () => {
    expect(mergeErrorText({ fieldName: 'idvConflict', message: 'Call the helpdesk.' })).toBe(
      'Call the helpdesk.',
    );
    expect(mergeErrorText({ fieldName: 'identities', message: 'C10007 changed.' })).toBe(
      'C10007 changed. Go back to Select accounts to resolve this.',
    );
    expect(mergeErrorText({ fieldName: 'identities.id-7.password', message: 'x' })).toBe(
      'x Go back to Select accounts to resolve this.',
    );
    expect(mergeErrorText({ fieldName: 'email', message: 'In use.' })).toBe(
      'In use. Go back to Change email to choose a new email address.',
    );
    expect(mergeErrorText({ fieldName: 'preferredUsername', message: 'Gone.' })).toBe(
      'Gone. Go back to Choose preferred username and select a new username',
    );
  });

  it('offers skip only before the cutoff date', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(isBeforeCutoff('2026-11-22', now)).toBe(true);
    expect(isBeforeCutoff('2026-11-21', now)).toBe(false);
    expect(isBeforeCutoff(null, now)).toBe(false);
    expect(isBeforeCutoff('soon', now)).toBe(false);
  });

  it('keeps the wizard data in session storage, and nothing else', () => {
    const data = {
      ...EMPTY_WIZARD,
      selectedIdentities: [{ id: 'id-7', username: 'C10007' }],
      notSelectedIdentities: [],
      preferredUsername: 'C10006',
    };
    writeMergeWizard(data);
    expect(readMergeWizard()).toEqual(data);
    sessionStorage.setItem(MERGE_WIZARD_STORAGE_KEY, JSON.stringify({ newEmail: 3 }));
    expect(readMergeWizard()).toBeNull();
    sessionStorage.setItem(MERGE_WIZARD_STORAGE_KEY, '{not json');
    expect(readMergeWizard()).toBeNull();
    clearMergeWizard();
    expect(sessionStorage.getItem(MERGE_WIZARD_STORAGE_KEY)).toBeNull();
  });
});
