// What an identity has enrolled, and the checks that use it: TOTP codes (accepted once per step)
// and security answers (argon2id of the answer trimmed, spaces collapsed and case-folded).
import type { Kysely } from 'kysely';
import type { FactorType } from '../../../contract/entities';
import type { Clock } from '../../adapters/clock';
import type { SecretBox } from '../../adapters/secret-box';
import { claimTotpStep, enrolmentOf, factorsOf, securityAnswersOf } from '../../db/repositories/factors';
import type { Database, FactorKind, Identity } from '../../db/schema';
import type { PasswordHasher } from '../passwords';
import { base32Decode, matchTotpStep } from './totp';

export interface Enrolment {
  authenticatorApp: boolean;
  sms: boolean;
  email: boolean;
  securityQuestions: boolean;
}

export async function enrolmentSummary(db: Kysely<Database>, identityId: string): Promise<Enrolment> {
  return enrolmentFrom(await enrolmentOf(db, identityId));
}

/** The enrolment from the enrolled factor types and the number of security answers. */
export function enrolmentFrom({
  factors,
  securityAnswers,
}: {
  factors: readonly FactorKind[];
  securityAnswers: number;
}): Enrolment {
  return {
    authenticatorApp: factors.includes('AUTHENTICATOR_APP'),
    sms: factors.includes('SMS'),
    email: factors.includes('EMAIL'),
    securityQuestions: securityAnswers >= 2,
  };
}

/** Enrolled factor codes, in the order MFA offers them. */
export function enrolledFactorTypes(e: Enrolment): FactorType[] {
  const out: FactorType[] = [];
  if (e.authenticatorApp) out.push('AUTHENTICATOR_APP');
  if (e.sms) out.push('SMS');
  if (e.email) out.push('EMAIL');
  return out;
}

/**
 * Whether MFA can be asked of the identity: an authenticator app or SMS factor, or (where MFA is
 * required) the email factor, which enrolment pairs with security questions.
 */
export function canDoMfa(identity: Pick<Identity, 'mfa_required'>, e: Enrolment): boolean {
  return e.authenticatorApp || e.sms || (identity.mfa_required && e.email);
}

/**
 * Whether an identity that must use MFA still has to enrol: it has no authenticator app and no SMS
 * factor, and not the email factor with security questions either.
 */
export function needsFactorEnrolment(identity: Pick<Identity, 'mfa_required'>, e: Enrolment): boolean {
  return identity.mfa_required && !e.authenticatorApp && !e.sms && !(e.email && e.securityQuestions);
}

/** Trimmed, inner spaces collapsed, compatibility-normalised and case-folded. */
export function normaliseSecurityAnswer(answer: string): string {
  return answer.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

export type TotpCheck = 'ok' | 'incorrect' | 'used' | 'not-enrolled';

export class Factors {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      clock: Clock;
      secretBox: SecretBox;
      hasher: PasswordHasher;
    },
  ) {}

  summary(identityId: string): Promise<Enrolment> {
    return enrolmentSummary(this.deps.db, identityId);
  }

  /** The enrolled SMS factor's mobile, if any. */
  async smsMobile(identityId: string): Promise<string | null> {
    const sms = (await factorsOf(this.deps.db, identityId)).find((f) => f.factor_type === 'SMS');
    return sms?.mobile ?? null;
  }

  /**
   * Checks a code of the identity's authenticator app. `used`: the code is right but its step (or a
   * later one) was already accepted: a replay, or the loser of a double submission.
   */
  async checkAuthenticatorApp(identityId: string, code: string): Promise<TotpCheck> {
    const app = (await factorsOf(this.deps.db, identityId)).find(
      (f) => f.factor_type === 'AUTHENTICATOR_APP',
    );
    if (!app?.secret_sealed) return 'not-enrolled';
    const secret = base32Decode(this.deps.secretBox.open(app.secret_sealed));
    const step = matchTotpStep(secret, code, this.deps.clock.now());
    if (step === null) return 'incorrect';
    return (await claimTotpStep(this.deps.db, app.id, step)) ? 'ok' : 'used';
  }

  hashSecurityAnswer(answer: string): Promise<string> {
    return this.deps.hasher.hash(normaliseSecurityAnswer(answer));
  }

  /** Whether `answer` is the identity's answer to `questionCode`. */
  async checkSecurityAnswer(identityId: string, questionCode: string, answer: string): Promise<boolean> {
    const row = (await securityAnswersOf(this.deps.db, identityId)).find(
      (a) => a.question_code === questionCode,
    );
    if (!row) return false;
    return this.deps.hasher.verify(row.answer_hash, normaliseSecurityAnswer(answer));
  }
}
