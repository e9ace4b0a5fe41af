// More of the browser suite's journeys by keyboard alone (WCAG 2.1.1; see support/keyboard.ts): the
// forced steps (C10002's expired password, C10003's factor enrolment), a registration to the end
// with an authenticator app set up from the key the page shows, an invitation accepted for an
// existing account, password resets to the end (authenticator app; SMS; security questions with
// SMS codes off), the profile's change of password, an authenticator app enabled from the profile
// and its own 'Sign out of all devices' modal, the 'Re-enter password' modal, /single-sign-on for a
// user already signed in, the single-sign-on error page, and the framed JWT handoff to TREASURY,
// where the keyboard user works inside the frame. The focus is on each new page's heading or
// wizard step's title; errors are announced at their fields. axe-core (WCAG 2.2 A and AA) on every
// state visited. One browser context per journey, on this file's own server; journeys run in order.
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, waitForCaptcha } from './support/browser';
import {
  expectEscapeKeepsDialog,
  expectNoAxeViolationsIn,
  isFocused,
  keyboardUser,
} from './support/keyboard';
import { portalOf } from './support/portal';
import { totpStepNow } from './support/registration-totp';
import {
  codeFromOutbox,
  currentStep,
  DEMO_PASSWORD,
  latestOutboxId,
  setSmsGateway,
  totpLaterThan,
} from './support/reset';
import { acsVerdict } from './support/demo-sp';
import { signOutAllTexts } from '../../src/client/pages/profile.texts';

const { baseUrl, demoSpUrl } = portalOf(import.meta.url);
const captchaAnswer = inject('captchaAnswer');
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
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
});

const {
  livePage,
  tabTo,
  typeInto,
  chooseOption,
  expectFocusOn,
  expectFocusOnHeading,
  expectAnnounced,
  expectFieldErrorAnnounced,
  signIn,
  choosePersonMenuItem,
} = keyboardUser({ page: () => page, baseUrl });

/** The person menu's Sign out, by Enter and the arrow keys; back on the sign-in page. */
async function signOut(): Promise<void> {
  await choosePersonMenuItem('Sign out');
  await page.waitForURL(`${baseUrl}/`);
  await page.getByLabel(/^Username/).waitFor();
}

