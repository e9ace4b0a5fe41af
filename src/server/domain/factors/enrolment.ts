// The factor enrolment step (FACTOR_ENROLMENT, section 2.6 and 4.3): verify the email address
// (its code is sent when the step starts), optionally a mobile for SMS codes (and, through the
// same calls, an authenticator app), then two security questions; submit enrols everything in one
// transaction and continues the sign-in. What has been verified lives in the session
// (data.enrolment), so the server enforces the order: nothing is enrolled that this session did
// not prove, and submit refuses before the email is verified.
import type { Kysely } from 'kysely';
import type { FieldError } from '../../../contract/errors';
import type { Clock } from '../../adapters/clock';
import { randomUuid, type Random } from '../../adapters/random';
import type { SecretBox } from '../../adapters/secret-box';
import { putFactor, putSecurityAnswers } from '../../db/repositories/factors';
import { ensureEnrolmentSecret, mergeEnrolmentState } from '../../db/repositories/factors-flow';
import { endResetSessionsOf } from '../../db/repositories/password-reset';
import { revokeTrustedDevices } from './trusted-devices';
import type { Database, Identity } from '../../db/schema';
import { refuse } from '../errors';
import type { ReferenceService } from '../reference';
import type { SessionRow } from '../sessions';
import { smsUnavailable, type OneTimeCodes } from './codes';
import type { Factors } from './factors';
import {
  ENROL_EMAIL_FIRST_MESSAGE,
  ENROL_MOBILE_FIRST_MESSAGE,
  MOBILE_FORMAT_MESSAGE,
  NO_EMAIL_MESSAGE,
  QUESTION_UNKNOWN_MESSAGE,
  QUESTIONS_SAME_MESSAGE,
  SECURITY_QUESTIONS_MESSAGE,
  SETUP_AUTHENTICATOR_FIRST_MESSAGE,
} from './messages';
import type { SmsGatewayStatus } from './sms-gateway';
import { base32Decode, formatSetupKey, newTotpSecret, otpauthUri, qrCodeDataUrl } from './totp';
import type { CodeVerifier } from './verification';

export const SECURITY_QUESTIONS_ENUM = 'security-questions';
const EMAIL_PURPOSE = 'factor-enrolment:email';
const SMS_PURPOSE = 'factor-enrolment:sms';

/**
 * A mobile in international format: '+', country code and number, 8 to 15 digits (E.164), with
 * spaces, dashes, dots or brackets between digits as people write them. Answers it with runs of
 * spaces collapsed, or null.
 */
