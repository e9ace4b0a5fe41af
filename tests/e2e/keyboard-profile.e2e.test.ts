// The keyboard twins of the browser suite's last mouse-only journeys (WCAG 2.1.1; see
// support/keyboard.ts): the security code after three wrong passwords (its image renewed from the
// keyboard), the SP-initiated SAML handoff from PAYROLL, an anonymous visitor of an admin route
// coming back there as admin1, and C10001's profile: name and date of birth (typed into the date
// field, its calendar open), security questions after a repeated question, an authenticator app
// enabled and then changed, and a trusted device another browser added at MFA removed. The focus
// is on each new page's heading or wizard step's title; errors are announced at their fields.
// axe-core (WCAG 2.2 A and AA) on every state visited. One browser context per journey, on this
// file's own server; journeys run in order and share its database (the handoff and the admin route
// come before C10001's profile gets an authenticator app).
// 'Sign out of all devices' after a change of password is not repeated here: keyboard-forced's
// C10010 journey changes the password by keyboard and its C10001 journey goes through the modal
// by keyboard; that the other browser is signed out is the server's part (profile.e2e.test.ts).
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { adminTexts } from '../../src/client/flows/admin/admin.texts';
import { profileTexts } from '../../src/client/pages/profile.texts';
import { expectNoAxeViolations, pagePerTest, waitForCaptcha } from './support/browser';
import { acsVerdict } from './support/demo-sp';
import { keyboardUser, markAlertsShown, newAlert } from './support/keyboard';
import { portalOf } from './support/portal';
import { freshTotp, signIn as signInWithMouse } from './support/profile';
import { DEMO_PASSWORD } from './support/reset';

const { baseUrl } = portalOf(import.meta.url);
const captchaAnswer = inject('captchaAnswer');
const APPLICATIONS = `${baseUrl}/profile/my-applications`;
const PROFILE = `${baseUrl}/profile`;
const MFA_APP = `${baseUrl}/forced-actions/mfa/authenticator-app-verification`;

let page: Page;
let context: BrowserContext;
pagePerTest(
  (p, c) => {
    page = p;
    context = c;
  },
  { viewport: { width: 1280, height: 800 } },
);

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

/** From a signed-in page: the person menu's Profile, by Enter and the arrow keys. */
async function openProfile(): Promise<void> {
  await choosePersonMenuItem('Profile');
  await page.waitForURL(PROFILE);
  await expectFocusOnHeading('Profile');
}

/** From /profile: Tab to a link and Enter; the new page's heading has the focus. */
async function follow(link: string, path: string, heading: string, level = 1): Promise<void> {
  await tabTo(page.getByRole('link', { name: link, exact: true }));
  await page.keyboard.press('Enter');
  await page.waitForURL(`${PROFILE}/${path}`);
  await expectFocusOnHeading(heading, level);
}

/** Back on /profile after a change: the heading has the focus and the toast is announced. */
async function backOnProfile(toast: string): Promise<void> {
  await page.waitForURL(PROFILE);
  await expectFocusOnHeading('Profile');
  await expectAnnounced(toast);
}

const personalDetails = () => page.getByRole('region', { name: profileTexts.personalDetails });

/** Reads the setup key the authenticator-app wizard shows (spaces between groups removed). */
async function shownSetupKey(): Promise<string> {
  const setupKey = page.getByTestId('setup-key');
  await setupKey.waitFor();
  return ((await setupKey.textContent()) ?? '').replace(/\s/g, '');
}

