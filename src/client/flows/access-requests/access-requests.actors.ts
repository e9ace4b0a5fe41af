// The access-request machines' actors over the api module: the only file of this flow that imports it.
import { fromPromise } from 'xstate';
import type { Paged } from '../../../../machines/access-requests/access-requests.types';
import type { HistoryPageQuery } from '../../../../machines/access-requests/history/history.types';
import type {
  DecideInput,
  DecideResult,
  DecisionFieldErrors,
} from '../../../../machines/access-requests/request/request.types';
import type { RequestListQuery } from '../../../../machines/access-requests/request-list/request-list.types';
import type { AccessRequestDetails, AccessRequestSummary, HistoryItem } from '../../../contract/admin';
import { isApiError } from '../../api/api-error';
import {
  approveAccessRequest,
  getAccessRequest,
  getAccessRequestApiCalls,
  getAccessRequestHistory,
  getAccessRequestId,
  getAccessRequests,
  rejectAccessRequest,
} from '../../api/access-requests';
import { unlessAborted } from '../shared/actor-calls';

export const requestListActors = {
  loadAccessRequests: fromPromise<Paged<AccessRequestSummary>, RequestListQuery>(({ input, signal }) =>
    unlessAborted(signal, (signal) => getAccessRequests(input, { signal })),
  ),
};

export const requestActors = {
  resolveAccessRequestId: fromPromise<{ id: string }, { appCode: string; code: string }>(
    ({ input, signal }) => unlessAborted(signal, (signal) => getAccessRequestId(input, { signal })),
  ),
  loadAccessRequest: fromPromise<AccessRequestDetails, { id: string }>(({ input, signal }) =>
    unlessAborted(signal, (signal) => getAccessRequest(input, { signal })),
  ),
  // A 422 (the ticket or reason refused) and a 409 (decided meanwhile) are results the page shows;
  // section 8's global handling has acted on anything else it names.
  decideAccessRequest: fromPromise<DecideResult, DecideInput>(({ input, signal }) =>
    unlessAborted(signal, async (signal): Promise<DecideResult> => {
      try {
        const details =
          input.decision === 'approve'
            ? await approveAccessRequest({ id: input.id, ticketCode: input.ticketCode }, { signal })
            : await rejectAccessRequest(
                { id: input.id, ticketCode: input.ticketCode, reason: input.reason ?? '' },
                { signal },
              );
        return { type: 'decided', details };
      } catch (error) {
        if (isApiError(error) && !error.handled && error.kind === 'http') {
          if (error.status === 409) return { type: 'alreadyDecided', message: error.body.message };
          if (error.status === 422) {
            const fieldErrors: DecisionFieldErrors = {};
            for (const e of error.body.errors ?? []) {
              if (e.fieldName === 'ticketCode' || e.fieldName === 'reason')
                fieldErrors[e.fieldName] = e.message;
            }
            return { type: 'refused', message: error.body.message, fieldErrors };
          }
        }
        throw error;
      }
    }),
  ),
};

/** The history tab's pages. */
export const historyActors = {
  loadHistoryPage: fromPromise<Paged<HistoryItem>, HistoryPageQuery>(({ input, signal }) =>
    unlessAborted(signal, (signal) => getAccessRequestHistory(input, { signal })),
  ),
};

/** The api-calls tab's pages: the same machine, another loader. */
export const apiCallActors = {
  loadHistoryPage: fromPromise<Paged<HistoryItem>, HistoryPageQuery>(({ input, signal }) =>
    unlessAborted(signal, (signal) => getAccessRequestApiCalls(input, { signal })),
  ),
};
