// Helpers of the password reset journeys: RFC 6238 codes computed here from a base32 secret, codes
// read from the dev outbox, and a small HTTP client with its own cookie jar that speaks to the
// same server (the admin's SMS gateway switch, and putting the demo passwords back afterwards so
// the other journeys find the demo data as DESIGN.md describes it, whatever order files run in).
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';

export const DEMO_PASSWORD = 'Harbour-Lights-2026';
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
const STEP_MS = 30_000;

// ---- RFC 6238 (TOTP: HMAC-SHA-1, 6 digits, 30 s) ----------------------------------------------

/** Base32 (RFC 4648) as authenticator apps read it: spaces (a key shown in groups) and padding ignored. */
export function base32Decode(text: string): Buffer {
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

/** RFC 4226's HOTP for a counter (dynamic truncation, 6 digits), as RFC 6238 uses it. */
export function hotp(secret: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', secret).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

export const currentStep = () => Math.floor(Date.now() / STEP_MS);

/**
 * A code the server accepts (it allows one step either side) whose step is later than `after`:
 * a step another journey may have used already is never offered again. Waits for the clock when
 * the next step is not yet within reach.
 */
export async function totpLaterThan(
  after: number,
  secret = DEMO_TOTP_SECRET,
): Promise<{ code: string; step: number }> {
  while (currentStep() + 1 <= after) await new Promise((r) => setTimeout(r, 1_000));
  // The next step: accepted now, and later than anything a journey took at the current one.
  const step = currentStep() + 1;
  return { code: hotp(base32Decode(secret), step), step };
}

// ---- The dev outbox ---------------------------------------------------------------------------

interface OutboxMessage {
  id: number;
  channel: 'EMAIL' | 'SMS';
  to: string;
  subject: string | null;
  code: string | null;
}

export async function latestOutboxId(baseUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}/dev/outbox?limit=1`, { headers: { Accept: 'application/json' } });
  const { messages } = (await response.json()) as { messages: OutboxMessage[] };
  return messages[0]?.id ?? 0;
}

/**
 * The newest code sent to `to` (on `channel`, or on either when null) after message `afterId`,
 * waiting for it to arrive.
 */
export async function codeFromOutbox(
  baseUrl: string,
  to: string,
  channel: 'EMAIL' | 'SMS' | null,
  afterId: number,
): Promise<{ id: number; code: string }> {
  // A plain loop, not expect.poll: the journeys' clean-up runs it after the tests too.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const url = `${baseUrl}/dev/outbox?${new URLSearchParams(channel ? { to, channel } : { to })}`;
    const response = await fetch(url, { headers: { Accept: 'application/json' } });
    const { messages } = (await response.json()) as { messages: OutboxMessage[] };
    const found = messages.find((m) => m.id > afterId && m.code !== null);
    if (found) return { id: found.id, code: found.code! };
    if (Date.now() > deadline)
      throw new Error(`No code for ${to} on ${channel ?? 'any channel'} after message ${afterId}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---- HTTP with a cookie jar -------------------------------------------------------------------

export class PortalClient {
  readonly #cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.#cookies.size > 0) headers.cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const value = pair!.slice(eq + 1);
      if (value === '') this.#cookies.delete(pair!.slice(0, eq));
      else this.#cookies.set(pair!.slice(0, eq), value);
    }
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('application/json');
    return { status: response.status, body: json && text ? (JSON.parse(text) as unknown) : null };
  }

  post(path: string, body?: unknown) {
    return this.call('POST', `/rest/ui/${path}`, body);
  }
}

/** Signs admin1 in and switches SMS codes on or off for everyone (the admin call). */
export async function setSmsGateway(baseUrl: string, available: boolean): Promise<void> {
  const admin = new PortalClient(baseUrl);
  const signIn = await admin.post('anonymous/login', { username: 'admin1', password: DEMO_PASSWORD });
  expect(signIn.status).toBe(200);
  const switched = await admin.post('admin/properties/sms-gateway-status', {
    isSmsGatewayAvailable: available,
  });
  expect(switched).toEqual({ status: 200, body: { isSmsGatewayAvailable: available } });
}

/**
 * A whole reset over HTTP (start with the captcha, the email code from the outbox, the account's
 * second factor, the new password): how the journeys put the demo password back.
 */
export async function resetOverHttp(
  baseUrl: string,
  options: {
    email: string;
    captchaAnswer: string;
    password: string;
    factor:
      | { kind: 'totp'; after: number }
      | { kind: 'questions'; answers: Array<{ question: string; answer: string }> };
  },
): Promise<void> {
  const client = new PortalClient(baseUrl);
  const afterId = await latestOutboxId(baseUrl);
  expect((await client.call('GET', `/captcha.jpg?${Date.now()}`)).status).toBe(200);
  const start = await client.post('anonymous/password-reset/start', {
    email: options.email,
    captchaCode: options.captchaAnswer,
  });
  expect(start.status).toBe(204);
  const { code } = await codeFromOutbox(baseUrl, options.email, 'EMAIL', afterId);
  expect((await client.post('anonymous/password-reset/verify-email', { code })).status).toBe(200);
  if (options.factor.kind === 'totp') {
    const totp = await totpLaterThan(options.factor.after);
    const verified = await client.post('anonymous/password-reset/verify-authenticator-app', {
      code: totp.code,
    });
    expect(verified.status).toBe(204);
  } else {
    for (const answer of options.factor.answers) {
      expect((await client.post('anonymous/password-reset/verify-security-question', answer)).status).toBe(
        204,
      );
    }
  }
  const submitted = await client.post('anonymous/password-reset/submit', {
    password: options.password,
    confirmPassword: options.password,
  });
  expect(submitted).toEqual({ status: 204, body: null });
}
