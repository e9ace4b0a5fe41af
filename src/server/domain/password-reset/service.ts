// The anonymous password reset (sections 2.4, 4.5). The server holds the progress in the anonymous
// session (data.passwordReset) and enforces the order; the wizard only routes on what it is told.
//
// 1. start: realm open (503 otherwise), captcha on EVERY start, then the identities with that email
//    are looked up and an email code is sent to the address on record. The answer is the same
//    whether or not the email exists: an unknown email gets a decoy code row (never sent and never
//    matchable), and the send itself runs after the answer, so neither status, body nor timing
//    tells them apart. A throttled resend is judged from the code row, which both cases write.
// 2. verify-email: the code (once) proves the mailbox; the answer is the details of the only
//    account, or the list of accounts sharing the email (select-user picks one).
// 3. second factor: an authenticator app code, an SMS code (sent to the enrolled mobile) or the
//    answers to the account's security questions. Order and skips are the wizard's (4.5): it asks
//    for the strongest first and the 'I don't have access' skips move down the list. A skip
//    never goes below what the account has: only factors the account has enrolled are accepted,
//    and an account with any second factor must prove one of them; with no second factor at all,
//    the email code is the proof (as for sign-in, where such an account has no MFA).
// 4. submit: the new password (spec rule in the contract, blocklist in PasswordPolicy) replaces
//    the old one in one transaction that also takes the reset out of the session (so it works
//    once), clears the expired flag, revokes trusted devices, ends the account's sessions and
//    records the event. The user is told by email and is NOT signed in: the next sign-in runs the
//    usual forced steps, MFA included.
//
// Wrong codes and answers count towards the account's failed sign-ins and towards the session's
// limit, at which the session ends and the wizard starts over.
import type { Kysely } from 'kysely';
import type { PasswordResetDetails } from '../../../contract/reset';
import type { Clock } from '../../adapters/clock';
import { randomUuid, type Random } from '../../adapters/random';
import { findCode, putCode, voidCode } from '../../db/repositories/codes';
import { replacePassword } from '../../db/repositories/factors-credentials';
import { passwordHashOf, securityAnswersOf } from '../../db/repositories/factors';
import { incrementSessionCounter } from '../../db/repositories/factors-flow';
import { recordIdentityEvent } from '../../db/repositories/history';
import {
  addAnsweredQuestion,
  claimResetState,
  identitiesByEmail,
  identitiesByIds,
  patchResetState,
  putResetState,
} from '../../db/repositories/password-reset';
import type { Database, Identity, PasswordResetState } from '../../db/schema';
import type { CaptchaService } from '../captcha';
import { RequestRefused, refuse } from '../errors';
import type { FactorServices } from '../factors';
import { CODE_TTL_MS, MAX_SENDS, RESEND_INTERVAL_MS, type CodePurpose } from '../factors/codes';
import type { Enrolment } from '../factors/factors';
import { MAX_FACTOR_FAILURES, sessionEndedRefusal } from '../factors/failures';
import { ACCOUNT_LOCKED_MESSAGE } from '../lockout';
import {
  CODE_EXPIRED_MESSAGE,
  CODE_INCORRECT_MESSAGE,
  CODE_NOT_SENT_MESSAGE,
  NO_AUTHENTICATOR_APP_MESSAGE,
  NO_SMS_FACTOR_MESSAGE,
  RESEND_TOO_SOON_MESSAGE,
  TOTP_ALREADY_USED_MESSAGE,
} from '../factors/messages';
import { CODE_USED_MESSAGE } from '../factors/verification';
import {
  CAPTCHA_FIELD_INCORRECT,
  CAPTCHA_FIELD_REQUIRED,
  CAPTCHA_INCORRECT_MESSAGE,
  CAPTCHA_REQUIRED_MESSAGE,
} from '../messages';
import { PASSWORD_MISMATCH_MESSAGE, PASSWORD_SAME_MESSAGE } from '../password-policy';
import { normaliseUsername, type PasswordHasher } from '../passwords';
import type { ReferenceService } from '../reference';
import type { SessionRow, SessionService } from '../sessions';
import {
  ANSWER_INCORRECT_MESSAGE,
  CHOOSE_LISTED_ACCOUNT_MESSAGE,
  FACTOR_REQUIRED_MESSAGE,
  PASSWORD_RESET_EVENT,
  QUESTION_NOT_ASKED_MESSAGE,
  RESET_NOT_STARTED_MESSAGE,
  RESET_NOTICE_SUBJECT,
  RESET_SEND_LIMIT_MESSAGE,
  RESET_UNAVAILABLE_MESSAGE,
  resetEventDescription,
  resetNoticeText,
  SMS_ONLY_UNAVAILABLE_MESSAGE,
  TOO_MANY_RESET_FAILURES_MESSAGE,
} from './messages';

