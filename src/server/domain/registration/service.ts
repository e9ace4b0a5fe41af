// Registration from an invitation (sections 2.5 and 4.6 on the server side).
//
// start checks the captcha and the invitation (email, code, unused, unexpired: every refusal is
// the same neutral message) and holds the invitation in the anonymous session
// (data.registration). Every later call works on the held invitation, re-read each time so an
// invitation used or expired meanwhile stops the wizard. What the wizard proves (a TOTP code of
// the new secret, an SMS code of the mobile) and collects (username, name, security answers as
// argon2id hashes) lives in the session until submission; nothing is written to identities before.
//
// submit-new creates the identity, its password, factors (email always: the invitation proved
// it), security answers and access grant, uses the invitation, records history and starts the
// signed-in session, all in one transaction; the invitation is claimed by a conditional update
// first, so of concurrent submissions exactly one creates an account. submit-existing checks the
// password of the identity the invitation names (a wrong one counts towards that identity's
// failure limit), then adds the grant the same way. Both then continue as a sign-in does
// (domain/sign-in-flow.ts): forced steps still owed, a handoff, or the portal.
import type { Kysely } from 'kysely';
import { inviteeEntersName } from '../../../contract/admin';
import type { AuthenticationOutcome, ForcedAction } from '../../../contract/entities';
import type { FieldError } from '../../../contract/errors';
import type { InviteDetails } from '../../../contract/registration';
import type { Clock } from '../../adapters/clock';
import type { GeoIpLookup } from '../../adapters/geo-ip';
import { randomUuid, type Random } from '../../adapters/random';
import type { SecretBox } from '../../adapters/secret-box';
import { passwordHashOf, putFactor, putSecurityAnswers } from '../../db/repositories/factors';
import { recordIdentityEvent } from '../../db/repositories/history';
import { findIdentityWithRoles } from '../../db/repositories/identities';
import {
  claimInvitation,
  CUSTOMER_NUMBER_INDEX,
  customerNumberHeld,
  findInvitationByCodeHash,
  findInvitationById,
  setInvitationUser,
  type InvitationRow,
} from '../../db/repositories/invitations';
import {
  ensureRegistrationSecret,
  grantAccess,
  holdInvitation,
  isUniqueViolation,
  mergeRegistrationState,
  usernameTaken,
} from '../../db/repositories/registration';
import { updateSessionState } from '../../db/repositories/sessions';
import { incrementSessionCounter } from '../../db/repositories/factors-flow';
import { completeSignIn } from '../../db/repositories/sign-in';
import type { Database, Identity, RegistrationState } from '../../db/schema';
import { captchaFailure, type CaptchaService } from '../captcha';
import { toCurrentUser } from '../current-user';
import { RequestRefused, refuse } from '../errors';
import { smsUnavailable, type OneTimeCodes } from '../factors/codes';
import { normaliseMobile, SECURITY_QUESTIONS_ENUM, type SecurityQuestionsInput } from '../factors/enrolment';
import type { Factors } from '../factors/factors';
import { MAX_FACTOR_FAILURES, sessionEndedRefusal, type FailureCounter } from '../factors/failures';
import {
  MOBILE_FORMAT_MESSAGE,
  QUESTION_UNKNOWN_MESSAGE,
  QUESTIONS_SAME_MESSAGE,
  SECURITY_QUESTIONS_MESSAGE,
  SETUP_AUTHENTICATOR_FIRST_MESSAGE,
  TOO_MANY_PASSWORD_FAILURES_MESSAGE,
  ENROL_MOBILE_FIRST_MESSAGE,
} from '../factors/messages';
import type { SmsGatewayStatus } from '../factors/sms-gateway';
import { base32Decode, formatSetupKey, newTotpSecret, otpauthUri, qrCodeDataUrl } from '../factors/totp';
import type { CodeVerifier } from '../factors/verification';
import { INCORRECT_CREDENTIALS_MESSAGE } from '../messages';
import { PASSWORD_MISMATCH_MESSAGE, type PasswordPolicy } from '../password-policy';
import { normaliseUsername, type PasswordHasher } from '../passwords';
import type { ReferenceService } from '../reference';
import type { IssuedSession, SessionRow, SessionService } from '../sessions';
import { sessionDataFor, type SignInFlow } from '../sign-in-flow';
import { invitationCodeHash } from './invitations';
import {
  CUSTOMER_USERNAME_MESSAGE,
  DETAILS_REQUIRED_MESSAGE,
  DOMAIN_ACCOUNT_USERNAME_MESSAGE,
  EXISTING_IDENTITY_ONLY_MESSAGE,
  INVITATION_INVALID_MESSAGE,
  NAME_NOT_EDITABLE_MESSAGE,
  NEW_ACCOUNT_ONLY_MESSAGE,
  NUMERIC_USERNAME_MESSAGE,
  REGISTRATION_NOT_STARTED_MESSAGE,
  SECURITY_QUESTIONS_FIRST_MESSAGE,
  SIGNED_IN_MESSAGE,
  USERNAME_NOT_EDITABLE_MESSAGE,
  TOO_MANY_USERNAMES_MESSAGE,
  USERNAME_TAKEN_MESSAGE,
} from './messages';

