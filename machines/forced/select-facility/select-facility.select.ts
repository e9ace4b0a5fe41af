import type { SnapshotFrom } from 'xstate';
import type { Facility, SamlHandoffData } from '../../../src/contract/entities';
import type { HandoffRefusal } from '../../handoff/handoff.types';
import type { selectFacilityMachine } from './select-facility.machine';

type Snapshot = SnapshotFrom<typeof selectFacilityMachine>;

/** Which view the page shows. */
export type SelectFacilityView = 'loading' | 'choose' | 'noFacilities' | 'posting' | 'failed';

export const selectView = (snapshot: Snapshot): SelectFacilityView => {
  if (snapshot.matches('choosing') || snapshot.matches('handingOff')) return 'choose';
  if (snapshot.matches('noFacilities')) return 'noFacilities';
  if (snapshot.matches('posting')) return 'posting';
  if (snapshot.matches('failed')) return 'failed';
  return 'loading';
};

export const selectFacilities = (snapshot: Snapshot): Facility[] => snapshot.context.facilities;

/** The facility being handed off to (the busy button), while the server is asked. */
export const selectBusyFacility = (snapshot: Snapshot): Facility | null =>
  snapshot.matches('handingOff') ? snapshot.context.facility : null;

export const selectSamlPost = (snapshot: Snapshot): SamlHandoffData | null =>
  snapshot.matches('posting') ? snapshot.context.saml : null;

export const selectRefusal = (snapshot: Snapshot): HandoffRefusal | null => snapshot.context.refusal;

export const selectErrorMessage = (snapshot: Snapshot): string | null => snapshot.context.errorMessage;
