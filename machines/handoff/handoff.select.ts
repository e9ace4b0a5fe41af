import type { SnapshotFrom } from 'xstate';
import type { HandoffTarget, SamlHandoffData } from '../../src/contract/entities';
import type { handoffMachine } from './handoff.machine';
import type { HandoffRefusal } from './handoff.types';

type Snapshot = SnapshotFrom<typeof handoffMachine>;

/** The target being handed off to while the server is asked or the form is posted; else null. */
export const selectBusyTarget = (snapshot: Snapshot): HandoffTarget | null =>
  snapshot.matches('idle') ? null : snapshot.context.target;

/** What the hidden form posts, only while posting. */
export const selectSamlPost = (snapshot: Snapshot): SamlHandoffData | null =>
  snapshot.matches('posting') ? snapshot.context.saml : null;

/** The last refusal (the toast shows it as it happens). */
export const selectRefusal = (snapshot: Snapshot): HandoffRefusal | null => snapshot.context.refusal;
