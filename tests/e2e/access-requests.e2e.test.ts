// Journeys of section 2.7 on the built portal and the real server (seeded demo data): auditor1
// (VIEW_ACCESS_REQUESTS) lands on /access-requests after sign-in, searches, opens a request by its
// app code and code, and pages through a history of seven items; C10001 is denied the access-request
// pages (the 403 page) and lands back on the applications page from admin routes, whose path is kept
// as the admin target path as it is for an anonymous visitor;
// admin1 approves a pending request for a manual-workflow app and sees it decided everywhere.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accessRequestsTexts as t } from '../../src/client/flows/access-requests/access-requests.texts';
import { adminTexts } from '../../src/client/flows/admin/admin.texts';
import { permissionDeniedTexts } from '../../src/client/pages/status.texts';
import { expectNoAxeViolations, launchBrowser, waitForCaptcha } from './support/browser';
import { codeSentTo, latestOutboxId } from './support/profile';
import { totpStepNow } from './support/registration-totp';
import { portalOf } from './support/portal';

const PASSWORD = 'Harbour-Lights-2026';
const NEW_PASSWORD = 'Quiet-Harbour-Evening-7315';
const CAPTCHA = 'E2E42';
const { baseUrl } = portalOf(import.meta.url);

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  await context?.close();
  context = await browser.newContext();
  page = await context.newPage();
});

