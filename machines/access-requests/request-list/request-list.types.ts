import type { AccessRequestSummary } from '../../../src/contract/admin';
import type { Paged } from '../access-requests.types';

export interface RequestListInput {
  query?: string;
  /** Zero-based; a page past the last the server serves (LIST_PAGE_LIMIT - 1) is asked as that one. */
  page?: number;
}

/** What the list actor is asked for. */
export interface RequestListQuery {
  query: string;
  page: number;
}

export interface RequestListContext {
  /** The search applied to the list shown (or being loaded). */
  query: string;
  /** Zero-based page being shown or loaded. */
  page: number;
  result: Paged<AccessRequestSummary> | null;
  errorMessage: string | null;
}

export type RequestListEvent =
  /** The search form was submitted (an empty query lists everything). */
  | { type: 'user.search'; query: string }
  /** A page of the pagination was chosen (zero-based). */
  | { type: 'user.page'; page: number }
  /** 'Try again' after a failed load. */
  | { type: 'user.retry' };
