// Password sign-in (section 4.1 on the server side).
//
// Order of checks, each with a reason:
// 1. The realm must allow sign-in (503 otherwise), before anything is counted.
// 2. The username's failed count is incremented first, atomically, as a reservation: the count
//    this attempt sees is unique, so no burst of parallel requests can slip more than the allowed
//    attempts past the captcha. From the 3rd failure a captcha is required; a missing or wrong
//    one gives the reservation back and the password is not checked at all.
//    The failure limit (lockout.ts) is part of the same statement: a locked or waiting username
//    reserves nothing and is refused (locked text, or 429 with Retry-After) before any check.
// 3. The password is verified with argon2id; an unknown username is verified against a dummy
//    hash, so status, body and timing are those of a wrong password.
// 4. A failure keeps the increment and is logged as a sign-in attempt; a success clears the
//    count, logs the attempt, and issues a new session in one transaction.
//
// The reservation has one cost: sign-ins of one username that are in flight at the same moment
// count against each other until they finish, so a fourth simultaneous sign-in of the same
// account is asked for a captcha. People do not sign in four times at once; an attacker's burst
// is exactly what the reservation stops.
//
// Database work is two statements per sign-in (see db/repositories/sign-in.ts).
import type { Kysely } from 'kysely';
import {
  PORTAL_APP_CODE,
  type AuthenticationOutcome,
  type ContextType,
  type PreviousSignInAttempt,
} from '../../contract/entities';
import { limits } from '../../contract/fields';
import type { Clock } from '../adapters/clock';
import type { GeoIpLookup, GeoLocation } from '../adapters/geo-ip';
import type { Random } from '../adapters/random';
import {
  completeSignIn,
  decrementFailedCount,
  failedCount,
  openSignInAttempt,
  type PreviousAttemptRow,
  type SignInAttemptRecord,
} from '../db/repositories/sign-in';
import { updateSessionState } from '../db/repositories/sessions';
import { noteSignInSubject, recordAccountLocked } from '../observability/context';
import type { Database, SessionContext } from '../db/schema';
import { captchaFailure, type CaptchaService, type CaptchaVerdict } from './captcha';
import { toCurrentUser } from './current-user';
import { refuse } from './errors';
import {
  CAPTCHA_FIELD_REQUIRED,
  CAPTCHA_REQUIRED_MESSAGE,
  INCORRECT_CREDENTIALS_MESSAGE,
  SIGN_IN_UNAVAILABLE_MESSAGE,
  UNKNOWN_REALM_MESSAGE,
} from './messages';
import { normaliseUsername, type PasswordHasher } from './passwords';
import { sessionDataFor, type SignInFlow } from './sign-in-flow';
import { recordFailedSignIn } from '../db/repositories/lockout';
import { gateOf, IN_FLIGHT_MS, lockedRefusal, penaltyFor, tryLaterRefusal, type Lockout } from './lockout';
import type { IssuedSession, SessionRow, SessionService } from './sessions';

/** Failed sign-ins after which a captcha is required (section 9). */
export const FAILED_SIGN_INS_BEFORE_CAPTCHA = limits.failedSignInsBeforeCaptcha;

export interface SignInRequest {
  username: string;
  password: string;
  captchaCode?: string | null;
  realmCode?: string;
  /** Context type the portal believes it is in (login payload's context fields). */
  type?: ContextType;
}

export interface SignInMeta {
  ipAddress: string | null;
  /** The session the request came with, if any: it is replaced on success. */
  session: SessionRow | null;
  /** The trusted-device cookie, if the browser sent one. */
  deviceToken?: string | null;
  /** The User-Agent header, kept with the new session (the admin's identity page lists it). */
  userAgent?: string | null;
}

export interface SignInResult {
  outcome: AuthenticationOutcome;
  issued: IssuedSession;
}

export interface SignInDeps {
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  hasher: PasswordHasher;
  captcha: CaptchaService;
  sessions: SessionService;
  geoIp: GeoIpLookup;
  /** Forced steps and completion (handoffs) after the password. */
  flow: SignInFlow;
  /** The failure limit shared with every other password and code check. */
  lockout: Lockout;
}

export class SignInService {
  #dummyHash: Promise<string> | undefined;

  constructor(private readonly deps: SignInDeps) {}

  /** Computes the dummy hash now rather than during the first sign-in. */
  warmUp(): Promise<string> {
    this.#dummyHash ??= this.deps.hasher.hash(this.deps.random.bytes(24).toString('base64url'));
    return this.#dummyHash;
  }

  async failedCount(username: string | undefined): Promise<number> {
    if (!username) return 0;
    return failedCount(this.deps.db, this.deps.lockout.keyOf(username));
  }

