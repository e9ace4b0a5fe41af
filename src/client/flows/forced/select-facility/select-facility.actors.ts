// The select-facility machine's actors over the api module: the only file of this flow that imports it.
import { fromPromise } from 'xstate';
import type { SelectFacilityHandoffInput } from '../../../../../machines/forced/select-facility/select-facility.machine';
import type {
  SelectFacilityAppInput,
  SelectFacilityAppName,
} from '../../../../../machines/forced/select-facility/select-facility.types';
import type { HandoffAttempt } from '../../../../../machines/handoff/handoff.types';
import type { Facility } from '../../../../contract/entities';
import { sessionCalls } from '../../../../contract/session';
import { getSelectFacilityFacilities, request, selectFacilitySamlHandoff } from '../../../api';
import { handoffAttempt } from '../../handoff/handoff.actors';
import { unlessAborted } from '../../shared/actor-calls';

export const selectFacilityActors = {
  getFacilities: fromPromise<Facility[]>(({ signal }) =>
    unlessAborted(signal, (signal) => getSelectFacilityFacilities({ signal })),
  ),
  // Only the handoff toast's name: a failure (whatever its status) must not take the user off the
  // step, so section 8's global handling is skipped and the machine falls back to the app's code.
  getApp: fromPromise<SelectFacilityAppName, SelectFacilityAppInput>(({ input, signal }) =>
    unlessAborted(signal, async (signal) => {
      const app = await request(sessionCalls.getApp, {
        params: { appCode: input.appCode },
        signal,
        withoutGlobalHandling: true,
      });
      return { name: app.name };
    }),
  ),
  selectFacilityHandoff: fromPromise<HandoffAttempt, SelectFacilityHandoffInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) => handoffAttempt(() => selectFacilitySamlHandoff(input, { signal }))),
  ),
};
