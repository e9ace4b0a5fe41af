// The anonymous password reset (sections 2.4, 4.5). The server holds the progress in the anonymous
// session (data.passwordReset) and enforces the order; the wizard only routes on what it is told.
//
// 1. start: realm open (503 otherwise), captcha on EVERY start, then the identities with that email
//    are looked up and an email code is sent to the address on record. The answer is the same
//    whether or not the email exists: an unknown email gets a decoy code row (never sent and never
//    matchable), and the send itself runs after the answer, so neither status, body nor timing
//    tells them apart. A throttled resend is judged from the code row, which both cases write.
// 2. verify-email: the code (once) proves the mailbox; the answer is the details of the only
//    account, or the list of accounts sharing the email (select-user picks one). From then on the
//    reset has RESET_PROOF_WINDOW_MS to be submitted.
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
//    usual forced steps, MFA included. A locked account is not reset: the lock is support's to
//    lift, and the reset ends with the locked text.
//
// Every proof says when it was made and what it was checked against (schema.ts,
// PasswordResetState): the address the email code went to and the account's password then, the
// enrolment an app or SMS code matched, the answers a security answer matched. A proof older than
// the window, or whose account has changed since (new email, password, app, mobile or answers),
// counts no more: the reset is taken out of the session and the wizard starts over. Those changes
// (and signing out of all devices) also end the anonymous sessions of resets naming the account,
// in their own transactions (endResetSessionsOf): the victim's remedies end an intruder's reset.
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
  passwordsChangedAt,
  patchResetState,
  putResetState,
  resetAnswersOf,
  resetFactorsOf,
  type ResetFactorRow,
} from '../../db/repositories/password-reset';
import type { Database, Identity, PasswordResetState, ResetFactorProof } from '../../db/schema';
import { captchaFailure, type CaptchaService } from '../captcha';
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
import { CAPTCHA_FIELD_REQUIRED, CAPTCHA_REQUIRED_MESSAGE } from '../messages';
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
/**
 * How long after the email code is verified the reset may still be used, second factor and new
 * password included. Long enough to fetch an SMS or find the authenticator app; short enough that
 * a mailbox someone had for a moment does not become a password change hours later.
 */
export const RESET_PROOF_WINDOW_MS = 15 * 60_000;

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

/** The enrolment an app or SMS code was checked against: a new app or mobile changes it. */
export function factorFingerprint(row: ResetFactorRow): string {
  const base = `${row.factor_type}:${row.id}:${row.enrolled_at.toISOString()}`;
  return row.factor_type === 'SMS' ? `${base}:${row.mobile ?? ''}` : base;
}

