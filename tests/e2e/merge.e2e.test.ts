// Journeys of the duplicate-accounts step in Chromium, over the demo pair C10006 and C10007 (they
// share dup@example.com): C10007 skips before the cutoff and is asked again at its next sign-in;
// then C10006 merges C10007 with its password, keeps its own username, reaches completed, and
// continues to the applications page with the union of both accounts' access (LOANS at F001 and
// F003); confirmation reloaded after the merge lists the server's refusal; C10007 can no longer sign in. Then the change-email branch: C20001, registered over HTTP
// with C10001's address, chooses None and asks for C10002's address; the code sent there is verified,
// the server answers that the address is in use and the wizard comes back to change email with the
// message on the field; a fresh address goes on to its code at once, and the email-changed page
// continues to the applications page. axe-core on every page of the wizard. The skip runs first:
// the merge retires C10007.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser } from './support/browser';
import { registerOverHttp, REGISTERED_PASSWORD } from './support/merge';
import { portalOf } from './support/portal';
import { codeFromOutbox, latestOutboxId } from './support/reset';

const PASSWORD = 'Harbour-Lights-2026';
const { baseUrl } = portalOf(import.meta.url);
const APPLICATIONS = `${baseUrl}/profile/my-applications`;
const NOTICE = `${baseUrl}/forced-actions/duplicate-accounts`;
const STEP = (name: string) => `${baseUrl}/forced-actions/merge-accounts/${name}`;

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

