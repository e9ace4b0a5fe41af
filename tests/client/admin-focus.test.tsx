// The admin screens for keyboard and screen reader users (found by the keyboard journeys of
// tests/e2e/keyboard-admin.e2e.test.ts): 'Invite someone' announces its errors at their fields and
// puts the focus on the first; once sent, the notice takes the focus, and 'Invite someone else'
// puts it back in the email; a revoke's notice takes the focus from the row's vanished button; the
// identity's 'Sign out of all devices' modal gives the focus back to its button on Escape, and to
// the notice once the identity is signed out; the history's badges keep white text at 4.5:1; the
// lists' pager keeps its buttons focusable (aria-disabled) while a page loads and at either end;
// the SMS gateway's switch has the focus back once its change is saved; the screens' loaders are named
// progress bars (a name on a role-less element is prohibited ARIA, which axe found on the identity
// page while its history loaded).
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import axe from 'axe-core';
import { fromPromise } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import { createInvitationMachine } from '../../machines/admin/create-invitation/create-invitation.machine';
import { identityMachine } from '../../machines/admin/identity/identity.machine';
import { invitationsMachine } from '../../machines/admin/invitations/invitations.machine';
import { smsGatewayMachine } from '../../machines/admin/sms-gateway/sms-gateway.machine';
import { VARIANT_COLOUR } from '../../src/client/flows/access-requests/HistoryTab';
import { Pager } from '../../src/client/flows/access-requests/Pager';
import { accessRequestsTexts } from '../../src/client/flows/access-requests/access-requests.texts';
import { adminTexts } from '../../src/client/flows/admin/admin.texts';
import { identityTexts } from '../../src/client/flows/admin/identities.texts';
import { IdentityScreen } from '../../src/client/flows/admin/IdentityScreen';
import { InvitationsScreen } from '../../src/client/flows/admin/InvitationsScreen';
import { SmsGatewayScreen } from '../../src/client/flows/admin/SmsGatewayScreen';
import { signOutAllTexts } from '../../src/client/pages/profile.texts';
import { historyPage } from '../machines/access-requests.fixtures';
import { ADMIN_APPS, CREATED, invitation, invitationPage } from '../model/admin.model';
import { IDENTITY, IDENTITY_ID, IDENTITY_SIGNED_OUT, TICKET } from '../model/admin-identities.model';
import { renderAdmin } from './render-admin';

/** The error a field is described by: announced (inside a live region) when it appears. */
function liveErrorOf(field: HTMLElement): HTMLElement {
  const error = (field.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id))
    .find((el): el is HTMLElement => el !== null && el.id.endsWith('-error'));
  expect(error, 'the field is described by its error').toBeDefined();
  expect(error!.closest('[aria-live], [role="status"], [role="alert"]')).not.toBeNull();
  return error!;
}

describe("'Invite someone' by keyboard", () => {
  it(
    'announces missing fields at them and focuses the first; the notice, then the email, take the focus',
    {
      timeout: 20_000,
    },
    async () => {
      const tc = adminTexts.create;
      const create = vi.fn(async () => ({ type: 'created' as const, invitation: CREATED }));
      renderAdmin(<InvitationsScreen />, {
        [invitationsMachine.id]: {
          actors: { loadInvitations: fromPromise(async () => invitationPage(0, '')) },
        },
        [createInvitationMachine.id]: {
          actors: { loadApps: fromPromise(async () => ADMIN_APPS), createInvitation: fromPromise(create) },
        },
      });
      const user = userEvent.setup({ delay: null });
      const form = await screen.findByRole('form', { name: tc.heading });
      const email = within(form).getByRole('textbox', { name: /^Email/ });
      const app = within(form).getByRole('combobox', { name: /^App/ });

      await user.click(within(form).getByRole('button', { name: tc.submit }));
      expect(email).toHaveAttribute('aria-invalid', 'true');
      expect(app).toHaveAttribute('aria-invalid', 'true');
      expect(liveErrorOf(email)).toHaveTextContent(tc.required);
      expect(liveErrorOf(app)).toHaveTextContent(tc.required);
      expect(email).toHaveFocus();
      expect(create).not.toHaveBeenCalled();

      // The app chosen, the missing facility takes the focus.
      await user.type(email, CREATED.email);
      await user.selectOptions(app, 'LOANS');
      await user.click(within(form).getByRole('button', { name: tc.submit }));
      const facility = within(form).getByRole('combobox', { name: /^Facility/ });
      expect(facility).toHaveFocus();
      expect(liveErrorOf(facility)).toHaveTextContent(tc.required);

      await user.selectOptions(facility, 'F002');
      await user.click(within(form).getByRole('button', { name: tc.submit }));
      const sent = await screen.findByText(tc.sent(CREATED.email));
      const notice = sent.closest<HTMLElement>('[role="status"]')!;
      await waitFor(() => expect(notice).toHaveFocus());

      await user.click(screen.getByRole('button', { name: tc.again }));
      const again = await screen.findByRole('form', { name: tc.heading });
      await waitFor(() => expect(within(again).getByRole('textbox', { name: /^Email/ })).toHaveFocus());
    },
  );

  it(
    "focuses the first field the server refused (and not on the form's first showing)",
    {
      timeout: 20_000,
    },
    async () => {
      const tc = adminTexts.create;
      const refusal = 'LOANS has no facility with the code F002.';
      renderAdmin(<InvitationsScreen />, {
        [invitationsMachine.id]: {
          actors: { loadInvitations: fromPromise(async () => invitationPage(0, '')) },
        },
        [createInvitationMachine.id]: {
          actors: {
            loadApps: fromPromise(async () => ADMIN_APPS),
            createInvitation: fromPromise(async () => ({
              type: 'refused' as const,
              message: refusal,
              fieldErrors: [{ fieldName: 'facilityCode', message: refusal }],
            })),
          },
        },
      });
      const user = userEvent.setup({ delay: null });
      const form = await screen.findByRole('form', { name: tc.heading });
      const email = within(form).getByRole('textbox', { name: /^Email/ });
      expect(email).not.toHaveFocus();
      await user.type(email, CREATED.email);
      await user.selectOptions(within(form).getByRole('combobox', { name: /^App/ }), 'LOANS');
      await user.selectOptions(within(form).getByRole('combobox', { name: /^Facility/ }), 'F002');
      await user.click(within(form).getByRole('button', { name: tc.submit }));
      const facility = within(form).getByRole('combobox', { name: /^Facility/ });
      await waitFor(() => expect(facility).toHaveFocus());
      expect(facility).toHaveAttribute('aria-invalid', 'true');
      expect(liveErrorOf(facility)).toHaveTextContent(refusal);
    },
  );
});

