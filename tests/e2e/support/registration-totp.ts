// RFC 6238 codes (HMAC-SHA-1, 6 digits, 30 s) computed in the test from a setup key the page shows,
// so the browser journey checks the portal's TOTP against an independent implementation.
import { createHmac } from 'node:crypto';

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The code of the current step (after waiting out one about to end) and that step. */
export async function totpStepNow(secretBase32: string): Promise<{ code: string; step: number }> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 8_000) await sleep(left + 500);
  const step = Math.floor(Date.now() / 30_000);
  return { code: hotp(base32Decode(secretBase32), step), step };
}
