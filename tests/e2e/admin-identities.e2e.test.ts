// The admin's identity screens on the built portal and the real server (seeded demo data): admin1
// searches C10001 from the header's search bar, opens the identity page (details, factors, the
// session C10001 has open in another browser), signs C10001 out of all devices with a Jira ticket
// (C10001's browser is then signed out; the history names admin1 and the ticket), follows the
// history's actor link to its own identity page, and reads the roles lists; axe on every screen.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityTexts } from '../../src/client/flows/admin/identities.texts';
import { identitySearchBarTexts } from '../../src/client/flows/admin/IdentitySearchBar';
import { signOutAllTexts } from '../../src/client/pages/profile.texts';
import { expectNoAxeViolations, launchBrowser } from './support/browser';
import { portalOf } from './support/portal';

const PASSWORD = 'Harbour-Lights-2026';
const TICKET = 'SUP-424242';
const { baseUrl } = portalOf(import.meta.url);
const ti = identityTexts.identity;

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function signedIn(username: string): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${baseUrl}/`);
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in') && url.pathname !== '/');
  return page;
}

describe('admin identity screens', () => {
  it('admin1 finds C10001, signs it out of all devices for a ticket, and reads the roles lists', async () => {
    // C10001 is signed in elsewhere: the session the admin will end.
    const customer = await signedIn('C10001');
    await customer.goto(`${baseUrl}/profile`);
    await customer.getByRole('heading', { level: 1 }).first().waitFor();

    const page = await signedIn('admin1');
    const bar = page.getByRole('searchbox', { name: identitySearchBarTexts.label });
    await bar.fill('C10001');
    await bar.press('Enter');
    await page.waitForURL(`${baseUrl}/admin/identities?query=C10001`);
    await expect.poll(() => page.getByTestId('result-count').textContent()).toBe('1 result(s)');
    await expect.poll(() => page.getByTestId('identity-row').count()).toBe(1);
    expect(await page.getByTestId('identity-row').innerText()).toContain('Olivia Bennett');
    await expectNoAxeViolations(page, 'the identity search results');

    await page.getByRole('link', { name: 'C10001' }).click();
    await page.getByRole('heading', { level: 2, name: ti.heading('C10001') }).waitFor();
    const id = new URL(page.url()).pathname.split('/').at(-1)!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const details = page.getByTestId('identity-details');
    expect(await details.innerText()).toContain('c10001@example.com');
    expect(await details.innerText()).toContain('Loans (Northside Community Clinic)');
    // Chromium, signed in from the other browser.
    await expect.poll(() => page.getByTestId('identity-session').count()).toBe(1);
    expect(await page.getByTestId('identity-session').innerText()).toMatch(/Chrom/);
    await page.getByTestId('result-count').waitFor();
    await expectNoAxeViolations(page, 'the identity page');

    await page.getByRole('button', { name: ti.signOutAll }).click();
    const modal = page.getByRole('dialog', { name: signOutAllTexts.title });
    await modal.waitFor();
    expect(await modal.innerText()).toContain(signOutAllTexts.otherIntro('Olivia Bennett'));
    expect(await modal.getByRole('listitem').allInnerTexts()).toEqual(['Loans', 'Payroll']);
    await expectNoAxeViolations(page, "the identity's 'Sign out of all devices' modal");
    // The ticket is required for another identity.
    await modal.getByRole('button', { name: signOutAllTexts.confirm }).click();
    await modal.getByText(signOutAllTexts.required).waitFor();
    await modal.getByRole('textbox', { name: signOutAllTexts.ticket }).fill(TICKET);
    await modal.getByRole('button', { name: signOutAllTexts.confirm }).click();
    await page.getByTestId('signed-out-notice').waitFor();
    expect(await page.getByTestId('signed-out-notice').innerText()).toBe(ti.signedOut('C10001', TICKET));
    await modal.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('identity-session').count()).toBe(0);
    await page.getByText(ti.noSessions).waitFor();

    // The history: admin1 (a link for READ_ONLY holders) with the ticket, newest first.
    const first = page.getByTestId('history-item').first();
    await expect.poll(() => first.textContent()).toContain('Signed out of all devices');
    // The demo data's Jira browse URL makes the ticket a link.
    expect(await first.getByRole('link', { name: TICKET }).getAttribute('href')).toBe(
      `https://jira.example.com/browse/${TICKET}`,
    );
    await expectNoAxeViolations(page, 'the identity page after the sign-out');

    // C10001's browser was signed out with everything else.
    await customer.reload();
    await customer.waitForURL((url) => url.pathname === '/' || url.pathname.startsWith('/sign-in'));
    await customer.getByLabel(/^Username/).waitFor();

    // The actor link lands on the actor's identity page.
    await first.getByRole('link', { name: 'admin1' }).click();
    await page.getByRole('heading', { level: 2, name: ti.heading('admin1') }).waitFor();
    expect(await page.getByTestId('identity-details').innerText()).toContain('100001');

    // The roles lists: READ_ONLY and VIEW_ACCESS_REQUESTS disabled.
    await page.getByRole('link', { name: identityTexts.navRoles }).click();
    const samAdmin = page.getByTestId('roles-sam-admin');
    await samAdmin.waitFor();
    expect(await samAdmin.locator('[aria-disabled="true"]').allInnerTexts()).toEqual([
      expect.stringContaining('READ_ONLY'),
      expect.stringContaining('VIEW_ACCESS_REQUESTS'),
    ]);
    await expectNoAxeViolations(page, 'the roles lists');
  });
});
