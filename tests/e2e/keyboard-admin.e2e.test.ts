// The admin journeys of the browser suite by keyboard alone (WCAG 2.1.1; see support/keyboard.ts):
// admin1 approves one pending access request and rejects the other through their confirmations
// (the Jira ticket code, the reason), creates and revokes invitations, finds C10001 from the
// header's search bar and signs it out of all devices through the modal, reads the apps screen and
// switches SMS codes off and on; auditor1 pages through a request's history. The focus is on each
// new page's heading, on each confirmation's title and on each outcome, and stays on a control
// that was used; a dialog keeps the focus inside and gives it back; errors are announced at their
// field. axe-core (WCAG 2.2 A and AA) on every state visited. One browser context per journey, on
// this file's own server.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessRequestsTexts as t } from '../../src/client/flows/access-requests/access-requests.texts';
import { adminTexts } from '../../src/client/flows/admin/admin.texts';
import { identityTexts } from '../../src/client/flows/admin/identities.texts';
import { identitySearchBarTexts } from '../../src/client/flows/admin/IdentitySearchBar';
import { signOutAllTexts } from '../../src/client/pages/profile.texts';
import { expectNoAxeViolations, pagePerTest } from './support/browser';
import { isFocused, keyboardUser } from './support/keyboard';
import { portalOf } from './support/portal';

const { baseUrl } = portalOf(import.meta.url);

let page: Page;
pagePerTest(
  (p) => {
    page = p;
  },
  { viewport: { width: 1280, height: 800 } },
);

const {
  tabTo,
  typeInto,
  chooseOption,
  expectFocusOn,
  expectFocusOnHeading,
  expectAnnounced,
  expectFieldErrorAnnounced,
  signIn,
} = keyboardUser({ page: () => page, baseUrl });

/** admin1 signs in and opens Administration from the main navigation: its invitations screen. */
async function openAdministrationAsAdmin1(): Promise<void> {
  await signIn('admin1');
  await page.waitForURL((url) => url.pathname !== '/');
  await tabTo(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: adminTexts.heading }));
  await page.keyboard.press('Enter');
  await page.waitForURL(`${baseUrl}/admin/invitations`);
  // The focus is on the screen's heading (data-step-heading), below the page's h1.
  await expectFocusOnHeading(adminTexts.invitations.heading, 2);
}

/**
 * admin1 signs in and opens a request from the list. The list is typed in as an address: the
 * header's Access Requests link is for VIEW_ACCESS_REQUESTS holders only (section 2.2), which
 * admin1 is not.
 */
async function openAccessRequest(code: string): Promise<void> {
  await signIn('admin1');
  await page.waitForURL((url) => url.pathname !== '/');
  await page.goto(`${baseUrl}/access-requests`);
  await page.getByRole('heading', { level: 1, name: t.heading }).waitFor();
  await tabTo(page.getByRole('link', { name: code }));
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/access-requests\/[0-9a-f-]{36}$/);
  // The focus is on the request's heading (data-step-heading), drawn once the request has loaded.
  await expectFocusOnHeading(t.requestHeading(code), 2);
}

const organisations = () => page.getByRole('region', { name: t.tabs.organisations });