export const RESET_EMAIL_PURPOSE: CodePurpose = 'password-reset:email';
export const RESET_SMS_PURPOSE: CodePurpose = 'password-reset:sms';
/** Where the wizard starts over (section 8's 422 reroute). */
export const RESET_START_ROUTE = '/password-reset';

export interface PasswordResetDeps {
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  hasher: PasswordHasher;
  captcha: CaptchaService;
  sessions: SessionService;
  reference: ReferenceService;
  factors: FactorServices;
}

export type ResetLog = (message: string, error: unknown) => void;

export interface StartInput {
  email: string;
  captchaCode: string;
}

/** What start did to the session: the caller sets the cookie of a replacement session. */
export type StartResult = { replaced: false } | { replaced: true; token: string; session: SessionRow };

const fieldRefusal = (fieldName: string, message: string) =>
  refuse.unprocessable(message, [{ fieldName, message }]);
const startOver = (message = RESET_NOT_STARTED_MESSAGE) =>
  new RequestRefused(422, { message, reroute: RESET_START_ROUTE });

/** '+61 400 000 005' -> '+** *** *** 005': enough to recognise, not enough to use. */
export function maskMobile(mobile: string): string {
  const digits = mobile.replace(/\D/g, '').length;
  let seen = 0;
  return mobile.replace(/\d/g, (d) => (++seen > digits - 3 ? d : '*'));
}

export class PasswordResetService {
  /** Sends that run after their answer; `idle()` waits for them (shutdown, tests). */
  readonly #pending = new Set<Promise<void>>();
  /** Where failures after the answer (code sends, the notice) go; the routes give the app's log. */
  #log: ResetLog = () => {};

  constructor(private readonly deps: PasswordResetDeps) {}

  reportTo(log: ResetLog): void {
    this.#log = log;
  }

  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  // ---- start --------------------------------------------------------------------------------

  async start(session: SessionRow | null, input: StartInput): Promise<StartResult> {
    const { db, captcha, sessions, reference, random } = this.deps;
    const context = session?.context ?? (await reference.defaultContext());
    if (!(await reference.realmAuthEnabled(context.realmCode)))
      throw refuse.unavailable(RESET_UNAVAILABLE_MESSAGE, RESET_UNAVAILABLE_MESSAGE);

    const verdict = await captcha.check(session?.idHash ?? null, input.captchaCode);
    if (verdict === 'missing') throw fieldRefusal('captchaCode', CAPTCHA_FIELD_REQUIRED);
    if (verdict === 'incorrect') {
      throw refuse.unprocessable(CAPTCHA_INCORRECT_MESSAGE, [
        { fieldName: 'captchaCode', message: CAPTCHA_FIELD_INCORRECT },
      ]);
    }
    if (!session) throw refuse.unprocessable(CAPTCHA_REQUIRED_MESSAGE);

    // A reset runs anonymously: a signed-in (or half signed-in) browser is signed out first.
    let resetSession = session;
    let result: StartResult = { replaced: false };
    if (session.type !== 'ANONYMOUS') {
      await sessions.end(session.idHash);
      const issued = await sessions.startAnonymous({
        appCode: context.appCode,
        realmCode: context.realmCode,
        showInHeader: context.showInHeader,
        type: context.type,
      });
      resetSession = issued.session;
      result = { replaced: true, token: issued.token, session: issued.session };
    }

    const email = input.email.trim();
    const found = await identitiesByEmail(db, context.realmCode, email);
    // A restart makes the earlier code unusable and lets the new one go out at once; the sends
    // still count towards the session's maximum.
    await voidCode(db, resetSession.idHash, RESET_EMAIL_PURPOSE);
    await this.#refuseWhenSendLimitReached(resetSession.idHash, false);
    const state: PasswordResetState = {
      flowId: randomUuid(random),
      email,
      candidateIds: found.map((i) => i.id),
      emailVerified: false,
      identityId: null,
      factorVerified: null,
      answeredQuestions: [],
    };
    await putResetState(db, resetSession.idHash, state);
    this.#sendEmailCodeLater(resetSession.idHash, state, async () => found);
    return result;
  }

