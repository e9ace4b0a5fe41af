// The sign-in page's first view, prerendered at build time (scripts/prerender-sign-in.ts) and sent
// by the server at '/' to a visitor without a session: it paints from HTML and CSS alone, under the
// strict CSP, takes no typing while the scripts load, and gives way to the live page drawn in the
// very same place, which alone then holds the fields.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, pagePerTest } from './support/browser';
import { portalOf } from './support/portal';

const { baseUrl } = portalOf(import.meta.url);

let context: BrowserContext;
let page: Page;
let violations: string[];
pagePerTest(
  (p, c) => {
    page = p;
    context = c;
    violations = [];
    page.on('console', (message) => {
      if (/Content Security Policy|violates/i.test(message.text())) violations.push(message.text());
    });
  },
  { viewport: { width: 412, height: 823 } },
);

/** Where the page's landmarks and controls are drawn, by what they are. */
function layout(p: Page) {
  return p.evaluate(() => {
    const visible = [...document.querySelectorAll('header, h1, label, input, button, a, footer, p')].filter(
      (element) => element.getClientRects().length > 0,
    );
    return visible.map((element) => {
      const box = element.getBoundingClientRect();
      const what = `${element.tagName} ${(element.textContent ?? '').trim().slice(0, 40)}`;
      return `${what} @ ${box.x},${box.y} ${box.width}x${box.height}`;
    });
  });
}

describe('the sign-in page before its scripts run', () => {
  it('is drawn from the HTML and CSS alone, with the spec’s texts, and takes no typing', async () => {
    await page.route(/\.js$/, (route) => route.abort());
    await page.goto(`${baseUrl}/`);
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in', level: 1 }).isVisible()).toBe(true);
    expect(await page.title()).toBe('Sign in - Identity Portal');
    for (const text of [
      'Received an invitation? Register your account here.',
      'Having problems signing in?',
      'Read our privacy statement',
      'Privacy statement',
      'Website terms',
    ]) {
      expect(await page.getByText(text, { exact: true }).isVisible(), text).toBe(true);
    }
    // The fields are drawn with their styles (Mantine's CSS variables came through the CSP).
    const field = page.locator('#portal-prerender input[autocomplete="username"]');
    expect(await field.evaluate((input) => getComputedStyle(input).borderTopStyle)).toBe('solid');
    expect(await field.evaluate((input) => input.getBoundingClientRect().height)).toBeGreaterThan(30);
    // Inert: a click does not focus the field, and typing goes nowhere.
    await field.click({ force: true });
    await page.keyboard.type('C10001');
    expect(await field.inputValue()).toBe('');
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    // No two elements share an id, and each label still names its own field.
    const ids = await page.evaluate(() => [...document.querySelectorAll('[id]')].map((e) => e.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      await page.evaluate(() =>
        [...document.querySelectorAll('#portal-prerender label[for]')].every(
          (label) => document.getElementById(label.getAttribute('for')!)?.tagName === 'INPUT',
        ),
      ),
    ).toBe(true);
    expect(violations).toEqual([]);
  });
});

describe('the sign-in page once its scripts ran', () => {
  it('is the live page in the same place as the first view, which is gone, without a CSP violation', async () => {
    const frozen = await context.newPage();
    await frozen.route(/\.js$/, (route) => route.abort());
    await frozen.goto(`${baseUrl}/`);
    await frozen.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    const firstView = await layout(frozen);

    await page.goto(`${baseUrl}/`);
    await expect.poll(() => page.locator('#portal-prerender').count()).toBe(0);
    // The live fields take typing.
    await page.getByLabel(/^Username/).fill('C10001');
    expect(await page.getByLabel(/^Username/).inputValue()).toBe('C10001');
    await page.getByLabel(/^Username/).fill('');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(await layout(page)).toEqual(firstView);
    expect(await page.locator('style:not([nonce])').count()).toBe(0);
    expect(violations).toEqual([]);
    await expectNoAxeViolations(page, 'sign-in page');
  });

  it('shows no first view to a signed-in visitor, who goes on to the applications page', async () => {
    await page.goto(`${baseUrl}/`);
    await page.getByLabel(/^Username/).fill('C10001');
    await page.getByLabel(/^Password/).fill('Harbour-Lights-2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${baseUrl}/profile/my-applications`);
    const response = await page.goto(`${baseUrl}/`);
    expect(await response?.text()).not.toContain('portal-prerender');
    await page.waitForURL(`${baseUrl}/profile/my-applications`);
  });
});
