// The DUPLICATE_ACCOUNTS step: accounts that share the user's email address are merged into one,
// or the user gives their own account a new email address (sections 2.6, 4.4 and 7).
//
// The wizard's progress lives in the session (data.merge), so the server decides every step from
// what was proven, never from what the portal claims: select-accounts proves each selected
// account with its password (argon2id; a wrong one counts towards that account's failed count,
// and an account already at the captcha threshold is not tried at all, since this screen has no
// captcha); change-email sends a code that verify-email checks; the preferred username must be one
// of the proven accounts'; confirm merges.
//
// Confirm is one transaction. It locks every identity concerned in id order (`for update`), so
// two merges over the same accounts queue instead of deadlocking and the second finds the first's
// result (a retired account) and is refused; then it moves grants, roles and history to the
// survivor (the account whose username was preferred), removes the others' second factors
// (authenticator app, SMS and email factors, security answers: the survivor keeps exactly its
// own), revokes their devices, sessions and passwords, retires them, records the merge in the
// history of each, and moves this session to the survivor. Any failure rolls all of it back.
//
// The other accounts are proven by their passwords alone, never by their second factors. So
// nothing that is a second factor moves into the survivor (a factor of the signed-in account
// moved into another account would let its owner pass that account's MFA with their own phone),
// and when a selected account's username is kept, the details shown before confirm withhold its
// mobile, phone and date of birth, as the current user withholds them until the second factor.
import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import type { ForcedAction } from '../../../contract/entities';
import type { FieldError } from '../../../contract/errors';
import {
  MERGE_ERROR_FIELDS,
  type IdentityCandidate,
  type MergeDetails,
  type MergeResult,
} from '../../../contract/merge';
import type { Clock } from '../../adapters/clock';
import { voidCode } from '../../db/repositories/codes';
import { recordIdentityEvent } from '../../db/repositories/history';
import {
  countMergePasswordFailures,
  emailUsedByOthers,
  finishMergeSession,
  grantedFacilities,
  hasIdentitySharingEmail,
  identitiesSharingEmail,
  liveIdentitiesByIds,
  lockIdentities,
  moveAccessGrants,
  moveHistory,
  moveRoles,
  passwordHashesOf,
  putMergeState,
  removeSecondFactors,
  retireIdentities,
  revokeAccess,
} from '../../db/repositories/merge';
import { endResetSessionsOf, passwordsChangedAt } from '../../db/repositories/password-reset';
import { movePendingAccessRequests } from '../access-requests';
import type { Database, Identity, MergeWizardState } from '../../db/schema';
import { refuse, RequestRefused } from '../errors';
import type { MailSender } from '../../adapters/mail';
import type { CodeVerifier } from '../factors/verification';
import type { OneTimeCodes } from '../factors/codes';
import { sessionEndedRefusal, withSessionTries } from '../factors/failures';
import { ACCOUNT_LOCKED_MESSAGE as LOCKOUT_MESSAGE, tryLaterRefusal, type Lockout } from '../lockout';
import { FAILED_SIGN_INS_BEFORE_CAPTCHA } from '../sign-in';
import { normaliseUsername, type PasswordHasher } from '../passwords';
import type { ReferenceService } from '../reference';
import type { SessionRow } from '../sessions';
import type { ForcedActionRule } from '../sign-in-flow';
import {
  ACCOUNT_GONE_MESSAGE,
  MERGE_NOTICE_SUBJECT,
  mergeNoticeText,
  ACCOUNT_LOCKED_MESSAGE,
  ACCOUNTS_CHANGED_MESSAGE,
  EMAIL_IN_USE_MESSAGE,
  EMAIL_NOT_VERIFIED_MESSAGE,
  EMAIL_SAME_MESSAGE,
  emailChangedDescription,
  IDV_CONFLICT_MESSAGE,
  MERGE_FINISHED_MESSAGE,
  MERGE_VALIDATION_MESSAGE,
  mergedDescription,
  NOT_A_CANDIDATE_MESSAGE,
  NOT_FINISHED_MESSAGE,
  PASSWORD_INCORRECT_MESSAGE,
  retiredDescription,
  SELECT_ACCOUNTS_FIRST_MESSAGE,
  SELECTED_TWICE_MESSAGE,
  SKIP_CLOSED_MESSAGE,
  TOO_MANY_PASSWORD_FAILURES_MESSAGE,
  USERNAME_NOT_CHOSEN_MESSAGE,
  USERNAME_NOT_OFFERED_MESSAGE,
} from './messages';

