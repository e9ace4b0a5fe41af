// One failure limit for every password and code check: sign-in, re-enter password (and the
// profile's current password, which is the same check), each selected account's password in the
// merge, the existing-account password at registration, and every one-time code, authenticator
// code and security answer of MFA, enrolment, registration, profile and reset.
//
// All of them count into one row per normalised username (failed_auth_counts), so C10001 and
// c10001 share it, and an unknown username has a row like a known one:
// - from the 3rd failure sign-in asks for the captcha (section 9); the count is what it reads;
// - each failure after the 3rd makes the account wait before the next attempt: 1 s after the 4th,
//   then 2 s, 4 s, ... up to FAILURE_DELAY_MAX_SECONDS. The wait is a time in the row
//   (not_before), never a sleep in the request; an attempt before it is answered 429 with
//   Retry-After and is not counted;
// - the LOCK_AFTER_FAILURES-th failure in a row (default 10) locks the account: no check is taken
//   any more, right password or not, until support unlocks it (POST admin/identities/{id}/unlock
//   or `npm run unlock -- <username>`). The lock and the unlock are written into the identity's
//   history.
// A success clears the count and any wait, but never a lock.
//
// A check takes one of its account's tries before it runs (`withTries`) and gives it back after
// (its failure counted first), as a sign-in reserves its attempt: checks in flight count towards
// the lock, so parallel checks from many sessions never get past it (LOCK_AFTER_FAILURES checks
// at most), however many sessions send them at once.
//
// Nothing here tells a known username from an unknown one: both run the same statements and get
// the same answers (the history entry is the one difference, and it is not visible outside).
//
// The rows are keyed by a keyed hash of the username (`usernameKeyer`), not by what was typed:
// people type passwords into the username box, and a database dump must not show them.
import { createHmac, hkdfSync } from 'node:crypto';
import type { Kysely } from 'kysely';
import { limits } from '../../contract/fields';
import type { Clock } from '../adapters/clock';
import type { Config } from '../config';
import {
  applyPenalty,
  clearUnlockedFailures,
  failureGateRows,
  identityByUsername,
  incrementFailedCount,
  releaseAccountTries,
  reserveAccountTries,
  unlockUsername,
  type FailureGateRow,
  type Penalty,
  type UsernameKey,
} from '../db/repositories/lockout';
import type { Database } from '../db/schema';
import { refuse, RequestRefused } from './errors';
import { normaliseUsername } from './passwords';
import { auditEvent, recordAccountLocked } from '../observability/context';

export interface LockoutPolicy {
  /** Failures from which sign-in asks for the captcha (section 9: 3); waits start after them. */
  readonly captchaAfter: number;
  /** Failures in a row that lock the account; 0 never locks. */
  readonly lockAfter: number;
  /** Wait after the first failure past `captchaAfter`, doubling with each further one; 0: none. */
  readonly delayMs: number;
  readonly delayMaxMs: number;
}

/**
 * The key of a username's failure row: HMAC-SHA-256 of the normalised username under a key derived
 * (HKDF) from the data key, base64url. The same name in any case gets the same key; without the
 * data key a dump of the rows cannot be searched for a guessed name or password. Several
 * instances on one database must share DATA_ENCRYPTION_KEY (as they must for TOTP secrets).
 */
export function usernameKeyer(dataKey: Buffer): (username: string) => UsernameKey {
  const key = Buffer.from(
    hkdfSync('sha256', dataKey, Buffer.alloc(0), 'identity-portal failure-limit usernames', 32),
  );
  return (username) =>
    createHmac('sha256', key).update(normaliseUsername(username), 'utf8').digest('base64url') as UsernameKey;
}

export const DEFAULT_LOCKOUT_POLICY: LockoutPolicy = {
  captchaAfter: limits.failedSignInsBeforeCaptcha,
  lockAfter: 10,
  delayMs: 1000,
  delayMaxMs: 300_000,
};

export function lockoutPolicyOf(
  config: Pick<Config, 'lockAfterFailures' | 'failureDelaySeconds' | 'failureDelayMaxSeconds'>,
): LockoutPolicy {
  return {
    captchaAfter: limits.failedSignInsBeforeCaptcha,
    lockAfter: config.lockAfterFailures,
    delayMs: config.failureDelaySeconds * 1000,
    delayMaxMs: config.failureDelayMaxSeconds * 1000,
  };
}

