// Profile self-service (sections 2.3, 4.7 and 7): every change proves the current password first
// (a wrong one counts like a wrong password at re-enter password and changes nothing), then runs in
// one transaction with its history event. A new email or mobile becomes the account's only once
// the code sent to it is verified; a new authenticator app replaces the old one only once a code of
// it matches, so the old app keeps working until then. Changing the email, mobile, password or a
// factor (the security questions included) revokes the trusted devices, ends the password resets
// in progress for the account (whatever they proved was proved before the change) and sends a
// notice to the address the account had. A new password, a new authenticator app and a verified
// mobile (the SMS factor enabled or moved) also move the session to a new token (#renew).
import type { Kysely } from 'kysely';
import type { CurrentUser, FactorType } from '../../../contract/entities';
import type { FieldError } from '../../../contract/errors';
import type { Clock } from '../../adapters/clock';
import type { MailSender } from '../../adapters/mail';
import { randomUuid, type Random } from '../../adapters/random';
import type { SecretBox } from '../../adapters/secret-box';
import { putFactor, putSecurityAnswers, removeFactor, passwordHashOf } from '../../db/repositories/factors';
import { replacePassword } from '../../db/repositories/factors-credentials';
import { recordIdentityEvent, type IdentityEvent } from '../../db/repositories/history';
import { findIdentityWithRoles } from '../../db/repositories/identities';
import { endResetSessionsOf } from '../../db/repositories/password-reset';
import {
  deletePendingChange,
  endSessionsOf,
  ensurePendingChange,
  pendingChange,
  putPendingChange,
  setJwtValidAfter,
  updateIdentity,
} from '../../db/repositories/profile';
import type { Database, Identity } from '../../db/schema';
import { toCurrentUser } from '../current-user';
import { refuse } from '../errors';
import type { FactorServices } from '../factors';
import { smsUnavailable } from '../factors/codes';
import { normaliseMobile, SECURITY_QUESTIONS_ENUM, type SecurityQuestionsInput } from '../factors/enrolment';
import { enrolledFactorTypes } from '../factors/factors';
import {
  MOBILE_FORMAT_MESSAGE,
  QUESTION_UNKNOWN_MESSAGE,
  QUESTIONS_SAME_MESSAGE,
  SECURITY_QUESTIONS_MESSAGE,
  SETUP_AUTHENTICATOR_FIRST_MESSAGE,
} from '../factors/messages';
import { CodeVerifier } from '../factors/verification';
import { revokeTrustedDevices } from '../factors/trusted-devices';
import { base32Decode, formatSetupKey, newTotpSecret, otpauthUri, qrCodeDataUrl } from '../factors/totp';
import { PASSWORD_MISMATCH_MESSAGE, PASSWORD_SAME_MESSAGE } from '../password-policy';
import type { PasswordHasher } from '../passwords';
import type { ReferenceService } from '../reference';
import type { RenewedToken, SessionRow, SessionService } from '../sessions';
import {
  APP_NOT_ENROLLED_MESSAGE,
  EMAIL_NOT_STARTED_MESSAGE,
  EMAIL_SAME_MESSAGE,
  IDENTITY_VERIFIED_WARNING,
  MOBILE_NOT_STARTED_MESSAGE,
  NO_MOBILE_MESSAGE,
  noticeSubject,
  noticeText,
  PHONE_FORMAT_MESSAGE,
  profileEvents,
  SMS_NOT_ENROLLED_MESSAGE,
  TICKET_FORMAT_MESSAGE,
  TRUSTED_DEVICE_NOT_FOUND_MESSAGE,
  type NoticeSubject,
} from './messages';

export const EMAIL_PURPOSE = 'profile-change-email:email';
export const SMS_PURPOSE = 'profile-change-mobile:sms';
/** Server property: the Jira browse URL a ticket code is appended to (e.g. https://jira/browse/). */
export const TICKET_URL_PROPERTY = 'jira-browse-url';
/** A Jira issue key: project key, dash, number (SUP-999999). */
export const TICKET_PATTERN = /^[A-Z][A-Z0-9_]{0,19}-[1-9]\d{0,9}$/;
/**
 * Digits, spaces, brackets, dots and dashes, with an optional leading +: a phone number the bank
 * can dial. Section 5 gives the profile phone only 'optional, max 20' (the contract's and the
 * form's checks); this server-side rule answers anything else with a 422 on the field, which the
 * form shows under it.
 */
