import type { AuthenticationOutcome } from '../../../src/contract/entities';
import type { FieldError } from '../../../src/contract/errors';
import type { IdentityCandidate, MergeDetails, MergeResult } from '../../../src/contract/merge';
import type { ContinueSignInOutput } from '../continue-sign-in/continue-sign-in.types';
import type {
  ForcedStepOutput,
  LandingInput,
  OutcomeResult,
  Refusal,
  ResendResult,
} from '../continue-sign-in/forced-step';

export type { ContinueSignInOutput, IdentityCandidate, MergeDetails, OutcomeResult, ResendResult };

/**
 * Section 3's merge wizard state, kept in session storage by the page so a reload resumes the
 * step. Never a password.
 */
export interface MergeWizardData {
  /** The new email a code was sent to (change-email); verified at email-verification. */
  newEmail: string | null;
  /** Accounts sharing the email that were not selected; null until select-accounts answered. */
  notSelectedIdentities: Array<{ username: string; name: string | null }> | null;
  preferredUsername: string | null;
  /** Accounts selected (their passwords proven); empty for None; null until select-accounts. */
  selectedIdentities: Array<{ id: string; username: string }> | null;
  /** Set once the merge is done: the completed page names them. */
  mergedUsernames: string[] | null;
}

export const EMPTY_WIZARD: MergeWizardData = {
  newEmail: null,
  notSelectedIdentities: null,
  preferredUsername: null,
  selectedIdentities: null,
  mergedUsernames: null,
};

export interface MergeAccountsInput extends LandingInput {
  /** The address the page was opened at: a reload resumes that step if the wizard data allows. */
  path: string;
  /** The signed-in (pending) user's username: it may be the preferred one. */
  username: string;
}

/** What the page loads first: the accounts, whether Skip is offered, and the stored wizard data. */
export interface MergeFacts {
  candidates: IdentityCandidate[];
  /** Now is before the skip-merge-accounts-cutoff-date property. */
  canSkip: boolean;
  stored: MergeWizardData | null;
}

/** Select-accounts payload: each ticked account with its password (none for None). */
export interface SelectAccountsInput {
  identities: Array<{ id: string; password: string }>;
}

export type SelectAccountsResult =
  { type: 'selected'; changeEmail: boolean } | ({ type: 'refused' } & Refusal);
/** change-email, verify-email and preferred-username: done, or a 422. */
export type StepResult = { type: 'done' } | ({ type: 'refused' } & Refusal);
export type DetailsResult = { type: 'details'; details: MergeDetails } | ({ type: 'refused' } & Refusal);
export type ConfirmResult = { type: 'merged'; result: MergeResult } | ({ type: 'refused' } & Refusal);

export interface MergeAccountsContext extends LandingInput {
  entryPath: string;
  username: string;
  candidates: IdentityCandidate[];
  canSkip: boolean;
  wizard: MergeWizardData;
  /** The ids ticked at the last submit, until the server answers (never the passwords). */
  pendingSelection: string[];
  /** The email of the last change-email submit, until the server answers. */
  pendingEmail: string | null;
  /** The username of the last choose-preferred-username submit, until the server answers. */
  pendingUsername: string | null;
  usernameOptions: string[];
  details: MergeDetails | null;
  /** The last 422 of a step form (its field errors go to the matching fields). */
  refusal: Refusal | null;
  /**
   * A refusal that sends the wizard back a step (verification found the new address in use):
   * the step it returns to shows it.
   */
  returnedRefusal: Refusal | null;
  /** Section 8: merge 422 errors, listed on the confirmation step; Merge is disabled while any. */
  mergeErrors: FieldError[];
  resendRefusal: string | null;
  outcome: AuthenticationOutcome | null;
  handover: ForcedStepOutput | null;
  errorMessage: string | null;
}

export type MergeAccountsEvent =
  /** Start merge on the duplicate-accounts notice: clears the wizard data. */
  | { type: 'user.startMerge' }
  /** Skip (offered only before the cutoff date). */
  | { type: 'user.skip' }
  /** A tick changed (an account or None): clears the identity-conflict error. */
  | { type: 'user.selectionChanged' }
  /** Next on select-accounts: the ticked accounts with their passwords; none is None. */
  | { type: 'user.selectAccounts'; identities: Array<{ id: string; password: string }> }
  /** Next on change-email. */
  | { type: 'user.changeEmail'; email: string }
  /** The code sent to the new email. */
  | { type: 'user.verify'; code: string }
  | { type: 'user.resend' }
  /** Next on choose-preferred-username. */
  | { type: 'user.chooseUsername'; username: string }
  /** Merge on the confirmation step. */
  | { type: 'user.merge' }
  /** Continue on email-changed or completed. */
  | { type: 'user.continue' }
  /** The address changed without the machine (back button, a 'Go back to' link). */
  | { type: 'route.changed'; path: string };

export type MergeAccountsOutput = ForcedStepOutput;
