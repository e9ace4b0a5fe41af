// Password sign-in (section 4.1 on the server side).
//
// Order of checks, each with a reason:
// 1. The realm must allow sign-in (503 otherwise), before anything is counted.
// 2. The username's failed count is incremented first, atomically, as a reservation: the count
//    this attempt sees is unique, so no burst of parallel requests can slip more than the allowed
//    attempts past the captcha. From the 3rd failure a captcha is required; a missing or wrong
//    one gives the reservation back and the password is not checked at all.
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
  type CurrentUser,
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
  recordSignInAttempt,
  type PreviousAttemptRow,
  type SignInAttemptRecord,
} from '../db/repositories/sign-in';
import type { Database, Identity, SessionContext } from '../db/schema';
import type { CaptchaService, CaptchaVerdict } from './captcha';
import { toCurrentUser } from './current-user';
import { refuse } from './errors';
import {
  CAPTCHA_FIELD_INCORRECT,
  CAPTCHA_FIELD_REQUIRED,
  CAPTCHA_INCORRECT_MESSAGE,
  CAPTCHA_REQUIRED_MESSAGE,
  INCORRECT_CREDENTIALS_MESSAGE,
  SIGN_IN_UNAVAILABLE_MESSAGE,
  UNKNOWN_REALM_MESSAGE,
} from './messages';
import { normaliseUsername, type PasswordHasher } from './passwords';
import { decideSignIn, type SignInDecision } from './sign-in-outcome';
import type { IssuedSession, SessionRow, SessionService } from './sessions';

/** Failed sign-ins after which a captcha is required (section 9). */
export const FAILED_SIGN_INS_BEFORE_CAPTCHA = limits.failedSignInsBeforeCaptcha;

export interface SignInRequest {
  username: string;
  password: string;
  captchaCode?: string | null;
  realmCode?: string;
}

export interface SignInMeta {
  ipAddress: string | null;
  /** The session the request came with, if any: it is replaced on success. */
  session: SessionRow | null;
}

export interface SignInResult {
  outcome: AuthenticationOutcome;
  issued: IssuedSession;
}

/** Completes a sign-in by handing off to another application (SAML, JWT): added by later issues. */
export type HandoffCompletion = (input: {
  identity: Identity;
  currentUser: CurrentUser;
  context: SessionContext;
}) => Promise<Partial<AuthenticationOutcome>>;

export interface SignInDeps {
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  hasher: PasswordHasher;
  captcha: CaptchaService;
  sessions: SessionService;
  geoIp: GeoIpLookup;
  /** Handoffs by context type; a context whose handoff is not registered signs in directly. */
  handoffs?: Partial<Record<'SAML' | 'JWT', HandoffCompletion>>;
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
    return failedCount(this.deps.db, normaliseUsername(username));
  }

  async signIn(request: SignInRequest, meta: SignInMeta): Promise<SignInResult> {
    const { db, clock, hasher, captcha, geoIp } = this.deps;
    const username = normaliseUsername(request.username);
    const realmCode = request.realmCode ?? meta.session?.context.realmCode ?? null;
    const opened = await openSignInAttempt(db, { realmCode, username, now: clock.now() });
    if (!opened) throw refuse.invalid([{ fieldName: 'realmCode', message: UNKNOWN_REALM_MESSAGE }]);
    if (!opened.authEnabled || opened.reservedCount === null)
      throw refuse.unavailable(SIGN_IN_UNAVAILABLE_MESSAGE);

    if (opened.reservedCount - 1 >= FAILED_SIGN_INS_BEFORE_CAPTCHA) {
      // The challenge is used up and the reservation given back together, or neither.
      const verdict = await db.transaction().execute(async (trx) => {
        const verdict = await captcha.check(meta.session?.idHash ?? null, request.captchaCode, trx);
        if (verdict !== 'ok') await decrementFailedCount(trx, username);
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
      username,
      realmCode: opened.realmCode,
      attemptedAt: clock.now(),
      ipAddress: meta.ipAddress,
      cityName: geo?.cityName ?? null,
      countryName: geo?.countryName ?? null,
      continentName: geo?.continentName ?? null,
      isSuccessful: false,
    };
    if (!identity || !passwordHash || !passwordOk) {
      await recordSignInAttempt(db, attempt);
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
    const decision = decideSignIn({ identity, context });
    const sessionType = decision.kind === 'forced' ? 'AUTHENTICATION_PENDING' : 'AUTHENTICATED';
    const issued = this.deps.sessions.prepareSignedIn({
      identityId: identity.id,
      type: sessionType,
      context,
      data: decision.kind === 'forced' ? { forcedAction: decision.action } : {},
    });
    const previous = await completeSignIn(db, {
      attempt: { ...attempt, identityId: identity.id, isSuccessful: true },
      endSessionHash: meta.session?.idHash ?? null,
      session: issued.session,
    });

    const currentUser = toCurrentUser(identity, opened.roles, sessionType);
    const previousSignInAttempt = previous ? toPreviousAttempt(previous, geo) : null;
    const outcome = await this.#outcome(decision, { identity, currentUser, context, previousSignInAttempt });
    return { outcome, issued };
  }

  async #outcome(
    decision: SignInDecision,
    input: {
      identity: Identity;
      currentUser: CurrentUser;
      context: SessionContext;
      previousSignInAttempt: PreviousSignInAttempt | null;
    },
  ): Promise<AuthenticationOutcome> {
    const base: AuthenticationOutcome = {
      outcome: 'DIRECT_LOGIN',
      jwt: null,
      currentUser: input.currentUser,
      previousSignInAttempt: input.previousSignInAttempt,
      forcedAction: null,
      isSingleSignOn: false,
      appName: null,
    };
    if (decision.kind === 'forced')
      return { ...base, outcome: 'FORCED_ACTION', forcedAction: decision.action };
    if (decision.via !== 'DIRECT') {
      const handoff = this.deps.handoffs?.[decision.via];
      if (handoff) return { ...base, ...(await handoff(input)) };
    }
    return base;
  }
}

function captchaRefusal(verdict: Exclude<CaptchaVerdict, 'ok'>) {
  return verdict === 'missing'
    ? refuse.unprocessable(CAPTCHA_REQUIRED_MESSAGE, [
        { fieldName: 'captchaCode', message: CAPTCHA_FIELD_REQUIRED },
      ])
    : refuse.unprocessable(CAPTCHA_INCORRECT_MESSAGE, [
        { fieldName: 'captchaCode', message: CAPTCHA_FIELD_INCORRECT },
      ]);
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
