// The merge machine's actors over the api module: the only file of this flow that imports it.
// 422s are results; anything else is thrown for onError.
import { fromPromise } from 'xstate';
import type {
  ConfirmResult,
  DetailsResult,
  MergeFacts,
  SelectAccountsInput,
  SelectAccountsResult,
  StepResult,
} from '../../../../../machines/forced/merge-accounts/merge-accounts.types';
import type { AuthenticationOutcome } from '../../../../contract/entities';
import type {
  OutcomeResult,
  ResendResult,
} from '../../../../../machines/forced/continue-sign-in/forced-step';
import {
  confirmMerge,
  generateMergeDetails,
  getMergeIdentities,
  getPreferredUsernames,
  getProperty,
  logout,
  mergeChangeEmail,
  mergeContinueSignIn,
  mergePreferredUsername,
  mergeSelectAccounts,
  mergeSendEmail,
  mergeVerifyEmail,
  skipMerge,
} from '../../../api';
import { unlessAborted } from '../../shared/actor-calls';
import {
  continueSignIn,
  customerUnavailableOf,
  refusalOf,
  withRefusals,
} from '../shared/continue-sign-in.actors';
import { readMergeWizard } from './merge-accounts.storage';

export const SKIP_CUTOFF_PROPERTY = 'skip-merge-accounts-cutoff-date';

/** Section 4.4: skip only while now is before the cutoff date (the start of that day, UTC). */
export function isBeforeCutoff(value: string | null, now: Date): boolean {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const cutoff = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(cutoff) && now.getTime() < cutoff;
}

const done = (): StepResult => ({ type: 'done' });

export const mergeAccountsActors = {
  loadMerge: fromPromise<MergeFacts>(({ signal }) =>
    unlessAborted(signal, async (signal) => {
      const [candidates, cutoff] = await Promise.all([
        getMergeIdentities({ signal }),
        getProperty({ name: SKIP_CUTOFF_PROPERTY }, { signal }),
      ]);
      const value = 'value' in cutoff ? cutoff.value : null;
      return { candidates, canSkip: isBeforeCutoff(value, new Date()), stored: readMergeWizard() };
    }),
  ),
  skipMerge: fromPromise<OutcomeResult>(({ signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<AuthenticationOutcome, OutcomeResult>(
        () => skipMerge({ signal }),
        (outcome) => ({ type: 'outcome', outcome }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  selectAccounts: fromPromise<SelectAccountsResult, SelectAccountsInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<{ changeEmail: boolean }, SelectAccountsResult>(
        () => mergeSelectAccounts(input.identities, { signal }),
        (result) => ({ type: 'selected', changeEmail: result.changeEmail }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  changeEmail: fromPromise<StepResult, { email: string }>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<unknown, StepResult>(
        () => mergeChangeEmail(input.email, { signal }),
        done,
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  verifyEmail: fromPromise<StepResult, { code: string }>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<unknown, StepResult>(
        () => mergeVerifyEmail(input.code, { signal }),
        done,
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  resendEmail: fromPromise<ResendResult>(({ signal }) =>
    unlessAborted(signal, async (signal): Promise<ResendResult> => {
      try {
        await mergeSendEmail({ signal });
        return { type: 'sent' };
      } catch (error) {
        const unavailable = customerUnavailableOf(error);
        if (unavailable !== null) return { type: 'unavailable', message: unavailable };
        const refusal = refusalOf(error);
        if (refusal) return { type: 'refused', message: refusal.message };
        throw error;
      }
    }),
  ),
  loadPreferredUsernames: fromPromise<string[]>(({ signal }) =>
    unlessAborted(signal, async (signal) =>
      (await getPreferredUsernames({ signal })).map((option) => option.username),
    ),
  ),
  choosePreferredUsername: fromPromise<StepResult, { username: string }>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<unknown, StepResult>(
        () => mergePreferredUsername(input.username, { signal }),
        done,
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  generateMergeDetails: fromPromise<DetailsResult>(({ signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<Awaited<ReturnType<typeof generateMergeDetails>>, DetailsResult>(
        () => generateMergeDetails({ signal }),
        (details) => ({ type: 'details', details }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  confirmMerge: fromPromise<ConfirmResult>(({ signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<Awaited<ReturnType<typeof confirmMerge>>, ConfirmResult>(
        () => confirmMerge({ signal }),
        (result) => ({ type: 'merged', result }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  finishMerge: fromPromise<AuthenticationOutcome>(({ signal }) =>
    unlessAborted(signal, (signal) => mergeContinueSignIn({ signal })),
  ),
  logout: fromPromise<void>(({ signal }) =>
    unlessAborted(signal, async (signal) => {
      await logout({ signal });
    }),
  ),
  continueSignIn,
};