const SMS_PURPOSE = 'registration:sms';
/** Properties listing the email domains (comma-separated) of the two affiliated organisations. */
export const PRIMARY_AFFILIATE_DOMAINS = 'primary-affiliate-email-domains';
export const SECONDARY_AFFILIATE_DOMAINS = 'secondary-affiliate-email-domains';
/** History event types this area records. */
export const REGISTERED_EVENT = 'REGISTERED';
export const ACCESS_ADDED_EVENT = 'ACCESS_ADDED_FROM_INVITATION';

export interface RegistrationDeps {
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  hasher: PasswordHasher;
  secretBox: SecretBox;
  captcha: CaptchaService;
  codes: OneTimeCodes;
  factors: Factors;
  verifier: CodeVerifier;
  failures: FailureCounter;
  smsGateway: SmsGatewayStatus;
  reference: ReferenceService;
  passwordPolicy: PasswordPolicy;
  sessions: SessionService;
  signInFlow: SignInFlow;
  geoIp: GeoIpLookup;
  totpIssuer: string;
}

export interface SubmitMeta {
  ipAddress: string | null;
  deviceToken: string | null;
}

export interface SubmitResult {
  outcome: AuthenticationOutcome;
  issued: IssuedSession;
}

/** Usernames a registration may look up at collect-details before it has to start again. */
export const MAX_USERNAME_CHECKS = 10;

interface Held {
  session: SessionRow;
  state: RegistrationState;
  invitation: InvitationRow;
}

const neutral = (reroute: boolean) =>
  reroute
    ? new RequestRefused(422, { message: INVITATION_INVALID_MESSAGE, reroute: '/registration' })
    : refuse.unprocessable(INVITATION_INVALID_MESSAGE);
const notStarted = () =>
  new RequestRefused(422, { message: REGISTRATION_NOT_STARTED_MESSAGE, reroute: '/registration' });
const fieldRefusal = (fieldName: string, message: string) =>
  refuse.unprocessable(message, [{ fieldName, message }]);

/**
 * Unused and unexpired, and not a new account for a customer number that a live identity holds
 * meanwhile (it would be that customer's second account): otherwise refused with the one neutral
 * answer, as a used invitation is.
 */
function usable(invitation: InvitationRow, now: Date): boolean {
  return (
    invitation.usedAt === null &&
    invitation.expiresAt.getTime() > now.getTime() &&
    !invitation.customerNumberHeld
  );
}

/** A name as it is stored: trimmed, inner spaces collapsed (as the profile stores a new name). */
function normaliseName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

