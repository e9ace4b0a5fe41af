import type { HistoryItem } from '../../../src/contract/admin';
import type { Paged } from '../access-requests.types';

export interface HistoryInput {
  /** The access request whose history (or api calls) is paged. */
  id: string;
}

export interface HistoryPageQuery {
  id: string;
  page: number;
}

export interface HistoryContext {
  id: string;
  /** Zero-based page being shown or loaded. */
  page: number;
  result: Paged<HistoryItem> | null;
  errorMessage: string | null;
}

export type HistoryEvent =
  /** A page of the pagination was chosen (zero-based). */
  | { type: 'user.page'; page: number }
  /** 'Try again' after a failed load. */
  | { type: 'user.retry' };
