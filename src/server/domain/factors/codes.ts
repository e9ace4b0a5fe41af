// SMS and email one-time codes: 6 digits from the CSPRNG, stored as an HMAC under a key derived
// from the data key (a leaked table cannot be brute-forced offline without the key), valid for 10
// minutes, usable once, and bound to the session and purpose that asked for them: a code is only
// ever looked up by (session, purpose), so a code from another session or step cannot match.
//
// Resends: at most one every 30 seconds and at most MAX_SENDS per session and purpose, enforced in
// the same statement that stores the code (parallel resends cannot slip past). A resend replaces
// the code; wrong codes are counted per session (failures.ts), so a resend does not reset them.
import { createHmac, hkdfSync } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../adapters/clock';
import { MailUnavailableError, type MailSender } from '../../adapters/mail';
import { randomInt, type Random } from '../../adapters/random';
import { SmsUnavailableError, type SmsSender } from '../../adapters/sms';
import { findCode, putCode, consumeCode, voidCode } from '../../db/repositories/codes';
import type { CodeChannelKind, Database } from '../../db/schema';
import { refuse } from '../errors';
import {
  CODE_EMAIL_SUBJECT,
  codeEmailText,
  codeSmsText,
  EMAIL_UNAVAILABLE_CUSTOMER_MESSAGE,
  EMAIL_UNAVAILABLE_MESSAGE,
  RESEND_LIMIT_MESSAGE,
  RESEND_TOO_SOON_MESSAGE,
  SMS_UNAVAILABLE_CUSTOMER_MESSAGE,
  SMS_UNAVAILABLE_MESSAGE,
} from './messages';
import type { SmsGatewayStatus } from './sms-gateway';

export const CODE_DIGITS = 6;
export const CODE_TTL_MINUTES = 10;
export const CODE_TTL_MS = CODE_TTL_MINUTES * 60_000;
export const RESEND_INTERVAL_MS = 30_000;
/** Sends (first send and resends) per session and purpose. */
export const MAX_SENDS = 5;

/** What a code proves in its session: `<area>:<channel>`, e.g. 'mfa:sms', 'factor-enrolment:email'. */
export type CodePurpose = `${string}:${'email' | 'sms'}`;

export type CodeCheck =
  | { ok: true; destination: string }
  /** `used`: the right code, already used (a double submission): not a guess, so not counted. */
  | { ok: false; reason: 'incorrect' | 'expired' | 'not-sent' | 'used' };

/** Derives the code-hashing key from the data key, so the two are never the same key. */
export function codeKeyFrom(dataKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), 'identity-portal one-time codes', 32));
}

export class OneTimeCodes {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      clock: Clock;
      random: Random;
      key: Buffer;
      mail: MailSender;
      sms: SmsSender;
      smsGateway: SmsGatewayStatus;
    },
  ) {}

  hash(code: string): string {
    return createHmac('sha256', this.deps.key).update(code).digest('hex');
  }

  /**
   * Sends a new code for the session and purpose to `destination`. Refusals: 422 when resent too
   * soon or too often; 503 with the customer message when the channel is down (SMS switched off,
   * or the gateway or SMTP server did not take the message).
   */
  async send(input: {
    sessionIdHash: string;
    purpose: CodePurpose;
    identityId: string | null;
    destination: string;
  }): Promise<void> {
    const { db, clock, random } = this.deps;
    const channel: CodeChannelKind = input.purpose.endsWith(':sms') ? 'SMS' : 'EMAIL';
    if (channel === 'SMS' && !(await this.deps.smsGateway.isAvailable())) throw smsUnavailable();
    const code = String(randomInt(random, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
    const now = clock.now();
    const stored = await putCode(
      db,
      {
        sessionIdHash: input.sessionIdHash,
        purpose: input.purpose,
        identityId: input.identityId,
        channel,
        destination: input.destination,
        codeHash: this.hash(code),
        now,
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      },
      { sentBefore: new Date(now.getTime() - RESEND_INTERVAL_MS), maxSends: MAX_SENDS },
    );
    if (!stored) {
      const existing = await findCode(db, input.sessionIdHash, input.purpose);
      throw refuse.unprocessable(
        existing && existing.send_count >= MAX_SENDS ? RESEND_LIMIT_MESSAGE : RESEND_TOO_SOON_MESSAGE,
      );
    }
    try {
      if (channel === 'SMS') {
        await this.deps.sms.send({ to: input.destination, text: codeSmsText(code, CODE_TTL_MINUTES), code });
      } else {
        await this.deps.mail.send({
          to: input.destination,
          subject: CODE_EMAIL_SUBJECT,
          text: codeEmailText(code, CODE_TTL_MINUTES),
          code,
        });
      }
    } catch (error) {
      await voidCode(db, input.sessionIdHash, input.purpose);
      if (error instanceof SmsUnavailableError) throw smsUnavailable();
      if (error instanceof MailUnavailableError)
        throw refuse.unavailable(EMAIL_UNAVAILABLE_MESSAGE, EMAIL_UNAVAILABLE_CUSTOMER_MESSAGE);
      throw error;
    }
  }

  /** Whether a code was sent for the session and purpose in the last RESEND_INTERVAL_MS. */
  async sentRecently(sessionIdHash: string, purpose: CodePurpose): Promise<boolean> {
    const row = await findCode(this.deps.db, sessionIdHash, purpose);
    return !!row && row.last_sent_at.getTime() > this.deps.clock.now().getTime() - RESEND_INTERVAL_MS;
  }

  /** The destination of the session's code for `purpose`, if one was sent. */
  async destinationOf(sessionIdHash: string, purpose: CodePurpose): Promise<string | null> {
    return (await findCode(this.deps.db, sessionIdHash, purpose))?.destination ?? null;
  }

  /**
   * Uses the code if it is the session's unexpired, unused code for `purpose`. `db` may be the
   * transaction that applies what the code proves (so the code is used only if that commits).
   */
  async check(
    input: { sessionIdHash: string; purpose: CodePurpose; code: string },
    db: Kysely<Database> = this.deps.db,
  ): Promise<CodeCheck> {
    const now = this.deps.clock.now();
    const typed = input.code.replace(/\s/g, '');
    const codeHash = this.hash(typed);
    const used = await consumeCode(db, {
      sessionIdHash: input.sessionIdHash,
      purpose: input.purpose,
      codeHash,
      now,
    });
    if (used) return { ok: true, destination: used.destination };
    const row = await findCode(db, input.sessionIdHash, input.purpose);
    if (!row) return { ok: false, reason: 'not-sent' };
    if (row.used_at) return { ok: false, reason: row.code_hash === codeHash ? 'used' : 'expired' };
    if (row.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
    return { ok: false, reason: 'incorrect' };
  }
}

export function smsUnavailable() {
  return refuse.unavailable(SMS_UNAVAILABLE_MESSAGE, SMS_UNAVAILABLE_CUSTOMER_MESSAGE);
}
