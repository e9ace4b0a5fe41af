import type { SnapshotFrom } from 'xstate';
import { MERGE_ERROR_FIELDS } from '../../../src/contract/merge';
import type { FieldError } from '../../../src/contract/errors';
import type { mergeAccountsMachine } from './merge-accounts.machine';

type Snapshot = SnapshotFrom<typeof mergeAccountsMachine>;

/** Which view the page shows. */
export type MergeAccountsView =
  | 'loading'
  | 'notice'
  | 'selectAccounts'
  | 'changeEmail'
  | 'emailVerification'
  | 'choosePreferredUsername'
  | 'confirmation'
  | 'emailChanged'
  | 'completed'
  | 'continuing'
  | 'failed'
  | 'invalidating'
  | 'done';

export const selectView = (s: Snapshot): MergeAccountsView => {
  if (s.status === 'done') return 'done';
  if (s.matches('invalidating')) return 'invalidating';
  if (s.matches('loading') || s.matches('resuming')) return 'loading';
  if (s.matches('notice')) return 'notice';
  if (s.matches({ wizard: 'selectAccounts' })) return 'selectAccounts';
  if (s.matches({ wizard: 'changeEmail' }) || s.matches({ wizard: 'changeEmailOnly' })) return 'changeEmail';
  if (s.matches({ wizard: 'emailVerification' }) || s.matches({ wizard: 'emailVerificationOnly' }))
    return 'emailVerification';
  if (s.matches({ wizard: 'choosePreferredUsername' })) return 'choosePreferredUsername';
  if (s.matches({ wizard: 'confirmation' })) return 'confirmation';
  if (s.matches('emailChanged')) return 'emailChanged';
  if (s.matches('completed')) return 'completed';
  if (s.matches('continuing') || s.matches('finishing')) return 'continuing';
  return 'failed';
};

/** The step's progress percentage (state meta), or null on pages without one. */
export const selectProgress = (s: Snapshot): number | null => {
  const meta = s.getMeta() as Record<string, { progress?: number } | undefined>;
  for (const node of [...s._nodes].reverse()) {
    const progress = meta[node.id]?.progress;
    if (typeof progress === 'number') return progress;
  }
  return null;
};

/** A call of the current step is under way. */
export const selectBusy = (s: Snapshot): boolean =>
  [
    { notice: 'skipping' },
    { wizard: { selectAccounts: 'selecting' } },
    { wizard: { changeEmail: 'sending' } },
    { wizard: { changeEmailOnly: 'sending' } },
    { wizard: { emailVerification: 'verifying' } },
    { wizard: { emailVerificationOnly: 'verifying' } },
    { wizard: { choosePreferredUsername: 'loadingOptions' } },
    { wizard: { choosePreferredUsername: 'choosing' } },
    { wizard: { confirmation: 'generating' } },
    { wizard: { confirmation: 'merging' } },
  ].some((value) => s.matches(value as never));

export const selectResending = (s: Snapshot): boolean =>
  s.matches({ wizard: { emailVerification: 'resending' } }) ||
  s.matches({ wizard: { emailVerificationOnly: 'resending' } });

export const selectCandidates = (s: Snapshot) => s.context.candidates;
export const selectCanSkip = (s: Snapshot) => s.context.canSkip;
export const selectWizard = (s: Snapshot) => s.context.wizard;
export const selectRefusal = (s: Snapshot) => s.context.refusal;
export const selectResendRefusal = (s: Snapshot) => s.context.resendRefusal;
export const selectUsernameOptions = (s: Snapshot) => s.context.usernameOptions;
export const selectDetails = (s: Snapshot) => s.context.details;
export const selectMergeErrors = (s: Snapshot): FieldError[] => s.context.mergeErrors;
export const selectErrorMessage = (s: Snapshot) => s.context.errorMessage;
/** Accounts were selected (the merge path), as opposed to None (the email-only path). */
export const selectMerging = (s: Snapshot): boolean => (s.context.wizard.selectedIdentities?.length ?? 0) > 0;

/** The identity-verification conflict of the last select-accounts refusal (banner; Next disabled). */
export const selectIdvConflict = (s: Snapshot): string | null =>
  s.context.refusal?.fieldErrors.find((e) => e.fieldName === MERGE_ERROR_FIELDS.idvConflict)?.message ?? null;

/** Field errors of the last refusal, by field name (the last one per field wins). */
export const selectFieldErrors = (s: Snapshot): Record<string, string> =>
  Object.fromEntries((s.context.refusal?.fieldErrors ?? []).map((e) => [e.fieldName, e.message]));
