import type { SamlHandoffData } from '../../../src/contract/entities';
import type { SnapshotFrom } from 'xstate';
import type { continueSignInMachine } from './continue-sign-in.machine';

type Snapshot = SnapshotFrom<typeof continueSignInMachine>;

/** What the continuation shows: progress, the SAML form, or the hand-off to the parent frame. */
export type ContinueSignInView = 'signingIn' | 'postingSaml' | 'handingOff';

/**
 * The view of any snapshot the step's `continueSignIn` child has: a step's tests may run a fake
 * (a promise) in its place, which shows progress.
 */
export const selectContinueSignInView = (snapshot: unknown): ContinueSignInView => {
  const machineSnapshot = snapshot as Partial<Snapshot> | undefined;
  if (typeof machineSnapshot?.matches !== 'function') return 'signingIn';
  if (machineSnapshot.matches('postingSaml')) return 'postingSaml';
  if (machineSnapshot.matches('handingOffToParent')) return 'handingOff';
  return 'signingIn';
};

export const selectSamlHandoff = (snapshot: unknown): SamlHandoffData | null => {
  const machineSnapshot = snapshot as Partial<Snapshot> | undefined;
  if (typeof machineSnapshot?.matches !== 'function' || !machineSnapshot.matches('postingSaml')) return null;
  return machineSnapshot.context?.outcome.saml ?? null;
};