/** The wait (ms) before the attempt after the `failures`-th failure in a row. */
export function waitAfter(policy: LockoutPolicy, failures: number): number {
  if (policy.delayMs <= 0 || failures <= policy.captchaAfter) return 0;
  const doublings = Math.min(failures - policy.captchaAfter - 1, 40);
  return Math.min(policy.delayMs * 2 ** doublings, policy.delayMaxMs);
}

export function locksAt(policy: LockoutPolicy, failures: number): boolean {
  return policy.lockAfter > 0 && failures >= policy.lockAfter;
}

/** Bank-like text of a locked account (the spec has none). */
export const ACCOUNT_LOCKED_MESSAGE =
  'Your account has been locked after too many incorrect attempts. Call the helpdesk to have it unlocked.';
export const LOCKED_HISTORY_TEXT = (failures: number) =>
  `Locked after ${failures} incorrect passwords or codes in a row.`;
export const UNLOCKED_BY_ADMIN_TEXT = 'Unlocked by an administrator.';
/** 403: an admin's own lock (someone guessing the password) is for another admin to lift. */
export const OWN_UNLOCK_MESSAGE = 'Another admin must unlock your own account.';
export const UNLOCKED_BY_COMMAND_TEXT = 'Unlocked from the command line (npm run unlock).';

export function tryLaterMessage(seconds: number): string {
  return `Too many incorrect attempts. Wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'} and try again.`;
}

