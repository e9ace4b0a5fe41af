// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) as Google Authenticator and
// Microsoft Authenticator compute them: HMAC-SHA-1, 6 digits, 30-second steps from the Unix epoch,
// the secret shared as unpadded RFC 4648 base32 in an otpauth:// URI (the "Key Uri Format").
import { createHmac, timingSafeEqual } from 'node:crypto';
import QRCode from 'qrcode';
import type { Random } from '../../adapters/random';

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Steps either side of now that are accepted, for clocks that drift and codes typed late. */
export const TOTP_DRIFT_STEPS = 1;
/** 160 bits: RFC 4226's recommended length, and SHA-1's block-friendly output size. */
export const TOTP_SECRET_BYTES = 20;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (authenticator apps take it either way; the URI wants none). */
export function base32Encode(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 as people type it: any case, spaces and padding ignored. Throws on other characters. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const index = BASE32_ALPHABET.indexOf(ch);
    if (index < 0) throw new Error('Not a base32 secret');
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

/** RFC 4226 HOTP with dynamic truncation; `digits` of the result, zero-padded. */
export function hotp(
  secret: Buffer,
  counter: number,
  digits = TOTP_DIGITS,
  algorithm: TotpAlgorithm = 'sha1',
) {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The 30-second step that contains `at`. */
export function totpStep(at: Date, periodSeconds = TOTP_PERIOD_SECONDS): number {
  return Math.floor(at.getTime() / 1000 / periodSeconds);
}

export function totpCode(
  secret: Buffer,
  at: Date,
  options: { digits?: number; algorithm?: TotpAlgorithm; periodSeconds?: number } = {},
): string {
  return hotp(secret, totpStep(at, options.periodSeconds), options.digits, options.algorithm);
}

/**
 * The step whose code `code` is, among now and TOTP_DRIFT_STEPS either side (the latest step when
 * two match); null when none does. Every candidate is compared, in constant time, so the answer's
 * timing does not tell which step matched.
 */
export function matchTotpStep(secret: Buffer, code: string, at: Date): number | null {
  const typed = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(typed)) return null;
  const now = totpStep(at);
  let matched: number | null = null;
  for (let step = now - TOTP_DRIFT_STEPS; step <= now + TOTP_DRIFT_STEPS; step++) {
    if (timingSafeEqual(Buffer.from(hotp(secret, step)), Buffer.from(typed))) matched = step;
  }
  return matched;
}

/** A new secret from the CSPRNG, in base32 (the setup key the user may type instead of scanning). */
export function newTotpSecret(random: Random): string {
  return base32Encode(random.bytes(TOTP_SECRET_BYTES));
}

/**
 * The otpauth:// URI authenticator apps scan: label "Issuer:account", and the issuer again as a
 * parameter (apps show it above the code). Algorithm, digits and period are the defaults, stated
 * for apps that would otherwise guess.
 */
export function otpauthUri(input: { issuer: string; account: string; secret: string }): string {
  const label = `${encodeURIComponent(input.issuer)}:${encodeURIComponent(input.account)}`;
  const params = new URLSearchParams({
    secret: input.secret,
    issuer: input.issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString().replace(/\+/g, '%20')}`;
}

/** The URI as a PNG QR code in a data URL (error correction M: survives a smudged screen). */
export function qrCodeDataUrl(uri: string): Promise<string> {
  return QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
}

/** The setup key as shown to people: groups of four. */
export function formatSetupKey(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}