/** Thrown inside submit's transaction when the account is locked: nothing may be written. */
class LockedDuringReset extends Error {}

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
    if (verdict !== 'ok') throw captchaFailure(verdict);
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
      emailProof: null,
      identityId: null,
      factorProof: null,
      answers: {},
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
    const destination = await this.#guarded(session!, [], () =>
      this.#checkCode(session!, RESET_EMAIL_PURPOSE, code, []),
    );
    const { db, clock } = this.deps;
    const address = destination.toLowerCase();
    // Codes only ever go to an address on record of a candidate; anything else proves nothing, and
    // a candidate whose address changed since the start is not proven by it.
    const candidates = (await identitiesByIds(db, state.candidateIds)).filter(
      (c) => c.email?.toLowerCase() === address,
    );
    if (candidates.length === 0) throw startOver();
    const changed = await passwordsChangedAt(
      db,
      candidates.map((c) => c.id),
    );
    const identity = candidates.length === 1 ? candidates[0]! : null;
    const patched = await patchResetState(db, session!.idHash, state.flowId, {
      candidateIds: candidates.map((c) => c.id),
      emailProof: {
        at: clock.now().toISOString(),
        address,
        passwordsChangedAt: Object.fromEntries(
          candidates.map((c) => [c.id, changed.get(c.id)?.toISOString() ?? null]),
        ),
      },
      identityId: identity?.id ?? null,
      factorProof: null,
      answers: {},
    });
    if (!patched) throw startOver();
    return this.#details(state.email, identity, candidates);
  }

  async selectUser(session: SessionRow | null, username: string): Promise<PasswordResetDetails> {
    const state = await this.#provenState(session);
    const candidates = await identitiesByIds(this.deps.db, state.candidateIds);
    const wanted = normaliseUsername(username);
    const identity = candidates.find((c) => normaliseUsername(c.username) === wanted);
    if (!identity) throw refuse.unprocessable(CHOOSE_LISTED_ACCOUNT_MESSAGE);
    await this.#assertEmailProofHolds(session!, state, identity);
    // A different account: what was proven for the previous one does not carry over.
    if (identity.id !== state.identityId) {
      const patched = await patchResetState(this.deps.db, session!.idHash, state.flowId, {
        identityId: identity.id,
        factorProof: null,
        answers: {},
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
    // The enrolment is read before the check: a proof never names an app enrolled after it.
    const app = (await resetFactorsOf(this.deps.db, identity.id)).find(
      (f) => f.factor_type === 'AUTHENTICATOR_APP',
    );
    await this.#guarded(session!, [identity.username], async () => {
      const result = await this.deps.factors.factors.checkAuthenticatorApp(identity.id, code);
      if (result === 'not-enrolled') throw refuse.unprocessable(NO_AUTHENTICATOR_APP_MESSAGE);
      if (result === 'used') throw fieldRefusal('code', TOTP_ALREADY_USED_MESSAGE);
      if (result === 'incorrect') {
        await this.#fail(session!, [identity.username]);
        throw fieldRefusal('code', CODE_INCORRECT_MESSAGE);
      }
    });
    if (!app) throw refuse.unprocessable(NO_AUTHENTICATOR_APP_MESSAGE);
    await this.#markFactor(session!, state, identity.id, {
      factor: 'AUTHENTICATOR_APP',
      at: this.deps.clock.now().toISOString(),
      enrolment: factorFingerprint(app),
    });
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
    const destination = await this.#guarded(session!, [identity.username], () =>
      this.#checkCode(session!, RESET_SMS_PURPOSE, code, [identity.username]),
    );
    // The code must have gone to the mobile enrolled now (not one removed since).
    const sms = (await resetFactorsOf(this.deps.db, identity.id)).find((f) => f.factor_type === 'SMS');
    if (!sms || destination !== sms.mobile) throw refuse.unprocessable(NO_SMS_FACTOR_MESSAGE);
    await this.#markFactor(session!, state, identity.id, {
      factor: 'SMS',
      at: this.deps.clock.now().toISOString(),
      enrolment: factorFingerprint(sms),
    });
  }

  async verifySecurityQuestion(
    session: SessionRow | null,
    input: { question: string; answer: string },
  ): Promise<void> {
    const { state, identity } = await this.#identityOf(session);
    await this.deps.factors.failures.assertMayTry(session!, [identity.username]);
    // The answers are read before the check: the proof names the answer set it was checked against.
    const answers = await resetAnswersOf(this.deps.db, identity.id);
    const asked = answers.find((a) => a.question_code === input.question);
    if (answers.length < 2 || !asked) throw fieldRefusal('question', QUESTION_NOT_ASKED_MESSAGE);
    await this.#guarded(session!, [identity.username], async () => {
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
    const answered = await addAnsweredQuestion(
      this.deps.db,
      session!.idHash,
      state.flowId,
      identity.id,
      input.question,
      { at: this.deps.clock.now().toISOString(), setAt: asked.set_at.toISOString() },
    );
    if (!answered) throw startOver();
  }

  /** The proof, for the account it was checked against only (not one selected since). */
  async #markFactor(
    session: SessionRow,
    state: PasswordResetState,
    identityId: string,
    proof: ResetFactorProof,
  ) {
    const patched = await patchResetState(
      this.deps.db,
      session.idHash,
      state.flowId,
      { factorProof: proof },
      identityId,
    );
    if (!patched) throw startOver();
  }

  // ---- submit -------------------------------------------------------------------------------

  async submit(session: SessionRow | null, input: { password: string; confirmPassword: string }) {
    const { db, clock, hasher, factors } = this.deps;
    const { state, identity } = await this.#identityOf(session);
    // A locked account keeps its lock and its password until support unlocks it.
    if (await factors.lockout.lockedAt(identity.username)) await this.#endLocked(session!);
    const enrolment = await factors.factors.summary(identity.id);
    const proof = await this.#proofOf(session!, state, identity, enrolment);
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
    try {
      await db.transaction().execute(async (trx) => {
        // Again in the transaction: a lock that came while the password was hashed holds too.
        if (await factors.lockout.lockedAt(identity.username, trx)) throw new LockedDuringReset();
        // Taking the reset out of the session is what makes it work once.
        const claimed = await claimResetState(trx, session!.idHash, state.flowId);
        if (!claimed || claimed.identityId !== identity.id) throw startOver();
        // Also ends the anonymous sessions of other resets of the account (endResetSessionsOf).
        await replacePassword(trx, { identityId: identity.id, passwordHash, now, keepSessionIdHash: null });
        await factors.lockout.succeeded(identity.username, trx);
        await recordIdentityEvent(trx, {
          identityId: identity.id,
          eventDate: now,
          actorIdentityId: identity.id,
          type: PASSWORD_RESET_EVENT,
          variant: 'warning',
          description: resetEventDescription(proof),
        });
      });
    } catch (error) {
      if (error instanceof LockedDuringReset) await this.#endLocked(session!);
      throw error;
    }
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

  /** The locked account's answer: the reset's session ends (as at a factor step), nothing changes. */
  async #endLocked(session: SessionRow): Promise<never> {
    await this.deps.sessions.end(session.idHash);
    throw sessionEndedRefusal(ACCOUNT_LOCKED_MESSAGE);
  }

  /**
   * What proves the account in this reset beyond the email code, or null when nothing does yet. A
   * proof made against an enrolment or answers the account no longer has ends the reset.
   */
  async #proofOf(
    session: SessionRow,
    state: PasswordResetState,
    identity: Identity,
    e: Enrolment,
  ): Promise<string | null> {
    const { db } = this.deps;
    const factor = state.factorProof;
    if (factor) {
      const row = (await resetFactorsOf(db, identity.id)).find((f) => f.factor_type === factor.factor);
      if (!row || factorFingerprint(row) !== factor.enrolment) return this.#stale(session, state);
      return factor.factor === 'AUTHENTICATOR_APP' ? 'the authenticator app' : 'an SMS code';
    }
    const answered = Object.entries(state.answers);
    if (answered.length > 0 || e.securityQuestions) {
      const answers = await resetAnswersOf(db, identity.id);
      const setAt = new Map(answers.map((a) => [a.question_code, a.set_at.toISOString()]));
      if (answered.some(([question, proof]) => setAt.get(question) !== proof.setAt))
        return this.#stale(session, state);
      if (e.securityQuestions && answers.every((a) => Object.hasOwn(state.answers, a.question_code)))
        return 'the security questions';
    }
    if (!e.authenticatorApp && !e.sms && !e.securityQuestions) return 'no second factor enrolled';
    return null;
  }

  // ---- shared -------------------------------------------------------------------------------

  #stateOf(session: SessionRow | null): PasswordResetState {
    const state = session?.type === 'ANONYMOUS' ? session.data.passwordReset : undefined;
    if (!state) throw startOver();
    return state;
  }

  /** The reset once its email code is verified, and while that proof is within the window. */
  async #provenState(session: SessionRow | null): Promise<PasswordResetState> {
    const state = this.#stateOf(session);
    if (!state.emailProof) throw startOver();
    const age = this.deps.clock.now().getTime() - Date.parse(state.emailProof.at);
    if (!(age <= RESET_PROOF_WINDOW_MS)) return this.#stale(session!, state);
    return state;
  }

  /** The email code's proof still holds for `identity`: its address and its password are unchanged. */
  async #assertEmailProofHolds(
    session: SessionRow,
    state: PasswordResetState,
    identity: Identity,
  ): Promise<void> {
    const proof = state.emailProof!;
    const changedAt = (await passwordsChangedAt(this.deps.db, [identity.id])).get(identity.id);
    const then = Object.hasOwn(proof.passwordsChangedAt, identity.id)
      ? proof.passwordsChangedAt[identity.id]
      : undefined;
    if (identity.email?.toLowerCase() !== proof.address || then !== (changedAt?.toISOString() ?? null))
      await this.#stale(session, state);
  }

  /**
   * A proof that no longer counts: the reset is taken out of the session (so nothing it proved can
   * come back) and the wizard starts over.
   */
  async #stale(session: SessionRow, state: PasswordResetState): Promise<never> {
    await claimResetState(this.deps.db, session.idHash, state.flowId);
    throw startOver();
  }

  /** The reset's account, once the email code is verified and the account is chosen. */
  async #identityOf(session: SessionRow | null): Promise<{ state: PasswordResetState; identity: Identity }> {
    const state = await this.#provenState(session);
    if (!state.identityId || !state.candidateIds.includes(state.identityId)) throw startOver();
    const [identity] = await identitiesByIds(this.deps.db, [state.identityId]);
    if (!identity) throw startOver();
    await this.#assertEmailProofHolds(session!, state, identity);
    return { state, identity };
  }

  /**
   * A check with one of the session's tries reserved while it runs, and one of each account's it
   * is aimed at (factors/failures.ts). The email code is aimed at none: it counts for its session.
   */
  #guarded<T>(session: SessionRow, usernames: string[], check: () => Promise<T>): Promise<T> {
    return this.deps.factors.failures.guarded(
      session,
      'factorFailures',
      MAX_FACTOR_FAILURES,
      usernames,
      check,
    );
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
    if (locked && session.data.passwordReset?.emailProof) {
      await sessions.end(session.idHash);
      throw sessionEndedRefusal(ACCOUNT_LOCKED_MESSAGE);
    }
    if (failures >= MAX_FACTOR_FAILURES) {
      await sessions.end(session.idHash);
      throw startOver(TOO_MANY_RESET_FAILURES_MESSAGE);
    }
  }
}
