// The admin lists' page cap (LIST_PAGE_LIMIT pages, the server refuses a later page with 400): the
// Pager given a maximum offers no page past it (Next, the last page's button) and says why in its
// status region, the count and pages kept exact; the capped lists pass the maximum, a history none.
import { MantineProvider } from '@mantine/core';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { fromPromise } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import type { RequestListQuery } from '../../machines/access-requests/request-list/request-list.types';
import { requestListMachine } from '../../machines/access-requests/request-list/request-list.machine';
import { identitySearchMachine } from '../../machines/admin/identity-search/identity-search.machine';
import { invitationsMachine } from '../../machines/admin/invitations/invitations.machine';
import { accessRequestsTexts as t } from '../../src/client/flows/access-requests/access-requests.texts';
import { HistoryTab } from '../../src/client/flows/access-requests/HistoryTab';
import { Pager } from '../../src/client/flows/access-requests/Pager';
import { RequestList } from '../../src/client/flows/access-requests/RequestList';
import { IdentitySearchScreen } from '../../src/client/flows/admin/IdentitySearchScreen';
import { InvitationsScreen } from '../../src/client/flows/admin/InvitationsScreen';
import { LIST_PAGE_LIMIT, type PageMetadata } from '../../src/contract/admin';
import { historyPage, listPage } from '../machines/access-requests.fixtures';
import { IDENTITY_ID, identityPage } from '../model/admin-identities.model';
import { invitationPage } from '../model/admin.model';
import { renderAdmin } from './render-admin';

const TOTAL = 12_345;
const SIZE = 20;
const PAGES = Math.ceil(TOTAL / SIZE);
const LAST = LIST_PAGE_LIMIT - 1;
/** The note, its number worked out from the constants: 'the first 10,000'. */
const NOTE = t.pageLimit(LIST_PAGE_LIMIT * SIZE);

const pageButton = (n: number) => screen.queryByRole('button', { name: String(n + 1) });
const nav = () => screen.getByRole('navigation', { name: t.pagination });

describe('the note', () => {
  it('says how many results can be paged through, the number as the bank writes it', () => {
    expect(NOTE).toBe(
      'Only the first 10,000 results can be paged through: narrow the search to see the others.',
    );
  });
});

describe('the Pager with a maximum', () => {
  const mount = (
    page: PageMetadata,
    onPage = vi.fn(),
    { maxPages }: { maxPages?: number } = { maxPages: LIST_PAGE_LIMIT },
  ) => (
    <MantineProvider>
      <Pager page={page} busy={false} onPage={onPage} maxPages={maxPages} />
    </MantineProvider>
  );

  it('offers no page past the maximum, keeps the count exact and says why in its status region', async () => {
    const onPage = vi.fn();
    const view = render(mount({ number: 0, size: SIZE, totalElements: TOTAL }, onPage));
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent(`${t.resultCount(TOTAL)} · ${t.pageCount(PAGES)} ${NOTE}`);
    // Said once: the one status region, no second one.
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(screen.getAllByText(NOTE, { exact: false })).toHaveLength(1);
    expect(pageButton(LAST)).toBeInTheDocument();
    expect(pageButton(PAGES - 1)).toBeNull();
    expect(pageButton(LIST_PAGE_LIMIT)).toBeNull();

    await userEvent.click(pageButton(LAST)!);
    expect(onPage).toHaveBeenLastCalledWith(LAST);

    // On the last page it may offer, Next leads nowhere.
    view.rerender(mount({ number: LAST, size: SIZE, totalElements: TOTAL }, onPage));
    expect(screen.getByRole('status')).toBe(status);
    const next = within(nav()).getByRole('button', { name: t.nextPage });
    expect(next).toHaveAttribute('aria-disabled', 'true');
    onPage.mockClear();
    await userEvent.click(next);
    expect(onPage).not.toHaveBeenCalled();
    expect(pageButton(LAST)).toHaveAttribute('aria-current', 'page');
    expect(pageButton(LIST_PAGE_LIMIT)).toBeNull();
    await userEvent.click(within(nav()).getByRole('button', { name: t.previousPage }));
    expect(onPage).toHaveBeenLastCalledWith(LAST - 1);
  });

  it('says nothing more when every result can be paged through, up to the maximum exactly', () => {
    const view = render(mount({ number: 0, size: SIZE, totalElements: LIST_PAGE_LIMIT * SIZE }));
    expect(screen.getByRole('status')).toHaveTextContent(
      new RegExp(
        `^${t.resultCount(LIST_PAGE_LIMIT * SIZE).replace(/[()]/g, '\\$&')} · ${t.pageCount(LIST_PAGE_LIMIT)}$`,
      ),
    );
    expect(pageButton(LAST)).toBeInTheDocument();
    view.rerender(mount({ number: LAST - 1, size: SIZE, totalElements: LIST_PAGE_LIMIT * SIZE }));
    expect(within(nav()).getByRole('button', { name: t.nextPage })).not.toHaveAttribute('aria-disabled');
  });

  it('without a maximum offers every page and no note', () => {
    render(mount({ number: 0, size: SIZE, totalElements: TOTAL }, vi.fn(), {}));
    expect(screen.getByRole('status')).not.toHaveTextContent(NOTE);
    expect(pageButton(PAGES - 1)).toBeInTheDocument();
  });
});