export const MERGE_EMAIL_PURPOSE = 'merge-identities:email';
export const SKIP_CUTOFF_PROPERTY = 'skip-merge-accounts-cutoff-date';
/** Wrong passwords of other accounts per session before it ends. */
export const MAX_MERGE_PASSWORD_FAILURES = 5;

/** Forced steps passed as one identity, which say nothing of another. */
const IDENTITY_BOUND_STEPS: readonly ForcedAction[] = ['FACTOR_ENROLMENT', 'MFA', 'CHANGE_EXPIRED_PASSWORD'];

export const MERGE_EVENT = 'IDENTITIES_MERGED';
export const RETIRED_EVENT = 'IDENTITY_RETIRED_BY_MERGE';
export const EMAIL_CHANGED_EVENT = 'EMAIL_CHANGED_BY_MERGE';

/** Sees each statement of the merge transaction as it completes (a test throws to inject a failure). */
export type MergeStatementObserver = (statementNumber: number) => void;

/**
 * Two identity-verified accounts with different verified details are two people to the bank,
 * whatever their passwords say: only the helpdesk can merge them.
 */
export function isIdvConflict(current: Identity, other: Identity): boolean {
  if (!current.identity_verified || !other.identity_verified) return false;
  return current.customer_number !== other.customer_number || current.birth_date !== other.birth_date;
}

const refusal = (errors: FieldError[]) => refuse.unprocessable(MERGE_VALIDATION_MESSAGE, errors);
const fieldRefusal = (fieldName: string, message: string) => refusal([{ fieldName, message }]);

/** The first non-null value, in the order of the identities given. */
const firstOf = <T>(identities: readonly Identity[], pick: (i: Identity) => T | null): T | null => {
  for (const identity of identities) {
    const value = pick(identity);
    if (value !== null && value !== '') return value;
  }
  return null;
};

/**
 * The merged value (firstOf), when it is also the signed-in identity's own; otherwise null: a
 * selected account's value is not shown to someone who proved only its password.
 */
const ownOnly = <T>(
  signedIn: Identity,
  ordered: readonly Identity[],
  pick: (i: Identity) => T | null,
): T | null => {
  const merged = firstOf(ordered, pick);
  return merged !== null && merged === pick(signedIn) ? merged : null;
};

class StatementCounter implements KyselyPlugin {
  #count = 0;
  constructor(private readonly observe: MergeStatementObserver) {}
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs) {
    this.#count += 1;
    this.observe(this.#count);
    return Promise.resolve(args.result);
  }
}

export interface MergeDeps {
  db: Kysely<Database>;
  clock: Clock;
  hasher: PasswordHasher;
  codes: OneTimeCodes;
  /** The merge's notice to the accounts' addresses (a failed one is reported; the merge stands). */
  mail: MailSender;
  verifier: CodeVerifier;
  reference: ReferenceService;
  endSession: (idHash: string) => Promise<void>;
  /** The failure limit every password check shares (domain/lockout.ts). */
  lockout: Lockout;
  observe?: MergeStatementObserver;
}

export class MergeService {
  constructor(private readonly deps: MergeDeps) {}

  /** Where a notice that could not be sent is reported (the route sets the server's log). */
  reportNoticeFailure: (error: unknown) => void = () => {};

  /** Owed when another live identity of the realm shares the user's email address. */
  readonly rule: ForcedActionRule = {
    action: 'DUPLICATE_ACCOUNTS',
    applies: async (facts) =>
      facts.prefetched ? facts.prefetched.sharesEmail : hasIdentitySharingEmail(facts.db, facts.identity),
  };

  async candidates(identity: Identity): Promise<IdentityCandidate[]> {
    const others = await identitiesSharingEmail(this.deps.db, identity);
    return others.map((other) => ({
      id: other.id,
      username: other.username,
      name: other.name,
      isIdvConflict: isIdvConflict(identity, other),
    }));
  }

