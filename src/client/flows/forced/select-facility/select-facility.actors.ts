// The select-facility machine's actors over the api module: the only file of this flow that imports it.
import { fromPromise } from 'xstate';
import type { SelectFacilityHandoffInput } from '../../../../../machines/forced/select-facility/select-facility.machine';
import type { HandoffAttempt } from '../../../../../machines/handoff/handoff.types';
import type { Facility } from '../../../../contract/entities';
import { getSelectFacilityFacilities, selectFacilitySamlHandoff } from '../../../api';
import { handoffAttempt } from '../../handoff/handoff.actors';
import { unlessAborted } from '../../shared/actor-calls';

export const selectFacilityActors = {
  getFacilities: fromPromise<Facility[]>(({ signal }) =>
    unlessAborted(signal, (signal) => getSelectFacilityFacilities({ signal })),
  ),
  selectFacilityHandoff: fromPromise<HandoffAttempt, SelectFacilityHandoffInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) => handoffAttempt(() => selectFacilitySamlHandoff(input, { signal }))),
  ),
};
