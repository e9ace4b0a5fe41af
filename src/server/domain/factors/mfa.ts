// The MFA step (section 4.3): the factors are offered in the order authenticator app, SMS (while
// the gateway is available), email; start answers the first, skip ('I don't have access') the
// next one after the current. Entering an SMS or email factor sends its code (not again within
// 30 s, so a reload does not spam). A verified code, optionally trusting the browser, passes the
// step; the route continues the sign-in.
import type { Kysely } from 'kysely';
import type { FactorType } from '../../../contract/entities';
import { mergeSessionData } from '../../db/repositories/factors-flow';
import type { Database, Identity } from '../../db/schema';
import { RequestRefused, refuse } from '../errors';
import type { SessionRow } from '../sessions';
import { smsUnavailable, type OneTimeCodes } from './codes';
import type { Factors } from './factors';
import { NO_EMAIL_MESSAGE, NO_SMS_FACTOR_MESSAGE, SMS_UNAVAILABLE_MESSAGE } from './messages';
import type { SmsGatewayStatus } from './sms-gateway';
import type { CodeVerifier } from './verification';

export interface MfaNext {
  nextFactor: FactorType | null;
  smsUnavailableMessage: string | null;
}

const ORDER: readonly FactorType[] = ['AUTHENTICATOR_APP', 'SMS', 'EMAIL'];
const SMS_PURPOSE = 'mfa:sms';
const EMAIL_PURPOSE = 'mfa:email';

export class MfaFlow {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      codes: OneTimeCodes;
      verifier: CodeVerifier;
      factors: Factors;
      smsGateway: SmsGatewayStatus;
    },
  ) {}

  /** The factors MFA can ask this identity for now, in order; whether SMS is enrolled but down. */
  async #offered(identity: Identity): Promise<{ factors: FactorType[]; smsDown: boolean }> {
    const e = await this.deps.factors.summary(identity.id);
    const factors: FactorType[] = [];
    let smsDown = false;
    if (e.authenticatorApp) factors.push('AUTHENTICATOR_APP');
    if (e.sms) {
      if (await this.deps.smsGateway.isAvailable()) factors.push('SMS');
      else smsDown = true;
    }
    if (e.email && identity.email) factors.push('EMAIL');
    return { factors, smsDown };
  }

  start(session: SessionRow, identity: Identity): Promise<MfaNext> {
    return this.#moveTo(session, identity, null);
  }

  /** The factor after the current one (the first one when MFA was not started). */
  skip(session: SessionRow, identity: Identity): Promise<MfaNext> {
    return this.#moveTo(session, identity, session.data.mfa?.factor ?? 'AUTHENTICATOR_APP');
  }

  async #moveTo(session: SessionRow, identity: Identity, after: FactorType | null): Promise<MfaNext> {
    const { factors, smsDown } = await this.#offered(identity);
    let smsUnavailable = smsDown;
    const rank = after === null ? -1 : ORDER.indexOf(after);
    let candidates = factors.filter((f) => ORDER.indexOf(f) > rank);
    for (;;) {
      const next = candidates[0] ?? null;
      if (next === null && after === null && smsDown) {
        // At the start, SMS is the only factor and the gateway is down: the SMS screen, with the
        // gateway's message, rather than no step at all (its resend works again once SMS is back).
        await mergeSessionData(this.deps.db, session.idHash, { mfa: { factor: 'SMS' } });
        return { nextFactor: 'SMS', smsUnavailableMessage: SMS_UNAVAILABLE_MESSAGE };
      }
      if (next === null) {
        // Nothing after: the current factor stays.
        return { nextFactor: null, smsUnavailableMessage: smsUnavailable ? SMS_UNAVAILABLE_MESSAGE : null };
      }
      try {
        await this.#sendCodeFor(session, identity, next);
      } catch (error) {
        // The gateway refused the message: SMS is unavailable for this attempt; go on to email.
        if (next === 'SMS' && error instanceof RequestRefused && error.status === 503) {
          smsUnavailable = true;
          candidates = candidates.slice(1);
          continue;
        }
        if (!(error instanceof RequestRefused)) throw error;
        // Other refusals (mail down): the page's resend link reports them.
      }
      await mergeSessionData(this.deps.db, session.idHash, { mfa: { factor: next } });
      return { nextFactor: next, smsUnavailableMessage: smsUnavailable ? SMS_UNAVAILABLE_MESSAGE : null };
    }
  }

  async #sendCodeFor(session: SessionRow, identity: Identity, factor: FactorType): Promise<void> {
    if (factor === 'AUTHENTICATOR_APP') return;
    const purpose = factor === 'SMS' ? SMS_PURPOSE : EMAIL_PURPOSE;
    if (await this.deps.codes.sentRecently(session.idHash, purpose)) return;
    await this.#send(session, identity, factor);
  }

  async #send(session: SessionRow, identity: Identity, factor: 'SMS' | 'EMAIL'): Promise<void> {
    if (factor === 'SMS') {
      const mobile = await this.deps.factors.smsMobile(identity.id);
      if (!mobile) throw refuse.unprocessable(NO_SMS_FACTOR_MESSAGE);
      await this.deps.codes.send({
        sessionIdHash: session.idHash,
        purpose: SMS_PURPOSE,
        identityId: identity.id,
        destination: mobile,
      });
      return;
    }
    const e = await this.deps.factors.summary(identity.id);
    if (!e.email || !identity.email) throw refuse.unprocessable(NO_EMAIL_MESSAGE);
    await this.deps.codes.send({
      sessionIdHash: session.idHash,
      purpose: EMAIL_PURPOSE,
      identityId: identity.id,
      destination: identity.email,
    });
  }

  /** Resend of the SMS code: 503 while SMS is unavailable, 422 when resent too soon or too often. */
  async sendSms(session: SessionRow, identity: Identity): Promise<void> {
    if (!(await this.deps.smsGateway.isAvailable())) throw smsUnavailable();
    await this.#send(session, identity, 'SMS');
  }

  sendEmail(session: SessionRow, identity: Identity): Promise<void> {
    return this.#send(session, identity, 'EMAIL');
  }

  verifyAuthenticatorApp(session: SessionRow, identity: Identity, code: string): Promise<void> {
    return this.deps.verifier.authenticatorApp(session, identity, code);
  }

  async verifyMobile(session: SessionRow, identity: Identity, code: string): Promise<void> {
    await this.deps.verifier.oneTimeCode(session, identity.username, SMS_PURPOSE, code);
  }

  async verifyEmail(session: SessionRow, identity: Identity, code: string): Promise<void> {
    await this.deps.verifier.oneTimeCode(session, identity.username, EMAIL_PURPOSE, code);
  }
}
