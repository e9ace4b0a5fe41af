// Helpers of the profile journey: the dev outbox, TOTP codes computed here (RFC 6238), sign-in.
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export const PASSWORD = 'Harbour-Lights-2026';

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text.replace(/[\s=]+/g, '').toUpperCase()) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`Not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

function hotp(secret: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', secret).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/**
 * A code of a step this key has not given before: the server accepts a step of an enrolled app
 * once (a new key starts unused, so enabling and changing can share a step), and accepts one step
 * either side of now. So the current step is used while it has more than 6 s left, else the next
 * one (the app's next code, typed early); the clock is waited for only when both are spent.
 */
const lastStepOf = new Map<string, number>();
export async function freshTotp(setupKey: string): Promise<string> {
  for (;;) {
    const left = 30_000 - (Date.now() % 30_000);
    const now = Math.floor(Date.now() / 30_000);
    const earliest = Math.max((lastStepOf.get(setupKey) ?? -1) + 1, left > 6_000 ? now : now + 1);
    if (earliest <= now + 1) {
      lastStepOf.set(setupKey, earliest);
      return hotp(base32Decode(setupKey), earliest);
    }
    await new Promise((resolve) => setTimeout(resolve, left + 300));
  }
}

interface OutboxMessage {
  id: number;
  channel: 'EMAIL' | 'SMS';
  to: string;
  subject: string | null;
  code: string | null;
}

export async function outbox(baseUrl: string, query: Record<string, string> = {}): Promise<OutboxMessage[]> {
  const response = await fetch(`${baseUrl}/dev/outbox?${new URLSearchParams(query)}`, {
    headers: { Accept: 'application/json' },
  });
  return ((await response.json()) as { messages: OutboxMessage[] }).messages;
}

export async function latestOutboxId(baseUrl: string): Promise<number> {
  return (await outbox(baseUrl, { limit: '1' }))[0]?.id ?? 0;
}

/** The newest code sent to `to` after message `afterId`, waiting for it. */
export async function codeSentTo(baseUrl: string, to: string, afterId: number): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        code = (await outbox(baseUrl, { to })).find((m) => m.id > afterId && m.code !== null)?.code ?? null;
        return code !== null;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return code as unknown as string;
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