describe('revoking an invitation by keyboard', () => {
  it("moves the focus from the row's vanished button to the notice of what was done", async () => {
    const ti = adminTexts.invitations;
    const open = invitation(1, 'OPEN');
    const revoked = {
      ...open,
      status: 'REVOKED' as const,
      revokedAt: CREATED.createdDate,
      revokedBy: 'admin1',
    };
    let current = open;
    renderAdmin(<InvitationsScreen />, {
      [invitationsMachine.id]: {
        actors: {
          loadInvitations: fromPromise(async () => ({
            data: [current],
            page: { number: 0, size: 20, totalElements: 1 },
          })),
          revokeInvitation: fromPromise(async () => {
            current = revoked;
            return revoked;
          }),
        },
      },
      [createInvitationMachine.id]: { actors: { loadApps: fromPromise(async () => ADMIN_APPS) } },
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: ti.revokeLabel(open.email) }));
    const notice = await screen.findByText(ti.revoked(open.email));
    expect(notice).toHaveAttribute('role', 'status');
    await waitFor(() => expect(notice).toHaveFocus());
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: ti.revokeLabel(open.email) })).toBeNull(),
    );
  });
});

describe("the identity's 'Sign out of all devices' modal by keyboard", () => {
  it(
    'gives the focus back to its button on Escape, and to the notice once signed out',
    {
      timeout: 20_000,
    },
    async () => {
      const ti = identityTexts.identity;
      let signedOut = false;
      renderAdmin(<IdentityScreen id={IDENTITY_ID} />, {
        [identityMachine.id]: {
          actors: {
            loadIdentity: fromPromise(async () => (signedOut ? IDENTITY_SIGNED_OUT : IDENTITY)),
            signOutIdentity: fromPromise(async () => {
              signedOut = true;
              return { type: 'signedOut' as const };
            }),
          },
        },
        [historyMachine.id]: { actors: { loadHistoryPage: fromPromise(async () => historyPage(0, 2)) } },
      });
      const user = userEvent.setup({ delay: null });
      const button = await screen.findByRole('button', { name: ti.signOutAll });
      await act(async () => button.focus());
      await user.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: signOutAllTexts.title });
      await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() => expect(button).toHaveFocus());

      await user.keyboard('{Enter}');
      const again = await screen.findByRole('dialog', { name: signOutAllTexts.title });
      await user.type(
        within(again).getByRole('textbox', { name: signOutAllTexts.ticket }),
        `${TICKET}{Enter}`,
      );
      const notice = await screen.findByTestId('signed-out-notice');
      expect(notice).toHaveTextContent(ti.signedOut(IDENTITY.username, TICKET));
      await waitFor(() => expect(notice).toHaveFocus());
    },
  );
});