const PHONE_PATTERN = /^\+?[\d\s().-]*\d[\d\s().-]*$/;
/** Trusted device ids are uuids: anything else names no device (and must not reach a uuid column). */
const DEVICE_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Trx = Kysely<Database>;

export interface ProfileDeps {
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  hasher: PasswordHasher;
  secretBox: SecretBox;
  factors: FactorServices;
  reference: ReferenceService;
  mail: MailSender;
  sessions: SessionService;
  totpIssuer: string;
}

export type ProfileUpdate = { name: string } | { birthDate: string | null } | { phone: string | null };

const fieldRefusal = (fieldName: string, message: string) =>
  refuse.unprocessable(message, [{ fieldName, message }]);

export class ProfileService {
  readonly #verifier: CodeVerifier;
  /** Told when a security notice could not be sent (the change itself stands); routes log it. */
  reportNoticeFailure: (error: unknown) => void = () => {};

  constructor(private readonly deps: ProfileDeps) {
    // The factors' own verifier and failure count: wrong codes here count with every other code.
    this.#verifier = new CodeVerifier(deps.factors.codes, deps.factors.factors, deps.factors.failures);
  }

  // ---- Reading --------------------------------------------------------------------------------

  async identityOf(session: SessionRow): Promise<{ identity: Identity; roles: string[] }> {
    if (!session.identityId) throw refuse.sessionExpired();
    const found = await findIdentityWithRoles(this.deps.db, session.identityId);
    if (!found) throw refuse.sessionExpired();
    return found;
  }

  async currentUser(session: SessionRow): Promise<CurrentUser> {
    const { identity, roles } = await this.identityOf(session);
    return toCurrentUser(identity, roles, session.type, session.data.forcedAction);
  }

  async enrolledFactors(identityId: string): Promise<FactorType[]> {
    return enrolledFactorTypes(await this.deps.factors.factors.summary(identityId));
  }

  // ---- Single-step changes --------------------------------------------------------------------

