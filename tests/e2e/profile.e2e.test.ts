// The profile journey in Chromium as C10001 (on this file's own server): name, phone, date of birth,
// email (code from the dev outbox), mobile (SMS code), enabling and then changing the
// authenticator app (TOTP computed here from the setup key), security questions, removing a
// trusted device (the other browser's 'I don't have access' at MFA finds no factor but the app),
// the password, and signing out of all devices, after which a second browser signed in as the
// same user is signed out. C10010, identity verified, may not change its name or
// date of birth. axe-core on the pages on the way.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser } from './support/browser';
import {
  codeSentTo,
  freshTotp,
  latestOutboxId,
  PASSWORD,
  signIn,
  waitForHeading,
  waitForText,
} from './support/profile';
import { portalOf } from './support/portal';
import { mfaTexts } from '../../src/client/flows/forced/mfa/mfa.texts';
import { IDENTITY_VERIFIED_WARNING } from '../../src/client/flows/profile/profile.texts';

const { baseUrl } = portalOf(import.meta.url);
const USERNAME = 'C10001';
const NEW_PASSWORD = 'Quiet-Meadow-Lantern-88';
const PROFILE = `${baseUrl}/profile`;
const APPLICATIONS = `${baseUrl}/profile/my-applications`;

let browser: Browser;
let contextA: BrowserContext;
let contextB: BrowserContext;
let a: Page;
let b: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  contextA = await browser.newContext();
  contextB = await browser.newContext();
  a = await contextA.newPage();
  b = await contextB.newPage();
});
afterAll(async () => {
  await browser?.close();
});

async function openProfile(page: Page) {
  await page.goto(PROFILE);
  await waitForHeading(page, 'Profile');
}

async function toast(page: Page, text: string) {
  await waitForText(page, text);
}

