// What a correct password leads to, and what each forced step leads to after it (section 4.1 and
// 4.3 on the server side).
//
// A sign-in is a sequence: password, then every forced step whose rule applies, in the order of
// the rules, then completion. Completion hands off the way the session's context asks (SAML or a
// JWT for another application) or signs in to the portal itself (DIRECT_LOGIN). The session stays
// AUTHENTICATION_PENDING while a step is owed; `data.forcedAction` names the one step the server
// accepts calls for (route.ts refuses the others), and `data.passed` the steps already done, so a
// rule that still applies after its step (an MFA-required user) is not asked twice.
//
// Each area adds its rule where the services are assembled (http/services.ts), in this order:
// factor enrolment, MFA, expired password, duplicate accounts, facility selection.
import type { Kysely } from 'kysely';
import type {
  AuthenticationOutcome,
  CurrentUser,
  ForcedAction,
  PreviousSignInAttempt,
} from '../../contract/entities';
import { PORTAL_APP_CODE } from '../../contract/entities';
import { findIdentityWithRoles } from '../db/repositories/identities';
import { updateSessionState, type SessionRow } from '../db/repositories/sessions';
import type { SignInPrefetch } from '../db/repositories/sign-in';
import type { Database, Identity, SessionContext, SessionData } from '../db/schema';
import { toCurrentUser } from './current-user';
import { refuse } from './errors';
import { auditEvent, shortHash } from '../observability/context';

export interface SignInFacts {
  identity: Identity;
  roles: readonly string[];
  context: SessionContext;
  /** Steps this sign-in has already passed. */
  passed: readonly ForcedAction[];
  /** The trusted-device cookie the browser sent, if any (MFA may be skipped on a trusted device). */
  deviceToken: string | null;
  /**
   * Read with the password check at sign-in (one statement); absent after a forced step, where a
   * rule reads what it needs itself.
   */
  prefetched?: SignInPrefetch | null;
  now: Date;
  db: Kysely<Database>;
}

export interface ForcedActionRule {
  readonly action: ForcedAction;
  /** Whether the step is owed; only asked while the step is not among the passed ones. */
  applies(facts: SignInFacts): boolean | Promise<boolean>;
  /**
   * Runs once the session is stored in this step, before the answer goes out (factor enrolment
   * sends its email code here). It must not throw for a failure the user can recover from in the
   * step itself (a resend).
   */
  enter?(input: { identity: Identity; session: SessionRow }): Promise<void>;
}

/** An expired password is changed once the second factor (enrolment or MFA) is passed. */
export const expiredPasswordRule: ForcedActionRule = {
  action: 'CHANGE_EXPIRED_PASSWORD',
  applies: (f) => f.identity.password_expired,
};

export type SignInDecision =
  { kind: 'forced'; action: ForcedAction } | { kind: 'complete'; via: 'DIRECT' | 'SAML' | 'JWT' };

export async function decideSignIn(
  facts: SignInFacts,
  rules: readonly ForcedActionRule[],
): Promise<SignInDecision> {
  for (const rule of rules) {
    if (facts.passed.includes(rule.action)) continue;
    if (await rule.applies(facts)) return { kind: 'forced', action: rule.action };
  }
  const { context } = facts;
  const via = context.appCode !== PORTAL_APP_CODE && context.type !== 'DIRECT' ? context.type : 'DIRECT';
  return { kind: 'complete', via };
}

/**
 * Completes a sign-in by handing off to another application; answers the outcome's fields
 * (outcome SAML_HANDOFF with `saml`, JWT with `jwt` and `frameOrigin`, or DIRECT_LOGIN with
 * isSingleSignOn and appName when the user has no access to the application that asked).
 */
export type HandoffCompletion = (input: {
  identity: Identity;
  currentUser: CurrentUser;
  context: SessionContext;
  session: SessionRow;
}) => Promise<Partial<AuthenticationOutcome>>;

export type Handoffs = Partial<Record<'SAML' | 'JWT', HandoffCompletion>>;

/** Session data of a sign-in that was decided. */
export function sessionDataFor(
  decision: SignInDecision,
  passed: readonly ForcedAction[],
  previousSignInAttempt: PreviousSignInAttempt | null,
  base: SessionData = {},
): SessionData {
  const data: SessionData = { ...base, passed: [...passed], previousSignInAttempt };
  if (decision.kind === 'forced') data.forcedAction = decision.action;
  else delete data.forcedAction;
  return data;
}

