import type { SnapshotFrom } from 'xstate';
import type { guideSearchMachine } from './guide-search.machine';
import type { GuideSearchResult } from './guide-search.types';

type Snapshot = SnapshotFrom<typeof guideSearchMachine>;

export const selectSearching = (snapshot: Snapshot): boolean => snapshot.matches('searching');
/** The results to list: only once a search is done. */
export const selectResults = (snapshot: Snapshot): readonly GuideSearchResult[] =>
  snapshot.matches('done') ? snapshot.context.results : [];
/** 'No result found.' is shown. */
export const selectNoResult = (snapshot: Snapshot): boolean =>
  snapshot.matches('done') && snapshot.context.results.length === 0;
