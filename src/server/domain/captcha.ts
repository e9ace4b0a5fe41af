// Captcha challenges: the answer lives server-side (hashed) with the session, is single use and
// expires after five minutes. Outside production CAPTCHA_FIXED_ANSWER fixes every answer.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CaptchaRenderer } from '../adapters/captcha-image';
import type { Clock } from '../adapters/clock';
import { randomInt, type Random } from '../adapters/random';
import { putCaptchaChallenge, takeCaptchaChallenge } from '../db/repositories/sessions';
import type { Database } from '../db/schema';
import { refuse, type RequestRefused } from './errors';
import {
  CAPTCHA_EXPIRED_MESSAGE,
  CAPTCHA_FIELD_EXPIRED,
  CAPTCHA_FIELD_INCORRECT,
  CAPTCHA_INCORRECT_MESSAGE,
} from './messages';

/** Letters and digits that stay distinct when distorted (no 0/O/Q, 1/I/L, 2/Z, 5/S, 7/T, 8/B, G/6). */
export const CAPTCHA_ALPHABET = 'ACDEFHJKMNPRTUVWXY3469';
export const CAPTCHA_LENGTH = 5;
export const CAPTCHA_TTL_MS = 5 * 60_000;

export type CaptchaVerdict = 'ok' | 'missing' | 'incorrect' | 'expired';

function answerHash(answer: string): string {
  return createHash('sha256').update(answer.trim().toUpperCase()).digest('hex');
}

export class CaptchaService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly renderer: CaptchaRenderer,
    private readonly fixedAnswer: string | null,
  ) {}

  /** A new challenge for the session (replacing its previous one); answers the JPEG. */
  async issue(sessionIdHash: string): Promise<Buffer> {
    const answer = this.fixedAnswer ?? this.#randomAnswer();
    const expiresAt = new Date(this.clock.now().getTime() + CAPTCHA_TTL_MS);
    await putCaptchaChallenge(this.db, sessionIdHash, answerHash(answer), expiresAt);
    return this.renderer.render(answer.toUpperCase());
  }

  /**
   * Checks a typed code against the session's challenge and uses the challenge up, right or wrong.
   * A missing code leaves the challenge in place. `db` may be a transaction.
   */
  async check(
    sessionIdHash: string | null,
    code: string | null | undefined,
    db: Kysely<Database> = this.db,
  ): Promise<CaptchaVerdict> {
    if (!code || code.trim() === '') return 'missing';
    if (!sessionIdHash) return 'incorrect';
    const challenge = await takeCaptchaChallenge(db, sessionIdHash);
    if (!challenge) return 'incorrect';
    // Said apart from a wrong one: whoever took longer than the image lasts typed nothing wrong.
    if (challenge.expires_at.getTime() <= this.clock.now().getTime()) return 'expired';
    const expected = Buffer.from(challenge.answer_hash, 'hex');
    const actual = Buffer.from(answerHash(code), 'hex');
    return timingSafeEqual(expected, actual) ? 'ok' : 'incorrect';
  }

  #randomAnswer(): string {
    let answer = '';
    for (let i = 0; i < CAPTCHA_LENGTH; i++)
      answer += CAPTCHA_ALPHABET[randomInt(this.random, CAPTCHA_ALPHABET.length)];
    return answer;
  }
}

/** The refusal of a code that was wrong, or typed after its image expired: a new image comes with it. */
export function captchaFailure(verdict: 'incorrect' | 'expired'): RequestRefused {
  return verdict === 'expired'
    ? refuse.unprocessable(CAPTCHA_EXPIRED_MESSAGE, [
        { fieldName: 'captchaCode', message: CAPTCHA_FIELD_EXPIRED },
      ])
    : refuse.unprocessable(CAPTCHA_INCORRECT_MESSAGE, [
        { fieldName: 'captchaCode', message: CAPTCHA_FIELD_INCORRECT },
      ]);
}
