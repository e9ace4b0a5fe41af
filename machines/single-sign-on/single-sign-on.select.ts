import type { SnapshotFrom } from 'xstate';
import type { HandoffTarget, SamlHandoffData } from '../../src/contract/entities';
import type { HandoffRefusal } from '../handoff/handoff.types';
import type { singleSignOnMachine } from './single-sign-on.machine';

type Snapshot = SnapshotFrom<typeof singleSignOnMachine>;

/** Which view the page shows. */
export type SingleSignOnView = 'loading' | 'confirm' | 'choose' | 'noAccess' | 'posting' | 'failed' | 'done';

export const selectView = (snapshot: Snapshot): SingleSignOnView => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('noAccess')) return 'noAccess';
  if (snapshot.matches('posting')) return 'posting';
  if (snapshot.matches('failed')) return 'failed';
  if (snapshot.matches('confirming')) return 'confirm';
  if (snapshot.matches('choosing')) return 'choose';
  // While handing off, the question the user answered stays on screen (busy).
  if (snapshot.matches('handingOff')) return snapshot.context.targets.length > 1 ? 'choose' : 'confirm';
  return 'loading';
};

/** The name the page calls the application by. */
export const selectAppName = (snapshot: Snapshot): string =>
  snapshot.context.appName ?? snapshot.context.appCode;

export const selectTargets = (snapshot: Snapshot): HandoffTarget[] => snapshot.context.targets;

/** The target being handed off to (the busy button), while the server is asked. */
export const selectBusyTarget = (snapshot: Snapshot): HandoffTarget | null =>
  snapshot.matches('handingOff') ? snapshot.context.target : null;

export const selectSamlPost = (snapshot: Snapshot): SamlHandoffData | null =>
  snapshot.matches('posting') ? snapshot.context.saml : null;

export const selectRefusal = (snapshot: Snapshot): HandoffRefusal | null => snapshot.context.refusal;

export const selectErrorMessage = (snapshot: Snapshot): string | null => snapshot.context.errorMessage;
