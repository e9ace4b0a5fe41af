// The access-request machines' actors over the api module: the only file of this flow that imports it.
import { fromPromise } from 'xstate';
import type { Paged } from '../../../../machines/access-requests/access-requests.types';
import type { HistoryPageQuery } from '../../../../machines/access-requests/history/history.types';
import type { RequestListQuery } from '../../../../machines/access-requests/request-list/request-list.types';
import type { AccessRequestDetails, AccessRequestSummary, HistoryItem } from '../../../contract/admin';
import {
  getAccessRequest,
  getAccessRequestApiCalls,
  getAccessRequestHistory,
  getAccessRequestId,
  getAccessRequests,
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
