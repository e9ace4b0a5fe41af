// The result count ('N result(s)'), 'N pages' when there is more than one, and the page buttons.
// The count is a status region (WCAG 4.1.3), there before the first result (page null) so that a
// screen reader announces its text when it changes.
// A list the server pages only so far (maxPages: the admin lists' LIST_PAGE_LIMIT) keeps its exact
// count and pages, offers no page past the maximum, and says so in the same status region, so that
// the count and why the pages stop are announced together, once.
// Built from Button rather than Mantine's Pagination, whose hook would land in the framework chunk
// the sign-in page loads (its gzip budget). A button that may not be used (while a page loads, or
// Previous on the first page) is aria-disabled rather than disabled: a disabled button drops the
// focus of the keyboard user who just pressed it, who would have to start again from the top.
import { Button, Group, Text } from '@mantine/core';
import type { MouseEvent } from 'react';
import { pageCount } from '../../../../machines/access-requests/access-requests.types';
import type { PageMetadata } from '../../../contract/admin';
import { accessRequestsTexts as t } from './access-requests.texts';

/** Zero-based page numbers to offer: first, last, and the current one with its neighbours. */
export function pagesToOffer(current: number, pages: number): Array<number | 'gap'> {
  const wanted = new Set(
    [0, pages - 1, current - 1, current, current + 1].filter((n) => n >= 0 && n < pages),
  );
  const sorted = [...wanted].sort((a, b) => a - b);
  return sorted.flatMap((n, i) => (i > 0 && n - sorted[i - 1]! > 1 ? (['gap', n] as const) : [n]));
}

/** Props of a pager button that may be unusable for now, and stays focusable meanwhile. */
function usable(enabled: boolean, action: () => void) {
  return {
    'aria-disabled': !enabled || undefined,
    'data-disabled': !enabled || undefined,
    onClick: (event: MouseEvent) => {
      if (enabled) action();
      else event.preventDefault();
    },
  };
}

export function Pager({
  page,
  busy,
  onPage,
  maxPages,
}: {
  /** Null before the first result: the status region is there, empty, and no buttons yet. */
  page: PageMetadata | null;
  busy: boolean;
  /** Zero-based. */
  onPage: (page: number) => void;
  /** The most pages that may be offered (the list's page cap); none: every page. */
  maxPages?: number;
}) {
  const pages = page ? pageCount(page) : 0;
  const offered = maxPages === undefined ? pages : Math.min(pages, maxPages);
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" data-testid="result-count" role="status">
        {page && t.resultCount(page.totalElements)}
        {pages > 1 && <> · {t.pageCount(pages)}</>}
        {page && pages > offered && (
          <>
            {' '}
            <br />
            {t.pageLimit(offered * page.size)}
          </>
        )}
      </Text>
      {page && offered > 1 && (
        <Group component="nav" aria-label={t.pagination} gap={4}>
          <Button
            variant="default"
            size="compact-sm"
            {...usable(!busy && page.number > 0, () => onPage(page.number - 1))}
          >
            {t.previousPage}
          </Button>
          {pagesToOffer(page.number, offered).map((n, i) =>
            n === 'gap' ? (
              <Text key={`gap${i}`} size="sm" aria-hidden>
                …
              </Text>
            ) : (
              <Button
                key={n}
                size="compact-sm"
                variant={n === page.number ? 'filled' : 'default'}
                aria-current={n === page.number ? 'page' : undefined}
                {...usable(!busy, () => n !== page.number && onPage(n))}
              >
                {n + 1}
              </Button>
            ),
          )}
          <Button
            variant="default"
            size="compact-sm"
            {...usable(!busy && page.number < offered - 1, () => onPage(page.number + 1))}
          >
            {t.nextPage}
          </Button>
        </Group>
      )}
    </Group>
  );
}
