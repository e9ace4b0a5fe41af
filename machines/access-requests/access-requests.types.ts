// Types the access-request machines share.
import { LIST_PAGE_LIMIT, type PageMetadata } from '../../src/contract/admin';

/** One page of a paged answer (section 7's paged list helper). */
export interface Paged<T> {
  data: T[];
  page: PageMetadata;
}

/** The number of pages `page` spans; an empty list is one (empty) page. */
export const pageCount = (page: PageMetadata): number =>
  Math.max(1, Math.ceil(page.totalElements / page.size));

/**
 * The pages of a capped list (the access requests, the admin's identities and invitations) that
 * can be asked for: its pages, at most LIST_PAGE_LIMIT (the server refuses a later page with 400,
 * which section 8 sends to /error). Its total stays exact: pageCount still says how many there are.
 */
export const reachablePageCount = (page: PageMetadata): number => Math.min(pageCount(page), LIST_PAGE_LIMIT);

/** A capped list's zero-based page number from outside (e.g. an address): at most its last reachable page. */
export const clampListPage = (page: number): number => Math.min(Math.max(0, page), LIST_PAGE_LIMIT - 1);

/** The message of an unexpected failure (section 8's global handling has already acted on the rest). */
export function failureMessageOf(error: unknown, fallback: string): string {
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return fallback;
}

export const LOAD_FAILED_MESSAGE = 'The access requests could not be loaded.';
