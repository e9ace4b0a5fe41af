// 'Invite someone' and the invitee's name (section 5): a customer with a customer number who is not
// staff cannot enter the name when registering, so the form asks for it (marked required, refused
// at the field before anything is sent) and shows the server's refusal of a nameless invitation at
// the name field; staff, and invitees without a customer number, may be invited without one.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { createInvitationMachine } from '../../machines/admin/create-invitation/create-invitation.machine';
import type { CreateInvitationResult } from '../../machines/admin/create-invitation/create-invitation.types';
import { invitationsMachine } from '../../machines/admin/invitations/invitations.machine';
import type { CreateInvitationBody } from '../../src/contract/admin';
import { adminTexts } from '../../src/client/flows/admin/admin.texts';
import { InvitationsScreen } from '../../src/client/flows/admin/InvitationsScreen';
import { INVITATION_NAME_REQUIRED_MESSAGE } from '../../src/server/domain/registration/messages';
import { ADMIN_APPS, CREATED, invitationPage } from '../model/admin.model';
import { renderAdmin } from './render-admin';

const tc = adminTexts.create;

type Create = (input: CreateInvitationBody) => Promise<CreateInvitationResult>;

function renderForm(create: Create) {
  renderAdmin(<InvitationsScreen />, {
    [invitationsMachine.id]: {
      actors: { loadInvitations: fromPromise(async () => invitationPage(0, '')) },
    },
    [createInvitationMachine.id]: {
      actors: {
        loadApps: fromPromise(async () => ADMIN_APPS),
        createInvitation: fromPromise<CreateInvitationResult, CreateInvitationBody>(({ input }) =>
          create(input),
        ),
      },
    },
  });
}

/** The text of the error a field is described by. */
function errorOf(field: HTMLElement): string | null {
  const error = (field.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id))
    .find((el): el is HTMLElement => el !== null && el.id.endsWith('-error'));
  return error?.textContent ?? null;
}

async function fillCustomer(user: ReturnType<typeof userEvent.setup>) {
  const form = await screen.findByRole('form', { name: tc.heading });
  await user.type(within(form).getByRole('textbox', { name: /^Email/ }), 'nameless@example.com');
  await user.selectOptions(within(form).getByRole('combobox', { name: /^App/ }), 'PAYROLL');
  await user.type(within(form).getByRole('textbox', { name: /^Customer number/ }), 'C20031');
  return form;
}

describe("'Invite someone' and the invitee's name", () => {
  it(
    'requires the name of a non-staff customer with a customer number before sending, at the field',
    { timeout: 20_000 },
    async () => {
      const create = vi.fn<Create>(async () => ({
        type: 'created',
        invitation: CREATED,
      }));
      renderForm(create);
      const user = userEvent.setup({ delay: null });
      const form = await fillCustomer(user);
      const name = within(form).getByRole('textbox', { name: /^Name/ });
      expect(name).toBeRequired();

      await user.click(within(form).getByRole('button', { name: tc.submit }));
      expect(name).toHaveAttribute('aria-invalid', 'true');
      expect(errorOf(name)).toBe(tc.required);
      expect(name).toHaveFocus();
      expect(create).not.toHaveBeenCalled();

      await user.type(name, 'Nat Named');
      await user.click(within(form).getByRole('button', { name: tc.submit }));
      await screen.findByText(tc.sent(CREATED.email));
      expect(create).toHaveBeenCalledTimes(1);
      expect(create.mock.calls[0]).toMatchObject([
        { email: 'nameless@example.com', appCode: 'PAYROLL', customerNumber: 'C20031', name: 'Nat Named' },
      ]);
    },
  );

  it(
    'lets staff, and invitees without a customer number, be invited without a name',
    { timeout: 20_000 },
    async () => {
      const create = vi.fn<Create>(async () => ({
        type: 'created',
        invitation: CREATED,
      }));
      renderForm(create);
      const user = userEvent.setup({ delay: null });
      const form = await fillCustomer(user);
      await user.click(within(form).getByRole('checkbox', { name: tc.isStaff }));
      expect(within(form).getByRole('textbox', { name: /^Name/ })).not.toBeRequired();
      await user.click(within(form).getByRole('button', { name: tc.submit }));
      await screen.findByText(tc.sent(CREATED.email));
      expect(create.mock.calls[0]).toMatchObject([{ customerNumber: 'C20031', isStaff: true }]);
      expect(create.mock.calls[0]![0]).not.toHaveProperty('name');

      await user.click(screen.getByRole('button', { name: tc.again }));
      const again = await screen.findByRole('form', { name: tc.heading });
      await user.type(within(again).getByRole('textbox', { name: /^Email/ }), 'plain@example.com');
      await user.selectOptions(within(again).getByRole('combobox', { name: /^App/ }), 'PAYROLL');
      expect(within(again).getByRole('textbox', { name: /^Name/ })).not.toBeRequired();
      await user.click(within(again).getByRole('button', { name: tc.submit }));
      await waitFor(() => expect(create).toHaveBeenCalledTimes(2));
      expect(create.mock.calls[1]![0]).toMatchObject({ email: 'plain@example.com', isStaff: false });
      expect(create.mock.calls[1]![0]).not.toHaveProperty('name');
    },
  );

  it(
    "shows the server's refusal of a nameless invitation at the name field, which takes the focus",
    { timeout: 20_000 },
    async () => {
      // What the server answers (tests/server/admin.test.ts), were the form's own check passed by.
      const create = vi.fn<Create>(async () => ({
        type: 'refused',
        message: INVITATION_NAME_REQUIRED_MESSAGE,
        fieldErrors: [{ fieldName: 'name', message: 'Required field' }],
      }));
      renderForm(create);
      const user = userEvent.setup({ delay: null });
      const form = await fillCustomer(user);
      const name = within(form).getByRole('textbox', { name: /^Name/ });
      // The form checks the same rule first; should the server still refuse, its refusal is shown.
      await user.type(name, 'Nat Named');
      await user.click(within(form).getByRole('button', { name: tc.submit }));
      await waitFor(() => expect(name).toHaveFocus());
      expect(name).toHaveAttribute('aria-invalid', 'true');
      expect(errorOf(name)).toBe('Required field');
      expect(within(form).getByRole('alert')).toHaveTextContent(INVITATION_NAME_REQUIRED_MESSAGE);
    },
  );
});