  /** Whether skipping is still allowed: now is before the cutoff date (the start of that day, UTC). */
  async canSkip(): Promise<boolean> {
    const answer = await this.deps.reference.property(SKIP_CUTOFF_PROPERTY);
    const value = 'value' in answer ? answer.value : null;
    if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
    const cutoff = Date.parse(`${value}T00:00:00Z`);
    return Number.isFinite(cutoff) && this.deps.clock.now().getTime() < cutoff;
  }

  /** Refuses a skip after the cutoff; a skip discards the wizard's data. */
  async assertSkippable(): Promise<void> {
    if (!(await this.canSkip())) throw refuse.unprocessable(SKIP_CLOSED_MESSAGE);
  }

  /**
   * Select accounts: proves every selected account with its password. An empty list is None.
   * Answers whether a new email is needed (some accounts sharing the email stay unselected).
   */
  async selectAccounts(
    session: SessionRow,
    identity: Identity,
    selections: ReadonlyArray<{ id: string; password: string }>,
  ): Promise<{ changeEmail: boolean }> {
    const { db, hasher } = this.deps;
    const state = this.#state(session);
    if (state.completed || state.emailChanged) throw refuse.unprocessable(MERGE_FINISHED_MESSAGE);
    const others = await identitiesSharingEmail(db, identity);
    const byId = new Map(others.map((o) => [o.id, o]));

    const errors: FieldError[] = [];
    const seen = new Set<string>();
    for (const { id } of selections) {
      const other = byId.get(id);
      if (seen.has(id))
        errors.push({ fieldName: MERGE_ERROR_FIELDS.identities, message: SELECTED_TWICE_MESSAGE });
      else if (!other)
        errors.push({ fieldName: MERGE_ERROR_FIELDS.identityPassword(id), message: NOT_A_CANDIDATE_MESSAGE });
      else if (isIdvConflict(identity, other))
        errors.push({ fieldName: MERGE_ERROR_FIELDS.idvConflict, message: IDV_CONFLICT_MESSAGE });
      seen.add(id);
    }
    if (errors.length > 0) throw refusal(errors);

    const selected = selections.map((s) => ({ ...s, identity: byId.get(s.id)! }));
    const usernames = selected.map((s) => normaliseUsername(s.identity.username));
    // Every selected password is checked with one of the session's tries reserved for it
    // (factors/failures.ts): a burst of parallel guesses gets no more checks than the session has.
    let hashes = new Map<string, { hash: string; changedAt: Date }>();
    const prove = async () => {
      hashes = await passwordHashesOf(
        db,
        selected.map((s) => s.id),
      );
      const wrong: typeof selected = [];
      const releases: Array<() => Promise<void>> = [];
      const fieldError = (id: string, message: string) =>
        errors.push({ fieldName: MERGE_ERROR_FIELDS.identityPassword(id), message });
      try {
        // First one of each account's tries, up to the captcha's count (where the merge stops
        // checking): parallel merges from many sessions get no more checks than that
        // (domain/lockout.ts). An account without a try is locked, or at the captcha's count, or
        // has other checks in flight: then nothing is checked, and the request may ask again.
        const toCheck: typeof selected = [];
        let busy: number | null = null;
        for (const s of selected) {
          const tries = await this.deps.lockout.reserve(
            [s.identity.username],
            FAILED_SIGN_INS_BEFORE_CAPTCHA,
          );
          if (tries.ok) {
            releases.push(tries.release);
            toCheck.push(s);
          } else if (tries.gate.state === 'locked') fieldError(s.id, LOCKOUT_MESSAGE);
          else if (tries.count >= FAILED_SIGN_INS_BEFORE_CAPTCHA) fieldError(s.id, ACCOUNT_LOCKED_MESSAGE);
          else busy = Math.max(busy ?? 1, tries.gate.state === 'wait' ? tries.gate.retryAfterSeconds : 1);
        }
        if (busy !== null) throw tryLaterRefusal(busy);
        for (const s of toCheck) {
          const hash = hashes.get(s.id)?.hash;
          const ok = hash ? await hasher.verify(hash, s.password) : false;
          if (!ok) {
            wrong.push(s);
            fieldError(s.id, PASSWORD_INCORRECT_MESSAGE);
          }
        }
        for (const s of wrong) await this.deps.lockout.fail(s.identity.username);
      } finally {
        for (const release of releases) await release();
      }
      if (wrong.length > 0) {
        const failures = await countMergePasswordFailures(db, session.idHash, wrong.length);
        if (failures >= MAX_MERGE_PASSWORD_FAILURES) {
          await this.deps.endSession(session.idHash);
          throw sessionEndedRefusal(TOO_MANY_PASSWORD_FAILURES_MESSAGE);
        }
      }
      if (errors.length > 0) throw refusal(errors);
    };
    if (selected.length > 0)
      await withSessionTries(
        db,
        session.idHash,
        'mergePasswordFailures',
        MAX_MERGE_PASSWORD_FAILURES,
        selected.length,
        prove,
      );

    for (const username of usernames) await this.deps.lockout.succeeded(username);
    const selectedIds = selected.map((s) => s.id);
    const changeEmail = others.length > selectedIds.length;
    const offered = new Set([identity.username, ...selected.map((s) => s.identity.username)]);
    const next: MergeWizardState = {
      selectedIds,
      passwordsChangedAt: Object.fromEntries(
        selectedIds.flatMap((id) => {
          const changedAt = hashes.get(id)?.changedAt;
          return changedAt ? [[id, changedAt.toISOString()]] : [];
        }),
      ),
      changeEmail,
      // A new email already verified stays valid while one is still needed.
      pendingEmail: changeEmail ? (state.pendingEmail ?? null) : null,
      newEmail: changeEmail ? (state.newEmail ?? null) : null,
      preferredUsername:
        state.preferredUsername && offered.has(state.preferredUsername) && selectedIds.length > 0
          ? state.preferredUsername
          : null,
      emailChanged: false,
      completed: null,
    };
    await putMergeState(db, session.idHash, next);
    return { changeEmail };
  }

