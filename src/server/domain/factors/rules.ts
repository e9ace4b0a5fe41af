// The forced-step rules of the factors (see domain/sign-in-flow.ts), asked right after the
// expired-password rule:
// - FACTOR_ENROLMENT: MFA is required and the identity has nothing MFA could ask for (no
//   authenticator app, no SMS, not email with security questions). Entering the step sends the
//   email code the wizard's first page asks for.
// - MFA: the identity has something MFA can ask for (canDoMfa), and the browser's trusted-device
//   cookie is not a live trusted device of this identity.
// Identities that need not use MFA are not forced to enrol: security enrolment (email and security
// questions) happens at registration and in the profile, and the wizard's heading says 'Security
// enrolment' whenever mfa-required answers false.
import type { ForcedActionRule, SignInFacts } from '../sign-in-flow';
import { RequestRefused } from '../errors';
import { canDoMfa, enrolmentFrom, enrolmentSummary, needsFactorEnrolment, type Enrolment } from './factors';
import type { FactorEnrolmentFlow } from './enrolment';
import { matchTrustedDevice } from './trusted-devices';

/** The identity's enrolment: as read with the sign-in when it was, else from the database. */
async function enrolmentOfFacts(f: SignInFacts): Promise<Enrolment> {
  return f.prefetched ? enrolmentFrom(f.prefetched) : enrolmentSummary(f.db, f.identity.id);
}

export function factorEnrolmentRule(enrolment: FactorEnrolmentFlow): ForcedActionRule {
  return {
    action: 'FACTOR_ENROLMENT',
    // Only identities that must use MFA are forced to enrol: no read for anyone else.
    applies: async (f) =>
      f.identity.mfa_required && needsFactorEnrolment(f.identity, await enrolmentOfFacts(f)),
    async enter({ identity, session }) {
      try {
        await enrolment.sendEmailCode(session, identity, { quietlyIfRecent: true });
      } catch (error) {
        // Mail down or resent too soon: the page's resend link recovers; the sign-in goes on.
        if (!(error instanceof RequestRefused)) throw error;
      }
    },
  };
}

export const mfaRule: ForcedActionRule = {
  action: 'MFA',
  async applies(f) {
    if (!canDoMfa(f.identity, await enrolmentOfFacts(f))) return false;
    return !(await matchTrustedDevice(f.db, { identityId: f.identity.id, token: f.deviceToken, now: f.now }));
  },
};