describe('sign-in and handoffs by keyboard alone', () => {
  it('C10005 gets the security code after three wrong passwords, renews its image, and signs in with the right one', async () => {
    await page.goto(`${baseUrl}/`);
    await livePage();
    const password = page.getByLabel(/^Password/);
    const securityCode = page.getByLabel(/^Security code/);
    const signInButton = page.getByRole('button', { name: 'Sign in' });
    await typeInto(page.getByLabel(/^Username/), 'C10005');
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await typeInto(password, `wrong-password-${attempt}`);
      // Sent from the Sign in button, so the focus has left the password for the refusal to bring
      // back; and the last attempt's refusal, still on the page, is not taken for this one's (the
      // form drops it on submit and draws the next anew).
      await tabTo(signInButton);
      await markAlertsShown(page);
      await page.keyboard.press('Enter');
      await newAlert(page, 'Incorrect username or password.').waitFor({ timeout: 15_000 });
      // The refused password is emptied and has the focus again.
      await expectFocusOn(password);
      await expect.poll(() => password.inputValue()).toBe('');
      // After a refusal the form checks the username's count (and, from the 3rd, draws the
      // security code) with its button busy; Enter on a busy form submits nothing.
      await expect.poll(() => signInButton.isEnabled(), { timeout: 15_000 }).toBe(true);
      if (attempt < 3) expect(await securityCode.count()).toBe(0);
    }
    await securityCode.waitFor();
    await waitForCaptcha(page);
    await expectNoAxeViolations(page, 'sign-in page with the security code');

    // The image's renewal is a button in the Tab order; Enter renews it and the focus stays.
    const image = page.getByRole('img', { name: /^Security code image/ });
    const firstSrc = await image.getAttribute('src');
    const renew = page.getByRole('button', { name: 'Show a new security code image' });
    await tabTo(renew);
    await page.keyboard.press('Enter');
    await expect.poll(() => image.getAttribute('src')).not.toBe(firstSrc);
    await waitForCaptcha(page);
    await expectFocusOn(renew);
    await expectNoAxeViolations(page, 'sign-in page with a renewed security code');

    // The security code is required: refused at its field, which takes the focus.
    await typeInto(password, DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await expectFocusOn(securityCode);
    await expectFieldErrorAnnounced(securityCode);
    await expectNoAxeViolations(page, 'sign-in page without the security code');

    await page.keyboard.type(captchaAnswer);
    await tabTo(page.getByRole('button', { name: 'Sign in' }));
    await page.keyboard.press('Enter');
    // C10005 verifies MFA by SMS next.
    await page.waitForURL(`${baseUrl}/forced-actions/mfa/sms-verification`);
    await expectFocusOnHeading('SMS verification');
  });

  it('from /demo-sp/PAYROLL through sign-in back to PAYROLL, in response to its request', async () => {
    await page.goto(`${baseUrl}/demo-sp/PAYROLL`);
    await tabTo(page.getByRole('link', { name: 'Sign in to Payroll with the portal' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/`);
    await livePage();
    await page.getByLabel(/^Username/).waitFor();
    await expectNoAxeViolations(page, 'sign-in page from PAYROLL');
    await typeInto(page.getByLabel(/^Username/), 'C10001');
    await typeInto(page.getByLabel(/^Password/), DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    const received = await acsVerdict(page, baseUrl, 'PAYROLL');
    expect(received.verdict).toContain('Payroll validated the response');
    expect(received.username).toBe('C10001');
    expect(received.startedBy).toMatch(/^Payroll \(in response to .+\)$/);
  });

  it('an anonymous visitor of an admin route signs in as admin1 and returns there', async () => {
    await page.goto(`${baseUrl}/admin/invitations`);
    await page.waitForURL(`${baseUrl}/`);
    await livePage();
    expect(await page.evaluate(() => sessionStorage.getItem('portal.adminTargetPath'))).toBe(
      '/admin/invitations',
    );
    await page.getByLabel(/^Username/).waitFor();
    await expectNoAxeViolations(page, 'sign-in page for an admin route');
    await typeInto(page.getByLabel(/^Username/), 'admin1');
    await typeInto(page.getByLabel(/^Password/), DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/admin/invitations`);
    await expectFocusOnHeading(adminTexts.invitations.heading, 2);
    await expectNoAxeViolations(page, 'admin invitations after sign-in');
  });
});

describe("C10001's profile by keyboard alone", () => {
  let appKey = '';

  it('changes the name after a wrong password, and the date of birth typed into its field', async () => {
    await signIn('C10001');
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
    await openProfile();
    await expectNoAxeViolations(page, 'profile');

    await follow('Change name', 'change-name', 'Change name');
    await expectNoAxeViolations(page, 'change name');
    await typeInto(page.getByLabel(/^Name/), 'Olivia Keyboard');
    const password = page.getByLabel(/^Current password/);
    await typeInto(password, 'Wrong-Password-2026');
    await page.keyboard.press('Enter');
    await expectFieldErrorAnnounced(password);
    await expectFocusOn(password);
    await expectNoAxeViolations(page, 'change name with a wrong password');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await backOnProfile('Successfully updated name');
    await personalDetails().getByText('Olivia Keyboard', { exact: true }).waitFor();

    await follow('Change date of birth', 'change-date-of-birth', 'Change date of birth');
    await expectNoAxeViolations(page, 'change date of birth');
    // The date is typed: the calendar that opens with the focus does not take it, and Escape
    // closes it.
    const date = page.getByLabel(/^Date of birth/);
    await tabTo(date);
    await page.locator('[data-dates-dropdown]').waitFor();
    await expectNoAxeViolations(page, 'change date of birth with its calendar open');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('1990-05-17');
    await expectFocusOn(date);
    await page.keyboard.press('Escape');
    await page.locator('[data-dates-dropdown]').waitFor({ state: 'hidden' });
    await expectFocusOn(date);
    await typeInto(page.getByLabel(/^Current password/), DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await backOnProfile('Successfully updated date of birth');
    await personalDetails().getByText('17 May 1990', { exact: true }).waitFor();
  });

  it('sets security questions after choosing the same question twice', async () => {
    await signIn('C10001');
    await page.waitForURL(APPLICATIONS);
    await openProfile();
    await follow('Change security questions', 'change-security-questions', 'Change security questions');
    await expectNoAxeViolations(page, 'change security questions');

    const question1 = page.getByLabel(/^Question 1/);
    const question2 = page.getByLabel(/^Question 2/);
    const offered = await question1.locator('option').allTextContents();
    const first = await question1.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]!.text);
    await typeInto(page.getByLabel(/^Answer 1/), 'Harbour answer one');
    await chooseOption(question2, first);
    await typeInto(page.getByLabel(/^Answer 2/), 'Harbour answer two');
    await typeInto(page.getByLabel(/^Current password/), DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await expectFocusOn(question2);
    expect(await expectFieldErrorAnnounced(question2)).toBe('Choose two different questions');
    await expectNoAxeViolations(page, 'change security questions with the same question twice');

    await chooseOption(
      question2,
      offered.find((text) => text !== first)!,
    );
    await tabTo(page.getByRole('button', { name: 'Change security questions' }));
    await page.keyboard.press('Enter');
    await backOnProfile('Successfully changed security questions');
  });

  it('enables an authenticator app from the shown key, then changes it after a wrong password', async () => {
    await signIn('C10001');
    await page.waitForURL(APPLICATIONS);
    await openProfile();

    await follow('Enable authenticator app', 'enrol-authenticator-app', 'Step 1 of 2', 2);
    const firstKey = await shownSetupKey();
    await tabTo(page.getByRole('button', { name: 'Next' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${PROFILE}/enrol-authenticator-app/code-verification`);
    await expectFocusOnHeading('Step 2 of 2', 2);
    await typeInto(page.getByLabel(/^Verification code/), await freshTotp(firstKey));
    await typeInto(page.getByLabel(/^Current password/), DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await backOnProfile('Successfully enabled authenticator app factor');

    await follow('Change authenticator app', 'change-authenticator-app', 'Step 1 of 2', 2);
    await page.getByRole('heading', { level: 1, name: 'Change authenticator app' }).waitFor();
    await page.getByText(/old authenticator app will stop working/).waitFor();
    appKey = await shownSetupKey();
    expect(appKey).toMatch(/^[A-Z2-7]{32}$/);
    expect(appKey).not.toBe(firstKey);
    await expectNoAxeViolations(page, 'change authenticator app: setup');
    await tabTo(page.getByRole('button', { name: 'Next' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${PROFILE}/change-authenticator-app/code-verification`);
    await expectFocusOnHeading('Step 2 of 2', 2);
    await expectNoAxeViolations(page, 'change authenticator app: verification');

    const code = page.getByLabel(/^Verification code/);
    const password = page.getByLabel(/^Current password/);
    const newAppCode = await freshTotp(appKey);
    await typeInto(code, newAppCode);
    await typeInto(password, 'Wrong-Password-2026');
    await page.keyboard.press('Enter');
    await expectFieldErrorAnnounced(password);
    await expectFocusOn(password);
    await expectNoAxeViolations(page, 'change authenticator app: a wrong password');
    await page.keyboard.type(DEMO_PASSWORD);
    // The same code again: the wrong password was refused before the code was checked, so the new
    // app, not enrolled until the change succeeds, has given no step yet (and the next journey's
    // two sign-ins need no wait for the clock).
    await typeInto(code, newAppCode);
    await tabTo(page.getByRole('button', { name: 'Verify' }));
    await page.keyboard.press('Enter');
    await backOnProfile('Successfully changed authenticator app factor');
  }, 120_000);

  it('removes a trusted device another browser added at MFA', async () => {
    expect(appKey, 'the previous journey changed the app').not.toBe('');
    // The other browser signs in with the mouse and trusts itself at MFA.
    const other = await context.browser()!.newContext();
    try {
      const b = await other.newPage();
      await signInWithMouse(b, baseUrl, 'C10001');
      await b.waitForURL(MFA_APP);
      await b.getByLabel(/^Verification code/).fill(await freshTotp(appKey));
      await b.getByRole('checkbox', { name: /^Trust this device/ }).check();
      await b.getByRole('button', { name: 'Verify' }).click();
      await b.waitForURL(APPLICATIONS);
    } finally {
      await other.close();
    }

    // This browser, by keyboard: the password, then the app's code (without trusting itself).
    await signIn('C10001');
    await page.waitForURL(MFA_APP);
    await expectFocusOnHeading('Authenticator app verification');
    await typeInto(page.getByLabel(/^Verification code/), await freshTotp(appKey));
    await page.keyboard.press('Enter');
    await page.waitForURL(APPLICATIONS);
    await expectFocusOnHeading('Applications');
    await openProfile();

    const devices = page.getByRole('table', { name: 'Trusted devices' });
    await expect.poll(() => devices.getByRole('row').count()).toBe(2);
    await expectNoAxeViolations(page, 'profile with a trusted device');
    await tabTo(devices.getByRole('button', { name: /^Delete trusted device/ }));
    await page.keyboard.press('Enter');
    await expectAnnounced('Successfully deleted trusted device');
    await page.getByText(profileTexts.noTrustedDevices, { exact: true }).waitFor();
    // The button is gone with its table: the focus goes to the section's heading, not the page's end.
    await expectFocusOn(page.getByRole('heading', { level: 2, name: profileTexts.trustedDevices }));
    await expectNoAxeViolations(page, 'profile after the trusted device is removed');
  }, 120_000);
});
