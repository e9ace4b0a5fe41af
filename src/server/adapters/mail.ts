// Outgoing email: over SMTP (SMTP_URL, through nodemailer), to the dev outbox outside production
// when SMTP_URL is unset, and refused in production when SMTP_URL is unset (a code that silently
// goes nowhere would lock people out without telling anyone).
import { createTransport } from 'nodemailer';
import type { Outbox } from './outbox';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  /** The one-time code in the message: only the dev outbox keeps it, for automated journeys. */
  code?: string;
}

export interface MailSender {
  readonly kind: 'smtp' | 'outbox' | 'unconfigured';
  /** Throws MailUnavailableError when the message could not be handed over. */
  send(email: OutgoingEmail): Promise<void>;
}

export class MailUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailUnavailableError';
  }
}

/** SMTP time-outs: a code the user waits for must fail fast enough to say so. */
const SMTP_TIMEOUT_MS = 10_000;

export function smtpMailSender(url: string, from: string): MailSender {
  // Settings in the URL's query (e.g. ?pool=true) win over these defaults.
  const transport = createTransport(
    {
      url,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    },
    { from },
  );
  return {
    kind: 'smtp',
    async send(email) {
      try {
        await transport.sendMail({ from, to: email.to, subject: email.subject, text: email.text });
      } catch (error) {
        throw new MailUnavailableError('The SMTP server did not accept the message', { cause: error });
      }
    },
  };
}

export function outboxMailSender(outbox: Outbox): MailSender {
  return {
    kind: 'outbox',
    send: (email) =>
      outbox.record({
        channel: 'EMAIL',
        to: email.to,
        subject: email.subject,
        text: email.text,
        code: email.code ?? null,
      }),
  };
}

export const unconfiguredMailSender: MailSender = {
  kind: 'unconfigured',
  send: () => Promise.reject(new MailUnavailableError('No SMTP server is configured (SMTP_URL)')),
};
