// What the profile's machines share: the answers their provided actors give (expected refusals are
// results, routed by guards on onDone), how a profile screen hands over when it is done, and the
// two steps of the wizards with their progress.
import type { CurrentUser } from '../../src/contract/entities';
import type { Refusal, ResendResult } from '../forced/continue-sign-in/forced-step';

export type { Refusal, ResendResult };

/** A change that was saved: the updated user when the call answers one (section 7). */
export type SavedResult = { type: 'saved'; user: CurrentUser | null };

/** A profile call whose 422 is shown on the form's fields. */
export type SubmitResult = SavedResult | ({ type: 'refused' } & Refusal);

/** How a profile screen hands over; every one of them goes back to /profile. */
export type ProfileOutput =
  /** Saved: the page shows the screen's success toast and puts the updated user in the session. */
  | { kind: 'saved'; route: string; user: CurrentUser | null }
  /** Cancelled, or left from a failure. */
  | { kind: 'cancelled'; route: string }
  /** Section 8: an SMS 503 stores the customer message and goes back to /profile. */
  | { kind: 'unavailable'; route: string; message: string };

/** Section 2.3: the profile wizards have two steps, step 1 at 50 percent and step 2 at 100 percent. */
export const WIZARD_STEP_PROGRESS = { 1: 50, 2: 100 } as const;
export type WizardStep = keyof typeof WIZARD_STEP_PROGRESS;
