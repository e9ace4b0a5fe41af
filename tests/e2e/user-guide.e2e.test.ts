// The user guide in Chromium (section 2.1): reached from the header, '/' focuses the search, a query
// finds 'Trusted devices' first, a nonsense query says 'No result found.', the sidebar follows
// scrolling, every catalogue image exists, is shown with its alt text and can be regenerated from
// the running product, and axe-core finds nothing.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { guideTexts as t } from '../../src/client/guide/guide.texts';
import {
  SCREENSHOT_SIZE,
  screenshotCatalogue,
  screenshotNames,
} from '../../src/client/guide/screenshot-catalogue';
import { expectNoAxeViolations, pagePerTest } from './support/browser';
import { captureScreenshots, pngSize } from './support/screenshots';
import { portalOf } from './support/portal';

const { baseUrl } = portalOf(import.meta.url);
const GUIDE = `${baseUrl}/docs/user-guide`;
const SCREENSHOT_DIR = 'src/client/guide/screenshots';

let page: Page;
pagePerTest(
  (p) => {
    page = p;
  },
  { viewport: { width: 1280, height: 800 } },
);

const searchBox = () => page.getByRole('searchbox', { name: t.searchLabel });
const results = () => page.getByRole('list', { name: t.results });

async function openGuide(): Promise<void> {
  await page.goto(GUIDE);
  await page.getByRole('heading', { level: 1, name: t.heading }).waitFor({ timeout: 15_000 });
}

describe('user guide', () => {
  it("opens from the header's User guide link and passes axe", async () => {
    await page.goto(`${baseUrl}/`);
    await page.getByRole('link', { name: 'User guide' }).click();
    await page.waitForURL(GUIDE);
    await page.getByRole('heading', { level: 1, name: t.heading }).waitFor();
    await expectNoAxeViolations(page, 'user guide');
  });

  it("focuses the search on '/', finds 'Trusted devices' first and goes to it", async () => {
    await openGuide();
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('/');
    await expect.poll(() => searchBox().evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await searchBox().inputValue()).toBe('');

    await page.keyboard.type('trusted');
    await results().waitFor();
    const first = results().getByRole('link').first();
    expect(await first.innerText()).toMatch(/^Trusted devices\s+Trusted devices are browsers y…$/);
    await expectNoAxeViolations(page, 'user guide with results');

    await first.click();
    const heading = page.getByRole('heading', { level: 3, name: 'Trusted devices', exact: true });
    await expect.poll(() => heading.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(page.url()).toBe(`${GUIDE}#trusted-devices`);
  });

  it("says 'No result found.' for a nonsense query", async () => {
    await openGuide();
    await searchBox().fill('qwxzvk');
    await page.getByText(t.noResult, { exact: true }).waitFor();
    expect(await results().count()).toBe(0);
  });

  it("marks the topic scrolled to 'On this page'", async () => {
    await openGuide();
    const nav = page.getByRole('navigation', { name: t.onThisPage });
    const current = nav.locator('[aria-current="location"]');
    expect(await current.innerText()).toBe('Single sign-on and multi-factor authentication');
    await page.getByRole('heading', { level: 2, name: 'Password reset' }).evaluate((el) => {
      window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 10);
    });
    await expect.poll(() => current.innerText()).toBe('Password reset');
    // At the end of the page the last entry is marked: the last headings never reach the top.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => current.innerText()).toBe('Repeating the new password');
  });

  it('shows every catalogue image with its alt text, and holds no other image', async () => {
    expect(readdirSync(SCREENSHOT_DIR).sort()).toEqual(
      screenshotNames.map((name) => screenshotCatalogue[name].file).sort(),
    );
    for (const name of screenshotNames)
      expect(pngSize(readFileSync(join(SCREENSHOT_DIR, screenshotCatalogue[name].file)))).toEqual(
        SCREENSHOT_SIZE,
      );

    await openGuide();
    for (const name of screenshotNames) {
      const image = page.getByRole('img', { name: screenshotCatalogue[name].alt, exact: true });
      await image.scrollIntoViewIfNeeded();
      await expect
        .poll(() => image.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), {
          timeout: 10_000,
        })
        .toBe(SCREENSHOT_SIZE.width);
      expect(await image.evaluate((el: HTMLImageElement) => el.naturalHeight)).toBe(SCREENSHOT_SIZE.height);
    }
  });

  it('regenerates a catalogue image from the running product', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'guide-shots-'));
    try {
      const [file] = await captureScreenshots(baseUrl, dir, ['sign-in']);
      expect(file).toBe(join(dir, screenshotCatalogue['sign-in'].file));
      expect(pngSize(readFileSync(file!))).toEqual(SCREENSHOT_SIZE);
      expect(pngSize(new TextEncoder().encode('not a png, not at all'))).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