export class RegistrationService {
  constructor(private readonly deps: RegistrationDeps) {}

  // ---- start ----------------------------------------------------------------------------------

  async start(
    session: SessionRow | null,
    input: { email: string; inviteCode: string; captchaCode: string },
  ): Promise<InviteDetails> {
    const { db, captcha, clock } = this.deps;
    if (session && session.type !== 'ANONYMOUS') throw refuse.unprocessable(SIGNED_IN_MESSAGE);
    const verdict = await captcha.check(session?.idHash ?? null, input.captchaCode);
    if (verdict !== 'ok' || !session) throw captchaFailure(verdict === 'expired' ? 'expired' : 'incorrect');
    const invitation = await findInvitationByCodeHash(db, invitationCodeHash(input.inviteCode));
    if (
      !invitation ||
      invitation.email.trim().toLowerCase() !== input.email.trim().toLowerCase() ||
      !usable(invitation, clock.now())
    )
      throw neutral(false);
    if (!(await holdInvitation(db, session.idHash, invitation.id))) throw refuse.sessionExpired();
    return this.#details(invitation, { invitationId: invitation.id });
  }

  async #held(session: SessionRow | null): Promise<Held> {
    const state = session?.type === 'ANONYMOUS' ? session.data.registration : undefined;
    if (!session || !state) throw notStarted();
    const invitation = await findInvitationById(this.deps.db, state.invitationId);
    if (!invitation || !usable(invitation, this.deps.clock.now())) throw neutral(true);
    return { session, state, invitation };
  }

  async #heldNew(session: SessionRow | null): Promise<Held> {
    const held = await this.#held(session);
    if (held.invitation.existingIdentityId) throw refuse.unprocessable(EXISTING_IDENTITY_ONLY_MESSAGE);
    return held;
  }

  /** A new account's wizard after collect-details: its username and name are settled. */
  async #heldWithDetails(session: SessionRow | null): Promise<Held & { username: string; name: string }> {
    const held = await this.#heldNew(session);
    const username = held.invitation.username ?? held.state.username;
    const name = held.state.name ?? (held.invitation.name?.trim() || null);
    if (!username || !name) throw refuse.unprocessable(DETAILS_REQUIRED_MESSAGE);
    return { ...held, username, name };
  }

  async #merge(
    held: Held,
    patch: Partial<Omit<RegistrationState, 'invitationId'>>,
  ): Promise<RegistrationState> {
    if (!(await mergeRegistrationState(this.deps.db, held.session.idHash, held.invitation.id, patch)))
      throw notStarted();
    return { ...held.state, ...patch };
  }

  async #details(invitation: InvitationRow, state: RegistrationState): Promise<InviteDetails> {
    const domain = domainOf(invitation.email);
    const [primary, secondary] = await Promise.all([
      this.#domains(PRIMARY_AFFILIATE_DOMAINS),
      this.#domains(SECONDARY_AFFILIATE_DOMAINS),
    ]);
    return {
      productName: invitation.appName ?? invitation.appCode ?? '',
      facilityName: invitation.facilityName,
      facilityAliasOrCode: invitation.facilityCode
        ? (invitation.facilityAlias ?? invitation.facilityCode)
        : null,
      roles: invitation.roles.map((r) => ({ name: r.name, scopeType: r.scopeType, scope: r.scope })),
      customerNumber: invitation.customerNumber,
      name: state.name ?? invitation.name,
      birthDate: invitation.birthDate,
      username: invitation.username ?? state.username ?? null,
      email: invitation.email,
      mobile: state.mobile ?? invitation.mobile,
      existingIdentity: invitation.existingIdentityId !== null,
      isStaff: invitation.isStaff,
      isPrimaryAffiliateEmailDomain: primary.includes(domain),
      isSecondaryAffiliateEmailDomain: secondary.includes(domain),
    };
  }

  async #domains(property: string): Promise<string[]> {
    const row = await this.deps.db
      .selectFrom('properties')
      .select('value')
      .where('name', '=', property)
      .executeTakeFirst();
    return (row?.value ?? '')
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter((d) => d.length > 0);
  }

  /** The held invite's details (what a reloaded wizard shows). */
  async details(session: SessionRow | null): Promise<InviteDetails> {
    const held = await this.#held(session);
    return this.#details(held.invitation, held.state);
  }

  // ---- collect details ------------------------------------------------------------------------

  async collectDetails(
    session: SessionRow | null,
    input: { name?: string | undefined; username?: string | undefined },
  ): Promise<InviteDetails> {
    const held = await this.#heldNew(session);
    const { invitation } = held;
    const details = await this.#details(invitation, held.state);
    const errors: FieldError[] = [];
    let username: string | undefined;
    if (input.username !== undefined) {
      if (invitation.username) errors.push({ fieldName: 'username', message: USERNAME_NOT_EDITABLE_MESSAGE });
      else {
        const checked = this.#checkUsername(input.username, details);
        if (typeof checked === 'string') username = checked;
        else errors.push(checked);
      }
    } else if (!invitation.username) {
      errors.push({ fieldName: 'username', message: 'Required field' });
    }
    const nameEditable = inviteeEntersName(invitation);
    let name: string | undefined;
    if (input.name !== undefined) {
      if (!nameEditable) errors.push({ fieldName: 'name', message: NAME_NOT_EDITABLE_MESSAGE });
      else name = normaliseName(input.name);
    } else if (!invitation.name?.trim() && !held.state.name) {
      errors.push({ fieldName: 'name', message: 'Required field' });
    }
    if (username && errors.length === 0) {
      // Each lookup says whether a username exists: a held invitation gets a few, not an oracle.
      const checks = await incrementSessionCounter(this.deps.db, held.session.idHash, 'usernameChecks');
      if (checks > MAX_USERNAME_CHECKS) {
        await this.deps.sessions.end(held.session.idHash);
        throw new RequestRefused(422, { message: TOO_MANY_USERNAMES_MESSAGE, reroute: '/registration' });
      }
      if (await usernameTaken(this.deps.db, username))
        errors.push({ fieldName: 'username', message: USERNAME_TAKEN_MESSAGE });
    }
    if (errors.length > 0) throw refuse.unprocessable(errors[0]!.message, errors);
    const state = await this.#merge(held, {
      ...(username !== undefined ? { username } : {}),
      ...(name !== undefined ? { name } : {}),
    });
    return this.#details(invitation, state);
  }

  /** The username in its stored form, or the field error (section 2.5's hints as rules). */
  #checkUsername(raw: string, details: InviteDetails): string | FieldError {
    const value = raw.trim();
    if (!details.isStaff) {
      const upper = value.toUpperCase();
      return /^C\d{5}$/.test(upper) ? upper : { fieldName: 'username', message: CUSTOMER_USERNAME_MESSAGE };
    }
    if (details.isSecondaryAffiliateEmailDomain && !details.isPrimaryAffiliateEmailDomain) {
      return /^\d+$/.test(value) ? value : { fieldName: 'username', message: NUMERIC_USERNAME_MESSAGE };
    }
    return /^[A-Za-z][A-Za-z0-9._-]*$/.test(value)
      ? value.toLowerCase()
      : { fieldName: 'username', message: DOMAIN_ACCOUNT_USERNAME_MESSAGE };
  }

  // ---- authenticator app ----------------------------------------------------------------------

  async #pendingSecret(held: Held): Promise<string> {
    const existing = held.state.appSecretSealed;
    if (existing) return this.deps.secretBox.open(existing);
    const sealed = await ensureRegistrationSecret(
      this.deps.db,
      held.session.idHash,
      held.invitation.id,
      this.deps.secretBox.seal(newTotpSecret(this.deps.random)),
    );
    if (!sealed) throw notStarted();
    return this.deps.secretBox.open(sealed);
  }

  async setupKey(session: SessionRow | null): Promise<{ setupKey: string }> {
    const held = await this.#heldWithDetails(session);
    return { setupKey: formatSetupKey(await this.#pendingSecret(held)) };
  }

  async qrCode(session: SessionRow | null): Promise<string> {
    const held = await this.#heldWithDetails(session);
    const secret = await this.#pendingSecret(held);
    return qrCodeDataUrl(otpauthUri({ issuer: this.deps.totpIssuer, account: held.username, secret }));
  }

  async verifyAuthenticatorApp(session: SessionRow | null, code: string): Promise<InviteDetails> {
    const held = await this.#heldWithDetails(session);
    const sealed = held.state.appSecretSealed;
    if (!sealed) throw refuse.unprocessable(SETUP_AUTHENTICATOR_FIRST_MESSAGE);
    const secret = base32Decode(this.deps.secretBox.open(sealed));
    // No identity yet: wrong codes count towards the session's limit only.
    const step = await this.deps.verifier.newAuthenticatorApp(
      held.session,
      '',
      secret,
      code,
      this.deps.clock.now(),
    );
    const state = await this.#merge(held, { appVerifiedStep: step });
    return this.#details(held.invitation, state);
  }

  // ---- SMS ------------------------------------------------------------------------------------

  async enrolSms(session: SessionRow | null, input: string): Promise<InviteDetails> {
    const held = await this.#heldWithDetails(session);
    if (!(await this.deps.smsGateway.isAvailable())) throw smsUnavailable();
    const mobile = normaliseMobile(input);
    if (!mobile) throw fieldRefusal('mobile', MOBILE_FORMAT_MESSAGE);
    await this.deps.codes.send({
      sessionIdHash: held.session.idHash,
      purpose: SMS_PURPOSE,
      identityId: null,
      destination: mobile,
    });
    const state = await this.#merge(held, { mobile, mobileVerified: null });
    return this.#details(held.invitation, state);
  }

  async sendSms(session: SessionRow | null): Promise<void> {
    const held = await this.#heldWithDetails(session);
    if (!(await this.deps.smsGateway.isAvailable())) throw smsUnavailable();
    const mobile = held.state.mobile;
    if (!mobile) throw refuse.unprocessable(ENROL_MOBILE_FIRST_MESSAGE);
    await this.deps.codes.send({
      sessionIdHash: held.session.idHash,
      purpose: SMS_PURPOSE,
      identityId: null,
      destination: mobile,
    });
  }

  async verifyMobile(session: SessionRow | null, code: string): Promise<InviteDetails> {
    const held = await this.#heldWithDetails(session);
    if (!held.state.mobile) throw refuse.unprocessable(ENROL_MOBILE_FIRST_MESSAGE);
    const mobile = await this.deps.verifier.oneTimeCode(held.session, null, SMS_PURPOSE, code);
    const state = await this.#merge(held, { mobileVerified: mobile });
    return this.#details(held.invitation, state);
  }

  // ---- email and security questions -----------------------------------------------------------

  /** The email factor needs no code here: the invitation reached that address. */
  async enrolEmail(session: SessionRow | null): Promise<void> {
    const held = await this.#heldWithDetails(session);
    await this.#merge(held, { emailChosen: true });
  }

  async enrolSecurityQuestions(session: SessionRow | null, input: SecurityQuestionsInput): Promise<void> {
    const held = await this.#heldWithDetails(session);
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
      this.deps.factors.hashSecurityAnswer(input.answer1),
      this.deps.factors.hashSecurityAnswer(input.answer2),
    ]);
    await this.#merge(held, {
      securityAnswers: { question1: input.question1, hash1, question2: input.question2, hash2 },
    });
  }

  // ---- submissions ----------------------------------------------------------------------------

  async submitNew(
    session: SessionRow | null,
    input: { password: string; confirmPassword: string },
    meta: SubmitMeta,
  ): Promise<SubmitResult> {
    const held = await this.#heldWithDetails(session);
    const { invitation, state, username, name } = held;
    const answers = state.securityAnswers;
    if (!answers) throw refuse.unprocessable(SECURITY_QUESTIONS_FIRST_MESSAGE);
    if (input.password !== input.confirmPassword)
      throw fieldRefusal('confirmPassword', PASSWORD_MISMATCH_MESSAGE);
    const reason = await this.deps.passwordPolicy.refusal(input.password, {
      username,
      name,
      email: invitation.email,
    });
    if (reason) throw fieldRefusal('password', reason);
    if (await usernameTaken(this.deps.db, username)) {
      // A concurrent submission of this same invitation may have just created the account: that
      // is the invitation being used, and answers as such (#held reads it again), not as someone
      // else's username.
      await this.#held(session);
      throw fieldRefusal('username', USERNAME_TAKEN_MESSAGE);
    }

    const { db, random, clock, secretBox, hasher } = this.deps;
    const passwordHash = await hasher.hash(input.password);
    const now = clock.now();
    const identityId = randomUuid(random);
    const context = held.session.context;
    const issued = this.#pendingSession(identityId, context);
    const geo = await this.#geo(meta.ipAddress);
    const appSecret =
      state.appSecretSealed && state.appVerifiedStep != null
        ? secretBox.seal(secretBox.open(state.appSecretSealed))
        : null;

    try {
      await db.transaction().execute(async (trx) => {
        // Claimed first: a concurrent submission waits here and then finds it used.
        if (!(await claimInvitation(trx, { id: invitation.id, identityId: null, now }))) throw neutral(true);
        // Its customer number taken since the wizard last read it: no second holder (usable()).
        // Two such registrations at once are kept apart by identities_customer_number_live below.
        if (invitation.customerNumber && (await customerNumberHeld(trx, invitation.customerNumber)))
          throw neutral(true);
        await trx
          .insertInto('identities')
          .values({
            id: identityId,
            realm_code: context.realmCode,
            username,
            name,
            email: invitation.email,
            mobile: state.mobileVerified ?? null,
            phone: null,
            birth_date: invitation.birthDate,
            customer_number: invitation.customerNumber,
            is_staff: invitation.isStaff,
            is_admin: false,
            salary_number: null,
            // The bank invited a known customer: the details came from its records, the name
            // only while it is the one the bank sent (staff may edit theirs at collect-details).
            identity_verified:
              invitation.customerNumber !== null &&
              invitation.name !== null &&
              normaliseName(name) === normaliseName(invitation.name),
            password_expired: false,
            mfa_required: false,
            created_at: now,
            updated_at: now,
            retired_at: null,
          })
          .execute();
        await setInvitationUser(trx, invitation.id, identityId);
        await trx
          .insertInto('credentials')
          .values({ identity_id: identityId, password_hash: passwordHash, changed_at: now })
          .execute();
        await putFactor(trx, {
          id: randomUuid(random),
          identityId,
          type: 'EMAIL',
          mobile: null,
          secretSealed: null,
          now,
        });
        if (state.mobileVerified) {
          await putFactor(trx, {
            id: randomUuid(random),
            identityId,
            type: 'SMS',
            mobile: state.mobileVerified,
            secretSealed: null,
            now,
          });
        }
        if (appSecret) {
          await putFactor(trx, {
            id: randomUuid(random),
            identityId,
            type: 'AUTHENTICATOR_APP',
            mobile: null,
            secretSealed: appSecret,
            lastUsedStep: state.appVerifiedStep ?? null,
            now,
          });
        }
        await putSecurityAnswers(
          trx,
          identityId,
          [
            { position: 1, questionCode: answers.question1, answerHash: answers.hash1 },
            { position: 2, questionCode: answers.question2, answerHash: answers.hash2 },
          ],
          now,
        );
        if (invitation.appCode) {
          await grantAccess(trx, {
            id: randomUuid(random),
            identityId,
            appCode: invitation.appCode,
            facilityId: invitation.facilityId,
            now,
          });
        }
        await recordIdentityEvent(trx, {
          identityId,
          eventDate: now,
          actorIdentityId: identityId,
          type: REGISTERED_EVENT,
          variant: 'success',
          description: `Registered from an invitation to ${this.#grantText(invitation)}.`,
        });
        await completeSignIn(trx, {
          attempt: this.#attempt(identityId, username, context.realmCode, now, meta, geo),
          failureKey: this.deps.failures.lockout.keyOf(username),
          endSessionHash: held.session.idHash,
          session: issued.session,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error, 'identities_username_ci'))
        throw fieldRefusal('username', USERNAME_TAKEN_MESSAGE);
      if (isUniqueViolation(error, CUSTOMER_NUMBER_INDEX)) throw neutral(true);
      throw error;
    }
    // Registration proved the factors and set them up: enrolment and MFA are passed for this sign-in.
    return this.#continue(issued, identityId, ['FACTOR_ENROLMENT', 'MFA'], meta);
  }

  async submitExisting(
    session: SessionRow | null,
    input: { username: string; password: string },
    meta: SubmitMeta,
  ): Promise<SubmitResult> {
    const held = await this.#held(session);
    const { invitation } = held;
    if (!invitation.existingIdentityId) throw refuse.unprocessable(NEW_ACCOUNT_ONLY_MESSAGE);
    const found = await findIdentityWithRoles(this.deps.db, invitation.existingIdentityId);
    if (!found) throw neutral(true);
    const identity = found.identity;
    await this.deps.failures.assertMayTry(held.session, [identity.username]);
    // Checked with one of the session's tries reserved (factors/failures.ts), so parallel guesses
    // get no more checks than the session has tries left.
    const usernames = [identity.username];
    await this.deps.failures.guarded(
      held.session,
      'factorFailures',
      MAX_FACTOR_FAILURES,
      usernames,
      async () => {
        const hash = await passwordHashOf(this.deps.db, identity.id);
        const passwordOk = hash ? await this.deps.hasher.verify(hash, input.password) : false;
        const usernameOk = normaliseUsername(input.username) === normaliseUsername(identity.username);
        if (passwordOk && usernameOk) return;
        // Counted for the invitation's identity whichever username was typed: the invitation names it.
        const verdict = await this.deps.failures.count(
          held.session,
          identity.username,
          'factorFailures',
          MAX_FACTOR_FAILURES,
        );
        if (verdict === 'ended') throw sessionEndedRefusal(TOO_MANY_PASSWORD_FAILURES_MESSAGE);
        throw refuse.unprocessable(INCORRECT_CREDENTIALS_MESSAGE);
      },
    );

    const { db, random, clock } = this.deps;
    const now = clock.now();
    const context = held.session.context;
    const issued = this.#pendingSession(identity.id, context);
    const geo = await this.#geo(meta.ipAddress);
    await db.transaction().execute(async (trx) => {
      if (!(await claimInvitation(trx, { id: invitation.id, identityId: identity.id, now })))
        throw neutral(true);
      if (invitation.appCode) {
        await grantAccess(trx, {
          id: randomUuid(random),
          identityId: identity.id,
          appCode: invitation.appCode,
          facilityId: invitation.facilityId,
          now,
        });
      }
      await recordIdentityEvent(trx, {
        identityId: identity.id,
        eventDate: now,
        actorIdentityId: identity.id,
        type: ACCESS_ADDED_EVENT,
        variant: 'success',
        description: `Access to ${this.#grantText(invitation)} added from an invitation.`,
      });
      // As at sign-in, the account's failures stay while forced steps (MFA codes) are owed and
      // are forgotten when the sign-in completes (#continue, or sign-in-flow's continueAfter).
      // completeSignIn's `clearFailures: false` gives back the one attempt a sign-in reserves in
      // the count; this check took its try elsewhere (FailureCounter.guarded), so the count is
      // raised by that one first, in this transaction, and the two leave it as it was.
      const failureKey = this.deps.failures.lockout.keyOf(identity.username);
      await trx
        .updateTable('failed_auth_counts')
        .set((eb) => ({ count: eb('count', '+', 1) }))
        .where('username_key', '=', failureKey)
        .execute();
      await completeSignIn(trx, {
        attempt: this.#attempt(identity.id, identity.username, context.realmCode, now, meta, geo),
        failureKey,
        endSessionHash: held.session.idHash,
        session: issued.session,
        clearFailures: false,
      });
    });
    return this.#continue(issued, identity.id, [], meta, identity.username);
  }

  #grantText(invitation: InvitationRow): string {
    const product = invitation.appName ?? invitation.appCode ?? 'the application';
    return invitation.facilityCode
      ? `${product} at ${invitation.facilityName ?? invitation.facilityCode} (${invitation.facilityAlias ?? invitation.facilityCode})`
      : product;
  }

  /** The new session, stored pending (nothing decided) in the submission's transaction. */
  #pendingSession(identityId: string, context: SessionRow['context']): IssuedSession {
    return this.deps.sessions.prepareSignedIn({
      identityId,
      type: 'AUTHENTICATION_PENDING',
      context,
      data: { passed: [], previousSignInAttempt: null },
    });
  }

  async #geo(ipAddress: string | null) {
    return ipAddress ? await this.deps.geoIp.lookup(ipAddress).catch(() => null) : null;
  }

  #attempt(
    identityId: string,
    username: string,
    realmCode: string,
    now: Date,
    meta: SubmitMeta,
    geo: { cityName: string | null; countryName: string | null; continentName: string | null } | null,
  ) {
    return {
      identityId,
      username: normaliseUsername(username),
      realmCode,
      attemptedAt: now,
      ipAddress: meta.ipAddress,
      cityName: geo?.cityName ?? null,
      countryName: geo?.countryName ?? null,
      continentName: geo?.continentName ?? null,
      isSuccessful: true,
    };
  }

  /**
   * After the commit (the rules read the committed identity, its factors and grants): decides the
   * sign-in as a password sign-in would, stores the decision in the new session and answers it.
   */
  async #continue(
    issued: IssuedSession,
    identityId: string,
    passed: ForcedAction[],
    meta: SubmitMeta,
    /** The username whose failures were kept at submission: forgotten if the sign-in completes. */
    keptFailuresOf: string | null = null,
  ): Promise<SubmitResult> {
    const { db, signInFlow } = this.deps;
    const found = await findIdentityWithRoles(db, identityId);
    if (!found) throw refuse.sessionExpired();
    const identity: Identity = found.identity;
    const decision = await signInFlow.decide({
      identity,
      roles: found.roles,
      context: issued.session.context,
      passed,
      deviceToken: meta.deviceToken,
    });
    const type = decision.kind === 'forced' ? 'AUTHENTICATION_PENDING' : 'AUTHENTICATED';
    const data = sessionDataFor(decision, passed, null);
    if (!(await updateSessionState(db, issued.session.idHash, { type, data }))) throw refuse.sessionExpired();
    if (type === 'AUTHENTICATED' && keptFailuresOf) await this.deps.failures.succeeded(keptFailuresOf);
    issued.session.type = type;
    issued.session.data = data;
    const outcome = await signInFlow.outcome(decision, {
      identity,
      currentUser: toCurrentUser(identity, found.roles, type, data.forcedAction),
      session: issued.session,
    });
    return { outcome, issued };
  }
}
