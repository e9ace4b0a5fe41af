// Re-enter password (section 4.2): an authenticated session's password entry counts as recent for
// REENTER_PASSWORD_MINUTES (sign-in, or the last re-entry); after that the portal asks for it
// again. Wrong passwords here count like wrong passwords at sign-in (failures.ts), and a session
// that keeps getting it wrong is ended.
import type { Kysely } from 'kysely';
import type { Clock } from '../../adapters/clock';
import { passwordHashOf } from '../../db/repositories/factors';
import { mergeSessionData } from '../../db/repositories/factors-flow';
import { findIdentityWithRoles } from '../../db/repositories/identities';
import type { Database } from '../../db/schema';
import { refuse } from '../errors';
import type { PasswordHasher } from '../passwords';
import type { SessionRow } from '../sessions';
import { MAX_REENTER_PASSWORD_FAILURES, sessionEndedRefusal, type FailureCounter } from './failures';
import { REENTER_PASSWORD_INCORRECT_MESSAGE, TOO_MANY_PASSWORD_FAILURES_MESSAGE } from './messages';

export class ReenterPassword {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      clock: Clock;
      hasher: PasswordHasher;
      failures: FailureCounter;
      periodMs: number;
    },
  ) {}

  /** When the session's password entry stops counting as recent. */
  expiresAt(session: SessionRow): Date {
    const confirmed = session.data.passwordConfirmedAt
      ? new Date(session.data.passwordConfirmedAt)
      : session.createdAt;
    return new Date(confirmed.getTime() + this.deps.periodMs);
  }

  isExpired(session: SessionRow): boolean {
    return this.deps.clock.now().getTime() >= this.expiresAt(session).getTime();
  }

  /** Checks the password; on success the entry is recent again and the failed count is cleared. */
  async confirm(session: SessionRow, password: string): Promise<Date> {
    const { db, clock, hasher, failures } = this.deps;
    if (!session.identityId) throw refuse.sessionExpired();
    const [found, hash] = await Promise.all([
      findIdentityWithRoles(db, session.identityId),
      passwordHashOf(db, session.identityId),
    ]);
    if (!found || !hash) throw refuse.sessionExpired();
    await failures.assertMayTry(session, [found.identity.username]);
    const usernames = [found.identity.username];
    await failures.guarded(
      session,
      'reenterPasswordFailures',
      MAX_REENTER_PASSWORD_FAILURES,
      usernames,
      async () => {
        if (await hasher.verify(hash, password)) return;
        const verdict = await failures.count(
          session,
          found.identity.username,
          'reenterPasswordFailures',
          MAX_REENTER_PASSWORD_FAILURES,
        );
        if (verdict === 'ended') throw sessionEndedRefusal(TOO_MANY_PASSWORD_FAILURES_MESSAGE);
        throw refuse.unprocessable(REENTER_PASSWORD_INCORRECT_MESSAGE, [
          { fieldName: 'currentPassword', message: REENTER_PASSWORD_INCORRECT_MESSAGE },
        ]);
      },
    );
    const now = clock.now();
    await mergeSessionData(db, session.idHash, {
      passwordConfirmedAt: now.toISOString(),
      reenterPasswordFailures: 0,
    });
    await failures.succeeded(found.identity.username);
    return new Date(now.getTime() + this.deps.periodMs);
  }
}