  /** Change email: sends a code to the new address. */
  async changeEmail(session: SessionRow, identity: Identity, email: string): Promise<void> {
    const state = this.#state(session);
    if (state.completed || state.emailChanged) throw refuse.unprocessable(MERGE_FINISHED_MESSAGE);
    if (!state.selectedIds || !state.changeEmail)
      throw fieldRefusal(MERGE_ERROR_FIELDS.identities, SELECT_ACCOUNTS_FIRST_MESSAGE);
    const address = email.trim();
    if (identity.email && address.toLowerCase() === identity.email.toLowerCase())
      throw fieldRefusal(MERGE_ERROR_FIELDS.email, EMAIL_SAME_MESSAGE);
    // Whether another account uses the address is told only to whoever reads its mail, once the
    // code is verified (verifyEmail): answered here, it would tell anyone at this step whether an
    // address belongs to a customer.
    try {
      await this.deps.codes.send({
        sessionIdHash: session.idHash,
        purpose: MERGE_EMAIL_PURPOSE,
        identityId: identity.id,
        destination: address,
      });
    } catch (error) {
      // Too soon or too often: the message belongs to the email field.
      if (error instanceof RequestRefused && error.status === 422)
        throw fieldRefusal(MERGE_ERROR_FIELDS.email, error.body.message);
      throw error;
    }
    await putMergeState(this.deps.db, session.idHash, { ...state, pendingEmail: address, newEmail: null });
  }

  /** Resends the code to the new address. */
  async resendEmailCode(session: SessionRow, identity: Identity): Promise<void> {
    const state = this.#state(session);
    if (!state.pendingEmail) throw fieldRefusal(MERGE_ERROR_FIELDS.email, EMAIL_NOT_VERIFIED_MESSAGE);
    await this.deps.codes.send({
      sessionIdHash: session.idHash,
      purpose: MERGE_EMAIL_PURPOSE,
      identityId: identity.id,
      destination: state.pendingEmail,
    });
  }