  /** The current password, checked before anything else is looked at. */
  async #confirm(session: SessionRow, currentPassword: string): Promise<Identity> {
    await this.deps.factors.reenterPassword.confirm(session, currentPassword);
    return (await this.identityOf(session)).identity;
  }

  async #event(trx: Trx, identity: Identity, event: Omit<IdentityEvent, 'identityId' | 'eventDate'>) {
    await recordIdentityEvent(trx, {
      identityId: identity.id,
      eventDate: this.deps.clock.now(),
      actorIdentityId: identity.id,
      ...event,
    });
  }

  async updateProfile(
    session: SessionRow,
    currentPassword: string,
    update: ProfileUpdate,
  ): Promise<CurrentUser> {
    const identity = await this.#confirm(session, currentPassword);
    const now = this.deps.clock.now();
    if ('name' in update || 'birthDate' in update) {
      if (identity.identity_verified) {
        throw fieldRefusal('name' in update ? 'name' : 'birthDate', IDENTITY_VERIFIED_WARNING);
      }
    }
    await this.deps.db.transaction().execute(async (trx) => {
      if ('name' in update) {
        const name = update.name.trim().replace(/\s+/g, ' ');
        await updateIdentity(trx, identity.id, { name, updated_at: now });
        await this.#event(trx, identity, {
          type: profileEvents.nameChanged,
          description: `Name changed from '${identity.name}' to '${name}'`,
        });
      } else if ('birthDate' in update) {
        await updateIdentity(trx, identity.id, { birth_date: update.birthDate, updated_at: now });
        await this.#event(trx, identity, {
          type: profileEvents.birthDateChanged,
          description: update.birthDate
            ? `Date of birth set to ${update.birthDate}`
            : 'Date of birth cleared',
        });
      } else {
        const phone = update.phone?.trim().replace(/\s+/g, ' ') || null;
        if (phone && !PHONE_PATTERN.test(phone)) throw fieldRefusal('phone', PHONE_FORMAT_MESSAGE);
        await updateIdentity(trx, identity.id, { phone, updated_at: now });
        await this.#event(trx, identity, {
          type: profileEvents.phoneChanged,
          description: phone ? `Phone set to ${phone}` : 'Phone cleared',
        });
      }
    });
    return this.currentUser(session);
  }

  /** Answers the session's new token: the one it had is worth nothing once the password changed. */
  async changePassword(
    session: SessionRow,
    input: { currentPassword: string; newPassword: string; confirmNewPassword: string },
  ): Promise<RenewedToken> {
    const identity = await this.#confirm(session, input.currentPassword);
    if (input.newPassword !== input.confirmNewPassword) {
      throw fieldRefusal('confirmNewPassword', PASSWORD_MISMATCH_MESSAGE);
    }
    const reason = await this.deps.factors.passwordPolicy.refusal(input.newPassword, identity);
    if (reason) throw fieldRefusal('newPassword', reason);
    const currentHash = await passwordHashOf(this.deps.db, identity.id);
    if (currentHash && (await this.deps.hasher.verify(currentHash, input.newPassword))) {
      throw fieldRefusal('newPassword', PASSWORD_SAME_MESSAGE);
    }
    const passwordHash = await this.deps.hasher.hash(input.newPassword);
    const renewed = await this.deps.db.transaction().execute(async (trx) => {
      // Revokes the trusted devices and ends the other sessions: whoever knew the old password is
      // out, and this session goes on under a new token (#renew).
      await replacePassword(trx, {
        identityId: identity.id,
        passwordHash,
        now: this.deps.clock.now(),
        keepSessionIdHash: session.idHash,
      });
      await this.#event(trx, identity, { type: profileEvents.passwordChanged, variant: 'warning' });
      return this.#renew(session, trx);
    });
    await this.#notice(identity.email, 'password', 'a new password was set.');
    return renewed;
  }

  /**
   * Moves the session to a new token (SessionService.rotate), in the change's transaction when
   * given one: a token taken before a new password or factor is worth nothing after it, as at
   * sign-in. A session ended meanwhile ends the request (and rolls the change back with it).
   */
  async #renew(session: SessionRow, trx?: Trx): Promise<RenewedToken> {
    const renewed = await this.deps.sessions.rotate(session.idHash, trx);
    if (!renewed) throw refuse.sessionExpired();
    return renewed;
  }

  async changeSecurityQuestions(
    session: SessionRow,
    input: SecurityQuestionsInput & { currentPassword: string },
  ): Promise<void> {
    const identity = await this.#confirm(session, input.currentPassword);
    const known = new Set(
      ((await this.deps.reference.enumeration(SECURITY_QUESTIONS_ENUM)) ?? []).map((q) => q.code),
    );
    const errors: FieldError[] = [];
    if (!known.has(input.question1))
      errors.push({ fieldName: 'question1', message: QUESTION_UNKNOWN_MESSAGE });
    if (!known.has(input.question2))
      errors.push({ fieldName: 'question2', message: QUESTION_UNKNOWN_MESSAGE });
    else if (input.question1 === input.question2)
      errors.push({ fieldName: 'question2', message: QUESTIONS_SAME_MESSAGE });
    if (errors.length > 0) throw refuse.unprocessable(SECURITY_QUESTIONS_MESSAGE, errors);
    const [hash1, hash2] = await Promise.all([
      this.deps.factors.factors.hashSecurityAnswer(input.answer1),
      this.deps.factors.factors.hashSecurityAnswer(input.answer2),
    ]);
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      await putSecurityAnswers(
        trx,
        identity.id,
        [
          { position: 1, questionCode: input.question1, answerHash: hash1 },
          { position: 2, questionCode: input.question2, answerHash: hash2 },
        ],
        now,
      );
      // The answers are a factor (of the password reset): like the others, a change of them
      // revokes the trusted devices and ends the resets in progress.
      await revokeTrustedDevices(trx, identity.id);
      await endResetSessionsOf(trx, [identity.id]);
      await this.#event(trx, identity, {
        type: profileEvents.securityQuestionsChanged,
        variant: 'warning',
        description: `Questions: ${input.question1}, ${input.question2}`,
      });
    });
    await this.#notice(identity.email, 'security questions', 'new security questions and answers were set.');
  }

  /** Removes the mobile; the SMS factor goes with it (its codes would have nowhere to go). */
  async removeMobile(session: SessionRow, currentPassword: string): Promise<CurrentUser> {
    const identity = await this.#confirm(session, currentPassword);
    if (!identity.mobile) throw refuse.unprocessable(NO_MOBILE_MESSAGE);
    await this.deps.db.transaction().execute(async (trx) => {
      await updateIdentity(trx, identity.id, { mobile: null, updated_at: this.deps.clock.now() });
      const hadSms = await removeFactor(trx, identity.id, 'SMS');
      await revokeTrustedDevices(trx, identity.id);
      await endResetSessionsOf(trx, [identity.id]);
      await this.#event(trx, identity, {
        type: profileEvents.mobileRemoved,
        variant: 'warning',
        description: `Mobile ${identity.mobile} removed${hadSms ? ' with the SMS factor' : ''}`,
      });
    });
    await this.#notice(identity.email, 'mobile', `the mobile number ${identity.mobile} was removed.`);
    return this.currentUser(session);
  }

  async unenrolSms(session: SessionRow, currentPassword: string): Promise<void> {
    const identity = await this.#confirm(session, currentPassword);
    await this.#unenrol(identity, 'SMS', SMS_NOT_ENROLLED_MESSAGE, profileEvents.smsDisabled, 'SMS factor');
  }

  async unenrolAuthenticatorApp(session: SessionRow, currentPassword: string): Promise<void> {
    const identity = await this.#confirm(session, currentPassword);
    await this.#unenrol(
      identity,
      'AUTHENTICATOR_APP',
      APP_NOT_ENROLLED_MESSAGE,
      profileEvents.appDisabled,
      'authenticator app factor',
    );
  }

  async #unenrol(
    identity: Identity,
    type: 'SMS' | 'AUTHENTICATOR_APP',
    notEnrolled: string,
    eventType: string,
    what: NoticeSubject,
  ): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await removeFactor(trx, identity.id, type))) throw refuse.unprocessable(notEnrolled);
      await revokeTrustedDevices(trx, identity.id);
      await endResetSessionsOf(trx, [identity.id]);
      await this.#event(trx, identity, { type: eventType, variant: 'warning' });
    });
    await this.#notice(identity.email, what, `the ${what} was disabled.`);
  }

  // ---- Change email ---------------------------------------------------------------------------

  async changeEmailStart(
    session: SessionRow,
    input: { currentPassword: string; email: string },
  ): Promise<void> {
    const identity = await this.#confirm(session, input.currentPassword);
    const email = input.email.trim();
    if (identity.email && identity.email.toLowerCase() === email.toLowerCase()) {
      throw fieldRefusal('email', EMAIL_SAME_MESSAGE);
    }
    await putPendingChange(this.deps.db, {
      sessionIdHash: session.idHash,
      identityId: identity.id,
      kind: 'EMAIL',
      value: email,
      now: this.deps.clock.now(),
    });
    await this.#sendEmailCode(session, identity.id, email);
  }

  async changeEmailResend(session: SessionRow): Promise<void> {
    const { identity } = await this.identityOf(session);
    const pending = await pendingChange(this.deps.db, session.idHash, identity.id, 'EMAIL');
    if (!pending) throw refuse.unprocessable(EMAIL_NOT_STARTED_MESSAGE);
    await this.#sendEmailCode(session, identity.id, pending.value);
  }

  async #sendEmailCode(session: SessionRow, identityId: string, email: string) {
    await this.deps.factors.codes.send({
      sessionIdHash: session.idHash,
      purpose: EMAIL_PURPOSE,
      identityId,
      destination: email,
    });
  }

  async changeEmailVerify(session: SessionRow, code: string): Promise<CurrentUser> {
    const { identity } = await this.identityOf(session);
    const pending = await pendingChange(this.deps.db, session.idHash, identity.id, 'EMAIL');
    if (!pending) throw refuse.unprocessable(EMAIL_NOT_STARTED_MESSAGE);
    // The code is used in the change's transaction: a crash leaves both done or neither.
    const email = await this.#verifier.oneTimeCodeApplied(
      session,
      identity.username,
      EMAIL_PURPOSE,
      code,
      this.deps.db,
      async (trx, email) => {
        await updateIdentity(trx, identity.id, { email, updated_at: this.deps.clock.now() });
        await deletePendingChange(trx, session.idHash, 'EMAIL');
        await revokeTrustedDevices(trx, identity.id);
        await endResetSessionsOf(trx, [identity.id]);
        await this.#event(trx, identity, {
          type: profileEvents.emailChanged,
          variant: 'warning',
          description: `Email changed from ${identity.email ?? '(none)'} to ${email}`,
        });
        return email;
      },
    );
    await this.#notice(identity.email, 'email', `the email address is now ${email}.`);
    return this.currentUser(session);
  }

  async changeEmailCancel(session: SessionRow): Promise<void> {
    await deletePendingChange(this.deps.db, session.idHash, 'EMAIL');
  }

  // ---- Change mobile / enable SMS -------------------------------------------------------------

  async changeMobileStart(
    session: SessionRow,
    input: { currentPassword: string; mobile: string; enrolSmsFactor?: boolean | undefined },
  ): Promise<{ isSmsVerificationRequired: true; mobile: string } | CurrentUser> {
    const identity = await this.#confirm(session, input.currentPassword);
    const mobile = normaliseMobile(input.mobile);
    if (!mobile) throw fieldRefusal('mobile', MOBILE_FORMAT_MESSAGE);
    const enrolSms = input.enrolSmsFactor === true;
    // The same number again changes nothing and needs no code.
    if (!enrolSms && identity.mobile && sameNumber(identity.mobile, mobile)) return this.currentUser(session);
    if (!(await this.deps.factors.smsGateway.isAvailable())) throw smsUnavailable();
    await putPendingChange(this.deps.db, {
      sessionIdHash: session.idHash,
      identityId: identity.id,
      kind: 'MOBILE',
      value: mobile,
      enrolSms,
      now: this.deps.clock.now(),
    });
    await this.#sendSmsCode(session, identity.id, mobile);
    return { isSmsVerificationRequired: true, mobile };
  }

  async changeMobileResend(session: SessionRow): Promise<void> {
    const { identity } = await this.identityOf(session);
    const pending = await pendingChange(this.deps.db, session.idHash, identity.id, 'MOBILE');
    if (!pending) throw refuse.unprocessable(MOBILE_NOT_STARTED_MESSAGE);
    await this.#sendSmsCode(session, identity.id, pending.value);
  }

  async #sendSmsCode(session: SessionRow, identityId: string, mobile: string) {
    await this.deps.factors.codes.send({
      sessionIdHash: session.idHash,
      purpose: SMS_PURPOSE,
      identityId,
      destination: mobile,
    });
  }

  /**
   * Applies the verified mobile (and the SMS factor enabled or moved to it); answers the updated
   * user and the session's new token.
   */
  async changeMobileVerify(
    session: SessionRow,
    code: string,
  ): Promise<{ user: CurrentUser; renewed: RenewedToken }> {
    const { identity } = await this.identityOf(session);
    const pending = await pendingChange(this.deps.db, session.idHash, identity.id, 'MOBILE');
    if (!pending) throw refuse.unprocessable(MOBILE_NOT_STARTED_MESSAGE);
    const { random, clock } = this.deps;
    const now = clock.now();
    const hasSms = (await this.deps.factors.factors.summary(identity.id)).sms;
    // The code is used in the change's transaction: a crash leaves both done or neither.
    const mobile = await this.#verifier.oneTimeCodeApplied(
      session,
      identity.username,
      SMS_PURPOSE,
      code,
      this.deps.db,
      async (trx, mobile) => {
        await updateIdentity(trx, identity.id, { mobile, updated_at: now });
        // An enrolled SMS factor follows the verified mobile; the enable-SMS wizard creates it.
        if (hasSms || pending.enrolSms) {
          await putFactor(trx, {
            id: randomUuid(random),
            identityId: identity.id,
            type: 'SMS',
            mobile,
            secretSealed: null,
            now,
          });
        }
        await deletePendingChange(trx, session.idHash, 'MOBILE');
        await revokeTrustedDevices(trx, identity.id);
        await endResetSessionsOf(trx, [identity.id]);
        await this.#event(trx, identity, {
          type: pending.enrolSms && !hasSms ? profileEvents.smsEnabled : profileEvents.mobileChanged,
          variant: 'warning',
          description: `Mobile changed from ${identity.mobile ?? '(none)'} to ${mobile}`,
        });
        return mobile;
      },
    );
    // After the code's transaction, not in it: the code check holds one of the session's tries
    // under its current token until it returns (factors/failures.ts).
    const renewed = await this.#renew(session);
    await this.#notice(
      identity.email,
      pending.enrolSms && !hasSms ? 'SMS factor' : 'mobile',
      pending.enrolSms && !hasSms
        ? `SMS codes are now sent to ${mobile}.`
        : `the mobile number is now ${mobile}.`,
    );
    return { user: await this.currentUser(session), renewed };
  }

  async changeMobileCancel(session: SessionRow): Promise<void> {
    await deletePendingChange(this.deps.db, session.idHash, 'MOBILE');
  }

  // ---- Enable or change the authenticator app -------------------------------------------------

  async #pendingSecret(session: SessionRow, identity: Identity): Promise<string> {
    const { secretBox, random, clock } = this.deps;
    const sealed = await ensurePendingChange(this.deps.db, {
      sessionIdHash: session.idHash,
      identityId: identity.id,
      kind: 'AUTHENTICATOR_APP',
      value: secretBox.seal(newTotpSecret(random)),
      now: clock.now(),
    });
    return secretBox.open(sealed);
  }

  async setupKey(session: SessionRow): Promise<{ setupKey: string }> {
    const { identity } = await this.identityOf(session);
    return { setupKey: formatSetupKey(await this.#pendingSecret(session, identity)) };
  }

  async qrCode(session: SessionRow): Promise<string> {
    const { identity } = await this.identityOf(session);
    const secret = await this.#pendingSecret(session, identity);
    return qrCodeDataUrl(otpauthUri({ issuer: this.deps.totpIssuer, account: identity.username, secret }));
  }

  /**
   * Enables the app, or replaces the enrolled one: only now does the old app stop working. Answers
   * the session's new token.
   */
  async changeAuthenticatorApp(
    session: SessionRow,
    input: { currentPassword: string; code: string },
  ): Promise<RenewedToken> {
    const identity = await this.#confirm(session, input.currentPassword);
    const pending = await pendingChange(this.deps.db, session.idHash, identity.id, 'AUTHENTICATOR_APP');
    if (!pending) throw refuse.unprocessable(SETUP_AUTHENTICATOR_FIRST_MESSAGE);
    const { secretBox, random, clock } = this.deps;
    const now = clock.now();
    const step = await this.#verifier.newAuthenticatorApp(
      session,
      identity.username,
      base32Decode(secretBox.open(pending.value)),
      input.code,
      now,
    );
    const hadApp = (await this.deps.factors.factors.summary(identity.id)).authenticatorApp;
    const renewed = await this.deps.db.transaction().execute(async (trx) => {
      await putFactor(trx, {
        id: randomUuid(random),
        identityId: identity.id,
        type: 'AUTHENTICATOR_APP',
        mobile: null,
        // Sealed again so the stored value shares nothing (not even the IV) with the pending copy.
        secretSealed: secretBox.seal(secretBox.open(pending.value)),
        lastUsedStep: step,
        now,
      });
      await deletePendingChange(trx, session.idHash, 'AUTHENTICATOR_APP');
      await revokeTrustedDevices(trx, identity.id);
      await endResetSessionsOf(trx, [identity.id]);
      await this.#event(trx, identity, {
        type: hadApp ? profileEvents.appChanged : profileEvents.appEnabled,
        variant: 'warning',
      });
      return this.#renew(session, trx);
    });
    await this.#notice(
      identity.email,
      'authenticator app factor',
      hadApp ? 'a new authenticator app replaced the old one.' : 'an authenticator app was enabled.',
    );
    return renewed;
  }

  // ---- Trusted devices and signing out everywhere ---------------------------------------------

  async deleteTrustedDevice(session: SessionRow, deviceId: string): Promise<void> {
    const { identity } = await this.identityOf(session);
    if (!DEVICE_ID_PATTERN.test(deviceId)) throw refuse.notFound(TRUSTED_DEVICE_NOT_FOUND_MESSAGE);
    await this.deps.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('trusted_devices')
        .where('identity_id', '=', identity.id)
        .where('id', '=', deviceId)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw refuse.notFound(TRUSTED_DEVICE_NOT_FOUND_MESSAGE);
      await this.#event(trx, identity, { type: profileEvents.trustedDeviceRemoved });
    });
  }

  async clearTrustedDevices(session: SessionRow): Promise<void> {
    const { identity } = await this.identityOf(session);
    await this.deps.db.transaction().execute(async (trx) => {
      const count = await revokeTrustedDevices(trx, identity.id);
      await this.#event(trx, identity, {
        type: profileEvents.trustedDevicesCleared,
        description: `${count} trusted device${count === 1 ? '' : 's'} removed`,
      });
    });
  }

  /**
   * Signs the identity out everywhere, in one transaction: every session ends (and every anonymous
   * session of a password reset naming the identity), every trusted device is revoked, and
   * handed-off JWTs issued until now stop counting for the apps that check /jwt/valid-after.
   * `actor` is who asked (the identity itself, or an admin).
   */
  async signOutOfAllDevices(input: {
    identityId: string;
    actorIdentityId: string;
    ticketCode: string | null;
  }): Promise<void> {
    const ticketCode = input.ticketCode?.trim() || null;
    if (ticketCode && !TICKET_PATTERN.test(ticketCode))
      throw fieldRefusal('ticketCode', TICKET_FORMAT_MESSAGE);
    const property = await this.deps.reference.property(TICKET_URL_PROPERTY);
    const browseUrl = 'value' in property ? property.value : null;
    // Without a configured Jira URL the code is kept in the description rather than as a link.
    const ticket = ticketCode && browseUrl ? { code: ticketCode, url: browseUrl + ticketCode } : null;
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const sessions = await endSessionsOf(trx, input.identityId);
      await endResetSessionsOf(trx, [input.identityId]);
      const devices = await revokeTrustedDevices(trx, input.identityId);
      await setJwtValidAfter(trx, input.identityId, now);
      await recordIdentityEvent(trx, {
        identityId: input.identityId,
        eventDate: now,
        actorIdentityId: input.actorIdentityId,
        type: profileEvents.signedOutEverywhere,
        variant: 'warning',
        description:
          `${sessions} session${sessions === 1 ? '' : 's'} ended, ${devices} trusted device${devices === 1 ? '' : 's'} revoked` +
          (ticketCode && !ticket ? `; ticket ${ticketCode}` : ''),
        ticket,
      });
    });
  }

  // ---- Notices --------------------------------------------------------------------------------

  /** A notice to the address the account had; a failed notice is reported, the change stands. */
  async #notice(to: string | null, what: NoticeSubject, detail: string): Promise<void> {
    if (!to) return;
    try {
      await this.deps.mail.send({ to, subject: noticeSubject(what), text: noticeText(what, detail) });
    } catch (error) {
      this.reportNoticeFailure(error);
    }
  }
}

/** Whether two mobiles are the same number however they are spaced. */
function sameNumber(a: string, b: string): boolean {
  return a.replace(/\D/g, '') === b.replace(/\D/g, '');
}
