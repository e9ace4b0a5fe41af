// Debian's Chromium driven by playwright-core (never a downloaded browser), and axe-core checks.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core's WCAG 2.x A and AA rules on the page and fails on any violation. */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  // Colours are judged as the user finally sees them: a modal fading in is half transparent for a
  // moment, so finite transitions and animations end first (a spinner's endless one is left be).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // Evaluated over the DevTools protocol: the page's CSP (no inline scripts) stays in force. Once
  // per document: the portal is one page, so later checks of a journey find it already there.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return result.violations;
  });
  const summary = (violations as AxeViolation[]).map(
    (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, `axe-core on ${label}`).toEqual([]);
}

/**
 * Waits until the page's security-code image has been drawn: the form around it is then settled, so
 * what the test types is not lost to a late render.
 */
export async function waitForCaptcha(page: Page): Promise<void> {
  const captcha = page.getByRole('img', { name: 'Security code image' });
  await expect
    .poll(() => captcha.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 15_000 })
    .toBeGreaterThan(0);
}

/**
 * The usual frame of a journey file: one Chromium for the whole file and, for each test, a new
 * context (cookies and storage of its own) and page, handed to `use` before the test runs; the
 * previous test's context is closed first.
 */
export function pagePerTest(
  use: (page: Page, context: BrowserContext) => void,
  contextOptions: BrowserContextOptions = {},
): void {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    await context?.close();
    if (!browser) throw new Error('Chromium did not start');
    context = await browser.newContext(contextOptions);
    use(await context.newPage(), context);
  });
}
