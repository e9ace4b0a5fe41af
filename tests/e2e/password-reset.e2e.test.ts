// Password reset journeys in Chromium: from the sign-in page's 'Having problems signing in?' link,
// C10004 resets with the email code from the dev outbox and an authenticator app code computed here
// (RFC 6238); C10005 with the email code and an SMS code, then, with the SMS gateway switched off by
// admin1, with the security questions. Each new password signs in, and MFA is still asked. axe-core
// on every step. Afterwards the demo passwords (and the gateway) are put back over HTTP.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser } from './support/browser';
import {
  codeFromOutbox,
  currentStep,
  DEMO_PASSWORD,
  hotp,
  latestOutboxId,
  resetOverHttp,
  setSmsGateway,
  totpLaterThan,
} from './support/reset';
import { portalOf } from './support/portal';

const { baseUrl } = portalOf(import.meta.url);
const captchaAnswer = inject('captchaAnswer');
const RESET = `${baseUrl}/password-reset`;
const C10005_MOBILE = '+61 400 000 005';
const C10005_ANSWERS = [
  { question: 'DRIVERS_LICENCE', answer: 'DL10005' },
  { question: 'MEDICARE', answer: 'MC10005' },
];

let browser: Browser;
let context: BrowserContext;
let page: Page;
/** The last TOTP step the journeys used: the restore must use a later one. */
let usedTotpStep = 0;
const restore: Array<() => Promise<void>> = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  for (const undo of restore.reverse()) await undo();
}, 120_000);
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

async function step(path: string, title: string, progress: string, label: string): Promise<void> {
  await page.waitForURL(`${RESET}${path}`);
  await heading('Reset password');
  await heading(title, 2);
  await expect.poll(() => page.getByText(progress).isVisible()).toBe(true);
  await expectNoAxeViolations(page, `password reset: ${label}`);
}

/**
 * Get started: the email and the security code, then the email code from the outbox. Answers the
 * outbox's newest message id before the code was submitted (what the next step sends comes after).
 */
async function startAndVerifyEmail(email: string): Promise<number> {
  await step('', 'Get started', '25.00%', 'get started');
  const before = await latestOutboxId(baseUrl);
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Security code/).fill(captchaAnswer);
  await page.getByRole('button', { name: 'Send code' }).click();

  await step('/email-verification', 'Verify your email address', '50.00%', 'email verification');
  const { code } = await codeFromOutbox(baseUrl, email, 'EMAIL', before);
  await page.getByLabel(/^Verification code/).fill(code);
  const beforeNext = await latestOutboxId(baseUrl);
  await page.getByRole('button', { name: 'Verify' }).click();
  return beforeNext;
}

/** Set-password: the new password twice; the wizard ends at sign-in and says so. */
async function setPassword(password: string): Promise<void> {
  await step('/set-password', 'Set a new password', '100.00%', 'set password');
  await page.getByLabel(/^New password/).fill(password);
  await page.getByLabel(/^Confirm new password/).fill(password);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await page.waitForURL(`${baseUrl}/`);
  await expect
    .poll(() => page.getByText('Your password has been reset. Sign in with your new password.').isVisible())
    .toBe(true);
}

/** The new password signs in, and the next step is still MFA. */
async function signInReachesMfa(username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await expect.poll(() => page.getByLabel(/^Username/).isVisible()).toBe(true);
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect
    .poll(() => page.url(), { timeout: 15_000 })
    .toContain('/forced-actions/mfa/')
    .catch(async (error: unknown) => {
      throw new Error(`${String(error)}\nPage text: ${await page.locator('body').innerText()}`);
    });
}

describe('password reset', () => {
  it('C10004 resets with the email code and an authenticator app code; the new password signs in to MFA', async () => {
    const newPassword = 'Copper-Lantern-Meadow-58';
    await page.goto(`${baseUrl}/`);
    await page.getByRole('link', { name: 'Having problems signing in?' }).click();
    await startAndVerifyEmail('c10004@example.com');

    await step(
      '/authenticator-app-verification',
      'Authenticator app',
      '75.00%',
      'authenticator app verification',
    );
    // No other factor to fall back to: no 'I don't have access'.
    expect(await page.getByRole('button', { name: "I don't have access" }).count()).toBe(0);
    await page.getByLabel(/^Verification code/).fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByLabel(/^Verification code/).getAttribute('aria-invalid')).toBe('true');
    const totp = await totpLaterThan(currentStep());
    usedTotpStep = totp.step;
    await page.getByLabel(/^Verification code/).fill(totp.code);
    await page.getByRole('button', { name: 'Verify' }).click();

    await setPassword(newPassword);
    restore.push(() =>
      resetOverHttp(baseUrl, {
        email: 'c10004@example.com',
        captchaAnswer,
        password: DEMO_PASSWORD,
        factor: { kind: 'totp', after: usedTotpStep },
      }),
    );
    await signInReachesMfa('C10004', newPassword);
    expect(page.url()).toBe(`${baseUrl}/forced-actions/mfa/authenticator-app-verification`);
  });

  it('C10005 resets by SMS, then with the SMS gateway off by security questions', async () => {
    const bySms = 'Silver-Harbour-Morning-42';
    const byQuestions = 'Amber-Orchard-Evening-73';
    await page.goto(RESET);
    const beforeSms = await startAndVerifyEmail('c10005@example.com');

    await step('/sms-verification', 'SMS verification', '75.00%', 'SMS verification');
    await expect
      .poll(() => page.getByText('Enter the code we sent by SMS to +** *** *** 005.').isVisible())
      .toBe(true);
    const { code } = await codeFromOutbox(baseUrl, C10005_MOBILE, 'SMS', beforeSms);
    await page.getByLabel(/^Verification code/).fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await setPassword(bySms);
    restore.push(() =>
      resetOverHttp(baseUrl, {
        email: 'c10005@example.com',
        captchaAnswer,
        password: DEMO_PASSWORD,
        factor: { kind: 'questions', answers: C10005_ANSWERS },
      }),
    );
    await signInReachesMfa('C10005', bySms);
    expect(page.url()).toBe(`${baseUrl}/forced-actions/mfa/sms-verification`);

    // admin1 switches SMS codes off: the reset goes to the security questions with the message.
    await setSmsGateway(baseUrl, false);
    restore.push(() => setSmsGateway(baseUrl, true));
    await context.close();
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(RESET);
    await startAndVerifyEmail('c10005@example.com');
    await step(
      '/security-question-verification',
      'Security questions',
      '75.00%',
      'security question verification',
    );
    await expect
      .poll(() =>
        page.getByText('SMS verification codes are currently unavailable.', { exact: true }).isVisible(),
      )
      .toBe(true);
    await page.getByLabel(/^Driver's licence number/).fill('not the answer');
    await page.getByLabel(/^Medicare card number/).fill('MC10005');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByText('The answer is incorrect.').first().isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'password reset: a wrong answer');
    await page.getByLabel(/^Driver's licence number/).fill('DL10005');
    await page.getByRole('button', { name: 'Verify' }).click();

    await setPassword(byQuestions);
    await signInReachesMfa('C10005', byQuestions);
  });

  it('computes RFC 6238 codes (the RFC test vector, SHA-1)', () => {
    const secret = Buffer.from('12345678901234567890');
    expect(hotp(secret, Math.floor(59 / 30))).toBe('287082');
    expect(hotp(secret, Math.floor(1111111109 / 30))).toBe('081804');
  });
});
