// WCAG 4.1.3: the pager's result count is a status region, there before the first result (empty),
// so that a screen reader announces its text when it changes: a search's count, a new page's.
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { accessRequestsTexts as t } from '../../src/client/flows/access-requests/access-requests.texts';
import { Pager } from '../../src/client/flows/access-requests/Pager';
import type { PageMetadata } from '../../src/contract/admin';

const mount = (page: PageMetadata | null) => (
  <MantineProvider>
    <Pager page={page} busy={false} onPage={vi.fn()} />
  </MantineProvider>
);

describe('the result count', () => {
  it('is a status region, empty and without page buttons before the first result', () => {
    render(mount(null));
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('');
    expect(screen.queryByRole('navigation', { name: t.pagination })).toBeNull();
  });

  it('keeps the same region as its text changes, so the change is announced', () => {
    const view = render(mount(null));
    const status = screen.getByRole('status');
    view.rerender(mount({ number: 0, size: 5, totalElements: 7 }));
    expect(screen.getByRole('status')).toBe(status);
    expect(status).toHaveTextContent(`${t.resultCount(7)} · ${t.pageCount(2)}`);
    view.rerender(mount({ number: 0, size: 5, totalElements: 1 }));
    expect(screen.getByRole('status')).toBe(status);
    expect(status).toHaveTextContent(t.resultCount(1));
  });
});