async function signIn(username: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const resultCount = () => page.getByTestId('result-count');

describe('access requests', () => {
  it('auditor1 lands on the list, searches, and pages through a history of more than five items', async () => {
    await signIn('auditor1');
    await page.waitForURL(`${baseUrl}/access-requests`);
    await expect.poll(() => resultCount().textContent()).toBe(t.resultCount(4));
    // The header's Access Requests link is there for VIEW_ACCESS_REQUESTS holders.
    await page.getByRole('link', { name: 'Access Requests' }).first().waitFor();
    expect(await page.getByRole('row').count()).toBe(5);
    await expectNoAxeViolations(page, 'the access-request list');

    await page.getByRole('searchbox', { name: t.searchLabel }).fill('treasury');
    await page.getByRole('button', { name: t.search }).click();
    await expect.poll(() => resultCount().textContent()).toBe(t.resultCount(1));
    await page.getByRole('link', { name: 'AR-TRSY4K7M' }).click();
    await page.getByRole('heading', { level: 2, name: t.requestHeading('AR-TRSY4K7M') }).waitFor();
    const id = new URL(page.url()).pathname.split('/').at(-1)!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const organisations = page.getByRole('region', { name: t.tabs.organisations });
    await organisations.getByText('Treasury (TREASURY)').waitFor();
    await organisations.getByText(t.notDecided).waitFor();
    await expectNoAxeViolations(page, 'an access request, organisations tab');

    await page.getByRole('link', { name: t.tabs.history }).click();
    await page.waitForURL(`${baseUrl}/access-requests/${id}/history`);
    await expect.poll(() => resultCount().textContent()).toBe(`${t.resultCount(7)} · ${t.pageCount(2)}`);
    const items = page.getByTestId('history-item');
    await expect.poll(() => items.count()).toBe(5);
    // Newest first: Treasury's reminder, from the app (System), then admin1's note with its ticket.
    await expect.poll(() => items.nth(0).textContent()).toContain(t.system);
    expect(await items.nth(0).textContent()).toContain(t.viaApp('Treasury'));
    // auditor1 does not hold READ_ONLY: the actor is text, not a link.
    expect(await items.nth(1).getByRole('link', { name: 'admin1' }).count()).toBe(0);
    expect(await items.nth(1).getByRole('link', { name: 'SD-1042' }).getAttribute('href')).toBe(
      'https://jira.example.com/browse/SD-1042',
    );
    expect(await items.nth(1).innerText()).toContain(
      'Manager approval received by phone.\nAwaiting written confirmation.',
    );
    await expectNoAxeViolations(page, 'an access request, history tab');

    await page.getByRole('navigation', { name: t.pagination }).getByRole('button', { name: '2' }).click();
    await expect.poll(() => items.count()).toBe(2);
    await expect.poll(() => items.nth(1).textContent()).toContain('Access requested');
    expect(await items.nth(1).getByText('C10004').count()).toBe(1);
    await expectNoAxeViolations(page, 'an access request, history page 2');

    await page.getByRole('link', { name: t.tabs.apiCalls }).click();
    await page.waitForURL(`${baseUrl}/access-requests/${id}/api-calls`);
    await expect.poll(() => resultCount().textContent()).toBe(t.resultCount(3));
    await expectNoAxeViolations(page, 'an access request, api-calls tab');

    // The app code and code resolve to the id and redirect.
    await page.goto(`${baseUrl}/access-requests/TREASURY/AR-TRSY4K7M`);
    await page.waitForURL(`${baseUrl}/access-requests/${id}`);
    await page.getByRole('heading', { level: 2, name: t.requestHeading('AR-TRSY4K7M') }).waitFor();
  });

  it('admin1 sees history actors as links (READ_ONLY)', async () => {
    await signIn('admin1');
    await page.waitForURL((url) => url.pathname !== '/');
    await page.goto(`${baseUrl}/access-requests/TREASURY/AR-TRSY4K7M`);
    await page.getByRole('heading', { level: 2, name: t.requestHeading('AR-TRSY4K7M') }).waitFor();
    await page.getByRole('link', { name: t.tabs.history }).click();
    const items = page.getByTestId('history-item');
    await expect.poll(() => items.count()).toBe(5);
    const actor = items.nth(1).getByRole('link', { name: 'admin1' });
    expect(await actor.getAttribute('href')).toMatch(/^\/admin\/identities\/[0-9a-f-]{36}$/);
    await expectNoAxeViolations(page, 'the history with actor links');
  });

  it('C10001 is denied the access-request pages and lands on the applications page from admin routes', async () => {
    await signIn('C10001');
    await page.waitForURL(`${baseUrl}/profile/my-applications`);
    expect(await page.getByRole('link', { name: 'Access Requests' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Administration' }).count()).toBe(0);

    await page.goto(`${baseUrl}/access-requests`);
    await page.waitForURL(`${baseUrl}/permission-denied`);
    await page.getByRole('heading', { level: 1, name: permissionDeniedTexts.heading }).waitFor();
    await expectNoAxeViolations(page, 'the permission-denied page');

    // Admin routes (section 2.7): anyone but a signed-in admin has the admin target path stored and
    // goes to /, which lands a signed-in customer on the applications page; the server refuses the
    // admin calls.
    for (const adminPath of ['/admin', '/admin/identities?query=C1', '/admin/invitations', '/admin/apps']) {
      await page.goto(`${baseUrl}${adminPath}`);
      await page.waitForURL(`${baseUrl}/profile/my-applications`);
      await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
      expect(await page.evaluate(() => sessionStorage.getItem('portal.adminTargetPath'))).toBe(adminPath);
    }
    const status = await page.evaluate(async () => {
      const res = await fetch('/rest/ui/admin/roles', { headers: { 'x-requested-with': 'XMLHttpRequest' } });
      return res.status;
    });
    expect(status).toBe(403);
  });

  it('an anonymous visitor of an admin route signs in as admin1 and returns there', async () => {
    await page.goto(`${baseUrl}/admin/invitations`);
    await page.waitForURL(`${baseUrl}/`);
    expect(await page.evaluate(() => sessionStorage.getItem('portal.adminTargetPath'))).toBe(
      '/admin/invitations',
    );
    await page.getByLabel(/^Username/).fill('admin1');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${baseUrl}/admin/invitations`);
  });
});

describe('admin invitations', () => {
  const ti = adminTexts.invitations;
  const tc = adminTexts.create;

  async function invite(
    email: string,
    app: string,
    extra: { facility?: string; name?: string; customerNumber?: string } = {},
  ): Promise<void> {
    const form = page.getByRole('form', { name: tc.heading });
    await form.getByRole('textbox', { name: /^Email/ }).fill(email);
    if (extra.name) await form.getByRole('textbox', { name: tc.name }).fill(extra.name);
    if (extra.customerNumber) {
      await form.getByRole('textbox', { name: tc.customerNumber }).fill(extra.customerNumber);
    }
    await form.getByRole('combobox', { name: /^App/ }).selectOption(app);
    if (extra.facility) await form.getByRole('combobox', { name: /^Facility/ }).selectOption(extra.facility);
    await form.getByRole('button', { name: tc.submit }).click();
    await page
      .getByRole('status')
      .filter({ hasText: tc.sent(email) })
      .waitFor();
  }

  it('admin1 invites someone who registers with the emailed code; another invitation is revoked', async () => {
    await signIn('admin1');
    await page.waitForURL((url) => url.pathname !== '/');
    // The header's Administration link, for admins.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Administration' })
      .click();
    await page.waitForURL(`${baseUrl}/admin/invitations`);
    await page.getByRole('heading', { level: 2, name: ti.heading }).waitFor();
    await page.getByRole('form', { name: tc.heading }).getByRole('combobox', { name: /^App/ }).waitFor();
    await expectNoAxeViolations(page, 'admin invitations');

    // The apps screen: settings in section 3's constant option texts.
    const adminNav = page.getByRole('navigation', { name: adminTexts.navLabel });
    await adminNav.getByRole('link', { name: adminTexts.nav.apps }).click();
    await page.waitForURL(`${baseUrl}/admin/apps`);
    const payroll = page.getByRole('region', { name: 'Payroll' });
    await payroll.getByText('Immediately approve all Access Requests').waitFor();
    await payroll.getByText('Handoff to the App does not include a Facility').waitFor();
    const loans = page.getByRole('region', { name: 'Loans' });
    await loans.getByText('Undertake manual workflow for Access Requests').waitFor();
    await loans
      .getByText('Handoff to the App includes a Facility selected by the user before handoff')
      .waitFor();
    await expectNoAxeViolations(page, 'admin apps');

    // The SMS gateway switch: off for everyone (the property every instance reads), then on again.
    const ts = adminTexts.smsGateway;
    const smsStatus = async () =>
      (
        (await (
          await fetch(`${baseUrl}/rest/ui/anonymous/properties/sms-gateway-status`, {
            headers: { 'X-Requested-With': 'XMLHttpRequest' },
          })
        ).json()) as { isSmsGatewayAvailable: boolean }
      ).isSmsGatewayAvailable;
    await adminNav.getByRole('link', { name: adminTexts.nav.smsGateway }).click();
    await page.waitForURL(`${baseUrl}/admin/sms-gateway`);
    const toggle = page.getByRole('switch', { name: ts.switchLabel });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await expectNoAxeViolations(page, 'admin SMS gateway');
    await toggle.click({ force: true });
    await page
      .getByRole('status')
      .filter({ hasText: ts.saved(false) })
      .waitFor();
    expect(await smsStatus()).toBe(false);
    await toggle.click({ force: true });
    await page
      .getByRole('status')
      .filter({ hasText: ts.saved(true) })
      .waitFor();
    expect(await smsStatus()).toBe(true);
    await adminNav.getByRole('link', { name: adminTexts.nav.invitations }).click();
    await page.getByRole('form', { name: tc.heading }).getByRole('combobox', { name: /^App/ }).waitFor();

    const before = await latestOutboxId(baseUrl);
    await invite('alex.invited@example.com', 'LOANS', {
      facility: 'F001',
      name: 'Alex Invited',
      customerNumber: 'C20077',
    });
    const code = await codeSentTo(baseUrl, 'alex.invited@example.com', before);
    await page.getByRole('searchbox', { name: ti.searchLabel }).fill('alex.invited');
    await page.getByRole('button', { name: ti.search }).click();
    const row = page.getByTestId('invitation-row').filter({ hasText: 'alex.invited@example.com' });
    await expect.poll(() => row.textContent()).toContain(ti.status.OPEN);
    await expectNoAxeViolations(page, 'admin invitations after sending one');

    // A second invitation, revoked: its row's Revoked badge names admin1 (with when), and it offers
    // no Revoke any more.
    await page.getByRole('button', { name: tc.again }).click();
    await invite('jo.revoked@example.com', 'PAYROLL');
    await page.getByRole('searchbox', { name: ti.searchLabel }).fill('jo.revoked');
    await page.getByRole('button', { name: ti.search }).click();
    await page.getByRole('button', { name: ti.revokeLabel('jo.revoked@example.com') }).click();
    await page.getByText(ti.revoked('jo.revoked@example.com')).waitFor();
    const revoked = page.getByTestId('invitation-row').filter({ hasText: 'jo.revoked@example.com' });
    await revoked.getByText(ti.status.REVOKED!, { exact: true }).waitFor();
    expect(await revoked.textContent()).not.toContain(ti.status.EXPIRED);
    expect(await revoked.getByText(/^by admin1, /).textContent()).toMatch(/^by admin1, .*\d{4}/);
    expect(await revoked.getByRole('button').count()).toBe(0);
    await expectNoAxeViolations(page, 'admin invitations after a revoke');

    // The invitee, in a browser of their own, registers with the code from the email.
    await context.close();
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(`${baseUrl}/registration`);
    await waitForCaptcha(page);
    await page.getByLabel(/^Email/).fill('alex.invited@example.com');
    await page.getByLabel(/^Invitation code/).fill(code);
    await page.getByLabel(/^Security code/).fill(CAPTCHA);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(`${baseUrl}/registration/collect-details`);
    // The invitation's name is the invitee's.
    await expect.poll(() => page.getByLabel(/^Full name/).inputValue()).toBe('Alex Invited');
    await page.getByLabel(/^Username/).fill('C20077');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(`${baseUrl}/registration/select-authenticator-app-factor`);
    const setupKey = page.getByTestId('setup-key');
    await setupKey.waitFor();
    const secret = ((await setupKey.textContent()) ?? '').replace(/\s/g, '');
    await page.getByRole('button', { name: 'I have added the account to my app' }).click();
    await page.waitForURL(`${baseUrl}/registration/authenticator-app-verification`);
    await page.getByLabel(/^Verification code/).fill((await totpStepNow(secret)).code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/registration\/(select-sms-factor|security-questions)$/);
    if (page.url().endsWith('/select-sms-factor')) {
      await page.getByRole('button', { name: 'Use email instead' }).click();
    }
    await page.waitForURL(`${baseUrl}/registration/security-questions`);
    await page.getByLabel(/^Answer 1/).fill('QLD 55123');
    await page.getByLabel(/^Answer 2/).fill('3123 45670 2');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(`${baseUrl}/registration/set-password`);
    await page.getByLabel(/^Password/).fill(NEW_PASSWORD);
    await page.getByLabel(/^Confirm password/).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${baseUrl}/profile/my-applications`);
    // The invitation's app and facility are the new account's.
    await expect
      .poll(() => page.getByRole('main').getByText('Northside', { exact: false }).count())
      .toBeGreaterThan(0);
  });

  it('admin1 approves a pending request for a manual-workflow app, for a Jira ticket', async () => {
    await signIn('admin1');
    await page.waitForURL((url) => url.pathname !== '/');
    // AR-LNSB3Y6T: C10003 asks for Loans at Bayview Aged Care (Loans: manual workflow).
    await page.goto(`${baseUrl}/access-requests/LOANS/AR-LNSB3Y6T`);
    await page.getByRole('heading', { level: 2, name: t.requestHeading('AR-LNSB3Y6T') }).waitFor();
    const organisations = page.getByRole('region', { name: t.tabs.organisations });
    await organisations.getByText(t.status.PENDING!, { exact: true }).waitFor();

    await page.getByRole('button', { name: t.decision.approve }).click();
    const confirmation = page.getByRole('region', { name: t.decision.approveHeading('AR-LNSB3Y6T') });
    await confirmation.waitFor();
    // The focus moves to the confirmation, which names what approving does.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe(t.decision.approveHeading('AR-LNSB3Y6T'));
    expect(await confirmation.textContent()).toContain(
      t.decision.approveSummary('Mia Thornton (C10003)', 'Loans at Bayview Aged Care'),
    );
    await expectNoAxeViolations(page, 'the approval confirmation');
    // A ticket code that is not a Jira key is refused by the server, at the field.
    const ticket = confirmation.getByRole('textbox', { name: t.decision.ticketLabel });
    await ticket.fill('not a key');
    await confirmation.getByRole('button', { name: t.decision.confirmApprove }).click();
    await expect.poll(() => ticket.getAttribute('aria-invalid')).toBe('true');
    await ticket.fill('SUP-2026');
    await confirmation.getByRole('button', { name: t.decision.confirmApprove }).click();

    const notice = page.getByRole('status').filter({ hasText: t.decision.approved('AR-LNSB3Y6T') });
    await notice.waitFor();
    await expect.poll(() => notice.evaluate((el) => el === document.activeElement)).toBe(true);
    await organisations.getByText(t.status.APPROVED!, { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: t.decision.approve }).count()).toBe(0);
    await expectNoAxeViolations(page, 'a request just approved');

    await page.getByRole('link', { name: t.tabs.history }).click();
    const items = page.getByTestId('history-item');
    await expect.poll(() => items.nth(2).textContent()).toContain('Approved');
    expect(await items.nth(2).getByRole('link', { name: 'admin1' }).count()).toBe(1);
    // The demo data's Jira browse URL makes the ticket a link.
    expect(await items.nth(2).getByRole('link', { name: 'SUP-2026' }).getAttribute('href')).toBe(
      'https://jira.example.com/browse/SUP-2026',
    );
    expect(await items.nth(1).textContent()).toContain('Access granted');

    await page.getByRole('link', { name: t.backToList }).click();
    const row = page.getByRole('row').filter({ hasText: 'AR-LNSB3Y6T' });
    await row.getByText(t.status.APPROVED!, { exact: true }).waitFor();
  });
});
