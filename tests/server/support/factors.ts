// Helpers of the factor suites: codes from the dev outbox, TOTP codes from the demo secret, and
// sign-ins that stop at a forced step.
import { expect } from 'vitest';
import type { Clock } from '../../../src/server/adapters/clock';
import { DEMO_TOTP_SECRET } from '../../../src/server/demo/data';
import { base32Decode, hotp, totpStep } from '../../../src/server/domain/factors/totp';
import { API, type TestClient } from './server';

export type Json = Record<string, unknown>;

export interface OutboxMessage {
  id: number;
  channel: 'EMAIL' | 'SMS';
  to: string;
  subject: string | null;
  text: string;
  code: string | null;
  sentAt: string;
}

export async function outbox(client: TestClient, query = ''): Promise<OutboxMessage[]> {
  const res = await client.get<{ messages: OutboxMessage[] }>(`/dev/outbox${query}`, {
    headers: { accept: 'application/json' },
  });
  expect(res.status).toBe(200);
  return res.body.messages;
}

/** The latest code sent to `to` (an email address or mobile). */
export async function latestCode(client: TestClient, to: string): Promise<string> {
  const [latest] = await outbox(client, `?to=${encodeURIComponent(to)}&limit=1`);
  if (!latest?.code) throw new Error(`No code in the outbox for ${to}`);
  return latest.code;
}

/** The demo authenticator app's code at the clock's time, `offset` steps away. */
export function totpAt(clock: Clock, offset = 0, secret = DEMO_TOTP_SECRET): string {
  return hotp(base32Decode(secret), totpStep(clock.now()) + offset);
}

/** A code that is none of the accepted ones (now and one step either side). */
export function wrongTotp(clock: Clock, secret = DEMO_TOTP_SECRET): string {
  const taken = new Set([-1, 0, 1].map((o) => totpAt(clock, o, secret)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!taken.has(candidate)) return candidate;
  }
}

/** Signs in and expects the sign-in to stop at `step`. */
export async function signInToStep(client: TestClient, username: string, step: string): Promise<Json> {
  const res = await client.login<Json>(username);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: step });
  return res.body;
}

export const post = <T = Json>(client: TestClient, path: string, json?: unknown) =>
  client.post<T>(`${API}${path}`, json);
export const get = <T = Json>(client: TestClient, path: string) => client.get<T>(`${API}${path}`);