describe('the access-request list past the cap', () => {
  it(
    'shows the note once in its result count, offers page 500 at most, and asks for no page past it',
    { timeout: 20_000 },
    async () => {
      const calls: RequestListQuery[] = [];
      renderAdmin(<RequestList />, {
        [requestListMachine.id]: {
          actors: {
            loadAccessRequests: fromPromise(async ({ input }: { input: RequestListQuery }) => {
              calls.push(input);
              return listPage(input.page, TOTAL);
            }),
          },
        },
      });
      const status = screen.getByTestId('result-count');
      await waitFor(() => expect(status).toHaveTextContent(NOTE));
      expect(status).toHaveTextContent(`${t.resultCount(TOTAL)} · ${t.pageCount(PAGES)}`);
      expect(screen.getAllByText(NOTE, { exact: false })).toHaveLength(1);
      expect(pageButton(PAGES - 1)).toBeNull();

      await userEvent.click(pageButton(LAST)!);
      await waitFor(() => expect(pageButton(LAST)).toHaveAttribute('aria-current', 'page'));
      const next = within(nav()).getByRole('button', { name: t.nextPage });
      await waitFor(() => expect(next).toHaveAttribute('aria-disabled', 'true'));
      await userEvent.click(next);
      await act(async () => {});
      expect(calls).toEqual([
        { query: '', page: 0 },
        { query: '', page: LAST },
      ]);
      expect(screen.getByTestId('result-count')).toBe(status);
    },
  );
});

const capped: { name: string; screen: ReactNode; machineId: string; actor: string; answer: () => unknown }[] =
  [
    {
      name: 'the identity search',
      screen: <IdentitySearchScreen />,
      machineId: identitySearchMachine.id,
      actor: 'searchIdentities',
      answer: () => ({ ...identityPage(0, ''), page: { number: 0, size: SIZE, totalElements: TOTAL } }),
    },
    {
      name: 'the invitations',
      screen: <InvitationsScreen />,
      machineId: invitationsMachine.id,
      actor: 'loadInvitations',
      answer: () => ({ ...invitationPage(0, ''), page: { number: 0, size: SIZE, totalElements: TOTAL } }),
    },
  ];

describe.each(capped)('$name past the cap', ({ screen: underTest, machineId, actor, answer }) => {
  it('shows the note in its result count and offers no page past the cap', async () => {
    renderAdmin(underTest, { [machineId]: { actors: { [actor]: fromPromise(async () => answer()) } } });
    const status = screen.getByTestId('result-count');
    await waitFor(() => expect(status).toHaveTextContent(NOTE));
    expect(status).toHaveTextContent(t.resultCount(TOTAL));
    expect(pageButton(LAST)).toBeInTheDocument();
    expect(pageButton(PAGES - 1)).toBeNull();
  });
});

describe('a history tab (not capped)', () => {
  it('offers every page and no note, however long', async () => {
    const total = 5 * (LIST_PAGE_LIMIT + 100);
    renderAdmin(<HistoryTab id={IDENTITY_ID} kind="history" />, {
      [historyMachine.id]: { actors: { loadHistoryPage: fromPromise(async () => historyPage(0, total)) } },
    });
    await waitFor(() => expect(screen.getByTestId('result-count')).toHaveTextContent(t.resultCount(total)));
    expect(pageButton(LIST_PAGE_LIMIT + 99)).toBeInTheDocument();
    expect(screen.getByTestId('result-count')).not.toHaveTextContent(NOTE);
  });
});
