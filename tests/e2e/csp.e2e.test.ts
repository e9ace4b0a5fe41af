// The production build under the server's Content-Security-Policy in Chromium: no violation (a
// blocked script, style element or style attribute) on the sign-in page, the applications page,
// the profile, and with a Mantine modal open, whose scroll lock (react-remove-scroll's <style>)
// needs the page's style nonce (src/client/app/style-nonce-global.ts).
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { portalOf } from './support/portal';

const PASSWORD = 'Harbour-Lights-2026';
const { baseUrl } = portalOf(import.meta.url);

let browser: Browser;
let context: BrowserContext;
let page: Page;
const consoleProblems: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  context = await browser.newContext();
  page = await context.newPage();
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' && /Content Security Policy|violates/i.test(message.text())) {
      consoleProblems.push(message.text());
    }
  });
  // Every violation the document reports, kept across navigations in session storage.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const seen = JSON.parse(sessionStorage.getItem('csp-violations') ?? '[]') as string[];
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
      sessionStorage.setItem('csp-violations', JSON.stringify(seen));
    });
  });
});
afterAll(async () => {
  await browser?.close();
});

const violations = () =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('csp-violations') ?? '[]') as string[]);

describe('the portal under its CSP', () => {
  it('signs in, shows the applications and the profile, and opens a modal without a violation', async () => {
    const response = await page.goto(`${baseUrl}/`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-inline');
    await page.getByLabel(/^Username/).waitFor();
    // Mantine's own style tags carry the nonce; nothing inline went without one.
    expect(
      await page.evaluate(() => [...document.querySelectorAll('style')].filter((s) => !s.nonce).length),
    ).toBe(0);

    await page.getByLabel(/^Username/).fill('C10001');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${baseUrl}/profile/my-applications`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Applications', level: 1 }).isVisible())
      .toBe(true);

    await page.goto(`${baseUrl}/profile`);
    await page.waitForLoadState('networkidle');

    // Without the recent-authentication mark the 'Re-enter password' modal opens and locks the
    // page's scroll with a style element of its own.
    await context.clearCookies({ name: 'sam_reauth' });
    const dialog = page.getByRole('dialog', { name: 'Re-enter password' });
    await expect.poll(() => dialog.isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');

    expect(await violations()).toEqual([]);
    expect(consoleProblems).toEqual([]);
  });
});
