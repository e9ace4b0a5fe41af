// The browser suite's journeys by keyboard alone (WCAG 2.1.1): Tab, Shift+Tab, Enter, Space, the
// arrow keys and typing into the focused field; nothing is clicked or filled. After each route
// change the focus is on the new page's heading, or on a wizard step's title (WCAG 2.4.3); errors
// are in a live region and on their field (aria-invalid, aria-describedby; WCAG 3.3.1, 4.1.3).
// axe-core (WCAG 2.2 A and AA) on every step state visited. One browser context per journey. The
// registration and password reset by keyboard, from their links to the end, are keyboard-forced's.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, pagePerTest } from './support/browser';
import { codeFromOutbox, currentStep, DEMO_PASSWORD, latestOutboxId, totpLaterThan } from './support/reset';
import { acsVerdict } from './support/demo-sp';
import { keyboardUser } from './support/keyboard';
import { registerOverHttp, REGISTERED_PASSWORD } from './support/merge';
import { portalOf } from './support/portal';

const { baseUrl } = portalOf(import.meta.url);
const APPLICATIONS = `${baseUrl}/profile/my-applications`;

let page: Page;
pagePerTest(
  (p) => {
    page = p;
  },
  { viewport: { width: 1280, height: 800 } },
);

const {
  livePage,
  tabTo,
  arrowTo,
  typeInto,
  chooseRadio,
  expectFocusOn,
  expectFocusOnHeading,
  expectAnnounced,
  expectFieldErrorAnnounced,
  signIn,
  choosePersonMenuItem,
} = keyboardUser({ page: () => page, baseUrl });

/** From the duplicate-accounts notice to the select-accounts step, by keyboard. */
async function startMerge(): Promise<void> {
  await page.waitForURL(`${baseUrl}/forced-actions/duplicate-accounts`);
  await expectFocusOnHeading('Duplicate accounts');
  await tabTo(page.getByRole('button', { name: 'Start merge' }));
  await page.keyboard.press('Enter');
  await page.waitForURL(`${baseUrl}/forced-actions/merge-accounts/select-accounts`);
  await expectFocusOnHeading('Select accounts', 2);
}

// ---- The journeys ------------------------------------------------------------------------------

