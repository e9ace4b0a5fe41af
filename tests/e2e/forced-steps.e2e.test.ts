// Journeys of the forced sign-in steps in Chromium: MFA with an authenticator app code computed
// here (RFC 6238) and a trusted device that skips MFA at the next sign-in; factor enrolment with
// the email and SMS codes read from the dev outbox and security questions; the change of an expired
// password and a sign-in with the new one. axe-core on every page of them.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser } from './support/browser';
import { expectEscapeKeepsDialog, keyboardUser } from './support/keyboard';
import { portalOf } from './support/portal';
import { base32Decode, codeFromOutbox, hotp, latestOutboxId } from './support/reset';

const PASSWORD = 'Harbour-Lights-2026';
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

// ---- RFC 6238 (TOTP: HMAC-SHA-1, 6 digits, 30 s), computed here from the demo secret -----------

/** The code of the current 30 s step, after waiting out a step that is about to end. */
async function totpNow(secretBase32: string): Promise<string> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 8_000) await new Promise((resolve) => setTimeout(resolve, left + 500));
  return hotp(base32Decode(secretBase32), Math.floor(Date.now() / 30_000));
}

// ---- The portal --------------------------------------------------------------------------------

async function signIn(username: string, password = PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/`);
  // Required fields' labels end with Mantine's ' *' marker: match the label's start.
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const { expectFieldErrorAnnounced } = keyboardUser({ page: () => page, baseUrl });

async function heading(name: string, level = 1): Promise<void> {
  await expect
    .poll(() => page.getByRole('heading', { level, name }).isVisible(), { timeout: 15_000 })
    .toBe(true);
}

async function signOut(): Promise<void> {
  await page.getByRole('button', { name: /account menu$/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL(`${baseUrl}/`);
  await expect.poll(() => page.getByLabel(/^Username/).isVisible()).toBe(true);
}

describe('forced sign-in steps', () => {
  it('computes RFC 6238 codes (the RFC test vector, SHA-1)', () => {
    const secret = Buffer.from('12345678901234567890');
    expect(hotp(secret, Math.floor(59 / 30)).slice(-6)).toBe('287082');
    expect(hotp(secret, Math.floor(1111111109 / 30))).toBe('081804');
  });

  it('C10004 verifies MFA with an authenticator app code and trusts the device; the next sign-in skips MFA', async () => {
    await signIn('C10004');
    await page.waitForURL(`${baseUrl}/forced-actions/mfa/authenticator-app-verification`);
    await heading('Authenticator app verification');
    const trust = page.getByRole('checkbox', { name: /^Trust this device for (7 days|24 hours)$/ });
    await expect.poll(() => trust.isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'MFA authenticator app page');

    await page.getByLabel(/^Verification code/).fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByLabel(/^Verification code/).getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page, 'MFA authenticator app page with a wrong code');

    await page.getByLabel(/^Verification code/).fill(await totpNow('JBSWY3DPEHPK3PXP'));
    await trust.check();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(APPLICATIONS);
    await heading('Applications');
    const deviceCookie = (await context.cookies()).find((c) => /sam_device$/.test(c.name));
    expect(deviceCookie?.httpOnly).toBe(true);

    await signOut();
    await page.getByLabel(/^Username/).fill('C10004');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(APPLICATIONS);
    await heading('Applications');
  });

  it('C10003 enrols email, SMS and security questions with codes from the dev outbox', async () => {
    const before = await latestOutboxId(baseUrl);
    await signIn('C10003');
    await page.waitForURL(`${baseUrl}/forced-actions/factor-enrolment`);
    await heading('Multi-factor enrolment');
    await heading('Verify your email address', 2);
    await expect.poll(() => page.getByText('25.00%').isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'factor enrolment: email verification');

    const email = await codeFromOutbox(baseUrl, 'c10003@example.com', 'EMAIL', before);
    await page.getByLabel(/^Verification code/).fill(email.code ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();

    await page.waitForURL(`${baseUrl}/forced-actions/factor-enrolment/select-sms-factor`);
    await heading('Add SMS as a factor', 2);
    await expect.poll(() => page.getByText('50.00%').isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'factor enrolment: select SMS factor');
    await page.getByLabel(/^Mobile/).fill('+61 400 000 003');
    await page.getByRole('button', { name: 'Send code' }).click();

    await page.waitForURL(`${baseUrl}/forced-actions/factor-enrolment/sms-verification`);
    await heading('Verify your mobile', 2);
    await expectNoAxeViolations(page, 'factor enrolment: SMS verification');
    const sms = await codeFromOutbox(baseUrl, '+61 400 000 003', 'SMS', email.id);
    await page.getByLabel(/^Verification code/).fill(sms.code ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();

    await page.waitForURL(`${baseUrl}/forced-actions/factor-enrolment/security-questions`);
    await heading('Security questions', 2);
    await expect.poll(() => page.getByText('100.00%').isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'factor enrolment: security questions');
    await page.getByLabel(/^Answer 1/).fill('DL 1234 5678');
    await page.getByLabel(/^Answer 2/).fill('2123 45670 1');
    await page.getByRole('button', { name: 'Finish enrolment' }).click();

    await page.waitForURL(APPLICATIONS);
    await heading('Applications');
    // Signed in through a forced step: the password entry counts as recent, so nothing asks again.
    expect((await context.cookies()).some((c) => c.name === 'sam_reauth')).toBe(true);
  });

  it("asks for the password again once the recent-authentication cookie is gone: the 'Re-enter password' modal", async () => {
    await signIn('C10001');
    await page.waitForURL(APPLICATIONS);
    await heading('Applications');
    const reauth = async () => (await context.cookies()).find((c) => c.name === 'sam_reauth');
    expect((await reauth())?.httpOnly).toBe(false);
    // The cookie is checked every 4 s: while it is there, nothing asks.
    await page.waitForTimeout(4_500);
    expect(await page.getByRole('dialog', { name: 'Re-enter password' }).count()).toBe(0);

    await context.clearCookies({ name: 'sam_reauth' });
    const dialog = page.getByRole('dialog', { name: 'Re-enter password' });
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    // Escape does not dismiss it: the password is required.
    await expectEscapeKeepsDialog(page, dialog);
    await expectNoAxeViolations(page, "the 'Re-enter password' modal");

    await dialog.getByLabel(/^Password/).fill('not-the-password');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => dialog.getByLabel(/^Password/).getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel(/^Password/).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await reauth()).toBeDefined();
  });

  it("warns two minutes before an unused session would end, and 'Stay signed in' keeps it: the idle warning", async () => {
    // The page's clock, moved on here; the server's session is as fresh as the sign-in.
    await page.clock.install();
    const answered: string[] = [];
    page.on('response', (response) => answered.push(response.url()));
    await signIn('C10001');
    await page.waitForURL(APPLICATIONS);
    await heading('Applications');
    // The warning asks the server, as it starts, how long the session has left: wait until the
    // watchers' chunk has loaded and a GET current-user sent after it has been answered. (Waiting
    // for the network to be idle was not enough on a loaded machine: the chunk came after the
    // idle moment, the question after the clock had moved, and the warning 27 minutes late.)
    // Watched from here: the installed clock also fakes the page's performance timeline.
    await expect
      .poll(
        () => {
          const chunk = answered.findIndex((url) => /\/SessionWatchers-[^/]*\.js$/.test(url));
          return (
            chunk >= 0 &&
            answered.slice(chunk + 1).some((url) => url.endsWith('/rest/ui/anonymous/current-user'))
          );
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    await page.waitForLoadState('networkidle');
    const dialog = page.getByRole('dialog', { name: 'Your session is about to end' });
    // The server ends a session after 30 minutes without use; the warning comes at 28.
    await page.clock.fastForward('27:00');
    await page.waitForTimeout(500);
    expect(await dialog.count()).toBe(0);
    await page.clock.fastForward('01:30');
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    await expect
      .poll(() => dialog.textContent())
      .toMatch(/For your security, you will be signed out at \d{1,2}:\d{2}\s?(am|pm)\./i);
    await expectNoAxeViolations(page, 'the idle warning');
    // Escape does not dismiss it: the choice is the user's to make.
    await expectEscapeKeepsDialog(page, dialog);
    // Focus starts on Stay signed in: Enter keeps the session.
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await heading('Applications');
    expect(page.url()).toBe(APPLICATIONS);
  });

  it('C10002 changes the expired password and signs in with the new one', async () => {
    const newPassword = 'Quiet-Harbour-Lantern-2027';
    await signIn('C10002');
    await page.waitForURL(`${baseUrl}/forced-actions/change-expired-password`);
    await heading('Change password');
    await expect
      .poll(() => page.getByText('At least 14 characters with at least 1 letter and 1 number').isVisible())
      .toBe(true);
    await expectNoAxeViolations(page, 'change expired password page');

    // Section 6: a pending sign-in has only the forced-action flows. Its header offers no user guide,
    // the guide's address sends it to /, and the step is still there to come back to.
    const header = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => header.getByRole('link', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await header.getByRole('link', { name: 'User guide' }).count()).toBe(0);
    await page.goto(`${baseUrl}/docs/user-guide`);
    await page.waitForURL(`${baseUrl}/`);
    await page.goto(`${baseUrl}/forced-actions/change-expired-password`);
    await heading('Change password');

    // The expired password itself is refused, with its reason on the field.
    await page.getByLabel(/^New password/).fill(PASSWORD);
    await page.getByLabel(/^Confirm new password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    // Marked invalid, described by the reason, which is announced.
    expect(await expectFieldErrorAnnounced(page.getByLabel(/^New password/))).toBe(
      'The new password must be different from your current password.',
    );
    await expectNoAxeViolations(page, 'change expired password page with a refusal');

    await page.getByLabel(/^New password/).fill(newPassword);
    await page.getByLabel(/^Confirm new password/).fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(APPLICATIONS);
    await heading('Applications');

    await signOut();
    await page.getByLabel(/^Username/).fill('C10002');
    await page.getByLabel(/^Password/).fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(APPLICATIONS);
    await heading('Applications');
  });
});
