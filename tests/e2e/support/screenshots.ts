// Captures the help-screenshot catalogue from the running product in Chromium: the server as the
// browser suite starts it (production build, fresh PGlite with the demo data, a fixed CAPTCHA
// answer), each screen reached the way a user reaches it with the demo accounts, and a PNG of the
// viewport (1024 x 700) per catalogue entry. Used by `npm run screenshots` and the browser suite.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  SCREENSHOT_SIZE,
  screenshotCatalogue,
  type ScreenshotName,
} from '../../../src/client/guide/screenshot-catalogue';
import { serverArgs } from '../../../scripts/server-bundle';
import { launchBrowser } from './browser';

const PASSWORD = 'Harbour-Lights-2026';
const CAPTCHA_ANSWER = 'SHOTS42';

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The server did not answer ${url}/health within ${timeoutMs} ms`);
}

/** The built portal on a fresh embedded database; `stop` ends it and removes the database. */
export async function startPortal(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  let demoSpPort = await freePort();
  while (demoSpPort === port) demoSpPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-screenshots-'));
  const baseUrl = `http://localhost:${port}`;
  const child = spawn(process.execPath, await serverArgs(), {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PUBLIC_URL: baseUrl,
      DEMO_SP_PORT: String(demoSpPort),
      DEMO_SP_URL: `http://127.0.0.1:${demoSpPort}`,
      CAPTCHA_FIXED_ANSWER: CAPTCHA_ANSWER,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => {
      if (child.exitCode !== null) resolve(null);
      else child.once('exit', resolve);
      setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, 5000);
    });
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, 45_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, stop };
}

async function heading(page: Page, name: string): Promise<void> {
  await page
    .getByRole('heading', { name, exact: true })
    .first()
    .waitFor({ state: 'visible', timeout: 20_000 });
}

async function signIn(page: Page, baseUrl: string, username: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** How each screen is reached; the page is left showing it. */
const reach: Record<ScreenshotName, (page: Page, baseUrl: string) => Promise<void>> = {
  'sign-in': async (page, baseUrl) => {
    await page.goto(`${baseUrl}/`);
    await heading(page, 'Sign in');
  },
  registration: async (page, baseUrl) => {
    await page.goto(`${baseUrl}/registration`);
    await heading(page, 'Start your registration');
  },
  'password-reset': async (page, baseUrl) => {
    await page.goto(`${baseUrl}/password-reset`);
    await heading(page, 'Get started');
  },
  profile: async (page, baseUrl) => {
    await signIn(page, baseUrl, 'C10001');
    await page.waitForURL(/\/profile\//, { timeout: 20_000 });
    await page.goto(`${baseUrl}/profile`);
    await heading(page, 'Personal details');
  },
  // C10006 shares its email with C10007: the sign-in stops at the duplicate-accounts notice, and
  // Start merge opens the wizard's first step.
  'merge-accounts': async (page, baseUrl) => {
    await signIn(page, baseUrl, 'C10006');
    await heading(page, 'Duplicate accounts');
    await page.getByRole('button', { name: 'Start merge' }).click();
    await heading(page, 'Select accounts');
  },
};

/** Captures the named entries (all by default) into `outDir`; answers the files written. */
export async function captureScreenshots(
  baseUrl: string,
  outDir: string,
  names: readonly ScreenshotName[] = Object.keys(screenshotCatalogue) as ScreenshotName[],
): Promise<string[]> {
  const browser = await launchBrowser();
  const written: string[] = [];
  try {
    for (const name of names) {
      // A fresh context per screen: no session carries over from one capture to the next.
      const context = await browser.newContext({ viewport: SCREENSHOT_SIZE, reducedMotion: 'reduce' });
      try {
        const page = await context.newPage();
        await reach[name](page, baseUrl);
        // Fonts and images settled, no caret blinking in a focused field.
        await page.evaluate(() => document.fonts.ready);
        await page.waitForLoadState('networkidle');
        const path = join(outDir, screenshotCatalogue[name].file);
        await page.screenshot({ path, type: 'png', caret: 'hide', animations: 'disabled' });
        written.push(path);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return written;
}

/** Width and height from a PNG's IHDR chunk, or null when the bytes are not a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || signature.some((b, i) => bytes[i] !== b)) return null;
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