describe('by keyboard alone', () => {
  it('C10001 signs in, after a wrong password, to the applications page', async () => {
    await page.goto(`${baseUrl}/`);
    await livePage();
    await page.getByLabel(/^Username/).waitFor();
    await expectNoAxeViolations(page, 'sign-in page');
    // The skip link comes first and moves the focus to the page's content.
    await page.keyboard.press('Tab');
    await expectFocusOn(page.getByRole('link', { name: 'Skip to main content' }));
    await page.keyboard.press('Enter');
    await expectFocusOn(page.getByRole('main'));

    await typeInto(page.getByLabel(/^Username/), 'C10001');
    const password = page.getByLabel(/^Password/);
    await typeInto(password, 'Not-the-password-1');
    // Sent from the Sign in button, so the focus has left the password: the refusal brings it back
    // to the password, emptied.
    await tabTo(page.getByRole('button', { name: 'Sign in' }));
    await page.keyboard.press('Enter');
    await expectAnnounced('Incorrect username or password.');
    await expectFocusOn(password);
    await expect.poll(() => password.inputValue()).toBe('');
    await expectNoAxeViolations(page, 'sign-in page with a refusal');

    await page.keyboard.type(DEMO_PASSWORD);
    // On to the button, and Space presses it.
    await tabTo(page.getByRole('button', { name: 'Sign in' }));
    await page.keyboard.press('Space');
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
    await page.getByRole('main').getByText('PAYROLL', { exact: false }).first().waitFor();
    await expectNoAxeViolations(page, 'applications page');
  });

  it('C10004 verifies MFA with an authenticator app code after a wrong one', async () => {
    await signIn('C10004');
    await page.waitForURL(`${baseUrl}/forced-actions/mfa/authenticator-app-verification`);
    await expectFocusOnHeading('Authenticator app verification');
    await expectNoAxeViolations(page, 'MFA authenticator app page');

    const code = page.getByLabel(/^Verification code/);
    await typeInto(code, '000000');
    // Sent from the Verify button, so the focus has left the code: the refusal brings it back to
    // the code, emptied.
    await tabTo(page.getByRole('button', { name: 'Verify' }));
    await page.keyboard.press('Enter');
    await expectFieldErrorAnnounced(code);
    await expectFocusOn(code);
    await expect.poll(() => code.inputValue()).toBe('');
    await expectNoAxeViolations(page, 'MFA authenticator app page with a wrong code');

    await page.keyboard.type((await totpLaterThan(currentStep())).code);
    const trust = page.getByRole('checkbox', { name: /^Trust this device/ });
    await tabTo(trust);
    await page.keyboard.press('Space');
    await expect.poll(() => trust.isChecked()).toBe(true);
    await tabTo(page.getByRole('button', { name: 'Verify' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
  });

  it('C10001 changes the phone, the email and the mobile from the profile', async () => {
    await signIn('C10001');
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
    // The person menu: Enter opens it, the arrow keys move to Profile.
    await choosePersonMenuItem('Profile');
    await page.waitForURL(`${baseUrl}/profile`);
    await expectFocusOnHeading('Profile');
    await expectNoAxeViolations(page, 'profile');

    await tabTo(page.getByRole('link', { name: 'Change phone' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile/change-phone`);
    await expectFocusOnHeading('Change phone');
    await expectNoAxeViolations(page, 'change phone');
    await typeInto(page.getByLabel(/^Phone/), '+64 2 8888 8888');
    const password = page.getByLabel(/^Current password/);
    await typeInto(password, 'Wrong-Password-2026');
    await page.keyboard.press('Enter');
    await expectFieldErrorAnnounced(password);
    await expectNoAxeViolations(page, 'change phone with a wrong password');

    await typeInto(password, DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile`);
    await expectFocusOnHeading('Profile');
    await expectAnnounced('Successfully updated phone');

    await tabTo(page.getByRole('link', { name: 'Change email' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile/change-email`);
    await expectFocusOnHeading('Step 1 of 2', 2);
    await expectNoAxeViolations(page, 'change email: new email');
    await typeInto(page.getByLabel(/^New email/), 'olivia.keyboard@example.com');
    await typeInto(page.getByLabel(/^Current password/), DEMO_PASSWORD);
    const beforeEmail = await latestOutboxId(baseUrl);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile/change-email/email-verification`);
    await expectFocusOnHeading('Step 2 of 2', 2);
    await expectNoAxeViolations(page, 'change email: verification');
    // A wrong code is refused at its field; the one sent to the new address changes the email.
    const emailCode = await codeFromOutbox(baseUrl, 'olivia.keyboard@example.com', 'EMAIL', beforeEmail);
    const emailCodeField = page.getByLabel(/^Verification code/);
    await typeInto(emailCodeField, emailCode.code === '000000' ? '111111' : '000000');
    await page.keyboard.press('Enter');
    await expectFieldErrorAnnounced(emailCodeField);
    await typeInto(emailCodeField, emailCode.code);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile`);
    await expectFocusOnHeading('Profile');
    await expectAnnounced('Successfully updated email');

    // The mobile, through its own two steps, with the SMS code.
    await tabTo(page.getByRole('link', { name: 'Change mobile' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile/change-mobile`);
    await expectFocusOnHeading('Step 1 of 2', 2);
    await expectNoAxeViolations(page, 'change mobile: new mobile');
    await typeInto(page.getByLabel(/^Mobile/), '+61 400 555 777');
    await typeInto(page.getByLabel(/^Current password/), DEMO_PASSWORD);
    const beforeSms = await latestOutboxId(baseUrl);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile/change-mobile/sms-verification`);
    await expectFocusOnHeading('Step 2 of 2', 2);
    await expectNoAxeViolations(page, 'change mobile: verification');
    const smsCode = await codeFromOutbox(baseUrl, '+61 400 555 777', 'SMS', beforeSms);
    await typeInto(page.getByLabel(/^Verification code/), smsCode.code);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/profile`);
    await expectFocusOnHeading('Profile');
    await expectAnnounced('Successfully updated mobile');
  });

  it('C10007 skips the merge of duplicate accounts', async () => {
    await signIn('C10007');
    await page.waitForURL(`${baseUrl}/forced-actions/duplicate-accounts`);
    await expectFocusOnHeading('Duplicate accounts');
    await expectNoAxeViolations(page, 'duplicate-accounts notice');
    // The buttons follow the heading: Shift+Tab comes back to Start merge from Skip.
    const skip = page.getByRole('button', { name: 'Skip' });
    await tabTo(skip);
    await page.keyboard.press('Shift+Tab');
    await expectFocusOn(page.getByRole('button', { name: 'Start merge' }));
    await tabTo(skip);
    await page.keyboard.press('Enter');
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
  });

  it("searches the user guide from the header with '/' and goes to the result", async () => {
    await page.goto(`${baseUrl}/`);
    await livePage();
    await tabTo(page.getByRole('link', { name: 'User guide' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/docs/user-guide`);
    await expectFocusOnHeading('User guide');
    await expectNoAxeViolations(page, 'user guide');

    await page.keyboard.press('/');
    await expectFocusOn(page.getByRole('searchbox', { name: 'Search the guide' }));
    await page.keyboard.type('trusted');
    const first = page.getByRole('list', { name: 'Search results' }).getByRole('link').first();
    await first.waitFor();
    await expectNoAxeViolations(page, 'user guide with results');
    await tabTo(first);
    await page.keyboard.press('Enter');
    await expectFocusOn(page.getByRole('heading', { level: 3, name: 'Trusted devices', exact: true }));
    expect(page.url()).toBe(`${baseUrl}/docs/user-guide#trusted-devices`);
  });

  it('auditor1 searches the access-request list and opens a request', async () => {
    await signIn('auditor1');
    await page.waitForURL(`${baseUrl}/access-requests`);
    await expectFocusOnHeading('Access Requests');
    await expect.poll(() => page.getByRole('row').count()).toBe(5);
    await expectNoAxeViolations(page, 'the access-request list');

    await typeInto(page.getByRole('searchbox', { name: 'Search access requests' }), 'treasury');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await expectNoAxeViolations(page, 'the access-request list, searched');
    await tabTo(page.getByRole('link', { name: 'AR-TRSY4K7M' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/access-requests\/[0-9a-f-]{36}$/);
    // The focus is on the request's heading (data-step-heading), drawn once the request has loaded.
    await expectFocusOnHeading(/AR-TRSY4K7M/, 2);
    await expectNoAxeViolations(page, 'an access request');
  });
  it('C10001 hands off from an application card and from the header grid', async () => {
    await signIn('C10001');
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
    await tabTo(page.getByRole('main').getByRole('link', { name: /Riverside Family Practice \(F002\)/ }));
    await page.keyboard.press('Enter');
    const loans = await acsVerdict(page, baseUrl, 'LOANS');
    expect(loans.verdict).toContain('Loans validated the response');
    expect(loans.username).toBe('C10001');
    expect(loans.facility).toMatch(/^F002\b/);

    // The header's application grid, from a fresh load of the page (the focus starts at the top):
    // Enter opens it, the first application takes the focus once the list is there, and the arrow
    // keys move to Payroll.
    await page.goto(APPLICATIONS);
    await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    await tabTo(page.getByRole('button', { name: 'Applications' }));
    await page.keyboard.press('Enter');
    await expectFocusOn(page.getByRole('menuitem').first());
    await arrowTo(page.getByRole('menuitem', { name: 'Payroll' }));
    await page.keyboard.press('Enter');
    const payrollVerdict = await acsVerdict(page, baseUrl, 'PAYROLL');
    expect(payrollVerdict.verdict).toContain('Payroll validated the response');
    expect(payrollVerdict.username).toBe('C10001');
  });

  it('C10008 arrives from LOANS, chooses a facility and is handed off', async () => {
    await page.goto(`${baseUrl}/demo-sp/LOANS`);
    await tabTo(page.getByRole('link', { name: 'Sign in to Loans with the portal' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/`);
    await typeInto(page.getByLabel(/^Username/), 'C10008');
    await typeInto(page.getByLabel(/^Password/), DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/forced-actions/select-facility`);
    await expectFocusOnHeading('Select facility');
    await expectNoAxeViolations(page, 'select-facility page');
    await tabTo(page.getByRole('button', { name: /^Bayview Aged Care/ }));
    await page.keyboard.press('Enter');
    const received = await acsVerdict(page, baseUrl, 'LOANS');
    expect(received.verdict).toContain('Loans validated the response');
    expect(received.username).toBe('C10008');
    expect(received.facility).toMatch(/^F003\b/);
  });

  it('C10006 merges C10007 through every step of the wizard', async () => {
    await signIn('C10006');
    await startMerge();
    const account = page.getByRole('checkbox', { name: /^C10007/ });
    await tabTo(account);
    await page.keyboard.press('Space');
    await expect.poll(() => account.isChecked()).toBe(true);
    const password = page.getByLabel(/^Password for C10007/);
    await typeInto(password, 'Not-the-password-2026');
    await tabTo(page.getByRole('button', { name: 'Next' }));
    await page.keyboard.press('Enter');
    // The refused password is to be typed again: the focus is on it, and its error is announced.
    await expectFocusOn(password);
    await expectFieldErrorAnnounced(password);
    await expectNoAxeViolations(page, 'select accounts with a wrong password');
    await typeInto(password, DEMO_PASSWORD);
    await tabTo(page.getByRole('button', { name: 'Next' }));
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/forced-actions/merge-accounts/choose-preferred-username`);
    await expectFocusOnHeading('Choose preferred username', 2);
    await expectNoAxeViolations(page, 'choose preferred username');
    await chooseRadio(page.getByRole('radio', { name: 'C10006' }));
    await tabTo(page.getByRole('button', { name: 'Next' }));
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/forced-actions/merge-accounts/confirmation`);
    await expectFocusOnHeading('Confirmation', 2);
    await tabTo(page.getByRole('button', { name: 'Merge' }));
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/forced-actions/merge-accounts/completed`);
    await expectFocusOnHeading('Accounts merged', 2);
    await page.getByText(/C10007 has been merged into C10006/).waitFor();
    await expectNoAxeViolations(page, 'merge completed');
    await tabTo(page.getByRole('button', { name: 'Continue' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
    await expect.poll(() => page.getByRole('main').getByRole('link', { name: /Loans/ }).count()).toBe(2);
  });

  it('C20002 chooses None, is refused an address in use and changes to a fresh one', async () => {
    // A new account with C10002's address (registered over HTTP) is asked to merge at sign-in.
    await registerOverHttp(baseUrl, { email: 'c10002@example.com', username: 'C20002' });
    await signIn('C20002', REGISTERED_PASSWORD);
    await startMerge();
    const none = page.getByRole('checkbox', { name: 'None of these accounts are mine' });
    await tabTo(none);
    await page.keyboard.press('Space');
    await expect.poll(() => none.isChecked()).toBe(true);
    await tabTo(page.getByRole('button', { name: 'Next' }));
    await page.keyboard.press('Enter');

    // Another account's address gets its code; its verification says the address is in use.
    await page.waitForURL(`${baseUrl}/forced-actions/merge-accounts/change-email`);
    await expectFocusOnHeading('Change email', 2);
    const newEmail = page.getByLabel(/^New email/);
    let afterId = await latestOutboxId(baseUrl);
    await typeInto(newEmail, 'c10003@example.com');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/forced-actions/merge-accounts/email-verification`);
    await expectFocusOnHeading('Email verification', 2);
    let sent = await codeFromOutbox(baseUrl, 'c10003@example.com', 'EMAIL', afterId);
    await typeInto(page.getByLabel(/^Verification code/), sent.code);
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/forced-actions/merge-accounts/change-email`);
    await expectFocusOnHeading('Change email', 2);
    expect(await expectFieldErrorAnnounced(newEmail)).toBe(
      'This email address is used by another account. Choose another one.',
    );
    await expectNoAxeViolations(page, 'change email with the address in use');
    afterId = await latestOutboxId(baseUrl);
    await typeInto(newEmail, 'c20002.new@example.com');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/forced-actions/merge-accounts/email-verification`);
    await expectFocusOnHeading('Email verification', 2);
    sent = await codeFromOutbox(baseUrl, 'c20002.new@example.com', 'EMAIL', afterId);
    await typeInto(page.getByLabel(/^Verification code/), sent.code);
    await page.keyboard.press('Enter');

    await page.waitForURL(`${baseUrl}/forced-actions/merge-accounts/email-changed`);
    await expectFocusOnHeading('Email changed', 2);
    await expectNoAxeViolations(page, 'email changed');
    await tabTo(page.getByRole('button', { name: 'Continue' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
  });
});
