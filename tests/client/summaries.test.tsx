// What the registration's invitation summary and the merge confirmation show: only the parts of a
// facility or role that exist (never 'Branch ()' or 'Role ( scope)'), and a birth date in the
// profile's display form ('DD Mon YYYY', formatIsoDate) rather than raw ISO.
import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { InviteDetails } from '../../machines/registration/registration.types';
import { ConfirmationView } from '../../src/client/flows/forced/merge-accounts/MergeSteps';
import { mergeAccountsTexts as mt } from '../../src/client/flows/forced/merge-accounts/merge-accounts.texts';
import { InviteSummary } from '../../src/client/flows/registration/DetailsForm';
import { registrationTexts as t } from '../../src/client/flows/registration/registration.texts';
import type { MergeDetails } from '../../src/contract/merge';

const INVITE: InviteDetails = {
  productName: 'Loans',
  facilityName: 'Northside Branch',
  facilityAliasOrCode: 'Northside',
  roles: [{ name: 'Loan officer', scopeType: 'FACILITY', scope: 'F001' }],
  customerNumber: null,
  name: 'Ada Lovelace',
  birthDate: '1985-03-07',
  username: null,
  email: 'ada@example.com',
  mobile: null,
  existingIdentity: false,
  isStaff: false,
  isPrimaryAffiliateEmailDomain: false,
  isSecondaryAffiliateEmailDomain: false,
};

function summaryRows(invite: InviteDetails): string[] {
  render(
    <MantineProvider>
      <InviteSummary invite={invite} />
    </MantineProvider>,
  );
  const group = screen.getByRole('group', { name: t.invitation.title });
  return [...group.children].map((row) => row.textContent ?? '');
}

describe('the invitation summary (registration)', () => {
  it('shows a facility with its alias or code, roles with scope type and scope, and the birth date as DD Mon YYYY', () => {
    expect(summaryRows(INVITE)).toEqual([
      'Application: Loans',
      'Facility: Northside Branch (Northside)',
      'Roles: Loan officer (FACILITY F001)',
      'Date of birth: 07 Mar 1985',
      'Email: ada@example.com',
    ]);
  });

  it('shows only what exists: no empty brackets for a facility without alias or code', () => {
    const rows = summaryRows({ ...INVITE, facilityName: 'Branch', facilityAliasOrCode: null });
    expect(rows).toContain('Facility: Branch');
    expect(rows.join('\n')).not.toContain('()');
  });

  it('shows only what exists: a role with a scope but no scope type, and one without a scope', () => {
    const rows = summaryRows({
      ...INVITE,
      roles: [
        { name: 'Role', scopeType: null, scope: 'scope' },
        { name: 'Viewer' },
        { name: 'Auditor', scopeType: 'APP', scope: null },
      ],
    });
    expect(rows).toContain('Roles: Role (scope), Viewer, Auditor (APP)');
  });

  it('leaves out a facility and birth date the invitation does not have', () => {
    const rows = summaryRows({ ...INVITE, facilityName: null, facilityAliasOrCode: null, birthDate: null });
    expect(rows.some((row) => row.startsWith(`${t.invitation.facility}:`))).toBe(false);
    expect(rows.some((row) => row.startsWith(`${t.invitation.birthDate}:`))).toBe(false);
  });
});

describe('the merge confirmation', () => {
  const DETAILS: MergeDetails = {
    username: 'C10006',
    name: 'Noah Walsh',
    email: 'noah@example.com',
    mobile: null,
    phone: null,
    birthDate: '1990-12-31',
    accessibleFacilities: [],
  };

  function mount(details: MergeDetails) {
    render(
      <MantineProvider>
        <MemoryRouter>
          <ConfirmationView details={details} errors={[]} busy={false} backTo="/" onMerge={() => {}} />
        </MemoryRouter>
      </MantineProvider>,
    );
  }

  it('shows the birth date as DD Mon YYYY, as the profile does', () => {
    mount(DETAILS);
    const row = screen.getByText(mt.confirmation.birthDate).closest('tr');
    expect(row).not.toBeNull();
    expect(within(row!).getByText('31 Dec 1990')).toBeInTheDocument();
    expect(screen.queryByText('1990-12-31')).toBeNull();
  });

  it("says 'Not set' without a birth date", () => {
    mount({ ...DETAILS, birthDate: null });
    const row = screen.getByText(mt.confirmation.birthDate).closest('tr');
    expect(within(row!).getByText(mt.notSet)).toBeInTheDocument();
  });
});