  /**
   * Checks the code sent to the new address. With None chosen the address becomes the account's
   * now (the email-changed page); with accounts selected it is applied by confirm.
   */
  async verifyEmail(session: SessionRow, identity: Identity, code: string): Promise<void> {
    const { db, clock, verifier } = this.deps;
    const state = this.#state(session);
    if (state.completed || state.emailChanged) throw refuse.unprocessable(MERGE_FINISHED_MESSAGE);
    if (!state.selectedIds || !state.pendingEmail)
      throw fieldRefusal(MERGE_ERROR_FIELDS.email, EMAIL_NOT_VERIFIED_MESSAGE);
    const destination = await verifier.oneTimeCode(session, identity.username, MERGE_EMAIL_PURPOSE, code);
    if (
      await emailUsedByOthers(db, {
        email: destination,
        realmCode: identity.realm_code,
        except: [identity.id, ...state.selectedIds],
      })
    ) {
      // Back to change email: another address may be sent a code at once (no resend wait).
      await voidCode(db, session.idHash, MERGE_EMAIL_PURPOSE);
      await putMergeState(db, session.idHash, { ...state, pendingEmail: null, newEmail: null });
      throw fieldRefusal(MERGE_ERROR_FIELDS.email, EMAIL_IN_USE_MESSAGE);
    }
    if (state.selectedIds.length > 0) {
      await putMergeState(db, session.idHash, { ...state, newEmail: destination });
      return;
    }
    await db.transaction().execute(async (trx) => {
      const [locked] = await lockIdentities(trx, [identity.id]);
      if (!locked || locked.retired_at) throw refuse.sessionExpired();
      if (
        await emailUsedByOthers(trx, {
          email: destination,
          realmCode: identity.realm_code,
          except: [identity.id],
        })
      )
        throw fieldRefusal(MERGE_ERROR_FIELDS.email, EMAIL_IN_USE_MESSAGE);
      const now = clock.now();
      await trx
        .updateTable('identities')
        .set({ email: destination, updated_at: now })
        .where('id', '=', identity.id)
        .execute();
      // A new email ends the password resets in progress, as the profile's change does.
      await endResetSessionsOf(trx, [identity.id]);
      await recordIdentityEvent(trx, {
        identityId: identity.id,
        eventDate: now,
        actorIdentityId: identity.id,
        type: EMAIL_CHANGED_EVENT,
        variant: 'info',
        description: emailChangedDescription(locked.email, destination),
      });
      await putMergeState(trx, session.idHash, { ...state, newEmail: destination, emailChanged: true });
    });
  }

  /** The usernames the merged account may keep: the user's own and the selected accounts'. */
  async preferredUsernames(session: SessionRow, identity: Identity): Promise<Array<{ username: string }>> {
    const state = this.#readyForUsername(session);
    const selected = await liveIdentitiesByIds(this.deps.db, state.selectedIds);
    return [identity, ...selected].map((i) => ({ username: i.username }));
  }

  async choosePreferredUsername(session: SessionRow, identity: Identity, username: string): Promise<void> {
    const state = this.#readyForUsername(session);
    const selected = await liveIdentitiesByIds(this.deps.db, state.selectedIds);
    const match = [identity, ...selected].find((i) => i.username.toLowerCase() === username.toLowerCase());
    if (!match) throw fieldRefusal(MERGE_ERROR_FIELDS.preferredUsername, USERNAME_NOT_OFFERED_MESSAGE);
    await putMergeState(this.deps.db, session.idHash, { ...state, preferredUsername: match.username });
  }

  /**
   * What the merged account will look like (section 3's merge details). Kept under the signed-in
   * identity's username, the merged account is this user's as soon as it is confirmed, selected
   * accounts' details included: all are shown, as they will be. Kept under a selected account's
   * username, the merged account is only reached through that account's own second factor, next
   * in this sign-in; until then its mobile, phone and date of birth are withheld (null) where they
   * would come from a selected account, as toCurrentUser withholds them before the second factor.
   */
  async details(session: SessionRow, identity: Identity): Promise<MergeDetails> {
    const state = this.#readyToConfirm(session);
    const { db } = this.deps;
    const selected = await liveIdentitiesByIds(db, state.selectedIds);
    const errors = this.#staleSelection(state, selected);
    if (errors.length > 0) throw refusal(errors);
    const all = [identity, ...selected];
    const { survivor, ordered } = this.#survivorOf(all, state.preferredUsername);
    const shown =
      survivor.id === identity.id
        ? firstOf
        : <T>(list: readonly Identity[], pick: (i: Identity) => T | null) => ownOnly(identity, list, pick);
    const facilities = await grantedFacilities(
      db,
      all.map((i) => i.id),
    );
    return {
      username: survivor.username,
      name: firstOf(ordered, (i) => i.name),
      email: state.newEmail ?? firstOf(ordered, (i) => i.email),
      mobile: shown(ordered, (i) => i.mobile),
      phone: shown(ordered, (i) => i.phone),
      birthDate: shown(ordered, (i) => i.birth_date),
      accessibleFacilities: facilities.map((f) => ({
        id: f.id,
        appName: f.app_name,
        name: f.name,
        code: f.code,
      })),
    };
  }