async function signIn(username: string, password = PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function visible(locator: ReturnType<Page['getByRole']>): Promise<void> {
  await expect.poll(() => locator.isVisible(), { timeout: 15_000 }).toBe(true);
}

const heading = (name: string, level = 1) => visible(page.getByRole('heading', { level, name }));

describe('duplicate accounts', () => {
  it('C10007 skips the merge before the cutoff and is asked again at the next sign-in', async () => {
    await signIn('C10007');
    await page.waitForURL(NOTICE);
    await heading('Duplicate accounts');
    await expectNoAxeViolations(page, 'duplicate-accounts notice');
    await page.getByRole('button', { name: 'Skip' }).click();
    await page.waitForURL(APPLICATIONS);
    await heading('Applications');

    await context.close();
    context = await browser.newContext();
    page = await context.newPage();
    await signIn('C10007');
    await page.waitForURL(NOTICE);
    await visible(page.getByRole('button', { name: 'Start merge' }));
  });

  it('C10006 merges C10007 and continues to the union of both accounts’ access', async () => {
    await signIn('C10006');
    await page.waitForURL(NOTICE);
    await page.getByRole('button', { name: 'Start merge' }).click();

    await page.waitForURL(STEP('select-accounts'));
    await heading('Select accounts', 2);
    await visible(page.getByText('16.00%'));
    // Nothing ticked: section 5's message.
    await page.getByRole('button', { name: 'Next' }).click();
    await visible(page.getByText('An option must be selected'));
    await expectNoAxeViolations(page, 'select accounts');

    await page.getByRole('checkbox', { name: /^C10007/ }).check();
    await page.getByLabel(/^Password for C10007/).fill('Not-the-password-2026');
    await page.getByRole('button', { name: 'Next' }).click();
    // The wrong password is an error on that account's password field.
    await visible(page.getByText('The password is incorrect.'));
    await expectNoAxeViolations(page, 'select accounts with a wrong password');
    await page.getByLabel(/^Password for C10007/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Next' }).click();

    await page.waitForURL(STEP('choose-preferred-username'));
    await heading('Choose preferred username', 2);
    await visible(page.getByText('64.00%'));
    // A reload resumes the step from the wizard data in session storage.
    await page.reload();
    await heading('Choose preferred username', 2);
    await visible(page.getByRole('radio', { name: 'C10006' }));
    await expectNoAxeViolations(page, 'choose preferred username');
    const stored = await page.evaluate(() => sessionStorage.getItem('merge-accounts.wizard') ?? '');
    expect(stored).toContain('C10007');
    expect(stored).not.toContain(PASSWORD);
    await page.getByRole('radio', { name: 'C10006' }).check();
    await page.getByRole('button', { name: 'Next' }).click();

    await page.waitForURL(STEP('confirmation'));
    await heading('Confirmation', 2);
    await visible(page.getByText('80.00%'));
    await visible(page.getByText(/Northside Community Clinic \(F001\)/));
    await visible(page.getByText(/Bayview Aged Care \(F003\)/));
    await expectNoAxeViolations(page, 'confirmation');
    await page.getByRole('button', { name: 'Merge' }).click();

    await page.waitForURL(STEP('completed'));
    await heading('Accounts merged', 2);
    await visible(page.getByText(/C10007 has been merged into C10006/));
    await expectNoAxeViolations(page, 'completed');

    // Confirmation reloaded after the merge: the server refuses the details naming no field, and
    // the step lists its message (section 8) instead of showing nothing.
    await page.goto(STEP('confirmation'));
    await heading('Confirmation', 2);
    await visible(
      page
        .getByRole('alert')
        .getByText('The accounts have already been merged. Go back to Select accounts to resolve this.'),
    );
    expect(await page.getByRole('button', { name: 'Merge' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(page, 'confirmation after the merge');
    await page.goto(STEP('completed'));
    await heading('Accounts merged', 2);
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(APPLICATIONS);
    await heading('Applications');
    const main = page.getByRole('main');
    await expect.poll(() => main.getByRole('link', { name: /Loans/ }).count(), { timeout: 15_000 }).toBe(2);
    await visible(main.getByRole('link', { name: /Northside/ }));
    await visible(main.getByRole('link', { name: /Bayview/ }));
    expect(await page.evaluate(() => sessionStorage.getItem('merge-accounts.wizard'))).toBeNull();

    // The merged username can no longer sign in.
    await context.close();
    context = await browser.newContext();
    page = await context.newPage();
    await signIn('C10007');
    await visible(page.getByText('Incorrect username or password.'));
    expect(page.url()).toBe(`${baseUrl}/`);
  });

  it('C20001 shares C10001’s email, chooses None, is refused an address in use and changes to a fresh one', async () => {
    await registerOverHttp(baseUrl, { email: 'c10001@example.com', username: 'C20001' });

    await signIn('C20001', REGISTERED_PASSWORD);
    await page.waitForURL(NOTICE);
    await heading('Duplicate accounts');
    await page.getByRole('button', { name: 'Start merge' }).click();

    await page.waitForURL(STEP('select-accounts'));
    await heading('Select accounts', 2);
    await visible(page.getByRole('checkbox', { name: /^C10001/ }));
    await page.getByRole('checkbox', { name: 'None of these accounts are mine' }).check();
    await page.getByRole('button', { name: 'Next' }).click();

    // An address another account uses is sent its code like any other: the server says nothing yet.
    await page.waitForURL(STEP('change-email'));
    await heading('Change email', 2);
    const newEmail = page.getByLabel(/^New email/);
    let afterId = await latestOutboxId(baseUrl);
    await newEmail.fill('c10002@example.com');
    await page.getByRole('button', { name: 'Next' }).click();

    await page.waitForURL(STEP('email-verification'));
    await heading('Email verification', 2);
    await visible(page.getByText('Enter the code we sent to c10002@example.com.'));
    let sent = await codeFromOutbox(baseUrl, 'c10002@example.com', 'EMAIL', afterId);
    await page.getByLabel(/^Verification code/).fill(sent.code);
    await page.getByRole('button', { name: 'Verify' }).click();

    // Only the address's reader learns it is in use: back to change email, the message on the field.
    await page.waitForURL(STEP('change-email'));
    await heading('Change email', 2);
    const inUse = 'This email address is used by another account. Choose another one.';
    await visible(page.getByText(inUse, { exact: true }));
    await expect.poll(() => newEmail.getAttribute('aria-invalid'), { timeout: 15_000 }).toBe('true');
    // The message describes the field (what a screen reader reads with it), word for word.
    const describedBy = await newEmail.evaluate((input) =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent ?? ''),
    );
    expect(describedBy).toContain(inUse);
    await expectNoAxeViolations(page, 'change email with the address in use');

    // The refused code was voided: a fresh address is sent its code at once (no resend wait).
    afterId = await latestOutboxId(baseUrl);
    await newEmail.fill('c20001.new@example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(STEP('email-verification'));
    await heading('Email verification', 2);
    await visible(page.getByText('Enter the code we sent to c20001.new@example.com.'));
    sent = await codeFromOutbox(baseUrl, 'c20001.new@example.com', 'EMAIL', afterId);
    await page.getByLabel(/^Verification code/).fill(sent.code);
    await page.getByRole('button', { name: 'Verify' }).click();

    await page.waitForURL(STEP('email-changed'));
    await heading('Email changed', 2);
    await visible(page.getByText("Your account's email address is now c20001.new@example.com."));
    await expectNoAxeViolations(page, 'email changed');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(APPLICATIONS);
    await heading('Applications');
  });
});