export class SignInFlow {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      rules: readonly ForcedActionRule[];
      handoffs: Handoffs;
      now: () => Date;
      /** A new session token and its hash (SessionService.newToken). */
      newSessionToken: () => { token: string; idHash: string };
      /** Forgets the username's failures, unless it is locked (Lockout.succeeded). */
      forgetFailures: (username: string) => Promise<void>;
    },
  ) {}

  decide(facts: Omit<SignInFacts, 'db' | 'now'>): Promise<SignInDecision> {
    return decideSignIn({ ...facts, db: this.deps.db, now: this.deps.now() }, this.deps.rules);
  }

  /** The answer to a decided sign-in, for a session already stored in its decided state. */
  async outcome(
    decision: SignInDecision,
    input: { identity: Identity; currentUser: CurrentUser; session: SessionRow },
  ): Promise<AuthenticationOutcome> {
    const base: AuthenticationOutcome = {
      outcome: 'DIRECT_LOGIN',
      jwt: null,
      currentUser: input.currentUser,
      previousSignInAttempt: input.session.data.previousSignInAttempt ?? null,
      forcedAction: null,
      isSingleSignOn: false,
      appName: null,
    };
    if (decision.kind === 'forced') {
      const rule = this.deps.rules.find((r) => r.action === decision.action);
      await rule?.enter?.({ identity: input.identity, session: input.session });
      // The previous sign-in is told when this one completes (kept in the session until then):
      // before that, a stolen password alone must not learn where and when the owner signed in.
      return {
        ...base,
        outcome: 'FORCED_ACTION',
        forcedAction: decision.action,
        previousSignInAttempt: null,
      };
    }
    if (decision.via !== 'DIRECT') {
      const handoff = this.deps.handoffs[decision.via];
      if (handoff) return { ...base, ...(await handoff({ ...input, context: input.session.context })) };
    }
    return base;
  }

  /**
   * After the pending session's current step was done: marks it passed, decides what comes next
   * (another step, or completion) and stores that in the session. `deviceToken` is the
   * trusted-device cookie (a device trusted at this very step counts). `alsoPassed` marks later
   * steps passed too (completing factor enrolment proves the factors MFA would ask for).
   */
  async continueAfter(
    session: SessionRow,
    step: ForcedAction,
    options: {
      deviceToken?: string | null;
      data?: Partial<SessionData>;
      alsoPassed?: readonly ForcedAction[];
    } = {},
  ): Promise<{ outcome: AuthenticationOutcome; session: SessionRow; token: string | null }> {
    if (session.type !== 'AUTHENTICATION_PENDING' || !session.identityId) throw refuse.forbidden();
    const found = await findIdentityWithRoles(this.deps.db, session.identityId);
    if (!found) throw refuse.sessionExpired();
    const passed = [...new Set([...(session.data.passed ?? []), step, ...(options.alsoPassed ?? [])])];
    const decision = await this.decide({
      identity: found.identity,
      roles: found.roles,
      context: session.context,
      passed,
      deviceToken: options.deviceToken ?? null,
    });
    const type = decision.kind === 'forced' ? 'AUTHENTICATION_PENDING' : 'AUTHENTICATED';
    const data = sessionDataFor(decision, passed, session.data.previousSignInAttempt ?? null, {
      ...session.data,
      ...options.data,
    });
    // The sign-in is complete: the session moves to a new token (the privilege it carries has
    // changed), in the same statement that marks it authenticated.
    const rotated = type === 'AUTHENTICATED' ? this.deps.newSessionToken() : null;
    const updated = await updateSessionState(this.deps.db, session.idHash, {
      type,
      data,
      ...(rotated ? { newIdHash: rotated.idHash } : {}),
    });
    if (!updated) throw refuse.sessionExpired();
    if (rotated) {
      // Keeps the audit trail of one sign-in linked across its two session ids.
      auditEvent('SESSION_RENEWED', {
        identityId: found.identity.id,
        sessionIdHash: rotated.idHash,
        previousSessionHash: shortHash(session.idHash),
      });
    }
    // The sign-in is complete: its failures are forgotten now, not at the password (lockout.ts).
    if (type === 'AUTHENTICATED') await this.deps.forgetFailures(found.identity.username);
    const next: SessionRow = { ...session, type, data, ...(rotated ? { idHash: rotated.idHash } : {}) };
    const currentUser = toCurrentUser(found.identity, found.roles, type, data.forcedAction);
    return {
      outcome: await this.outcome(decision, { identity: found.identity, currentUser, session: next }),
      session: next,
      token: rotated?.token ?? null,
    };
  }
}
