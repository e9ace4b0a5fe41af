// Outgoing SMS: a JSON POST to an HTTP gateway (SMS_GATEWAY_URL), to the dev outbox outside
// production when none is configured, and unavailable in production without one.
//
// Gateway request: POST SMS_GATEWAY_URL, Content-Type application/json, body
// `{"to": "+61400000005", "message": "..."}` (the number in E.164, spaces removed), with
// `Authorization: Bearer SMS_GATEWAY_TOKEN` when a token is configured. Any 2xx is accepted.
import type { Outbox } from './outbox';

export interface OutgoingSms {
  /** The number as stored (it may contain spaces); the gateway gets it in E.164. */
  to: string;
  text: string;
  /** The one-time code in the message: only the dev outbox keeps it. */
  code?: string;
}

export interface SmsSender {
  readonly kind: 'gateway' | 'outbox' | 'unconfigured';
  /** Throws SmsUnavailableError when the gateway did not take the message. */
  send(sms: OutgoingSms): Promise<void>;
}

export class SmsUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SmsUnavailableError';
  }
}

const GATEWAY_TIMEOUT_MS = 10_000;

/** '+61 400 000 005' -> '+61400000005'. */
export function toE164(mobile: string): string {
  return mobile.replace(/[\s().-]/g, '');
}

export function httpSmsGateway(
  url: string,
  token: string | null,
  fetchImpl: typeof fetch = fetch,
): SmsSender {
  return {
    kind: 'gateway',
    async send(sms) {
      let response: Response;
      try {
        response = await fetchImpl(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({ to: toE164(sms.to), message: sms.text }),
          signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
        });
      } catch (error) {
        throw new SmsUnavailableError('The SMS gateway did not answer', { cause: error });
      }
      // Drain the body so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) throw new SmsUnavailableError(`The SMS gateway answered ${response.status}`);
    },
  };
}

export function outboxSmsSender(outbox: Outbox): SmsSender {
  return {
    kind: 'outbox',
    send: (sms) =>
      outbox.record({ channel: 'SMS', to: sms.to, subject: null, text: sms.text, code: sms.code ?? null }),
  };
}

export const unconfiguredSmsSender: SmsSender = {
  kind: 'unconfigured',
  send: () => Promise.reject(new SmsUnavailableError('No SMS gateway is configured (SMS_GATEWAY_URL)')),
};
