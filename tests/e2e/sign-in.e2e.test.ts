// Journeys of the foundation: sign in to the applications page, and the captcha after three failures.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, pagePerTest } from './support/browser';
import { markAlertsShown, newAlert } from './support/keyboard';
import { portalOf } from './support/portal';

const PASSWORD = 'Harbour-Lights-2026';
const { baseUrl } = portalOf(import.meta.url);
const captchaAnswer = inject('captchaAnswer');

let page: Page;
pagePerTest((p) => {
  page = p;
});

async function signIn(username: string, password: string): Promise<void> {
  // Required fields' labels end with Mantine's ' *' marker: match the label's start.
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('sign-in', () => {
  it('C10001 signs in and reaches the applications page showing LOANS and PAYROLL', async () => {
    await page.goto(`${baseUrl}/`);
    await expect.poll(() => page.getByLabel(/^Username/).isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'sign-in page');
    await expect
      .poll(() => page.getByText('Received an invitation? Register your account here.').isVisible())
      .toBe(true);
    await expect.poll(() => page.getByText('Having problems signing in?').isVisible()).toBe(true);

    await signIn('C10001', PASSWORD);
    await page.waitForURL(`${baseUrl}/profile/my-applications`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Applications', level: 1 }).isVisible())
      .toBe(true);
    const main = page.getByRole('main');
    await expect.poll(() => main.getByText('LOANS', { exact: false }).count()).toBeGreaterThanOrEqual(1);
    await expect.poll(() => main.getByText('PAYROLL', { exact: false }).count()).toBeGreaterThanOrEqual(1);
    await expectNoAxeViolations(page, 'applications page');
  });

  it('shows the security code after three wrong passwords, and accepts the right one', async () => {
    await page.goto(`${baseUrl}/`);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      // The last attempt's refusal is still on the page: only an alert drawn after this submit is
      // this attempt's (the form drops the refusal on submit and shows the next one anew).
      await markAlertsShown(page);
      await signIn('C10005', `wrong-password-${attempt}`);
      await newAlert(page, 'Incorrect username or password.').waitFor({ timeout: 15_000 });
      // The form is busy while it checks the count after the refusal; wait until it takes input.
      await expect
        .poll(() => page.getByRole('button', { name: 'Sign in' }).isEnabled(), { timeout: 15_000 })
        .toBe(true);
      if (attempt < 3) expect(await page.getByLabel(/^Security code/).count()).toBe(0);
    }
    await expect.poll(() => page.getByLabel(/^Security code/).isVisible()).toBe(true);
    const captcha = page.getByRole('img', { name: /security code/i });
    await expect
      .poll(() => captcha.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await expectNoAxeViolations(page, 'sign-in page with security code');

    await page.getByLabel(/^Security code/).fill(captchaAnswer);
    await signIn('C10005', PASSWORD);
    // C10005 verifies MFA by SMS next.
    await page.waitForURL(`${baseUrl}/forced-actions/mfa/sms-verification`);
  });

  it('sends an unknown path to /not-found', async () => {
    await page.goto(`${baseUrl}/no/such/page`);
    await page.waitForURL(`${baseUrl}/not-found`);
    await expect
      .poll(() => page.getByText('The page you are looking for does not exist.').isVisible())
      .toBe(true);
    await expectNoAxeViolations(page, 'not-found page');
  });
});