describe('forced steps by keyboard alone', () => {
  it('C10002 changes the expired password after a mismatch and a refusal of the current one, and signs in with it', async () => {
    const newPassword = 'Quiet-Keyboard-Lantern-2027';
    await signIn('C10002');
    await page.waitForURL(`${baseUrl}/forced-actions/change-expired-password`);
    await expectFocusOnHeading('Change password');
    await expectNoAxeViolations(page, 'change expired password');

    // A confirmation that differs: refused here, at the confirmation, which takes the focus.
    const password = page.getByLabel(/^New password/);
    const confirm = page.getByLabel(/^Confirm new password/);
    await typeInto(password, newPassword);
    await typeInto(confirm, `${newPassword}-not`);
    await page.keyboard.press('Enter');
    await expectFocusOn(confirm);
    expect(await expectFieldErrorAnnounced(confirm)).toBe('The passwords do not match');
    await expectNoAxeViolations(page, 'change expired password with a mismatch');

    // The expired password itself is refused: the fields are emptied, the reason is at the new
    // password, which takes the focus.
    await typeInto(password, DEMO_PASSWORD);
    await typeInto(confirm, DEMO_PASSWORD);
    await tabTo(page.getByRole('button', { name: 'Change password' }));
    await page.keyboard.press('Enter');
    await expectFocusOn(password);
    expect(await expectFieldErrorAnnounced(password)).toBe(
      'The new password must be different from your current password.',
    );
    await expectNoAxeViolations(page, 'change expired password with a refusal');

    await page.keyboard.type(newPassword);
    await typeInto(confirm, newPassword);
    await page.keyboard.press('Enter');
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');

    await signOut();
    await signIn('C10002', newPassword);
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
  });

  it('C10003 enrols email, SMS and security questions after a wrong code, a bad mobile and a repeated question', async () => {
    const before = await latestOutboxId(baseUrl);
    await signIn('C10003');
    await page.waitForURL(`${baseUrl}/forced-actions/factor-enrolment`);
    await expectFocusOnHeading('Verify your email address', 2);
    await page.getByRole('heading', { level: 1, name: 'Multi-factor enrolment' }).waitFor();
    await expectNoAxeViolations(page, 'factor enrolment: email verification');

    const emailCode = page.getByLabel(/^Verification code/);
    await typeInto(emailCode, '000000');
    await page.keyboard.press('Enter');
    await expectFocusOn(emailCode);
    await expectFieldErrorAnnounced(emailCode);
    await expectNoAxeViolations(page, 'factor enrolment: a wrong email code');
    const email = await codeFromOutbox(baseUrl, 'c10003@example.com', 'EMAIL', before);
    await typeInto(emailCode, email.code);
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/forced-actions/factor-enrolment/select-sms-factor`);
    await expectFocusOnHeading('Add SMS as a factor', 2);
    await expectNoAxeViolations(page, 'factor enrolment: select SMS factor');
    const mobile = page.getByLabel(/^Mobile/);
    await typeInto(mobile, 'not a number');
    await page.keyboard.press('Enter');
    await expectFocusOn(mobile);
    await expectFieldErrorAnnounced(mobile);
    await expectNoAxeViolations(page, 'factor enrolment: a mobile refused');
    await typeInto(mobile, '+61 400 000 003');
    await tabTo(page.getByRole('button', { name: 'Send code' }));
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/forced-actions/factor-enrolment/sms-verification`);
    await expectFocusOnHeading('Verify your mobile', 2);
    await expectNoAxeViolations(page, 'factor enrolment: SMS verification');
    const sms = await codeFromOutbox(baseUrl, '+61 400 000 003', 'SMS', email.id);
    await typeInto(page.getByLabel(/^Verification code/), sms.code);
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/forced-actions/factor-enrolment/security-questions`);
    await expectFocusOnHeading('Security questions', 2);
    await expectNoAxeViolations(page, 'factor enrolment: security questions');
    const question1 = page.getByLabel(/^Question 1/);
    const question2 = page.getByLabel(/^Question 2/);
    const offered = await question1.locator('option').allTextContents();
    const first = await question1.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]!.text);
    // The same question twice: refused at the second, which takes the focus.
    await chooseOption(question2, first);
    await typeInto(page.getByLabel(/^Answer 1/), 'DL 1234 5678');
    await typeInto(page.getByLabel(/^Answer 2/), '2123 45670 1');
    await page.keyboard.press('Enter');
    await expectFocusOn(question2);
    expect(await expectFieldErrorAnnounced(question2)).toBe('Choose two different questions');
    await expectNoAxeViolations(page, 'factor enrolment: the same question twice');
    await chooseOption(
      question2,
      offered.find((text) => text !== first)!,
    );
    await tabTo(page.getByRole('button', { name: 'Finish enrolment' }));
    await page.keyboard.press('Enter');

    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
  });
});

describe('wizards to the end by keyboard alone', () => {
  it('INVITE-NEW-0001 registers with an authenticator app set up from the shown key, and signs in again with it', async () => {
    const newPassword = 'Quiet-Keyboard-Morning-4821';
    await page.goto(`${baseUrl}/`);
    await livePage();
    await tabTo(page.getByRole('link', { name: 'Received an invitation? Register your account here.' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/registration`);
    await expectFocusOnHeading('Start your registration', 2);
    await waitForCaptcha(page);
    await expectNoAxeViolations(page, 'registration: start');
    await typeInto(page.getByLabel(/^Email/), 'new.customer@example.com');
    await typeInto(page.getByLabel(/^Invitation code/), 'INVITE-NEW-0001');
    await typeInto(page.getByLabel(/^Security code/), captchaAnswer);
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/registration/collect-details`);
    await expectFocusOnHeading('Your details', 2);
    await expectNoAxeViolations(page, 'registration: collect details');
    // A username of the wrong form: refused at the field, which keeps the focus.
    const username = page.getByLabel(/^Username/);
    await typeInto(username, 'X1');
    await page.keyboard.press('Enter');
    await expectFocusOn(username);
    await expectFieldErrorAnnounced(username);
    await expectNoAxeViolations(page, 'registration: collect details with an error');
    await typeInto(username, 'C10009');
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/registration/select-authenticator-app-factor`);
    await expectFocusOnHeading('Set up an authenticator app', 2);
    const setupKey = page.getByTestId('setup-key');
    await setupKey.waitFor();
    const secret = ((await setupKey.textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectNoAxeViolations(page, 'registration: authenticator app setup');
    await tabTo(page.getByRole('button', { name: 'I have added the account to my app' }));
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/registration/authenticator-app-verification`);
    await expectFocusOnHeading('Verify your authenticator app', 2);
    await expectNoAxeViolations(page, 'registration: authenticator app verification');
    const code = page.getByLabel(/^Verification code/);
    await typeInto(code, '000000');
    await page.keyboard.press('Enter');
    await expectFocusOn(code);
    await expectFieldErrorAnnounced(code);
    await expectNoAxeViolations(page, 'registration: a wrong authenticator app code');
    const totp = await totpStepNow(secret);
    await typeInto(code, totp.code);
    await page.keyboard.press('Enter');

    // SMS is offered next when the gateway is up; email (with security questions) instead.
    await page.waitForURL(/\/registration\/(select-sms-factor|security-questions)$/);
    if (page.url().endsWith('/select-sms-factor')) {
      await expectFocusOnHeading('Add SMS as a factor', 2);
      await tabTo(page.getByRole('button', { name: 'Use email instead' }));
      await page.keyboard.press('Enter');
    }
    await page.waitForURL(`${baseUrl}/registration/security-questions`);
    await expectFocusOnHeading('Security questions', 2);
    await typeInto(page.getByLabel(/^Answer 1/), 'NSW 99887');
    await typeInto(page.getByLabel(/^Answer 2/), '2123 45670 1');
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/registration/set-password`);
    await expectFocusOnHeading('Set your password', 2);
    await expectNoAxeViolations(page, 'registration: set password');
    const password = page.getByLabel(/^Password/);
    const confirm = page.getByLabel(/^Confirm password/);
    await typeInto(password, newPassword);
    await typeInto(confirm, 'Something-else-entirely-9');
    await page.keyboard.press('Enter');
    await expectFocusOn(confirm);
    await expectFieldErrorAnnounced(confirm);
    await expectNoAxeViolations(page, 'registration: set password with a mismatch');
    await typeInto(confirm, newPassword);
    await tabTo(page.getByRole('button', { name: 'Create account' }));
    await page.keyboard.press('Enter');

    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
    await page.getByRole('main').getByText('Northside', { exact: false }).first().waitFor();

    // A new browser: the password, then the app's next code (the registration's step is spent).
    await context.close();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await signIn('C10009', newPassword);
    await page.waitForURL(`${baseUrl}/forced-actions/mfa/authenticator-app-verification`);
    await expectFocusOnHeading('Authenticator app verification');
    await typeInto(page.getByLabel(/^Verification code/), (await totpLaterThan(totp.step, secret)).code);
    await page.keyboard.press('Enter');
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
  }, 120_000);

  it('INVITE-EXIST-0001 is accepted for C10001 after a wrong password, and adds Loans at Bayview', async () => {
    await page.goto(`${baseUrl}/registration`);
    await waitForCaptcha(page);
    await typeInto(page.getByLabel(/^Email/), 'c10001@example.com');
    await typeInto(page.getByLabel(/^Invitation code/), 'INVITE-EXIST-0001');
    await typeInto(page.getByLabel(/^Security code/), captchaAnswer);
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/registration/verify-identity`);
    await expectFocusOnHeading('Sign in to accept the invitation', 2);
    await expectNoAxeViolations(page, 'registration: verify identity');
    // Nothing in the password: refused at the field, which takes the focus.
    const password = page.getByLabel(/^Password/);
    await typeInto(page.getByLabel(/^Username/), 'C10001');
    await page.keyboard.press('Enter');
    await expectFocusOn(password);
    await expectFieldErrorAnnounced(password);
    // A wrong one: the server's refusal and section 8's help text are announced; the password
    // is emptied and has the focus again.
    await page.keyboard.type('not-the-password');
    await page.keyboard.press('Enter');
    await expectAnnounced(/cancel this registration, reset your password/);
    await expectFocusOn(password);
    await expectNoAxeViolations(page, 'registration: verify identity with the help text');
    await page.keyboard.type(DEMO_PASSWORD);
    await tabTo(page.getByRole('button', { name: 'Accept invitation' }));
    await page.keyboard.press('Enter');

    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
    await page.getByRole('main').getByText('Bayview', { exact: false }).first().waitFor();
  });

  it('C10004 resets its password with the email code and an authenticator app code, and signs in to MFA', async () => {
    const newPassword = 'Copper-Keyboard-Meadow-58';
    await page.goto(`${baseUrl}/`);
    await livePage();
    await tabTo(page.getByRole('link', { name: 'Having problems signing in?' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/password-reset`);
    await expectFocusOnHeading('Get started', 2);
    await waitForCaptcha(page);
    await expectNoAxeViolations(page, 'password reset: get started');
    const before = await latestOutboxId(baseUrl);
    await typeInto(page.getByLabel(/^Email/), 'c10004@example.com');
    await typeInto(page.getByLabel(/^Security code/), captchaAnswer);
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/password-reset/email-verification`);
    await expectFocusOnHeading('Verify your email address', 2);
    await expectNoAxeViolations(page, 'password reset: email verification');
    // A code too short: refused at the field, which keeps the focus.
    const emailCode = page.getByLabel(/^Verification code/);
    await typeInto(emailCode, '12');
    await page.keyboard.press('Enter');
    await expectFocusOn(emailCode);
    await expectFieldErrorAnnounced(emailCode);
    await expectNoAxeViolations(page, 'password reset: email verification with an error');
    const { code } = await codeFromOutbox(baseUrl, 'c10004@example.com', 'EMAIL', before);
    await typeInto(emailCode, code);
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/password-reset/authenticator-app-verification`);
    await expectFocusOnHeading('Authenticator app', 2);
    await expectNoAxeViolations(page, 'password reset: authenticator app verification');
    const totpField = page.getByLabel(/^Verification code/);
    await typeInto(totpField, '000000');
    await page.keyboard.press('Enter');
    await expectFocusOn(totpField);
    await expectFieldErrorAnnounced(totpField);
    const totp = await totpLaterThan(currentStep());
    await typeInto(totpField, totp.code);
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/password-reset/set-password`);
    await expectFocusOnHeading('Set a new password', 2);
    await expectNoAxeViolations(page, 'password reset: set password');
    const password = page.getByLabel(/^New password/);
    // Too short for section 5's policy: refused at the field, which keeps the focus.
    await typeInto(password, 'short1');
    await typeInto(page.getByLabel(/^Confirm new password/), 'short1');
    await page.keyboard.press('Enter');
    await expectFocusOn(password);
    await expectFieldErrorAnnounced(password);
    await expectNoAxeViolations(page, 'password reset: set password refused');
    await typeInto(password, newPassword);
    await typeInto(page.getByLabel(/^Confirm new password/), newPassword);
    await tabTo(page.getByRole('button', { name: 'Reset password' }));
    await page.keyboard.press('Enter');

    // Back on the sign-in page, which says so; the new password signs in to MFA.
    await page.waitForURL(`${baseUrl}/`);
    await expectAnnounced('Your password has been reset. Sign in with your new password.');
    await signIn('C10004', newPassword);
    await page.waitForURL(`${baseUrl}/forced-actions/mfa/authenticator-app-verification`);
    await expectFocusOnHeading('Authenticator app verification');
  });

  it('C10010 changes its password from the profile, after a mismatch and a wrong current password', async () => {
    const newPassword = 'Quiet-Keyboard-Evening-88';
    await signIn('C10010');
    await page.waitForURL(APPLICATIONS);
    await choosePersonMenuItem('Profile');
    await page.waitForURL(`${baseUrl}/profile`);
    await expectFocusOnHeading('Profile');
    await tabTo(page.getByRole('link', { name: 'Change password' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile/change-password`);
    await expectFocusOnHeading('Change password');
    await expectNoAxeViolations(page, 'profile: change password');

    const password = page.getByLabel(/^New password/);
    const confirm = page.getByLabel(/^Confirm new password/);
    const current = page.getByLabel(/^Current password/);
    await typeInto(password, newPassword);
    await typeInto(confirm, `${newPassword}-not`);
    await typeInto(current, DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await expectFocusOn(confirm);
    await expectFieldErrorAnnounced(confirm);
    await expectNoAxeViolations(page, 'profile: change password with a mismatch');

    await typeInto(confirm, newPassword);
    await typeInto(current, 'Wrong-Password-2026');
    await page.keyboard.press('Enter');
    await expectFieldErrorAnnounced(current);
    await expectFocusOn(current);
    await typeInto(current, DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile`);
    await expectFocusOnHeading('Profile');
    await expectAnnounced('Successfully changed password');

    await signOut();
    await signIn('C10010', newPassword);
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
  });

  it("C10001 enables an authenticator app from the shown key, and keeps the focus through its own 'Sign out of all devices' modal", async () => {
    await signIn('C10001');
    await page.waitForURL(APPLICATIONS);
    await page.goto(`${baseUrl}/profile`);
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();

    await tabTo(page.getByRole('link', { name: 'Enable authenticator app' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile/enrol-authenticator-app`);
    await expectFocusOnHeading('Step 1 of 2', 2);
    const setupKey = page.getByTestId('setup-key');
    await setupKey.waitFor();
    const secret = ((await setupKey.textContent()) ?? '').replace(/\s/g, '');
    await expectNoAxeViolations(page, 'profile: enable authenticator app, setup');
    await tabTo(page.getByRole('button', { name: 'Next' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile/enrol-authenticator-app/code-verification`);
    await expectFocusOnHeading('Step 2 of 2', 2);
    const code = page.getByLabel(/^Verification code/);
    await typeInto(code, '000000');
    await typeInto(page.getByLabel(/^Current password/), DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await expectFieldErrorAnnounced(code);
    await expectFocusOn(code);
    await expectNoAxeViolations(page, 'profile: enable authenticator app, a wrong code');
    await typeInto(code, (await totpStepNow(secret)).code);
    await tabTo(page.getByRole('button', { name: 'Verify' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile`);
    await expectFocusOnHeading('Profile');
    await expectAnnounced('Successfully enabled authenticator app factor');

    // The modal: the focus moves in and stays there; Escape gives it back to its button.
    const signOutAll = page.getByRole('button', { name: signOutAllTexts.title });
    await tabTo(signOutAll);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: signOutAllTexts.title });
    await dialog.getByText('Payroll').waitFor();
    const inDialog = () => dialog.evaluate((el) => el.contains(document.activeElement));
    await expect.poll(inDialog).toBe(true);
    for (let presses = 0; presses < 5; presses += 1) {
      await page.keyboard.press('Tab');
      expect(await inDialog(), 'Tab keeps the focus in the dialog').toBe(true);
    }
    await expectNoAxeViolations(page, "profile: the 'Sign out of all devices' modal");
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expectFocusOn(signOutAll);
    await page.keyboard.press('Enter');
    await tabTo(dialog.getByRole('button', { name: signOutAllTexts.confirm }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/`);
    await page.getByLabel(/^Username/).waitFor();
  });

  it('C10008, signed in, cancels on /single-sign-on, then chooses a Loans facility there', async () => {
    await signIn('C10008');
    await page.waitForURL(APPLICATIONS);
    const arriveFromLoans = async () => {
      await page.goto(`${baseUrl}/demo-sp/LOANS`);
      await tabTo(page.getByRole('link', { name: 'Sign in to Loans with the portal' }));
      await page.keyboard.press('Enter');
      // A new document (the request comes from Loans): the focus starts at its top, so the
      // first Tab is the skip link, as on any page load.
      await page.waitForURL(`${baseUrl}/single-sign-on`);
      await page.getByRole('heading', { level: 1, name: 'Single sign on' }).waitFor();
      await page.getByText('You are signed in as Ava Kowalski (C10008).').waitFor();
      await page.keyboard.press('Tab');
      await expectFocusOn(page.getByRole('link', { name: 'Skip to main content' }));
    };
    await arriveFromLoans();
    await expectNoAxeViolations(page, 'single-sign-on page');
    await tabTo(page.getByRole('button', { name: 'Cancel' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');

    await arriveFromLoans();
    await tabTo(page.getByRole('button', { name: /^Bayview Aged Care/ }));
    await page.keyboard.press('Enter');
    const received = await acsVerdict(page, baseUrl, 'LOANS');
    expect(received.verdict).toContain('Loans validated the response');
    expect(received.username).toBe('C10008');
    expect(received.facility).toMatch(/^F003\b/);
  });

  it("C10005 answers the 'Re-enter password' modal by keyboard: the focus stays inside it, and comes back", async () => {
    // C10005 verifies MFA by SMS first.
    const before = await latestOutboxId(baseUrl);
    await signIn('C10005');
    await page.waitForURL(`${baseUrl}/forced-actions/mfa/sms-verification`);
    await expectFocusOnHeading('SMS verification');
    const sms = await codeFromOutbox(baseUrl, '+61 400 000 005', 'SMS', before);
    await typeInto(page.getByLabel(/^Verification code/), sms.code);
    await page.keyboard.press('Enter');
    await page.waitForURL(APPLICATIONS);
    const heading = page.getByRole('heading', { level: 1, name: 'Applications' });
    await expectFocusOn(heading);

    await context.clearCookies({ name: 'sam_reauth' });
    const dialog = page.getByRole('dialog', { name: 'Re-enter password' });
    await dialog.waitFor({ timeout: 15_000 });
    const inDialog = () => dialog.evaluate((el) => el.contains(document.activeElement));
    await expect.poll(inDialog).toBe(true);
    for (let presses = 0; presses < 6; presses += 1) {
      await page.keyboard.press('Tab');
      expect(await inDialog(), 'Tab keeps the focus in the dialog').toBe(true);
    }
    // Escape does not dismiss it: the password is required.
    await expectEscapeKeepsDialog(page, dialog);
    await expectNoAxeViolations(page, "the 'Re-enter password' modal");

    const password = dialog.getByLabel(/^Password/);
    await typeInto(password, 'not-the-password');
    await page.keyboard.press('Enter');
    await expectFieldErrorAnnounced(password);
    await expectFocusOn(password);
    await expectNoAxeViolations(page, "the 'Re-enter password' modal with a refusal");
    await typeInto(password, DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    // The focus is given back to where it was.
    await expectFocusOn(heading);
    expect((await context.cookies()).some((c) => c.name === 'sam_reauth')).toBe(true);
  });
});

describe('more resets and handoffs by keyboard alone', () => {
  /** The reset's first two steps for `email`: answers the outbox's newest id before the next step. */
  async function startReset(email: string): Promise<number> {
    await page.goto(`${baseUrl}/password-reset`);
    await waitForCaptcha(page);
    const before = await latestOutboxId(baseUrl);
    await typeInto(page.getByLabel(/^Email/), email);
    await typeInto(page.getByLabel(/^Security code/), captchaAnswer);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/password-reset/email-verification`);
    await expectFocusOnHeading('Verify your email address', 2);
    const { code } = await codeFromOutbox(baseUrl, email, 'EMAIL', before);
    const beforeNext = await latestOutboxId(baseUrl);
    await typeInto(page.getByLabel(/^Verification code/), code);
    await page.keyboard.press('Enter');
    return beforeNext;
  }

  async function setNewPassword(password: string): Promise<void> {
    await page.waitForURL(`${baseUrl}/password-reset/set-password`);
    await expectFocusOnHeading('Set a new password', 2);
    await typeInto(page.getByLabel(/^New password/), password);
    await typeInto(page.getByLabel(/^Confirm new password/), password);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/`);
    await expectAnnounced('Your password has been reset. Sign in with your new password.');
  }

  // After the 'Re-enter password' journey above, which signs C10005 in with the demo password.
  it('C10005 resets by SMS, then, with SMS codes switched off, by security questions after a wrong answer', async () => {
    const beforeSms = await startReset('c10005@example.com');
    await page.waitForURL(`${baseUrl}/password-reset/sms-verification`);
    await expectFocusOnHeading('SMS verification', 2);
    const { code } = await codeFromOutbox(baseUrl, '+61 400 000 005', 'SMS', beforeSms);
    await typeInto(page.getByLabel(/^Verification code/), code);
    await page.keyboard.press('Enter');
    await setNewPassword('Silver-Keyboard-Morning-42');

    await setSmsGateway(baseUrl, false);
    try {
      await context.close();
      context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      page = await context.newPage();
      await startReset('c10005@example.com');
      await page.waitForURL(`${baseUrl}/password-reset/security-question-verification`);
      await expectFocusOnHeading('Security questions', 2);
      await page.getByText('SMS verification codes are currently unavailable.', { exact: true }).waitFor();
      await expectNoAxeViolations(page, 'password reset: security questions');
      const licence = page.getByLabel(/^Driver's licence number/);
      await typeInto(licence, 'not the answer');
      await typeInto(page.getByLabel(/^Medicare card number/), 'MC10005');
      await page.keyboard.press('Enter');
      await expectFocusOn(licence);
      expect(await expectFieldErrorAnnounced(licence)).toBe('The answer is incorrect.');
      await expectNoAxeViolations(page, 'password reset: a wrong answer');
      await typeInto(licence, 'DL10005');
      await page.keyboard.press('Enter');
      await setNewPassword('Amber-Keyboard-Evening-73');
    } finally {
      await setSmsGateway(baseUrl, true);
    }
  });

  it('admin1, arriving from Loans (which it has no access to), lands on the single-sign-on error page', async () => {
    await page.goto(`${baseUrl}/demo-sp/LOANS`);
    await tabTo(page.getByRole('link', { name: 'Sign in to Loans with the portal' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/`);
    await typeInto(page.getByLabel(/^Username/), 'admin1');
    await typeInto(page.getByLabel(/^Password/), DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/single-sign-on-error`);
    await expectFocusOnHeading('Single sign on error');
    await page.getByText('You do not have access to Loans.').waitFor();
    await expectNoAxeViolations(page, 'single-sign-on error page');
  });
});

describe('the framed JWT handoff by keyboard alone', () => {
  it('admin1 signs in inside TREASURY’s frame after a wrong password; the application verifies the token', async () => {
    await page.goto(`${demoSpUrl}/demo-sp/TREASURY`);
    await page
      .frameLocator('#portal-frame')
      .getByLabel(/^Username/)
      .waitFor();
    const frame = page.frames().find((f) => f.url().startsWith(baseUrl)) as Frame;
    expect(frame, 'the portal in the frame').toBeDefined();
    const framed = keyboardUser({ page: () => page, scope: () => frame, baseUrl });
    await expectNoAxeViolationsIn(frame, 'the framed sign-in page');

    // From the application's page, Tab goes into the frame, to the portal's fields.
    const username = frame.getByLabel(/^Username/);
    const password = frame.getByLabel(/^Password/);
    await framed.typeInto(username, 'admin1');
    await framed.typeInto(password, 'Not-the-password-1');
    await page.keyboard.press('Enter');
    await framed.expectAnnounced('Incorrect username or password.');
    await framed.expectFocusOn(password);
    expect(await isFocused(username)).toBe(false);
    await expectNoAxeViolationsIn(frame, 'the framed sign-in page with a refusal');

    await page.keyboard.type(DEMO_PASSWORD);
    await framed.tabTo(frame.getByRole('button', { name: 'Sign in' }));
    await page.keyboard.press('Enter');
    const status = page.locator('#status');
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 20_000 }).toBe('verified');
    expect(await status.textContent()).toBe('Token verified: signed by the portal for Treasury.');
    expect(await page.locator('#claim-username').textContent()).toBe('admin1');
    expect(await page.locator('#claim-aud').textContent()).toBe('TREASURY');
  });
});