  /**
   * Resend of the email code: the same answer, after the same statements, for a known and an
   * unknown email. The accounts are looked up after the answer, with the send: the lookup skips
   * the database for an unknown email's empty list, which would otherwise make a known email's
   * answer one statement slower.
   */
  async sendEmail(session: SessionRow | null): Promise<void> {
    const state = this.#stateOf(session);
    await this.#refuseWhenSendLimitReached(session!.idHash, true);
    this.#sendEmailCodeLater(session!.idHash, state, () => identitiesByIds(this.deps.db, state.candidateIds));
  }

  async #refuseWhenSendLimitReached(sessionIdHash: string, throttle: boolean): Promise<void> {
    const row = await findCode(this.deps.db, sessionIdHash, RESET_EMAIL_PURPOSE);
    if (!row) return;
    if (row.send_count >= MAX_SENDS) throw refuse.unprocessable(RESET_SEND_LIMIT_MESSAGE);
    if (throttle && row.last_sent_at.getTime() > this.deps.clock.now().getTime() - RESEND_INTERVAL_MS)
      throw refuse.unprocessable(RESEND_TOO_SOON_MESSAGE);
  }

  /**
   * The code goes to the address on record (never to what was typed); an unknown email stores a
   * decoy that no 6-digit code matches. Either way after the answer (`lookup`, which finds the
   * accounts, too), and only failures are logged.
   */
  #sendEmailCodeLater(
    sessionIdHash: string,
    state: PasswordResetState,
    lookup: () => Promise<Pick<Identity, 'id' | 'email'>[]>,
  ): void {
    const { db, clock, random, factors } = this.deps;
    // Started once the answer is on its way (setImmediate runs after the reply's microtasks), so
    // neither branch's work shares the answer's time: bench/enumeration compares the two.
    const afterAnswer = new Promise<void>((resolve) => setImmediate(resolve));
    const work = afterAnswer.then(lookup).then((found) => {
      const recipient = found.find((i) => i.email);
      return recipient?.email
        ? factors.codes.send({
            sessionIdHash,
            purpose: RESET_EMAIL_PURPOSE,
            identityId: recipient.id,
            destination: recipient.email,
          })
        : (async () => {
            const now = clock.now();
            await putCode(
              db,
              {
                sessionIdHash,
                purpose: RESET_EMAIL_PURPOSE,
                identityId: null,
                channel: 'EMAIL',
                destination: state.email,
                codeHash: factors.codes.hash(random.bytes(32).toString('base64url')),
                now,
                expiresAt: new Date(now.getTime() + CODE_TTL_MS),
              },
              { sentBefore: now, maxSends: MAX_SENDS },
            );
          })();
    });
    const tracked = work
      .catch((error: unknown) => this.#log('password reset email code was not sent', error))
      .finally(() => this.#pending.delete(tracked));
    this.#pending.add(tracked);
  }

  // ---- email code and account choice --------------------------------------------------------

  async verifyEmail(session: SessionRow | null, code: string): Promise<PasswordResetDetails> {
    const state = this.#stateOf(session);
    // A wrong email code counts for this session only, not against the accounts of the email: the
    // code proves a mailbox, and counting it there would let anyone who knows an address lock its
    // accounts, captcha by captcha. Guessing stays bounded: 5 tries a session, a captcha a start.
    const destination = await this.#guarded(session!, () =>
      this.#checkCode(session!, RESET_EMAIL_PURPOSE, code, []),
    );
    const candidates = await identitiesByIds(this.deps.db, state.candidateIds);
    // Codes only ever go to an address on record of a candidate; anything else proves nothing.
    if (!candidates.some((c) => c.email?.toLowerCase() === destination.toLowerCase())) throw startOver();
    const identity = candidates.length === 1 ? candidates[0]! : null;
    const patched = await patchResetState(this.deps.db, session!.idHash, state.flowId, {
      emailVerified: true,
      identityId: identity?.id ?? null,
      factorVerified: null,
      answeredQuestions: [],
    });
    if (!patched) throw startOver();
    return this.#details(state.email, identity, candidates);
  }

  async selectUser(session: SessionRow | null, username: string): Promise<PasswordResetDetails> {
    const state = this.#stateOf(session, { emailVerified: true });
    const candidates = await identitiesByIds(this.deps.db, state.candidateIds);
    const wanted = normaliseUsername(username);
    const identity = candidates.find((c) => normaliseUsername(c.username) === wanted);
    if (!identity) throw refuse.unprocessable(CHOOSE_LISTED_ACCOUNT_MESSAGE);
    // A different account: what was proven for the previous one does not carry over.
    if (identity.id !== state.identityId) {
      const patched = await patchResetState(this.deps.db, session!.idHash, state.flowId, {
        identityId: identity.id,
        factorVerified: null,
        answeredQuestions: [],
      });
      if (!patched) throw startOver();
    }
    return this.#details(state.email, identity, candidates);
  }

  async #details(
    email: string,
    identity: Identity | null,
    candidates: Identity[],
  ): Promise<PasswordResetDetails> {
    const { factors } = this.deps;
    const identities =
      candidates.length > 1 ? candidates.map((c) => ({ username: c.username, name: c.name })) : [];
    const isSmsGatewayAvailable = await factors.smsGateway.isAvailable();
    if (!identity) {
      return {
        email,
        username: null,
        identities,
        challenges: [],
        mobile: null,
        isAuthAppEnrolled: false,
        isSmsFactorEnrolled: false,
        isSmsGatewayAvailable,
        isSecurityQuestionsEnrolled: false,
      };
    }
    const e = await factors.factors.summary(identity.id);
    const mobile = e.sms ? await factors.factors.smsMobile(identity.id) : null;
    return {
      email,
      username: identity.username,
      identities,
      challenges: e.securityQuestions ? await this.#questionsOf(identity.id) : [],
      mobile: mobile ? maskMobile(mobile) : null,
      isAuthAppEnrolled: e.authenticatorApp,
      isSmsFactorEnrolled: e.sms,
      isSmsGatewayAvailable,
      isSecurityQuestionsEnrolled: e.securityQuestions,
    };
  }

  async #questionsOf(identityId: string): Promise<string[]> {
    return (await securityAnswersOf(this.deps.db, identityId)).map((a) => a.question_code);
  }

  // ---- second factor ------------------------------------------------------------------------

  async verifyAuthenticatorApp(session: SessionRow | null, code: string): Promise<void> {
    const { state, identity } = await this.#identityOf(session);
    await this.deps.factors.failures.assertMayTry(session!, [identity.username]);
    await this.#guarded(session!, async () => {
      const result = await this.deps.factors.factors.checkAuthenticatorApp(identity.id, code);
      if (result === 'not-enrolled') throw refuse.unprocessable(NO_AUTHENTICATOR_APP_MESSAGE);
      if (result === 'used') throw fieldRefusal('code', TOTP_ALREADY_USED_MESSAGE);
      if (result === 'incorrect') {
        await this.#fail(session!, [identity.username]);
        throw fieldRefusal('code', CODE_INCORRECT_MESSAGE);
      }
    });
    await this.#markFactor(session!, state, identity.id, 'AUTHENTICATOR_APP');
  }

  async sendSms(session: SessionRow | null): Promise<void> {
    const { identity } = await this.#identityOf(session);
    const mobile = await this.deps.factors.factors.smsMobile(identity.id);
    if (!mobile) throw refuse.unprocessable(NO_SMS_FACTOR_MESSAGE);
    // 503 with the customer message while SMS is switched off or the gateway refuses.
    await this.deps.factors.codes.send({
      sessionIdHash: session!.idHash,
      purpose: RESET_SMS_PURPOSE,
      identityId: identity.id,
      destination: mobile,
    });
  }

  async verifyMobile(session: SessionRow | null, code: string): Promise<void> {
    const { state, identity } = await this.#identityOf(session);
    await this.deps.factors.failures.assertMayTry(session!, [identity.username]);
    const destination = await this.#guarded(session!, () =>
      this.#checkCode(session!, RESET_SMS_PURPOSE, code, [identity.username]),
    );
    // The code must have gone to the mobile enrolled now (not one removed since).
    if (destination !== (await this.deps.factors.factors.smsMobile(identity.id)))
      throw refuse.unprocessable(NO_SMS_FACTOR_MESSAGE);
    await this.#markFactor(session!, state, identity.id, 'SMS');
  }

  async verifySecurityQuestion(
    session: SessionRow | null,
    input: { question: string; answer: string },
  ): Promise<void> {
    const { state, identity } = await this.#identityOf(session);
    await this.deps.factors.failures.assertMayTry(session!, [identity.username]);
    const questions = await this.#questionsOf(identity.id);
    if (questions.length < 2 || !questions.includes(input.question))
      throw fieldRefusal('question', QUESTION_NOT_ASKED_MESSAGE);
    await this.#guarded(session!, async () => {
      const ok = await this.deps.factors.factors.checkSecurityAnswer(
        identity.id,
        input.question,
        input.answer,
      );
      if (!ok) {
        await this.#fail(session!, [identity.username]);
        throw fieldRefusal('answer', ANSWER_INCORRECT_MESSAGE);
      }
    });
    if (
      !(await addAnsweredQuestion(this.deps.db, session!.idHash, state.flowId, identity.id, input.question))
    )
      throw startOver();
  }

  /** The proof, for the account it was checked against only (not one selected since). */
  async #markFactor(
    session: SessionRow,
    state: PasswordResetState,
    identityId: string,
    factor: 'AUTHENTICATOR_APP' | 'SMS',
  ) {
    const patched = await patchResetState(
      this.deps.db,
      session.idHash,
      state.flowId,
      { factorVerified: factor },
      identityId,
    );
    if (!patched) throw startOver();
  }

  // ---- submit -------------------------------------------------------------------------------

  async submit(session: SessionRow | null, input: { password: string; confirmPassword: string }) {
    const { db, clock, hasher, factors } = this.deps;
    const { state, identity } = await this.#identityOf(session);
    const enrolment = await factors.factors.summary(identity.id);
    const proof = await this.#proofOf(state, identity, enrolment);
    if (proof === null) {
      const smsOnly = enrolment.sms && !enrolment.authenticatorApp && !enrolment.securityQuestions;
      const smsDown = smsOnly && !(await factors.smsGateway.isAvailable());
      throw refuse.unprocessable(smsDown ? SMS_ONLY_UNAVAILABLE_MESSAGE : FACTOR_REQUIRED_MESSAGE);
    }
    if (input.password !== input.confirmPassword)
      throw fieldRefusal('confirmPassword', PASSWORD_MISMATCH_MESSAGE);
    const reason = await factors.passwordPolicy.refusal(input.password, identity);
    if (reason) throw fieldRefusal('password', reason);
    const currentHash = await passwordHashOf(db, identity.id);
    if (currentHash && (await hasher.verify(currentHash, input.password)))
      throw fieldRefusal('password', PASSWORD_SAME_MESSAGE);

    const passwordHash = await hasher.hash(input.password);
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      // Taking the reset out of the session is what makes it work once.
      const claimed = await claimResetState(trx, session!.idHash, state.flowId);
      if (!claimed || claimed.identityId !== identity.id) throw startOver();
      await replacePassword(trx, { identityId: identity.id, passwordHash, now, keepSessionIdHash: null });
      await this.deps.factors.lockout.succeeded(identity.username, trx);
      await recordIdentityEvent(trx, {
        identityId: identity.id,
        eventDate: now,
        actorIdentityId: identity.id,
        type: PASSWORD_RESET_EVENT,
        variant: 'warning',
        description: resetEventDescription(proof),
      });
    });
    // The change stands even when the notice cannot be sent; the failure is logged.
    if (identity.email) {
      await factors.mail
        .send({
          to: identity.email,
          subject: RESET_NOTICE_SUBJECT,
          text: resetNoticeText(identity.username, now),
        })
        .catch((error: unknown) => this.#log('password reset notice was not sent', error));
    }
  }

  /** What proves the account in this reset beyond the email code, or null when nothing does yet. */
  async #proofOf(state: PasswordResetState, identity: Identity, e: Enrolment): Promise<string | null> {
    if (state.factorVerified === 'AUTHENTICATOR_APP' && e.authenticatorApp) return 'the authenticator app';
    if (state.factorVerified === 'SMS' && e.sms) return 'an SMS code';
    if (e.securityQuestions) {
      const questions = await this.#questionsOf(identity.id);
      if (questions.every((q) => state.answeredQuestions.includes(q))) return 'the security questions';
    }
    if (!e.authenticatorApp && !e.sms && !e.securityQuestions) return 'no second factor enrolled';
    return null;
  }

  // ---- shared -------------------------------------------------------------------------------

  #stateOf(session: SessionRow | null, need: { emailVerified?: boolean } = {}): PasswordResetState {
    const state = session?.type === 'ANONYMOUS' ? session.data.passwordReset : undefined;
    if (!state) throw startOver();
    if (need.emailVerified && !state.emailVerified) throw startOver();
    return state;
  }

  /** The reset's account, once the email code is verified and the account is chosen. */
  async #identityOf(session: SessionRow | null): Promise<{ state: PasswordResetState; identity: Identity }> {
    const state = this.#stateOf(session, { emailVerified: true });
    if (!state.identityId || !state.candidateIds.includes(state.identityId)) throw startOver();
    const [identity] = await identitiesByIds(this.deps.db, [state.identityId]);
    if (!identity) throw startOver();
    return { state, identity };
  }

  /** A check with one of the session's tries reserved while it runs (factors/failures.ts). */
  #guarded<T>(session: SessionRow, check: () => Promise<T>): Promise<T> {
    return this.deps.factors.failures.guarded(session, 'factorFailures', MAX_FACTOR_FAILURES, check);
  }

  /** Uses the session's code for `purpose`; answers where it went, or throws the refusal. */
  async #checkCode(
    session: SessionRow,
    purpose: CodePurpose,
    code: string,
    usernames: string[],
  ): Promise<string> {
    const result = await this.deps.factors.codes.check({ sessionIdHash: session.idHash, purpose, code });
    if (result.ok) return result.destination;
    if (result.reason === 'not-sent') throw fieldRefusal('code', CODE_NOT_SENT_MESSAGE);
    // The right code a second time (a double submission) is not a guess: not counted.
    if (result.reason === 'used') throw fieldRefusal('code', CODE_USED_MESSAGE);
    await this.#fail(session, usernames);
    throw fieldRefusal('code', result.reason === 'expired' ? CODE_EXPIRED_MESSAGE : CODE_INCORRECT_MESSAGE);
  }

  /**
   * A wrong code or answer: one more failed sign-in for each account it was aimed at, and one
   * more for the session; at the session's limit it ends and the wizard starts over.
   */
  async #fail(session: SessionRow, usernames: string[]): Promise<void> {
    const { db, sessions, factors } = this.deps;
    let locked = false;
    for (const username of usernames) locked = (await factors.lockout.fail(username)).locked || locked;
    const failures = await incrementSessionCounter(db, session.idHash, 'factorFailures');
    // Only a chosen account's lock is told: at the email code it would say the email is known.
    if (locked && session.data.passwordReset?.emailVerified) {
      await sessions.end(session.idHash);
      throw sessionEndedRefusal(ACCOUNT_LOCKED_MESSAGE);
    }
    if (failures >= MAX_FACTOR_FAILURES) {
      await sessions.end(session.idHash);
      throw startOver(TOO_MANY_RESET_FAILURES_MESSAGE);
    }
  }
}
