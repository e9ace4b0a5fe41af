// Types the access-request machines share.
import type { PageMetadata } from '../../src/contract/admin';

/** One page of a paged answer (section 7's paged list helper). */
export interface Paged<T> {
  data: T[];
  page: PageMetadata;
}

/** The number of pages `page` spans; an empty list is one (empty) page. */
export const pageCount = (page: PageMetadata): number =>
  Math.max(1, Math.ceil(page.totalElements / page.size));

/** The message of an unexpected failure (section 8's global handling has already acted on the rest). */
export function failureMessageOf(error: unknown, fallback: string): string {
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return fallback;
}

export const LOAD_FAILED_MESSAGE = 'The access requests could not be loaded.';
