// Helpers of the profile journey: the dev outbox, TOTP codes computed here (RFC 6238), sign-in.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { base32Decode, codeFromOutbox, hotp } from './reset';

export const PASSWORD = 'Harbour-Lights-2026';

/**
 * A code of a step this key has not given before: the server accepts a step of an enrolled app
 * once, and only a step later than the last one it accepted (a new key starts unused), and it
 * accepts one step either side of its current one. So the earliest step later than this key's last
 * is used, from the previous step (the app's last code, still accepted while the current step has
 * more than 10 s left) to the next one (the app's next code, typed early); the clock is waited for
 * only when all three are spent. Three codes of one key thus need no wait (enabling or changing the
 * app, then two sign-ins), where starting at the current step made the third wait up to 30 s.
 */
const lastStepOf = new Map<string, number>();
export async function freshTotp(setupKey: string): Promise<string> {
  for (;;) {
    const left = 30_000 - (Date.now() % 30_000);
    const now = Math.floor(Date.now() / 30_000);
    const earliest = Math.max((lastStepOf.get(setupKey) ?? -Infinity) + 1, left > 10_000 ? now - 1 : now);
    if (earliest <= now + 1) {
      lastStepOf.set(setupKey, earliest);
      return hotp(base32Decode(setupKey), earliest);
    }
    await new Promise((resolve) => setTimeout(resolve, left + 300));
  }
}

export { latestOutboxId } from './reset';

/** The newest code sent to `to` after message `afterId`, on either channel, waiting for it. */
export async function codeSentTo(baseUrl: string, to: string, afterId: number): Promise<string> {
  return (await codeFromOutbox(baseUrl, to, null, afterId)).code;
}

export async function waitForHeading(page: Page, name: string, level = 1): Promise<void> {
  await expect
    .poll(() => page.getByRole('heading', { level, name }).isVisible(), { timeout: 15_000 })
    .toBe(true);
}

export async function waitForText(page: Page, text: string | RegExp): Promise<void> {
  await expect.poll(() => page.getByText(text).first().isVisible(), { timeout: 15_000 }).toBe(true);
}

export async function signIn(
  page: Page,
  baseUrl: string,
  username: string,
  password = PASSWORD,
): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