describe('admin screens by keyboard alone', () => {
  it('admin1 approves a pending access request through its confirmation, after a refused ticket code', async () => {
    // AR-LNSB3Y6T: C10003 asks for Loans at Bayview Aged Care (Loans: manual workflow).
    await openAccessRequest('AR-LNSB3Y6T');
    await organisations().getByText(t.status.PENDING!, { exact: true }).waitFor();
    await expectNoAxeViolations(page, 'a pending access request');

    await tabTo(page.getByRole('button', { name: t.decision.approve, exact: true }));
    await page.keyboard.press('Enter');
    const confirmation = page.getByRole('region', { name: t.decision.approveHeading('AR-LNSB3Y6T') });
    await expectFocusOn(
      confirmation.getByRole('heading', { name: t.decision.approveHeading('AR-LNSB3Y6T') }),
    );
    expect(await confirmation.textContent()).toContain(
      t.decision.approveSummary('Mia Thornton (C10003)', 'Loans at Bayview Aged Care'),
    );
    await expectNoAxeViolations(page, 'the approval confirmation');

    // Nothing typed: the ticket code is required, and Enter in the field says so at the field.
    const ticket = confirmation.getByRole('textbox', { name: t.decision.ticketLabel });
    await tabTo(ticket);
    await page.keyboard.press('Enter');
    await expectFieldErrorAnnounced(ticket);
    await expectFocusOn(ticket);
    await expectNoAxeViolations(page, 'the approval confirmation without a ticket');

    // A ticket code that is not a Jira key is refused by the server, at the field.
    await typeInto(ticket, 'not a key');
    await tabTo(confirmation.getByRole('button', { name: t.decision.confirmApprove }));
    await page.keyboard.press('Enter');
    await expectFieldErrorAnnounced(ticket);
    await expectFocusOn(ticket);

    await typeInto(ticket, 'SUP-2026');
    await tabTo(confirmation.getByRole('button', { name: t.decision.confirmApprove }));
    await page.keyboard.press('Space');
    // The outcome takes the focus (the confirmation it was in is gone), and is announced.
    const approved = t.decision.approved('AR-LNSB3Y6T');
    await expectAnnounced(approved);
    await expectFocusOn(page.getByRole('status').filter({ hasText: approved }));
    await organisations().getByText(t.status.APPROVED!, { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: t.decision.approve, exact: true }).count()).toBe(0);
    await expectNoAxeViolations(page, 'a request just approved');

    // On to its history tab: the approval with admin1 and the ticket.
    await tabTo(page.getByRole('link', { name: t.tabs.history }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/access-requests\/[0-9a-f-]{36}\/history$/);
    await expectFocusOnHeading(t.requestHeading('AR-LNSB3Y6T'), 2);
    const items = page.getByTestId('history-item');
    await expect.poll(() => items.nth(2).textContent()).toContain('Approved');
    expect(await items.nth(2).getByRole('link', { name: 'SUP-2026' }).count()).toBe(1);
    await expectNoAxeViolations(page, 'the history of a request just approved');
  });

  it('admin1 cancels, then rejects a pending access request for a ticket with a reason', async () => {
    // AR-TRSY4K7M: C10004 asks for Treasury (manual workflow).
    await openAccessRequest('AR-TRSY4K7M');
    const reject = page.getByRole('button', { name: t.decision.reject, exact: true });
    await tabTo(reject);
    await page.keyboard.press('Enter');
    const heading = t.decision.rejectHeading('AR-TRSY4K7M');
    const confirmation = page.getByRole('region', { name: heading });
    await expectFocusOn(confirmation.getByRole('heading', { name: heading }));
    await expectNoAxeViolations(page, 'the rejection confirmation');

    // Cancel: the confirmation goes, and the focus goes back to the decision buttons.
    await tabTo(confirmation.getByRole('button', { name: t.decision.cancel }));
    await page.keyboard.press('Enter');
    await confirmation.waitFor({ state: 'detached' });
    await expectFocusOn(page.getByRole('button', { name: t.decision.approve, exact: true }));

    await tabTo(reject);
    await page.keyboard.press('Space');
    await expectFocusOn(confirmation.getByRole('heading', { name: heading }));
    await typeInto(confirmation.getByRole('textbox', { name: t.decision.ticketLabel }), 'SUP-3031');
    // No reason: Enter in the ticket field submits, and the reason is asked for at its field.
    await page.keyboard.press('Enter');
    const reason = confirmation.getByRole('textbox', { name: t.decision.reasonLabel });
    await expectFocusOn(reason);
    await expectFieldErrorAnnounced(reason);
    await expectNoAxeViolations(page, 'the rejection confirmation without a reason');

    // Enter in the reason is a new line; the button confirms.
    await page.keyboard.type('No manager approval.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Ask again with it.');
    await tabTo(confirmation.getByRole('button', { name: t.decision.confirmReject }));
    await page.keyboard.press('Enter');
    const rejected = t.decision.rejected('AR-TRSY4K7M');
    await expectAnnounced(rejected);
    await expectFocusOn(page.getByRole('status').filter({ hasText: rejected }));
    await organisations().getByText(t.status.REJECTED!, { exact: true }).waitFor();
    await expectNoAxeViolations(page, 'a request just rejected');
  });

  it('admin1 sends an invitation after its missing fields are announced, then revokes another', async () => {
    const ti = adminTexts.invitations;
    const tc = adminTexts.create;
    await openAdministrationAsAdmin1();
    const form = page.getByRole('form', { name: tc.heading });
    const email = form.getByRole('textbox', { name: /^Email/ });
    const app = form.getByRole('combobox', { name: /^App/ });
    await app.waitFor();
    await expectNoAxeViolations(page, 'admin invitations');

    // Sent empty: the missing email and app are announced at their fields; the email has the focus.
    await tabTo(form.getByRole('button', { name: tc.submit }));
    await page.keyboard.press('Enter');
    await expectFocusOn(email);
    await expectFieldErrorAnnounced(email);
    await expectFieldErrorAnnounced(app);
    await expectNoAxeViolations(page, 'the invitation form with missing fields');

    await page.keyboard.type('sam.keyboard@example.com');
    await chooseOption(app, 'Loans (LOANS)');
    const facility = form.getByRole('combobox', { name: /^Facility/ });
    await chooseOption(facility, 'Riverside Family Practice (F002)');
    await typeInto(form.getByRole('textbox', { name: tc.name }), 'Sam Keyboard');
    await tabTo(form.getByRole('button', { name: tc.submit }));
    await page.keyboard.press('Enter');
    // The form makes way for what was sent, which takes the focus and is announced.
    const sent = page.getByRole('status').filter({ hasText: tc.sent('sam.keyboard@example.com') });
    await expectAnnounced(tc.sent('sam.keyboard@example.com'));
    await expectFocusOn(sent);
    await expectNoAxeViolations(page, 'an invitation just sent');

    // Another, for Payroll: 'Invite someone else' brings the form back with the focus in it.
    await tabTo(page.getByRole('button', { name: tc.again }));
    await page.keyboard.press('Enter');
    await expectFocusOn(email);
    await page.keyboard.type('jo.keyboard@example.com');
    await chooseOption(app, 'Payroll (PAYROLL)');
    expect(await form.getByRole('combobox', { name: /^Facility/ }).count()).toBe(0);
    await tabTo(form.getByRole('button', { name: tc.submit }));
    await page.keyboard.press('Enter');
    await expectFocusOn(page.getByRole('status').filter({ hasText: tc.sent('jo.keyboard@example.com') }));

    // The list, searched by keyboard: Enter in the search field.
    await typeInto(page.getByRole('searchbox', { name: ti.searchLabel }), 'keyboard');
    await page.keyboard.press('Enter');
    const rows = page.getByTestId('invitation-row');
    await expect.poll(() => rows.count()).toBe(2);
    await expectNoAxeViolations(page, 'the invitations searched');

    // Revoked: the row's button goes; the focus goes to what was done, which is announced.
    const revoke = page.getByRole('button', { name: ti.revokeLabel('jo.keyboard@example.com') });
    await tabTo(revoke);
    await page.keyboard.press('Enter');
    await expectAnnounced(ti.revoked('jo.keyboard@example.com'));
    await expectFocusOn(page.getByRole('status').filter({ hasText: ti.revoked('jo.keyboard@example.com') }));
    const revoked = rows.filter({ hasText: 'jo.keyboard@example.com' });
    await revoked.getByText(ti.status.REVOKED!, { exact: true }).waitFor();
    expect(await revoked.getByRole('button').count()).toBe(0);
    const open = rows.filter({ hasText: 'sam.keyboard@example.com' });
    expect(await open.getByText(ti.status.OPEN!, { exact: true }).count()).toBe(1);
    await expectNoAxeViolations(page, 'the invitations after a revoke');
  });

  it("admin1 finds C10001 from the header's search and signs it out of all devices through the modal", async () => {
    const ti = identityTexts.identity;
    const TICKET = 'SUP-515151';
    await signIn('admin1');
    await page.waitForURL((url) => url.pathname !== '/');
    await typeInto(page.getByRole('searchbox', { name: identitySearchBarTexts.label }), 'C10001');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/admin/identities?query=C10001`);
    await expectFocusOnHeading(identityTexts.search.heading, 2);
    await expect.poll(() => page.getByTestId('identity-row').count()).toBe(1);
    await expectNoAxeViolations(page, 'the identity search results');

    await tabTo(page.getByRole('link', { name: 'C10001', exact: true }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/admin\/identities\/[0-9a-f-]{36}$/);
    await expectFocusOnHeading(ti.heading('C10001'), 2);
    await expectNoAxeViolations(page, 'the identity page');

    // The modal: the focus moves into it, stays there, and Escape gives it back to its button.
    const signOutAll = page.getByRole('button', { name: ti.signOutAll });
    await tabTo(signOutAll);
    await page.keyboard.press('Enter');
    const modal = page.getByRole('dialog', { name: signOutAllTexts.title });
    await modal.waitFor();
    const inModal = () => modal.evaluate((el) => el.contains(document.activeElement));
    await expect.poll(inModal).toBe(true);
    for (let presses = 0; presses < 8; presses += 1) {
      await page.keyboard.press('Tab');
      expect(await inModal(), 'Tab keeps the focus in the dialog').toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await inModal(), 'Shift+Tab keeps the focus in the dialog').toBe(true);
    await expectNoAxeViolations(page, "the identity's 'Sign out of all devices' modal");
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    await expectFocusOn(signOutAll);

    await page.keyboard.press('Enter');
    await modal.waitFor();
    const ticket = modal.getByRole('textbox', { name: signOutAllTexts.ticket });
    // The ticket is required for another identity: Enter in the empty field says so there.
    await tabTo(ticket);
    await page.keyboard.press('Enter');
    await expectFieldErrorAnnounced(ticket);
    expect(await isFocused(ticket)).toBe(true);
    await expectNoAxeViolations(page, 'the modal without a ticket');
    await page.keyboard.type(TICKET);
    await tabTo(modal.getByRole('button', { name: signOutAllTexts.confirm }));
    await page.keyboard.press('Enter');
    await modal.waitFor({ state: 'detached' });
    // Done: the notice of what was done takes the focus, and is announced.
    const notice = ti.signedOut('C10001', TICKET);
    await expectAnnounced(notice);
    await expectFocusOn(page.getByTestId('signed-out-notice'));
    await page.getByText(ti.noSessions).waitFor();
    await expectNoAxeViolations(page, 'the identity page after the sign-out');

    // The history's actor link, then the roles list, by keyboard.
    const first = page.getByTestId('history-item').first();
    await expect.poll(() => first.textContent()).toContain('Signed out of all devices');
    await tabTo(first.getByRole('link', { name: 'admin1' }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: ti.heading('admin1') }).waitFor();
    await expectFocusOnHeading(ti.heading('admin1'), 2);
    await tabTo(
      page
        .getByRole('navigation', { name: adminTexts.navLabel })
        .getByRole('link', { name: identityTexts.navRoles }),
      'Shift+Tab',
    );
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/admin/roles`);
    await expectFocusOnHeading(identityTexts.roles.heading, 2);
    await page.getByTestId('roles-sam-admin').waitFor();
    await expectNoAxeViolations(page, 'the roles lists');
  });

  it('admin1 reads the apps screen and switches SMS codes off and on with Space', async () => {
    const ts = adminTexts.smsGateway;
    await openAdministrationAsAdmin1();
    const adminNav = page.getByRole('navigation', { name: adminTexts.navLabel });

    await tabTo(adminNav.getByRole('link', { name: adminTexts.nav.apps }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/admin/apps`);
    await expectFocusOnHeading(adminTexts.apps.heading, 2);
    await page
      .getByRole('region', { name: 'Loans' })
      .getByText('Undertake manual workflow for Access Requests')
      .waitFor();
    await expectNoAxeViolations(page, 'admin apps');

    await tabTo(adminNav.getByRole('link', { name: adminTexts.nav.smsGateway }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/admin/sms-gateway`);
    await expectFocusOnHeading(adminTexts.smsGateway.heading, 2);
    const toggle = page.getByRole('switch', { name: ts.switchLabel });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await expectNoAxeViolations(page, 'admin SMS gateway');
    const smsStatus = async () =>
      (
        (await (
          await fetch(`${baseUrl}/rest/ui/anonymous/properties/sms-gateway-status`, {
            headers: { 'X-Requested-With': 'XMLHttpRequest' },
          })
        ).json()) as { isSmsGatewayAvailable: boolean }
      ).isSmsGatewayAvailable;

    // Space switches; what was saved is announced, and the focus stays on the switch.
    await tabTo(toggle);
    await page.keyboard.press('Space');
    await expectAnnounced(ts.saved(false));
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await expectFocusOn(toggle);
    expect(await smsStatus()).toBe(false);
    await expectNoAxeViolations(page, 'admin SMS gateway switched off');
    await page.keyboard.press('Space');
    await expectAnnounced(ts.saved(true));
    await expectFocusOn(toggle);
    expect(await smsStatus()).toBe(true);
  });

  it("auditor1 pages through a request's history with the pager's buttons", async () => {
    await signIn('auditor1');
    await page.waitForURL(`${baseUrl}/access-requests`);
    await expectFocusOnHeading(t.heading);
    await tabTo(page.getByRole('link', { name: 'AR-TRSY4K7M' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/access-requests\/[0-9a-f-]{36}$/);
    await tabTo(page.getByRole('link', { name: t.tabs.history }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/history$/);
    await expectFocusOnHeading(t.requestHeading('AR-TRSY4K7M'), 2);
    const items = page.getByTestId('history-item');
    await expect.poll(() => items.count()).toBe(5);
    // Seven items in the demo data, more once the journey above has rejected the request.
    const total = Number(/^(\d+)/.exec((await page.getByTestId('result-count').textContent()) ?? '')?.[1]);
    expect(total).toBeGreaterThanOrEqual(7);

    // Page 2 by its button: the items change, and the focus stays on the pager.
    const pager = page.getByRole('navigation', { name: t.pagination });
    const second = pager.getByRole('button', { name: '2' });
    await tabTo(second);
    await page.keyboard.press('Enter');
    await expect.poll(() => items.count()).toBe(Math.min(5, total - 5));
    await expect.poll(() => second.getAttribute('aria-current')).toBe('page');
    await expectFocusOn(second);
    await expectNoAxeViolations(page, 'the history, page 2');

    // Back by 'Previous' (which page 1 disables): the focus stays in the pager.
    await tabTo(pager.getByRole('button', { name: t.previousPage }), 'Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => items.count()).toBe(5);
    await expect
      .poll(() => pager.evaluate((nav) => nav.contains(document.activeElement)), {
        message: 'focus in the pager',
      })
      .toBe(true);
  });
});
