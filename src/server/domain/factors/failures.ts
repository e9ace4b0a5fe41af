// Wrong codes (and wrong passwords at re-enter password and registration's existing account)
// count twice: towards the account's failure limit (domain/lockout.ts: the count sign-in reads for
// its captcha from the 3rd failure, the growing waits, the lock), and towards a limit per
// session, at which the session ends. The session's limit is what stops guessing inside one
// sign-in: without it a stolen password would allow unlimited guesses at a 6-digit code. A resend
// does not reset it: it is the session's, not the code's.
//
// Before a check is made, `assertMayTry` asks the account's limit: during a wait the answer is a
// 429 with Retry-After (nothing checked, nothing counted, the session kept); a locked account's
// session ends with the locked text, as does the session whose failure locks the account.
//
// `guarded` also takes one of the session's remaining tries before the check and gives it back
// after (its failure counted first), as sign-in reserves its attempt: a burst of parallel guesses
// in one session gets no more checks than the session has tries left, instead of every one being
// checked before the first failure is counted. It takes one of the account's tries as well
// (Lockout.withTries), so bursts from many sessions at once get no more checks than the lock allows.
import type { Kysely } from 'kysely';
import {
  incrementSessionCounter,
  releaseSessionTry,
  reserveSessionTry,
  type FailureCounterName,
} from '../../db/repositories/factors-flow';
import { recordAuthFailure } from '../../observability/context';
import type { Database } from '../../db/schema';
import { RequestRefused } from '../errors';
import { ACCOUNT_LOCKED_MESSAGE, tryLaterRefusal, type Lockout } from '../lockout';
import type { SessionRow, SessionService } from '../sessions';

/** Wrong codes per session before it ends. */
export const MAX_FACTOR_FAILURES = 5;
/** Wrong passwords at re-enter password per session before it ends. */
export const MAX_REENTER_PASSWORD_FAILURES = 5;

/** A 422 that tells the portal to drop the session and go to sign-in (section 8's reroute). */
export function sessionEndedRefusal(message: string): RequestRefused {
  return new RequestRefused(422, { message, reroute: '/' });
}

/**
 * Runs checks with `tries` of the session's tries reserved for them (reserveSessionTry): none free
 * (the others are in flight) answers a 429 to try again in a second, with nothing checked or
 * counted. The tries are given back however the checks end.
 */
export async function withSessionTries<T>(
  db: Kysely<Database>,
  idHash: string,
  counter: FailureCounterName,
  max: number,
  tries: number,
  check: () => Promise<T>,
): Promise<T> {
  if (!(await reserveSessionTry(db, idHash, counter, max, tries))) throw tryLaterRefusal(1);
  try {
    return await check();
  } finally {
    await releaseSessionTry(db, idHash, counter, tries);
  }
}

export class FailureCounter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: SessionService,
    readonly lockout: Lockout,
  ) {}

  /**
   * Refuses a check of the usernames' accounts while one waits (429) or is locked (the session
   * ends); passes otherwise. Null usernames (an account not yet created) always pass.
   */
  async assertMayTry(
    session: SessionRow,
    usernames: ReadonlyArray<string | null | undefined>,
  ): Promise<void> {
    const gate = await this.lockout.gate(usernames);
    if (gate.state === 'wait') throw tryLaterRefusal(gate.retryAfterSeconds);
    if (gate.state === 'locked') {
      await this.sessions.end(session.idHash);
      throw sessionEndedRefusal(ACCOUNT_LOCKED_MESSAGE);
    }
  }

  /**
   * Counts one failure for the username and the session; answers 'ended' when the session has
   * reached `max` and was ended. When this failure locks the account the session ends with the
   * locked text (thrown here).
   */
  async count(
    session: SessionRow,
    username: string | null,
    counter: 'factorFailures' | 'reenterPasswordFailures',
    max: number,
  ): Promise<'again' | 'ended'> {
    const locked = username ? (await this.lockout.fail(username)).locked : false;
    const failures = await incrementSessionCounter(this.db, session.idHash, counter);
    recordAuthFailure(counter === 'factorFailures' ? 'code' : 'reenter_password', {
      identityId: session.identityId,
      username,
      sessionIdHash: session.idHash,
      ended: locked || failures >= max,
      signingIn: session.type === 'AUTHENTICATION_PENDING',
    });
    if (locked) {
      await this.sessions.end(session.idHash);
      throw sessionEndedRefusal(ACCOUNT_LOCKED_MESSAGE);
    }
    if (failures < max) return 'again';
    await this.sessions.end(session.idHash);
    return 'ended';
  }

  /**
   * Runs a check with one of the session's tries reserved for it, and one of each account's
   * (Lockout.withTries): none left (the others are in flight) answers a 429 to try again in a
   * second, with nothing checked or counted; a locked account ends the session with the locked
   * text, as assertMayTry does.
   */
  async guarded<T>(
    session: SessionRow,
    counter: 'factorFailures' | 'reenterPasswordFailures',
    max: number,
    usernames: ReadonlyArray<string | null | undefined>,
    check: () => Promise<T>,
  ): Promise<T> {
    return withSessionTries(this.db, session.idHash, counter, max, 1, () =>
      this.lockout.withTries(usernames, check, async () => {
        await this.sessions.end(session.idHash);
        throw sessionEndedRefusal(ACCOUNT_LOCKED_MESSAGE);
      }),
    );
  }

  /** A right password or code: the account's count and wait are forgotten (a lock is not). */
  async succeeded(username: string | null | undefined): Promise<void> {
    if (username) await this.lockout.succeeded(username);
  }
}
