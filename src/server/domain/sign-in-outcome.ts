// What a correct password leads to. Forced steps come first, in the order of the rules below; a
// sign-in without forced steps completes by handing off the way the session's context asks (SAML
// or JWT for another application) or directly into the portal.
//
// Later issues add their rule to `FORCED_ACTION_RULES` (MFA enrolment and verification, duplicate
// accounts, facility selection) and their handoff to the completions the SignInService is given.
import { PORTAL_APP_CODE, type ForcedAction } from '../../contract/entities';
import type { Identity, SessionContext } from '../db/schema';

export interface SignInFacts {
  identity: Identity;
  context: SessionContext;
}

export type SignInDecision =
  { kind: 'forced'; action: ForcedAction } | { kind: 'complete'; via: 'DIRECT' | 'SAML' | 'JWT' };

export type ForcedActionRule = (facts: SignInFacts) => ForcedAction | null;

export const FORCED_ACTION_RULES: readonly ForcedActionRule[] = [
  // An expired password is changed before any other step.
  (f) => (f.identity.password_expired ? 'CHANGE_EXPIRED_PASSWORD' : null),
];

export function decideSignIn(
  facts: SignInFacts,
  rules: readonly ForcedActionRule[] = FORCED_ACTION_RULES,
): SignInDecision {
  for (const rule of rules) {
    const action = rule(facts);
    if (action) return { kind: 'forced', action };
  }
  const { context } = facts;
  const via = context.appCode !== PORTAL_APP_CODE && context.type !== 'DIRECT' ? context.type : 'DIRECT';
  return { kind: 'complete', via };
}