export function normaliseMobile(input: string): string | null {
  const trimmed = input.trim().replace(/\s+/g, ' ');
  if (!/^\+[\d\s().-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15 || digits.startsWith('0')) return null;
  return trimmed;
}

export interface SecurityQuestionsInput {
  question1: string;
  answer1: string;
  question2: string;
  answer2: string;
}

export class FactorEnrolmentFlow {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      clock: Clock;
      random: Random;
      secretBox: SecretBox;
      codes: OneTimeCodes;
      verifier: CodeVerifier;
      factors: Factors;
      reference: ReferenceService;
      smsGateway: SmsGatewayStatus;
      totpIssuer: string;
    },
  ) {}

  /** Sends the email code; `quietlyIfRecent` skips it when one went out in the last 30 s. */
  async sendEmailCode(
    session: SessionRow,
    identity: Identity,
    options: { quietlyIfRecent?: boolean } = {},
  ): Promise<void> {
    if (!identity.email) throw refuse.unprocessable(NO_EMAIL_MESSAGE);
    if (options.quietlyIfRecent && (await this.deps.codes.sentRecently(session.idHash, EMAIL_PURPOSE)))
      return;
    await this.deps.codes.send({
      sessionIdHash: session.idHash,
      purpose: EMAIL_PURPOSE,
      identityId: identity.id,
      destination: identity.email,
    });
  }

  async verifyEmail(session: SessionRow, identity: Identity, code: string): Promise<void> {
    const email = await this.deps.verifier.oneTimeCode(session, identity.username, EMAIL_PURPOSE, code);
    await mergeEnrolmentState(this.deps.db, session.idHash, { emailVerified: email });
  }

  /** Sends an SMS code to the mobile; answers the mobile as stored. 503 when SMS is unavailable. */
  async enrolSms(session: SessionRow, identity: Identity, input: string): Promise<string> {
    if (!(await this.deps.smsGateway.isAvailable())) throw smsUnavailable();
    if (!session.data.enrolment?.emailVerified) throw refuse.unprocessable(ENROL_EMAIL_FIRST_MESSAGE);
    const mobile = normaliseMobile(input);
    if (!mobile)
      throw refuse.unprocessable(MOBILE_FORMAT_MESSAGE, [
        { fieldName: 'mobile', message: MOBILE_FORMAT_MESSAGE },
      ]);
    await this.deps.codes.send({
      sessionIdHash: session.idHash,
      purpose: SMS_PURPOSE,
      identityId: identity.id,
      destination: mobile,
    });
    await mergeEnrolmentState(this.deps.db, session.idHash, { mobile, mobileVerified: null });
    return mobile;
  }

  async sendSmsCode(session: SessionRow, identity: Identity): Promise<void> {
    if (!(await this.deps.smsGateway.isAvailable())) throw smsUnavailable();
    const mobile = session.data.enrolment?.mobile;
    if (!mobile) throw refuse.unprocessable(ENROL_MOBILE_FIRST_MESSAGE);
    await this.deps.codes.send({
      sessionIdHash: session.idHash,
      purpose: SMS_PURPOSE,
      identityId: identity.id,
      destination: mobile,
    });
  }

  async verifyMobile(session: SessionRow, identity: Identity, code: string): Promise<void> {
    if (!session.data.enrolment?.mobile) throw refuse.unprocessable(ENROL_MOBILE_FIRST_MESSAGE);
    const mobile = await this.deps.verifier.oneTimeCode(session, identity.username, SMS_PURPOSE, code);
    await mergeEnrolmentState(this.deps.db, session.idHash, { mobileVerified: mobile });
  }

  /** The secret being set up (created on first use, then the same for the whole session). */
  async #pendingSecret(session: SessionRow): Promise<string> {
    const existing = session.data.enrolment?.appSecretSealed;
    if (existing) return this.deps.secretBox.open(existing);
    const sealed = await ensureEnrolmentSecret(
      this.deps.db,
      session.idHash,
      this.deps.secretBox.seal(newTotpSecret(this.deps.random)),
    );
    if (!sealed) throw refuse.sessionExpired();
    return this.deps.secretBox.open(sealed);
  }

  async setupKey(session: SessionRow): Promise<{ setupKey: string }> {
    return { setupKey: formatSetupKey(await this.#pendingSecret(session)) };
  }

  async qrCode(session: SessionRow, identity: Identity): Promise<string> {
    const secret = await this.#pendingSecret(session);
    return qrCodeDataUrl(otpauthUri({ issuer: this.deps.totpIssuer, account: identity.username, secret }));
  }

  async verifyAuthenticatorApp(session: SessionRow, identity: Identity, code: string): Promise<void> {
    const sealed = session.data.enrolment?.appSecretSealed;
    if (!sealed) throw refuse.unprocessable(SETUP_AUTHENTICATOR_FIRST_MESSAGE);
    const secret = base32Decode(this.deps.secretBox.open(sealed));
    const step = await this.deps.verifier.newAuthenticatorApp(
      session,
      identity.username,
      secret,
      code,
      this.deps.clock.now(),
    );
    await mergeEnrolmentState(this.deps.db, session.idHash, { appVerifiedStep: step });
  }

  /**
   * Enrols what the session verified (email, mobile, authenticator app) and the security answers,
   * in one transaction. 422 with field errors for unknown or equal questions.
   */
  async submit(session: SessionRow, identity: Identity, input: SecurityQuestionsInput): Promise<void> {
    const state = session.data.enrolment ?? {};
    if (!state.emailVerified) throw refuse.unprocessable(ENROL_EMAIL_FIRST_MESSAGE);
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
    const { random, clock, secretBox } = this.deps;
    const now = clock.now();
    const appSecret = state.appSecretSealed && state.appVerifiedStep != null ? state.appSecretSealed : null;
    await this.deps.db.transaction().execute(async (trx) => {
      await putFactor(trx, {
        id: randomUuid(random),
        identityId: identity.id,
        type: 'EMAIL',
        mobile: null,
        secretSealed: null,
        now,
      });
      if (state.mobileVerified) {
        await putFactor(trx, {
          id: randomUuid(random),
          identityId: identity.id,
          type: 'SMS',
          mobile: state.mobileVerified,
          secretSealed: null,
          now,
        });
        await trx
          .updateTable('identities')
          .set({ mobile: state.mobileVerified, updated_at: now })
          .where('id', '=', identity.id)
          .execute();
      }
      if (appSecret) {
        await putFactor(trx, {
          id: randomUuid(random),
          identityId: identity.id,
          type: 'AUTHENTICATOR_APP',
          mobile: null,
          // Sealed again so the stored value shares nothing (not even the IV) with the session's copy.
          secretSealed: secretBox.seal(secretBox.open(appSecret)),
          lastUsedStep: state.appVerifiedStep ?? null,
          now,
        });
      }
      await putSecurityAnswers(
        trx,
        identity.id,
        [
          { position: 1, questionCode: input.question1, answerHash: hash1 },
          { position: 2, questionCode: input.question2, answerHash: hash2 },
        ],
        now,
      );
      // A factor change revokes trusted devices and ends the password resets in progress.
      await revokeTrustedDevices(trx, identity.id);
      await endResetSessionsOf(trx, [identity.id]);
    });
  }
}
