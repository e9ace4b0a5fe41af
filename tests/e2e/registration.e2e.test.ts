// Registration journeys in Chromium: INVITE-NEW-0001 registers a new account with an authenticator
// app (the TOTP computed here from the setup key the page shows), lands signed in, and signs in again
// with MFA; INVITE-EXIST-0001 adds LOANS at F003 (Bayview) to C10001 after a wrong password shows
// the help text, and C10001's applications page then lists it. axe-core on every page.
// Runs last: it changes C10001's grants, which other journeys read.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, waitForCaptcha } from './support/browser';
import { totpStepNow } from './support/registration-totp';
import { totpLaterThan } from './support/reset';
import { portalOf } from './support/portal';

const PASSWORD = 'Harbour-Lights-2026';
const NEW_PASSWORD = 'Quiet-Harbour-Morning-4821';
const CAPTCHA = 'E2E42';
const { baseUrl } = portalOf(import.meta.url);
const APPLICATIONS = `${baseUrl}/profile/my-applications`;

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

async function heading(name: string, level = 1): Promise<void> {
  await expect
    .poll(() => page.getByRole('heading', { level, name }).isVisible(), { timeout: 15_000 })
    .toBe(true);
}

async function startRegistration(email: string, inviteCode: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByRole('link', { name: 'Received an invitation? Register your account here.' }).click();
  await page.waitForURL(`${baseUrl}/registration`);
  await heading('Registration');
  await expect.poll(() => page.getByLabel(/^Email/).isVisible(), { timeout: 15_000 }).toBe(true);
  await waitForCaptcha(page);
  await expectNoAxeViolations(page, 'registration start');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Invitation code/).fill(inviteCode);
  await page.getByLabel(/^Security code/).fill(CAPTCHA);
  await page.getByRole('button', { name: 'Next' }).click();
}

describe('registration from an invitation', () => {
  it('INVITE-NEW-0001 registers with an authenticator app, is signed in, and signs in again with MFA', async () => {
    await startRegistration('new.customer@example.com', 'INVITE-NEW-0001');

    await page.waitForURL(`${baseUrl}/registration/collect-details`);
    await heading('Your details', 2);
    await expect.poll(() => page.getByText('20.00%').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Must be in the form C99999').isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'registration: collect details');
    await page.getByLabel(/^Username/).fill('C10009');
    await page.getByRole('button', { name: 'Next' }).click();

    await page.waitForURL(`${baseUrl}/registration/select-authenticator-app-factor`);
    await heading('Set up an authenticator app', 2);
    const setupKey = page.getByTestId('setup-key');
    await expect.poll(() => setupKey.isVisible()).toBe(true);
    const secret = ((await setupKey.textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expect
      .poll(() => page.getByRole('img', { name: 'QR code for your authenticator app' }).getAttribute('src'))
      .toMatch(/^data:image\/png;base64,/);
    await expectNoAxeViolations(page, 'registration: authenticator app setup');
    await page.getByRole('button', { name: 'I have added the account to my app' }).click();

    await page.waitForURL(`${baseUrl}/registration/authenticator-app-verification`);
    await heading('Verify your authenticator app', 2);
    await expectNoAxeViolations(page, 'registration: authenticator app verification');
    const { code, step } = await totpStepNow(secret);
    await page.getByLabel(/^Verification code/).fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();

    // SMS is offered next when the gateway is up; email (with security questions) instead.
    await page.waitForURL(/\/registration\/(select-sms-factor|security-questions)$/);
    if (page.url().endsWith('/select-sms-factor')) {
      await heading('Add SMS as a factor', 2);
      await expect.poll(() => page.getByText('60.00%').isVisible()).toBe(true);
      await expectNoAxeViolations(page, 'registration: select SMS factor');
      await page.getByRole('button', { name: 'Use email instead' }).click();
    }
    await page.waitForURL(`${baseUrl}/registration/security-questions`);
    await heading('Security questions', 2);
    await expect.poll(() => page.getByText('80.00%').isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'registration: security questions');
    await page.getByLabel(/^Answer 1/).fill('NSW 99887');
    await page.getByLabel(/^Answer 2/).fill('2123 45670 1');
    await page.getByRole('button', { name: 'Next' }).click();

    await page.waitForURL(`${baseUrl}/registration/set-password`);
    await heading('Set your password', 2);
    await expect.poll(() => page.getByText('100.00%').isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'registration: set password');
    await page.getByLabel(/^Password/).fill(NEW_PASSWORD);
    await page.getByLabel(/^Confirm password/).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL(APPLICATIONS);
    await heading('Applications');
    await expect
      .poll(() => page.getByRole('main').getByText('Northside', { exact: false }).count())
      .toBeGreaterThan(0);
    await expectNoAxeViolations(page, 'applications page after registration');

    // A new browser: the account signs in with its password and its authenticator app.
    await context.close();
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await page.getByLabel(/^Username/).fill('C10009');
    await page.getByLabel(/^Password/).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${baseUrl}/forced-actions/mfa/authenticator-app-verification`);
    // The step used at registration is spent: the next code is the app's next one.
    await page.getByLabel(/^Verification code/).fill((await totpLaterThan(step, secret)).code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(APPLICATIONS);
    await heading('Applications');
  }, 120_000);

  it('INVITE-EXIST-0001 adds LOANS at Bayview (F003) to C10001, whose applications page shows it', async () => {
    await startRegistration('c10001@example.com', 'INVITE-EXIST-0001');

    await page.waitForURL(`${baseUrl}/registration/verify-identity`);
    await heading('Sign in to accept the invitation', 2);
    await expect.poll(() => page.getByText('100.00%').isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'registration: verify identity');
    await page.getByLabel(/^Username/).fill('C10001');
    await page.getByLabel(/^Password/).fill('not-the-password');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await expect
      .poll(() => page.getByText(/cancel this registration, reset your password/).isVisible())
      .toBe(true);
    await expectNoAxeViolations(page, 'registration: verify identity with the help text');

    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.waitForURL(APPLICATIONS);
    await heading('Applications');
    await expect
      .poll(() => page.getByRole('main').getByText('Bayview', { exact: false }).count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await expectNoAxeViolations(page, 'applications page with the added facility');
  });
});
