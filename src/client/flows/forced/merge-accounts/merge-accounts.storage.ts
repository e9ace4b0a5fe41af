// Section 3: the merge wizard state lives in session storage, so a reload resumes the step.
// Only what the wizard needs to resume is kept: never a password.
import * as v from 'valibot';
import { MERGE_WIZARD_STORAGE_KEY } from '../../../app/session/session-store';
import type { MergeWizardData } from '../../../../../machines/forced/merge-accounts/merge-accounts.types';

// The key is the session store's, which clears it at sign-out and when the session is forgotten.
export { MERGE_WIZARD_STORAGE_KEY };

const nullableString = v.nullable(v.string());
const WizardSchema = v.object({
  newEmail: nullableString,
  notSelectedIdentities: v.nullable(v.array(v.object({ username: v.string(), name: nullableString }))),
  preferredUsername: nullableString,
  selectedIdentities: v.nullable(v.array(v.object({ id: v.string(), username: v.string() }))),
  mergedUsernames: v.nullable(v.array(v.string())),
});

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** The stored wizard data, or null when there is none (or it is not ours). */
export function readMergeWizard(): MergeWizardData | null {
  const raw = storage()?.getItem(MERGE_WIZARD_STORAGE_KEY);
  if (!raw) return null;
  try {
    const parsed = v.safeParse(WizardSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

export function writeMergeWizard(data: MergeWizardData): void {
  storage()?.setItem(MERGE_WIZARD_STORAGE_KEY, JSON.stringify(data));
}

export function clearMergeWizard(): void {
  storage()?.removeItem(MERGE_WIZARD_STORAGE_KEY);
}