  /** The merge itself: all or nothing (see the top of this file). */
  async confirm(session: SessionRow, identity: Identity): Promise<MergeResult> {
    const { result, addresses, at } = await this.#merge(session, identity);
    // Everyone who reads the accounts' mail hears of it: a merge made with a phished password is
    // seen by the owner. The merge stands when a notice cannot be sent.
    for (const to of addresses) {
      try {
        await this.deps.mail.send({
          to,
          subject: MERGE_NOTICE_SUBJECT,
          text: mergeNoticeText(result.preferredUsername, result.mergedUsernames, at),
        });
      } catch (error) {
        this.reportNoticeFailure(error);
      }
    }
    return result;
  }

  async #merge(
    session: SessionRow,
    identity: Identity,
  ): Promise<{ result: MergeResult; addresses: string[]; at: Date }> {
    const state = this.#readyToConfirm(session);
    const { db, clock } = this.deps;
    const ids = [identity.id, ...state.selectedIds];
    return db.transaction().execute(async (plain) => {
      const trx = this.deps.observe ? plain.withPlugin(new StatementCounter(this.deps.observe)) : plain;
      const locked = await lockIdentities(trx, ids);
      const byId = new Map(locked.map((i) => [i.id, i]));
      const current = byId.get(identity.id);
      if (!current || current.retired_at) throw refuse.sessionExpired();
      const errors: FieldError[] = [];
      // A password changed since it was proven here (its owner taking the account back) ends the
      // proof: the account is not merged on the strength of a password it no longer has.
      const changedAt = await passwordsChangedAt(trx, state.selectedIds);
      const reproven = (id: string) =>
        state.passwordsChangedAt?.[id] !== undefined &&
        state.passwordsChangedAt[id] === changedAt.get(id)?.toISOString();
      for (const id of state.selectedIds) {
        const other = byId.get(id);
        if (!other || other.retired_at || !reproven(id))
          errors.push({
            fieldName: MERGE_ERROR_FIELDS.identities,
            message: other ? ACCOUNT_GONE_MESSAGE(other.username) : ACCOUNTS_CHANGED_MESSAGE,
          });
        else if (isIdvConflict(current, other))
          errors.push({ fieldName: MERGE_ERROR_FIELDS.idvConflict, message: IDV_CONFLICT_MESSAGE });
      }
      if (errors.length > 0) throw refusal(errors);
      const all = [current, ...state.selectedIds.map((id) => byId.get(id)!)];
      const { survivor, ordered } = this.#survivorOf(all, state.preferredUsername);
      if (
        state.newEmail &&
        (await emailUsedByOthers(trx, { email: state.newEmail, realmCode: current.realm_code, except: ids }))
      )
        throw fieldRefusal(MERGE_ERROR_FIELDS.email, EMAIL_IN_USE_MESSAGE);

      const others = all.filter((i) => i.id !== survivor.id);
      const otherIds = others.map((i) => i.id);
      const now = clock.now();
      await moveAccessGrants(trx, survivor.id, otherIds);
      await movePendingAccessRequests(trx, { survivor, retired: others, actorIdentityId: current.id, now });
      await moveRoles(trx, survivor.id, otherIds);
      await removeSecondFactors(trx, otherIds);
      await moveHistory(trx, survivor.id, otherIds);
      await revokeAccess(trx, otherIds, session.idHash);
      await retireIdentities(trx, otherIds, now);
      // The accounts' factors, answers and perhaps email change: no reset of any part carries on.
      await endResetSessionsOf(trx, ids);
      await trx
        .updateTable('identities')
        .set({
          name: firstOf(ordered, (i) => i.name) ?? survivor.name,
          email: state.newEmail ?? firstOf(ordered, (i) => i.email),
          mobile: firstOf(ordered, (i) => i.mobile),
          phone: firstOf(ordered, (i) => i.phone),
          birth_date: firstOf(ordered, (i) => i.birth_date),
          customer_number: firstOf(ordered, (i) => i.customer_number),
          identity_verified: all.some((i) => i.identity_verified),
          // The stricter setting wins: the merged account is no weaker than any part of it. A
          // survivor that must now use MFA but has no factor of its own is sent to factor
          // enrolment by the forced steps (factors/rules.ts), in this sign-in and the next.
          mfa_required: all.some((i) => i.mfa_required),
          updated_at: now,
        })
        .where('id', '=', survivor.id)
        .execute();
      const mergedUsernames = others.map((i) => i.username);
      await recordIdentityEvent(trx, {
        identityId: survivor.id,
        eventDate: now,
        actorIdentityId: current.id,
        type: MERGE_EVENT,
        variant: 'success',
        description: mergedDescription(survivor.username, mergedUsernames),
      });
      for (const other of others) {
        await recordIdentityEvent(trx, {
          identityId: other.id,
          eventDate: now,
          actorIdentityId: current.id,
          type: RETIRED_EVENT,
          variant: 'warning',
          description: retiredDescription(survivor.username),
        });
      }
      const result = { preferredUsername: survivor.username, mergedUsernames };
      // The second factor, its enrolment and an expired password's change were passed as the
      // signed-in account. Surviving as another, the sign-in owes that account's own: a password
      // alone must not turn one account's sign-in into another's, second factor included (nor
      // may a code the signed-in account was sent in this session: finishMergeSession voids them).
      const passed = (session.data.passed ?? []).filter(
        (step) => survivor.id === identity.id || !IDENTITY_BOUND_STEPS.includes(step),
      );
      await finishMergeSession(
        trx,
        session.idHash,
        survivor.id,
        { ...state, completed: result },
        passed,
        survivor.id !== identity.id,
      );
      // Each address the accounts had, and the new one, once (case aside).
      const emails = [...all.map((i) => i.email), state.newEmail].filter((e): e is string => Boolean(e));
      const addresses = [...new Map(emails.map((e) => [e.toLowerCase(), e])).values()];
      return { result, addresses, at: now };
    });
  }

  /** Continue on the final pages: only once the merge or the email change is done. */
  assertFinished(session: SessionRow): void {
    const state = this.#state(session);
    if (!state.completed && !state.emailChanged) throw refuse.unprocessable(NOT_FINISHED_MESSAGE);
  }

  #state(session: SessionRow): MergeWizardState {
    return session.data.merge ?? {};
  }

  #readyForUsername(session: SessionRow): MergeWizardState & { selectedIds: string[] } {
    const state = this.#state(session);
    if (state.completed) throw refuse.unprocessable(MERGE_FINISHED_MESSAGE);
    const { selectedIds } = state;
    if (!selectedIds || selectedIds.length === 0)
      throw fieldRefusal(MERGE_ERROR_FIELDS.identities, SELECT_ACCOUNTS_FIRST_MESSAGE);
    if (state.changeEmail && !state.newEmail)
      throw fieldRefusal(MERGE_ERROR_FIELDS.email, EMAIL_NOT_VERIFIED_MESSAGE);
    return { ...state, selectedIds };
  }

  #readyToConfirm(
    session: SessionRow,
  ): MergeWizardState & { selectedIds: string[]; preferredUsername: string } {
    const state = this.#readyForUsername(session);
    const { preferredUsername } = state;
    if (!preferredUsername)
      throw fieldRefusal(MERGE_ERROR_FIELDS.preferredUsername, USERNAME_NOT_CHOSEN_MESSAGE);
    return { ...state, preferredUsername };
  }

  #staleSelection(state: { selectedIds: string[] }, live: readonly Identity[]): FieldError[] {
    const liveIds = new Set(live.map((i) => i.id));
    return state.selectedIds.some((id) => !liveIds.has(id))
      ? [{ fieldName: MERGE_ERROR_FIELDS.identities, message: ACCOUNTS_CHANGED_MESSAGE }]
      : [];
  }

  /** The account whose username was preferred survives; its values come first, then the user's own. */
  #survivorOf(
    all: readonly Identity[],
    preferredUsername: string,
  ): { survivor: Identity; ordered: Identity[] } {
    const survivor = all.find((i) => i.username === preferredUsername);
    if (!survivor) throw fieldRefusal(MERGE_ERROR_FIELDS.preferredUsername, USERNAME_NOT_OFFERED_MESSAGE);
    const rest = all.filter((i) => i.id !== survivor.id);
    return { survivor, ordered: [survivor, ...rest] };
  }
}
