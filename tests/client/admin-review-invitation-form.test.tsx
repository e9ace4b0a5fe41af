// 'Invite someone' checks its fields with the contract's CreateInvitationBody before anything is
// sent: an address without a domain ending, or a validity of 0, 400 or 1.5 days, was sent, refused
// by the server with 400, and section 8 took the admin to /error, the typed form lost. Each problem
// shows at its field (aria-invalid, described by its message), the first takes the focus, nothing
// is sent, and what was typed stays.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as v from 'valibot';
import { fromPromise } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { createInvitationMachine } from '../../machines/admin/create-invitation/create-invitation.machine';
import type { CreateInvitationResult } from '../../machines/admin/create-invitation/create-invitation.types';
import { invitationsMachine } from '../../machines/admin/invitations/invitations.machine';
import { adminTexts } from '../../src/client/flows/admin/admin.texts';
import { InvitationsScreen } from '../../src/client/flows/admin/InvitationsScreen';
import { CreateInvitationBody } from '../../src/contract/admin';
import { messages } from '../../src/contract/fields';
import { ADMIN_APPS, CREATED, invitationPage } from '../model/admin.model';
import { renderAdmin } from './render-admin';

const tc = adminTexts.create;

type Create = (input: CreateInvitationBody) => Promise<CreateInvitationResult>;

async function renderForm() {
  const create = vi.fn<Create>(async () => ({ type: 'created', invitation: CREATED }));
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
  const form = await screen.findByRole('form', { name: tc.heading });
  return {
    create,
    form,
    email: within(form).getByRole('textbox', { name: /^Email/ }),
    app: within(form).getByRole('combobox', { name: /^App/ }),
    days: within(form).getByRole('spinbutton', { name: tc.validityDays }),
    submit: within(form).getByRole('button', { name: tc.submit }),
  };
}

/** The text of the error a field is described by, or null. */
function errorOf(field: HTMLElement): string | null {
  const error = (field.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id))
    .find((el): el is HTMLElement => el !== null && el.id.endsWith('-error'));
  return error?.textContent ?? null;
}

describe("'Invite someone' checked with the contract before it is sent", () => {
  it(
    'refuses an email address the contract refuses, at the field, and keeps what was typed',
    { timeout: 20_000 },
    async () => {
      // The server's check (CreateInvitationBody) refuses it: sending it would end on /error.
      expect(
        v.safeParse(CreateInvitationBody, { email: 'jane.doe@example', appCode: 'PAYROLL', isStaff: false })
          .success,
      ).toBe(false);
      const { create, form, email, app, days, submit } = await renderForm();
      const user = userEvent.setup({ delay: null });
      await user.type(email, 'jane.doe@example');
      await user.selectOptions(app, 'PAYROLL');
      await user.click(submit);

      expect(email).toHaveAttribute('aria-invalid', 'true');
      expect(errorOf(email)).toBe(messages.invalidEmail);
      expect(email).toHaveFocus();
      expect(app).not.toHaveAttribute('aria-invalid', 'true');
      expect(days).not.toHaveAttribute('aria-invalid', 'true');
      expect(create).not.toHaveBeenCalled();
      // Still the form, as typed.
      expect(screen.getByRole('form', { name: tc.heading })).toBe(form);
      expect(email).toHaveValue('jane.doe@example');
      expect(app).toHaveValue('PAYROLL');

      // Editing the field takes its error away; the corrected address is sent, trimmed.
      await user.type(email, '.com ');
      expect(email).not.toHaveAttribute('aria-invalid', 'true');
      expect(errorOf(email)).toBeNull();
      await user.click(submit);
      await screen.findByText(tc.sent(CREATED.email));
      expect(create).toHaveBeenCalledTimes(1);
      expect(create.mock.calls[0]![0]).toEqual({
        email: 'jane.doe@example.com',
        appCode: 'PAYROLL',
        isStaff: false,
        validityDays: 14,
      });
    },
  );

  it.each([
    ['0', messages.minValue(1)],
    ['400', messages.maxValue(365)],
    ['1.5', tc.wholeDays],
  ])(
    'refuses a validity of %s days at its field, which takes the focus',
    { timeout: 20_000 },
    async (typed, message) => {
      expect(
        v.safeParse(CreateInvitationBody, {
          email: 'robin@example.com',
          appCode: 'PAYROLL',
          isStaff: false,
          validityDays: Number(typed),
        }).success,
      ).toBe(false);
      const { create, email, app, days, submit } = await renderForm();
      const user = userEvent.setup({ delay: null });
      await user.type(email, 'robin@example.com');
      await user.selectOptions(app, 'PAYROLL');
      await user.clear(days);
      await user.type(days, typed);
      await user.click(submit);

      expect(days).toHaveAttribute('aria-invalid', 'true');
      expect(errorOf(days)).toBe(message);
      expect(days).toHaveFocus();
      expect(email).not.toHaveAttribute('aria-invalid', 'true');
      expect(create).not.toHaveBeenCalled();
      expect(days).toHaveValue(Number(typed));
      expect(email).toHaveValue('robin@example.com');

      await user.clear(days);
      await user.type(days, '30');
      expect(days).not.toHaveAttribute('aria-invalid', 'true');
      await user.click(submit);
      await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
      expect(create.mock.calls[0]![0]).toMatchObject({ email: 'robin@example.com', validityDays: 30 });
    },
  );

  it('shows every problem at its field and focuses the first in the form', { timeout: 20_000 }, async () => {
    const { create, email, app, days, submit } = await renderForm();
    const user = userEvent.setup({ delay: null });
    await user.type(email, 'jane.doe@example');
    await user.clear(days);
    await user.type(days, '0');
    await user.click(submit);

    expect(errorOf(email)).toBe(messages.invalidEmail);
    expect(errorOf(app)).toBe(tc.required);
    expect(errorOf(days)).toBe(messages.minValue(1));
    for (const field of [email, app, days]) expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveFocus();
    expect(create).not.toHaveBeenCalled();
  });

  it(
    'refuses text the number field cannot read rather than sending no validity',
    { timeout: 20_000 },
    async () => {
      const { create, email, app, days, submit } = await renderForm();
      const user = userEvent.setup({ delay: null });
      await user.type(email, 'robin@example.com');
      await user.selectOptions(app, 'PAYROLL');
      await user.clear(days);
      // What a browser reports for '1O' typed in a number field: an empty value, and bad input.
      Object.defineProperty(days, 'validity', { configurable: true, value: { badInput: true } });
      await user.click(submit);

      expect(days).toHaveAttribute('aria-invalid', 'true');
      expect(errorOf(days)).toBe(messages.numeric);
      expect(days).toHaveFocus();
      expect(create).not.toHaveBeenCalled();
    },
  );
});