/** 429 with Retry-After: the account's wait is not over; nothing was checked or counted. */
export function tryLaterRefusal(retryAfterSeconds: number): RequestRefused {
  return new RequestRefused(
    429,
    { message: tryLaterMessage(retryAfterSeconds) },
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/** The locked answer where there is no session to end (sign-in): the wrong-password status. */
export const lockedRefusal = (): RequestRefused => refuse.unprocessable(ACCOUNT_LOCKED_MESSAGE);

export type Gate = { state: 'open' } | { state: 'wait'; retryAfterSeconds: number } | { state: 'locked' };

/**
 * How long a sign-in's reservation of the lock's last attempt is taken to be in flight: after it,
 * a count at the lock without the lock (the server stopped mid-attempt, or LOCK_AFTER_FAILURES was
 * lowered) lets the next attempt through, whose failure then locks.
 */
export const IN_FLIGHT_MS = 60_000;

/** The strictest state of the rows: a lock, else the longest wait, else open. */
export function gateOf(policy: LockoutPolicy, rows: readonly FailureGateRow[], now: Date): Gate {
  let waitMs = 0;
  for (const row of rows) {
    if (row.locked_at) return { state: 'locked' };
    if (row.not_before) waitMs = Math.max(waitMs, row.not_before.getTime() - now.getTime());
    // The lock's last attempt is still in flight (a sign-in reserved it): wait for its outcome.
    if (locksAt(policy, row.count) && now.getTime() - row.last_failed_at.getTime() < IN_FLIGHT_MS)
      waitMs = Math.max(waitMs, 1000);
  }
  return waitMs > 0 ? { state: 'wait', retryAfterSeconds: Math.ceil(waitMs / 1000) } : { state: 'open' };
}

/** What the `count`-th failure in a row does: the wait it imposes and whether it locks. */
export function penaltyFor(
  policy: LockoutPolicy,
  username: string,
  key: UsernameKey,
  count: number,
  now: Date,
): Penalty {
  const wait = waitAfter(policy, count);
  return {
    username,
    key,
    now,
    notBefore: wait > 0 ? new Date(now.getTime() + wait) : null,
    lockedAt: locksAt(policy, count) ? now : null,
    lockDescription: LOCKED_HISTORY_TEXT(count),
  };
}

export class Lockout {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    readonly policy: LockoutPolicy,
    /** The key of a username's row (`usernameKeyer`). */
    readonly keyOf: (username: string) => UsernameKey,
  ) {}

  /** Whether the usernames (any of them) may be checked now. */
  async gate(usernames: ReadonlyArray<string | null | undefined>): Promise<Gate> {
    const keys = [...new Set(usernames.filter((u): u is string => !!u).map(this.keyOf))];
    return gateOf(this.policy, await failureGateRows(this.db, keys), this.clock.now());
  }

  /** When the username was locked; null when it is not. */
  async lockedAt(username: string, db: Kysely<Database> = this.db): Promise<Date | null> {
    const [row] = await failureGateRows(db, [this.keyOf(username)]);
    return row?.locked_at ?? null;
  }

  /**
   * Takes one try of each of the usernames' accounts for a check about to run (see the top of the
   * file): all of them, or none and the state that refused them (`count`: the highest failed
   * count among them). `limit` is the failures and checks in flight at which no try is given: the
   * lock's (LOCK_AFTER_FAILURES) unless a check stops earlier (the merge stops at the captcha's).
   */
  async reserve(
    usernames: ReadonlyArray<string | null | undefined>,
    limit: number = this.policy.lockAfter,
  ): Promise<{ ok: true; release: () => Promise<void> } | { ok: false; gate: Gate; count: number }> {
    const keys = [...new Set(usernames.filter((u): u is string => !!u).map(this.keyOf))];
    if (keys.length === 0) return { ok: true, release: async () => {} };
    const now = this.clock.now();
    const reserved = await reserveAccountTries(this.db, keys, now, limit);
    if (reserved.length === keys.length)
      return { ok: true, release: () => releaseAccountTries(this.db, keys) };
    if (reserved.length > 0) await releaseAccountTries(this.db, reserved);
    const rows = await failureGateRows(this.db, keys);
    return {
      ok: false,
      gate: gateOf(this.policy, rows, now),
      count: Math.max(0, ...rows.map((r) => r.count)),
    };
  }

  /**
   * Runs a check of the usernames' accounts with one try of each taken for it (`reserve`), given
   * back however the check ends. When an account may not be checked now, nothing runs: a wait,
   * or checks in flight up to the lock, answer the 429 (Retry-After: the wait, or 1 s); a lock
   * calls `onLocked`, which throws the caller's refusal.
   */
  async withTries<T>(
    usernames: ReadonlyArray<string | null | undefined>,
    check: () => Promise<T>,
    onLocked: () => Promise<never>,
  ): Promise<T> {
    const tries = await this.reserve(usernames);
    if (!tries.ok) {
      if (tries.gate.state === 'locked') return onLocked();
      throw tryLaterRefusal(tries.gate.state === 'wait' ? tries.gate.retryAfterSeconds : 1);
    }
    try {
      return await check();
    } finally {
      await tries.release();
    }
  }

  /** Throws the 429 or the locked refusal unless the usernames may be checked now. */
  async assertMayTry(usernames: ReadonlyArray<string | null | undefined>): Promise<void> {
    const gate = await this.gate(usernames);
    if (gate.state === 'wait') throw tryLaterRefusal(gate.retryAfterSeconds);
    if (gate.state === 'locked') throw lockedRefusal();
  }

  /** Counts one failure for the username and applies its wait or lock; answers the new state. */
  async fail(username: string, db: Kysely<Database> = this.db): Promise<{ count: number; locked: boolean }> {
    const name = normaliseUsername(username);
    const key = this.keyOf(name);
    const now = this.clock.now();
    const count = await incrementFailedCount(db, key, now);
    const penalty = penaltyFor(this.policy, name, key, count, now);
    const applied =
      penalty.notBefore || penalty.lockedAt
        ? await applyPenalty(db, penalty)
        : { newlyLocked: false, identityId: null };
    // The audit line names the account the lock's history entry went to (none: an unknown name);
    // only the failure that locked it writes one, not another that raced it to the same lock.
    if (applied.newlyLocked)
      recordAccountLocked({ identityId: applied.identityId, username: name, failures: count });
    return { count, locked: penalty.lockedAt !== null };
  }

  /** After a right password or code: the count and any wait are forgotten (a lock is not). */
  async succeeded(username: string, db: Kysely<Database> = this.db): Promise<void> {
    await clearUnlockedFailures(db, this.keyOf(username));
  }

  /**
   * Support lifts the lock (and forgets the failures) of the identity, or of a username that has
   * no identity. Answers the username (the identity's own spelling) and whether it was locked.
   */
  async unlock(input: {
    identity: { id: string; username: string } | null;
    username?: string;
    actorIdentityId: string | null;
    description: string;
  }): Promise<{ username: string; wasLocked: boolean }> {
    const username = normaliseUsername(input.identity?.username ?? input.username ?? '');
    const wasLocked = await unlockUsername(this.db, {
      key: this.keyOf(username),
      identityId: input.identity?.id ?? null,
      now: this.clock.now(),
      actorIdentityId: input.actorIdentityId,
      description: input.description,
    });
    if (wasLocked) {
      auditEvent('ACCOUNT_UNLOCKED', {
        identityId: input.identity?.id ?? null,
        username,
        actorIdentityId: input.actorIdentityId,
      });
    }
    return { username: input.identity?.username ?? username, wasLocked };
  }

  /** The live identity with this username (any case), for the command line. */
  identityByUsername(username: string): Promise<{ id: string; username: string } | undefined> {
    return identityByUsername(this.db, normaliseUsername(username));
  }
}
