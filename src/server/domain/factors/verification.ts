// Turning a code check into an answer: success, or a 422 the code field shows. Wrong and expired
// codes are counted (failures.ts); at the limit the session ends and the answer reroutes to
// sign-in. Each check holds one of the session's tries while it runs, so parallel guesses in one
// session are no more than its tries left. A right code that was already used (the second of a double submission, a replayed
// TOTP) is refused without counting: it is not a guess.
import type { Kysely } from 'kysely';
import type { FieldError } from '../../../contract/errors';
import type { Database } from '../../db/schema';
import { refuse, type RequestRefused } from '../errors';
import type { SessionRow } from '../sessions';
import type { CodeCheck, CodePurpose, OneTimeCodes } from './codes';
import type { Factors } from './factors';
import { MAX_FACTOR_FAILURES, sessionEndedRefusal, type FailureCounter } from './failures';
import {
  CODE_EXPIRED_MESSAGE,
  CODE_INCORRECT_MESSAGE,
  CODE_NOT_SENT_MESSAGE,
  NO_AUTHENTICATOR_APP_MESSAGE,
  TOO_MANY_CODE_FAILURES_MESSAGE,
  TOTP_ALREADY_USED_MESSAGE,
} from './messages';
import { matchTotpStep } from './totp';

export const CODE_USED_MESSAGE = 'This code has already been used. Request a new code.';

const codeRefusal = (message: string): RequestRefused => {
  const errors: FieldError[] = [{ fieldName: 'code', message }];
  return refuse.unprocessable(message, errors);
};

export class CodeVerifier {
  constructor(
    private readonly codes: OneTimeCodes,
    private readonly factors: Factors,
    private readonly failures: FailureCounter,
  ) {}

  /** The destination the session's code for `purpose` went to; throws the refusal otherwise. */
  async oneTimeCode(
    session: SessionRow,
    username: string | null,
    purpose: CodePurpose,
    code: string,
  ): Promise<string> {
    await this.failures.assertMayTry(session, [username]);
    return this.#guarded(session, username, () => this.#oneTimeCode(session, username, purpose, code));
  }

  async #oneTimeCode(
    session: SessionRow,
    username: string | null,
    purpose: CodePurpose,
    code: string,
  ): Promise<string> {
    const result: CodeCheck = await this.codes.check({ sessionIdHash: session.idHash, purpose, code });
    if (result.ok) return result.destination;
    if (result.reason === 'not-sent') throw codeRefusal(CODE_NOT_SENT_MESSAGE);
    if (result.reason === 'used') throw codeRefusal(CODE_USED_MESSAGE);
    await this.#fail(session, username);
    throw codeRefusal(result.reason === 'expired' ? CODE_EXPIRED_MESSAGE : CODE_INCORRECT_MESSAGE);
  }

  /**
   * oneTimeCode for a code that proves a change: the code is used in the transaction that applies
   * `apply` (with the destination), so a crash between the two cannot leave the code used and the
   * change undone. A code the transaction does not take gets oneTimeCode's answer (and count)
   * after it, as a count must not roll back.
   */
  async oneTimeCodeApplied<T>(
    session: SessionRow,
    username: string | null,
    purpose: CodePurpose,
    code: string,
    db: Kysely<Database>,
    apply: (trx: Kysely<Database>, destination: string) => Promise<T>,
  ): Promise<T> {
    await this.failures.assertMayTry(session, [username]);
    return this.#guarded(session, username, async () => {
      const applied = await db.transaction().execute(async (trx) => {
        const result = await this.codes.check({ sessionIdHash: session.idHash, purpose, code }, trx);
        return result.ok ? { value: await apply(trx, result.destination) } : null;
      });
      if (applied) return applied.value;
      const destination = await this.#oneTimeCode(session, username, purpose, code);
      // Only when the code became usable meanwhile (a concurrent attempt with it rolled back).
      return db.transaction().execute((trx) => apply(trx, destination));
    });
  }

  /** Accepts a code of the identity's enrolled authenticator app, once per step. */
  async authenticatorApp(session: SessionRow, identity: { id: string; username: string }, code: string) {
    await this.failures.assertMayTry(session, [identity.username]);
    return this.#guarded(session, identity.username, async () => {
      const result = await this.factors.checkAuthenticatorApp(identity.id, code);
      if (result === 'ok') return;
      if (result === 'not-enrolled') throw refuse.unprocessable(NO_AUTHENTICATOR_APP_MESSAGE);
      if (result === 'used') throw codeRefusal(TOTP_ALREADY_USED_MESSAGE);
      await this.#fail(session, identity.username);
      throw codeRefusal(CODE_INCORRECT_MESSAGE);
    });
  }

  /** Matches a code of a secret being set up (not yet stored); answers its step. */
  async newAuthenticatorApp(session: SessionRow, username: string, secret: Buffer, code: string, now: Date) {
    await this.failures.assertMayTry(session, [username]);
    return this.#guarded(session, username, async () => {
      const step = matchTotpStep(secret, code, now);
      if (step !== null) return step;
      await this.#fail(session, username);
      throw codeRefusal(CODE_INCORRECT_MESSAGE);
    });
  }

  /** The check with one of the session's tries and one of the account's reserved (failures.ts). */
  #guarded<T>(session: SessionRow, username: string | null, check: () => Promise<T>): Promise<T> {
    return this.failures.guarded(session, 'factorFailures', MAX_FACTOR_FAILURES, [username], check);
  }

  async #fail(session: SessionRow, username: string | null): Promise<void> {
    const verdict = await this.failures.count(session, username, 'factorFailures', MAX_FACTOR_FAILURES);
    if (verdict === 'ended') throw sessionEndedRefusal(TOO_MANY_CODE_FAILURES_MESSAGE);
  }
}