async function detail(page: Page, label: string): Promise<string> {
  const region = page.getByRole('region', { name: 'Personal details' });
  const value = region
    .locator('dt', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');
  return (await value.textContent()) ?? '';
}

describe('profile self-service', { timeout: 240_000 }, () => {
  let appKey = '';

  it('changes name, phone and date of birth, each with the current password', async () => {
    await signIn(a, baseUrl, USERNAME);
    await a.waitForURL(APPLICATIONS);
    await openProfile(a);
    await expectNoAxeViolations(a, 'profile');

    await a.getByRole('link', { name: 'Change name' }).click();
    await a.waitForURL(`${PROFILE}/change-name`);
    await waitForHeading(a, 'Change name');
    await a.getByLabel(/^Name/).fill('Olivia Changed');
    await a.getByLabel(/^Current password/).fill('Wrong-Password-2026');
    await a.getByRole('button', { name: 'Change name' }).click();
    await expect.poll(() => a.getByLabel(/^Current password/).getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(a, 'change name with a wrong password');
    await a.getByLabel(/^Current password/).fill(PASSWORD);
    await a.getByRole('button', { name: 'Change name' }).click();
    await a.waitForURL(PROFILE);
    await toast(a, 'Successfully updated name');
    await expect.poll(() => detail(a, 'Name')).toBe('Olivia Changed');

    await a.getByRole('link', { name: 'Change phone' }).click();
    await waitForHeading(a, 'Change phone');
    await waitForText(a, 'Include country code for non-Australian phone numbers, e.g. +64 2 8888 8888');
    await a.getByLabel(/^Phone/).fill('+64 2 8888 8888');
    await a.getByLabel(/^Current password/).fill(PASSWORD);
    await a.getByRole('button', { name: 'Change phone' }).click();
    await a.waitForURL(PROFILE);
    await toast(a, 'Successfully updated phone');
    await expect.poll(() => detail(a, 'Phone')).toBe('+64 2 8888 8888');

    await a.getByRole('link', { name: 'Change date of birth' }).click();
    await waitForHeading(a, 'Change date of birth');
    await expectNoAxeViolations(a, 'change date of birth');
    const date = a.getByLabel(/^Date of birth/);
    await date.fill('1990-05-17');
    await date.press('Tab');
    await a.getByLabel(/^Current password/).fill(PASSWORD);
    await a.getByRole('button', { name: 'Change date of birth' }).click();
    await a.waitForURL(PROFILE);
    await toast(a, 'Successfully updated date of birth');
    await expect.poll(() => detail(a, 'Date of birth')).toBe('17 May 1990');
  });

  it('changes the email with the code sent to the new address', async () => {
    const before = await latestOutboxId(baseUrl);
    await a.getByRole('link', { name: 'Change email' }).click();
    await a.waitForURL(`${PROFILE}/change-email`);
    await waitForHeading(a, 'Change email');
    await waitForText(a, '50.00%');
    await a.getByLabel(/^New email/).fill('priya.new@example.com');
    await a.getByLabel(/^Current password/).fill(PASSWORD);
    await a.getByRole('button', { name: 'Next' }).click();
    await a.waitForURL(`${PROFILE}/change-email/email-verification`);
    await waitForText(a, '100.00%');
    await expectNoAxeViolations(a, 'change email: verification');
    // Not yet the account's email.
    const code = await codeSentTo(baseUrl, 'priya.new@example.com', before);
    await a.getByLabel(/^Verification code/).fill(code);
    await a.getByRole('button', { name: 'Verify' }).click();
    await a.waitForURL(PROFILE);
    await toast(a, 'Successfully updated email');
    await expect.poll(() => detail(a, 'Email')).toBe('priya.new@example.com');
  });

  it('changes the mobile with the SMS code', async () => {
    const before = await latestOutboxId(baseUrl);
    await a.getByRole('link', { name: 'Change mobile' }).click();
    await waitForHeading(a, 'Change mobile');
    await a.getByLabel(/^Mobile/).fill('+61 400 555 001');
    await a.getByLabel(/^Current password/).fill(PASSWORD);
    await a.getByRole('button', { name: 'Next' }).click();
    await a.waitForURL(`${PROFILE}/change-mobile/sms-verification`);
    const code = await codeSentTo(baseUrl, '+61 400 555 001', before);
    await a.getByLabel(/^Verification code/).fill(code);
    await a.getByRole('button', { name: 'Verify' }).click();
    await a.waitForURL(PROFILE);
    await toast(a, 'Successfully updated mobile');
    await expect.poll(() => detail(a, 'Mobile')).toBe('+61 400 555 001');
  });

  it('enables an authenticator app, then changes it', async () => {
    await a.getByRole('link', { name: 'Enable authenticator app' }).click();
    await a.waitForURL(`${PROFILE}/enrol-authenticator-app`);
    await waitForHeading(a, 'Enable authenticator app factor');
    await expect.poll(() => a.getByTestId('setup-key').isVisible()).toBe(true);
    await expectNoAxeViolations(a, 'enable authenticator app: setup');
    const firstKey = (await a.getByTestId('setup-key').textContent()) ?? '';
    await a.getByRole('button', { name: 'Next' }).click();
    await a.waitForURL(`${PROFILE}/enrol-authenticator-app/code-verification`);
    await a.getByLabel(/^Verification code/).fill(await freshTotp(firstKey));
    await a.getByLabel(/^Current password/).fill(PASSWORD);
    await a.getByRole('button', { name: 'Verify' }).click();
    await a.waitForURL(PROFILE);
    await toast(a, 'Successfully enabled authenticator app factor');

    await a.getByRole('link', { name: 'Change authenticator app' }).click();
    await waitForHeading(a, 'Change authenticator app');
    await waitForText(a, /old authenticator app will stop working/);
    await expect.poll(() => a.getByTestId('setup-key').isVisible()).toBe(true);
    appKey = (await a.getByTestId('setup-key').textContent()) ?? '';
    expect(appKey).not.toBe(firstKey);
    await a.getByRole('button', { name: 'Next' }).click();
    await a.getByLabel(/^Verification code/).fill(await freshTotp(appKey));
    await a.getByLabel(/^Current password/).fill(PASSWORD);
    await a.getByRole('button', { name: 'Verify' }).click();
    await a.waitForURL(PROFILE);
    await toast(a, 'Successfully changed authenticator app factor');
  });

  it('sets security questions', async () => {
    await a.getByRole('link', { name: 'Change security questions' }).click();
    await waitForHeading(a, 'Change security questions');
    await a.getByLabel(/^Answer 1/).fill('Harbour answer one');
    await a.getByLabel(/^Answer 2/).fill('Harbour answer two');
    await a.getByLabel(/^Current password/).fill(PASSWORD);
    await a.getByRole('button', { name: 'Change security questions' }).click();
    await a.waitForURL(PROFILE);
    await toast(a, 'Successfully changed security questions');
  });

  it('removes a trusted device another browser added at MFA', async () => {
    await signIn(b, baseUrl, USERNAME);
    await b.waitForURL(`${baseUrl}/forced-actions/mfa/authenticator-app-verification`);
    // The app is C10001's only factor: 'I don't have access' finds no other, and says so.
    await b.getByRole('button', { name: mfaTexts.noAccess }).click();
    const none = b.getByRole('alert').filter({ hasText: mfaTexts.noOtherFactor });
    await expect.poll(() => none.isVisible()).toBe(true);
    expect(b.url()).toBe(`${baseUrl}/forced-actions/mfa/authenticator-app-verification`);
    expect(await b.getByRole('button', { name: mfaTexts.noAccess }).count()).toBe(0);
    await expectNoAxeViolations(b, 'MFA with no other factor');
    await b.getByLabel(/^Verification code/).fill(await freshTotp(appKey));
    await b.getByRole('checkbox', { name: /^Trust this device/ }).check();
    await b.getByRole('button', { name: 'Verify' }).click();
    await b.waitForURL(APPLICATIONS);

    await openProfile(a);
    const devices = a.getByRole('table', { name: 'Trusted devices' });
    await expect.poll(() => devices.getByRole('row').count()).toBe(2);
    await expectNoAxeViolations(a, 'profile with a trusted device');
    await devices.getByRole('button', { name: /^Delete trusted device/ }).click();
    await toast(a, 'Successfully deleted trusted device');
    await waitForText(a, 'You have no trusted devices.');
  });

  it('changes the password, then signs out of all devices: the other browser is signed out', async () => {
    await a.getByRole('link', { name: 'Change password' }).click();
    await waitForHeading(a, 'Change password');
    await a.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await a.getByLabel(/^Confirm new password/).fill(NEW_PASSWORD);
    await a.getByLabel(/^Current password/).fill(PASSWORD);
    await a.getByRole('button', { name: 'Change password' }).click();
    await a.waitForURL(PROFILE);
    await toast(a, 'Successfully changed password');

    // The other browser signs in again with the new password.
    await signIn(b, baseUrl, USERNAME, NEW_PASSWORD);
    await b.waitForURL(`${baseUrl}/forced-actions/mfa/authenticator-app-verification`);
    await b.getByLabel(/^Verification code/).fill(await freshTotp(appKey));
    await b.getByRole('button', { name: 'Verify' }).click();
    await b.waitForURL(APPLICATIONS);

    await a.getByRole('button', { name: 'Sign out of all devices' }).click();
    const dialog = a.getByRole('dialog', { name: 'Sign out of all devices' });
    await expect.poll(() => dialog.getByText('Payroll').isVisible()).toBe(true);
    expect(await dialog.getByLabel(/^Jira ticket code/).count()).toBe(0);
    // After the modal's opening transition: axe measures contrast as drawn.
    await a.waitForTimeout(500);
    await expectNoAxeViolations(a, 'sign out of all devices');
    await dialog.getByRole('button', { name: 'Sign out of all devices' }).click();
    await a.waitForURL(`${baseUrl}/`);
    await expect.poll(() => a.getByLabel(/^Username/).isVisible()).toBe(true);

    await b.goto(PROFILE);
    await b.waitForURL(`${baseUrl}/`);
    await expect.poll(() => b.getByLabel(/^Username/).isVisible(), { timeout: 15_000 }).toBe(true);
  });
  it('C10010, identity verified, sees its name and date of birth but may not change them', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, baseUrl, 'C10010');
      await page.waitForURL(APPLICATIONS);
      for (const [path, heading] of [
        ['change-name', 'Change name'],
        ['change-date-of-birth', 'Change date of birth'],
      ] as const) {
        await page.goto(`${PROFILE}/${path}`);
        await waitForHeading(page, heading);
        await page.getByRole('alert').filter({ hasText: IDENTITY_VERIFIED_WARNING }).waitFor();
        expect(await page.getByLabel(/^Current password/).count()).toBe(0);
        await expectNoAxeViolations(page, `${path} when identity verified`);
      }
    } finally {
      await context.close();
    }
  });
});