/** WCAG 2.x contrast of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe("the history's badges", () => {
  it('keep white text at 4.5:1 or more on every variant (success was 4.4:1)', () => {
    for (const [variant, colour] of Object.entries(VARIANT_COLOUR)) {
      expect(colour, variant).toMatch(/^#[0-9a-f]{6}$/i);
      expect(contrast(colour, '#ffffff'), variant).toBeGreaterThanOrEqual(4.5);
    }
    expect(Object.keys(VARIANT_COLOUR)).toEqual(
      expect.arrayContaining(['info', 'success', 'warning', 'danger']),
    );
  });
});

describe("the lists' pager", () => {
  const t = accessRequestsTexts;
  const mount = (number: number, busy: boolean, onPage = vi.fn()) => (
    <MantineProvider>
      <Pager page={{ number, size: 5, totalElements: 7 }} busy={busy} onPage={onPage} />
    </MantineProvider>
  );

  it('keeps the pressed button focusable while the page loads, and Previous on the first page', async () => {
    const onPage = vi.fn();
    const view = render(mount(0, false, onPage));
    const user = userEvent.setup({ delay: null });
    const previous = screen.getByRole('button', { name: t.previousPage });
    // On the first page Previous does nothing, but is not disabled: it keeps a focus it has.
    expect(previous).not.toBeDisabled();
    expect(previous).toHaveAttribute('aria-disabled', 'true');
    await user.click(previous);
    expect(onPage).not.toHaveBeenCalled();

    const second = screen.getByRole('button', { name: '2' });
    await user.click(second);
    expect(onPage).toHaveBeenCalledWith(1);
    // Loading: every button stays focusable, and none acts.
    view.rerender(mount(0, true, onPage));
    for (const button of screen.getAllByRole('button')) {
      expect(button).not.toBeDisabled();
      expect(button).toHaveAttribute('aria-disabled', 'true');
    }
    expect(second).toHaveFocus();
    await user.click(screen.getByRole('button', { name: t.nextPage }));
    expect(onPage).toHaveBeenCalledTimes(1);

    view.rerender(mount(1, false, onPage));
    expect(second).toHaveAttribute('aria-current', 'page');
    expect(second).not.toHaveAttribute('aria-disabled');
    expect(screen.getByRole('button', { name: t.nextPage })).toHaveAttribute('aria-disabled', 'true');
    await user.click(previous);
    expect(onPage).toHaveBeenLastCalledWith(0);
  });
});

describe("the SMS gateway's switch", () => {
  it('has the focus back once its change is saved (disabling it meanwhile dropped the focus)', async () => {
    const ts = adminTexts.smsGateway;
    let finish = () => {};
    const saveStatus = vi.fn(
      ({ input }: { input: { available: boolean } }) =>
        new Promise<boolean>((resolve) => {
          finish = () => resolve(input.available);
        }),
    );
    renderAdmin(<SmsGatewayScreen />, {
      [smsGatewayMachine.id]: {
        actors: { loadStatus: fromPromise(async () => true), saveStatus: fromPromise(saveStatus) },
      },
    });
    const user = userEvent.setup({ delay: null });
    const toggle = await screen.findByRole('switch', { name: ts.switchLabel });
    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeDisabled());
    // What a browser does with a focused control that is disabled (jsdom does not): the body has
    // the focus.
    await act(async () => {
      document.body.tabIndex = -1;
      document.body.focus();
      document.body.removeAttribute('tabindex');
    });
    expect(document.body).toHaveFocus();
    await act(async () => finish());
    expect(await screen.findByRole('status')).toHaveTextContent(ts.saved(false));
    expect(toggle).not.toBeChecked();
    await waitFor(() => expect(toggle).toHaveFocus());
    expect(saveStatus).toHaveBeenCalledTimes(1);
  });
});

describe("the admin screens' loaders", () => {
  it('are progress bars named Loading, which axe accepts', async () => {
    const never = () => new Promise<never>(() => {});
    renderAdmin(
      <>
        <InvitationsScreen />
        <IdentityScreen id={IDENTITY_ID} />
      </>,
      {
        [invitationsMachine.id]: { actors: { loadInvitations: fromPromise(never) } },
        [createInvitationMachine.id]: { actors: { loadApps: fromPromise(never) } },
        [identityMachine.id]: { actors: { loadIdentity: fromPromise(async () => IDENTITY) } },
        [historyMachine.id]: { actors: { loadHistoryPage: fromPromise(never) } },
      },
    );
    await screen.findByRole('heading', { name: identityTexts.identity.heading(IDENTITY.username) });
    // The invitation list, the form's apps, and the identity's history.
    expect(screen.getAllByRole('progressbar', { name: 'Loading' })).toHaveLength(3);
    const result = await axe.run(document.body, {
      runOnly: ['aria-prohibited-attr', 'aria-progressbar-name'],
    });
    expect(result.violations.map((v) => v.id)).toEqual([]);
  });
});