  async signIn(request: SignInRequest, meta: SignInMeta): Promise<SignInResult> {
    const { db, clock, hasher, captcha, geoIp } = this.deps;
    const username = normaliseUsername(request.username);
    // A framed (JWT) sign-in only ever continues the session its frame was opened with: without
    // it there is no registered frame to post the token to, so the frame must start again.
    if (request.type === 'JWT' && meta.session?.context.type !== 'JWT') throw refuse.conflict();
    const realmCode = request.realmCode ?? meta.session?.context.realmCode ?? null;
    const { policy } = this.deps.lockout;
    const key = this.deps.lockout.keyOf(username);
    const opened = await openSignInAttempt(db, {
      realmCode,
      username,
      key,
      now: clock.now(),
      lockAfter: policy.lockAfter,
      inFlightMs: IN_FLIGHT_MS,
    });
    if (!opened) throw refuse.invalid([{ fieldName: 'realmCode', message: UNKNOWN_REALM_MESSAGE }]);
    noteSignInSubject(opened.identity?.id ?? null); // for the audit line of a refusal
    if (!opened.authEnabled) throw refuse.unavailable(SIGN_IN_UNAVAILABLE_MESSAGE);
    if (opened.reservedCount === null) {
      // The failure limit refused the reservation: locked, or waiting (nothing was counted).
      const { lockedAt, notBefore, count, lastFailedAt } = opened.blocked;
      const row = {
        username_key: key,
        count,
        last_failed_at: lastFailedAt ?? clock.now(),
        locked_at: lockedAt,
        not_before: notBefore,
      };
      const gate = gateOf(policy, [row], clock.now());
      if (gate.state === 'locked') throw lockedRefusal();
      // Without a captcha the attempt would be refused for that first, as when it may try.
      if (count >= FAILED_SIGN_INS_BEFORE_CAPTCHA && !request.captchaCode?.trim())
        throw captchaRefusal('missing');
      throw tryLaterRefusal(gate.state === 'wait' ? gate.retryAfterSeconds : 1);
    }

    if (opened.reservedCount - 1 >= FAILED_SIGN_INS_BEFORE_CAPTCHA) {
      // The challenge is used up and the reservation given back together, or neither.
      const verdict = await db.transaction().execute(async (trx) => {
        const verdict = await captcha.check(meta.session?.idHash ?? null, request.captchaCode, trx);
        if (verdict !== 'ok') await decrementFailedCount(trx, key);
        return verdict;
      });
      if (verdict !== 'ok') throw captchaRefusal(verdict);
    }

    const { identity, passwordHash } = opened;
    const dummy = await this.warmUp();
    const [passwordOk, geo] = await Promise.all([
      hasher.verify(passwordHash ?? dummy, request.password),
      meta.ipAddress ? geoIp.lookup(meta.ipAddress).catch(() => null) : Promise.resolve(null),
    ]);
    const attempt: SignInAttemptRecord = {
      identityId: identity?.id ?? null,
      // An attempt that names no identity is logged under the key: what was typed may be a password.
      username: identity ? username : key,
      realmCode: opened.realmCode,
      attemptedAt: clock.now(),
      ipAddress: meta.ipAddress,
      cityName: geo?.cityName ?? null,
      countryName: geo?.countryName ?? null,
      continentName: geo?.continentName ?? null,
      isSuccessful: false,
    };
    if (!identity || !passwordHash || !passwordOk) {
      const penalty = penaltyFor(policy, username, key, opened.reservedCount, attempt.attemptedAt);
      const { newlyLocked } = await recordFailedSignIn(db, attempt, penalty);
      if (newlyLocked)
        recordAccountLocked({ identityId: identity?.id ?? null, username, failures: opened.reservedCount });
      throw refuse.unprocessable(INCORRECT_CREDENTIALS_MESSAGE);
    }

    // The context travels from the session the browser came with (a later issue stores another
    // application's request there); a visitor without one signs in to the portal itself.
    const context: SessionContext = meta.session?.context ?? {
      appCode: PORTAL_APP_CODE,
      realmCode: opened.realmCode,
      showInHeader: false,
      type: 'DIRECT',
    };
    const decision = await this.deps.flow.decide({
      identity,
      roles: opened.roles,
      context,
      passed: [],
      deviceToken: meta.deviceToken ?? null,
      prefetched: opened.prefetch,
    });
    const sessionType = decision.kind === 'forced' ? 'AUTHENTICATION_PENDING' : 'AUTHENTICATED';
    const issued = this.deps.sessions.prepareSignedIn({
      identityId: identity.id,
      type: sessionType,
      context,
      data: sessionDataFor(decision, [], null),
    });
    const previous = await completeSignIn(db, {
      attempt: { ...attempt, identityId: identity.id, isSuccessful: true },
      failureKey: key,
      endSessionHash: meta.session?.idHash ?? null,
      session: issued.session,
      // Earlier failures stay while forced steps (MFA codes) are owed: sign-in-flow clears them.
      clearFailures: decision.kind !== 'forced',
      userAgent: meta.userAgent ?? null,
    });
    const previousSignInAttempt = previous ? toPreviousAttempt(previous, geo) : null;
    issued.session.data = sessionDataFor(decision, [], previousSignInAttempt);
    // A sign-in with forced steps answers the previous attempt when it completes, later: keep it.
    if (decision.kind === 'forced' && previousSignInAttempt) {
      await updateSessionState(db, issued.session.idHash, { type: sessionType, data: issued.session.data });
    }

    const currentUser = toCurrentUser(identity, opened.roles, sessionType, issued.session.data.forcedAction);
    const outcome = await this.deps.flow.outcome(decision, {
      identity,
      currentUser,
      session: issued.session,
    });
    return { outcome, issued };
  }
}

function captchaRefusal(verdict: Exclude<CaptchaVerdict, 'ok'>) {
  return verdict === 'missing'
    ? refuse.unprocessable(CAPTCHA_REQUIRED_MESSAGE, [
        { fieldName: 'captchaCode', message: CAPTCHA_FIELD_REQUIRED },
      ])
    : captchaFailure(verdict);
}

function toPreviousAttempt(previous: PreviousAttemptRow, current: GeoLocation | null): PreviousSignInAttempt {
  return {
    date: previous.attempted_at.toISOString(),
    ipAddress: previous.ip_address,
    cityName: previous.city_name,
    countryName: previous.country_name,
    continentName: previous.continent_name,
    isSuccessful: previous.is_successful,
    isGeolocationDifferent:
      previous.country_name !== null &&
      current?.countryName != null &&
      previous.country_name !== current.countryName,
  };
}
