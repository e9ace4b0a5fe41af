// The access-request pages' address reading, page offer, and the history for a holder without
// READ_ONLY (actors as plain text; section 2.7).
import { act, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import { requestMachine } from '../../machines/access-requests/request/request.machine';
import { AppProviders } from '../../src/client/app/App';
import type { PortalServices } from '../../src/client/app/services';
import { SessionStore } from '../../src/client/app/session';
import { accessRequestsTexts as t } from '../../src/client/flows/access-requests/access-requests.texts';
import { pagesToOffer } from '../../src/client/flows/access-requests/Pager';
import { FlowImplementationsProvider } from '../../src/client/flows/shared/flow-implementations';
import AccessRequestsPage, { placeOf } from '../../src/client/pages/AccessRequestsPage';
import { historyPage, REQUEST_DETAILS } from '../machines/access-requests.fixtures';
import { users } from '../machines/fixtures/sign-in.fixtures';

describe('placeOf', () => {
  it('reads the list, a request with its tab, and the app-code-and-code address', () => {
    expect(placeOf('/access-requests')).toEqual({ kind: 'list' });
    expect(placeOf('/access-requests/')).toEqual({ kind: 'list' });
    expect(placeOf('/access-requests/abc')).toEqual({ kind: 'detail', id: 'abc', tab: 'organisations' });
    expect(placeOf('/access-requests/abc/history')).toEqual({ kind: 'detail', id: 'abc', tab: 'history' });
    expect(placeOf('/access-requests/abc/api-calls')).toEqual({
      kind: 'detail',
      id: 'abc',
      tab: 'api-calls',
    });
    expect(placeOf('/access-requests/TREASURY/AR-TRSY4K7M')).toEqual({
      kind: 'resolve',
      appCode: 'TREASURY',
      code: 'AR-TRSY4K7M',
    });
    expect(placeOf('/access-requests/A%20B/C')).toEqual({ kind: 'resolve', appCode: 'A B', code: 'C' });
    expect(placeOf('/access-requests/a/b/c')).toEqual({ kind: 'unknown' });
    expect(placeOf('/access-requests/%E0%A4%A')).toEqual({ kind: 'unknown' });
  });
});

describe('pagesToOffer', () => {
  it('offers first, last and the neighbours of the current page, with gaps', () => {
    expect(pagesToOffer(0, 2)).toEqual([0, 1]);
    expect(pagesToOffer(0, 3)).toEqual([0, 1, 2]);
    expect(pagesToOffer(5, 10)).toEqual([0, 'gap', 4, 5, 6, 'gap', 9]);
    expect(pagesToOffer(9, 10)).toEqual([0, 'gap', 8, 9]);
  });
});

describe('history tab without READ_ONLY', () => {
  it('shows actors as text, System when absent, and an unknown address as not found', async () => {
    const services = {
      loadSession: vi.fn<PortalServices['loadSession']>(),
      getAccessibleApps: vi.fn<PortalServices['getAccessibleApps']>(async () => []),
      logout: vi.fn<PortalServices['logout']>(async () => {}),
      getSalaryNumber: vi.fn<PortalServices['getSalaryNumber']>(async () => null),
      getSupportEmail: vi.fn<PortalServices['getSupportEmail']>(async () => null),
    } satisfies PortalServices;
    const store = new SessionStore(async () => ({ currentUser: users.auditor, context: null }));
    const router = createMemoryRouter(
      [
        { path: '/access-requests/*', element: <AccessRequestsPage /> },
        { path: '*', element: <p>elsewhere</p> },
      ],
      { initialEntries: [`/access-requests/${REQUEST_DETAILS.id}/history`] },
    );
    const page = historyPage(0, 7);
    render(
      <AppProviders session={store} services={services} env="test">
        <FlowImplementationsProvider
          value={{
            [requestMachine.id]: { actors: { loadAccessRequest: fromPromise(async () => REQUEST_DETAILS) } },
            [historyMachine.id]: { actors: { loadHistoryPage: fromPromise(async () => page) } },
          }}
        >
          <RouterProvider router={router} />
        </FlowImplementationsProvider>
      </AppProviders>,
    );
    const rows = await screen.findAllByTestId('history-item');
    expect(rows).toHaveLength(5);
    expect(screen.getByTestId('result-count')).toHaveTextContent(`${t.resultCount(7)} · ${t.pageCount(2)}`);
    page.data.forEach((item, i) => {
      if (item.actor) {
        expect(within(rows[i]!).getByText(item.actor.username).closest('a')).toBeNull();
      } else {
        expect(rows[i]).toHaveTextContent(t.system);
      }
    });
    expect(page.data.some((item) => item.actor)).toBe(true);
    expect(screen.getByRole('link', { name: t.tabs.history })).toHaveAttribute('aria-current', 'page');

    await act(() => router.navigate('/access-requests/a/b/c'));
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/not-found');
  });
});
