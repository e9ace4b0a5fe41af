// The access-request pages' address reading, page offer, the history for a holder without
// READ_ONLY (actors as plain text; section 2.7), an admin's decision checked with the contract's
// field rules before it is sent (and the history loaded again after it), and the decide actor's
// reading of the server's refusals (422 at the fields, 409 decided meanwhile).
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { createActor, fromPromise, toPromise } from 'xstate';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DecideInput } from '../../machines/access-requests/request/request.types';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import { requestMachine } from '../../machines/access-requests/request/request.machine';
import { AppProviders } from '../../src/client/app/App';
import type { PortalServices } from '../../src/client/app/services';
import { SessionStore } from '../../src/client/app/session';
import { accessRequestsTexts as t } from '../../src/client/flows/access-requests/access-requests.texts';
import { pagesToOffer } from '../../src/client/flows/access-requests/Pager';
import { FlowImplementationsProvider } from '../../src/client/flows/shared/flow-implementations';
import { requestActors } from '../../src/client/flows/access-requests/access-requests.actors';
import { ApiError } from '../../src/client/api/api-error';
import { approveAccessRequest, rejectAccessRequest } from '../../src/client/api/access-requests';
import type * as AccessRequestsApi from '../../src/client/api/access-requests';
import { messages } from '../../src/contract/fields';
import AccessRequestsPage, { placeOf } from '../../src/client/pages/AccessRequestsPage';
import {
  ALREADY_DECIDED,
  decidedDetails,
  historyPage,
  REQUEST_DETAILS,
  TICKET_REFUSAL,
} from '../machines/access-requests.fixtures';
import { users } from '../machines/fixtures/sign-in.fixtures';

vi.mock('../../src/client/api/access-requests', async (original) => ({
  ...(await original<typeof AccessRequestsApi>()),
  approveAccessRequest: vi.fn(),
  rejectAccessRequest: vi.fn(),
}));

const fakeServices = () =>
  ({
    loadSession: vi.fn<PortalServices['loadSession']>(),
    getAccessibleApps: vi.fn<PortalServices['getAccessibleApps']>(async () => []),
    logout: vi.fn<PortalServices['logout']>(async () => {}),
    getSalaryNumber: vi.fn<PortalServices['getSalaryNumber']>(async () => null),
    getSupportEmail: vi.fn<PortalServices['getSupportEmail']>(async () => null),
  }) satisfies PortalServices;

describe('placeOf', () => {
  it('reads the list, a request with its tab, and the app-code-and-code address', () => {
    expect(placeOf('/access-requests')).toEqual({ kind: 'list' });
    expect(placeOf('/access-requests/')).toEqual({ kind: 'list' });
    expect(placeOf('/access-requests/abc')).toEqual({ kind: 'detail', id: 'abc', tab: 'organisations' });
    // Organisations is a child address too (section 2.7), not an app code and code.
    expect(placeOf('/access-requests/abc/organisations')).toEqual({
      kind: 'detail',
      id: 'abc',
      tab: 'organisations',
    });
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
    // Only the second segment names a tab: an app code spelt like one still resolves.
    for (const appCode of ['organisations', 'history', 'api-calls']) {
      expect(placeOf(`/access-requests/${appCode}/AR-TRSY4K7M`)).toEqual({
        kind: 'resolve',
        appCode,
        code: 'AR-TRSY4K7M',
      });
    }
    expect(placeOf('/access-requests/APP/constructor')).toEqual({
      kind: 'resolve',
      appCode: 'APP',
      code: 'constructor',
    });
    expect(placeOf('/access-requests/a/b/c')).toEqual({ kind: 'unknown' });
    expect(placeOf('/access-requests/%E0%A4%A')).toEqual({ kind: 'unknown' });
  });
});

describe('the organisations tab', () => {
  it('is the default at /access-requests/{id} and its own address at /access-requests/{id}/organisations', async () => {
    const store = new SessionStore(async () => ({ currentUser: users.auditor, context: null }));
    const router = createMemoryRouter(
      [
        { path: '/access-requests/*', element: <AccessRequestsPage /> },
        { path: '*', element: <p>elsewhere</p> },
      ],
      { initialEntries: [`/access-requests/${REQUEST_DETAILS.id}/organisations`] },
    );
    const loadAccessRequest = vi.fn(async () => REQUEST_DETAILS);
    const resolveAccessRequestId = vi.fn(async () => ({ id: 'not-this' }));
    render(
      <AppProviders session={store} services={fakeServices()} env="test">
        <FlowImplementationsProvider
          value={{
            [requestMachine.id]: {
              actors: {
                loadAccessRequest: fromPromise(loadAccessRequest),
                resolveAccessRequestId: fromPromise(resolveAccessRequestId),
              },
            },
          }}
        >
          <RouterProvider router={router} />
        </FlowImplementationsProvider>
      </AppProviders>,
    );
    const panel = await screen.findByRole('region', { name: t.tabs.organisations });
    expect(panel).toHaveTextContent(REQUEST_DETAILS.app.name);
    expect(router.state.location.pathname).toBe(`/access-requests/${REQUEST_DETAILS.id}/organisations`);
    expect(loadAccessRequest).toHaveBeenCalledTimes(1);
    expect(resolveAccessRequestId).not.toHaveBeenCalled();
    const tabs = screen.getByRole('navigation', { name: t.tabsLabel });
    const organisations = within(tabs).getByRole('link', { name: t.tabs.organisations });
    expect(organisations).toHaveAttribute('aria-current', 'page');
    // Each tab link names its child address.
    expect(organisations).toHaveAttribute('href', `/access-requests/${REQUEST_DETAILS.id}/organisations`);

    // The bare address (the list's links, the app-code-and-code redirect) shows the same tab.
    await act(() => router.navigate(`/access-requests/${REQUEST_DETAILS.id}`));
    expect(
      await within(screen.getByRole('navigation', { name: t.tabsLabel })).findByRole('link', {
        name: t.tabs.organisations,
        current: 'page',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: t.tabs.organisations })).toHaveTextContent(
      REQUEST_DETAILS.app.name,
    );
    expect(resolveAccessRequestId).not.toHaveBeenCalled();
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

describe('an admin deciding a pending request', () => {
  // Typing on a CPU shared with other suites can take more than the default 5 s.
  it(
    'checks the fields with the contract rules, sends the trimmed decision and loads the history again',
    { timeout: 20_000 },
    async () => {
      const admin = { ...users.auditor, isAdmin: true, roles: ['ADMIN'] };
      const store = new SessionStore(async () => ({ currentUser: admin, context: null }));
      const router = createMemoryRouter([{ path: '/access-requests/*', element: <AccessRequestsPage /> }], {
        initialEntries: [`/access-requests/${REQUEST_DETAILS.id}/history`],
      });
      const decide = vi.fn(async (_: { input: DecideInput }) => ({
        type: 'decided' as const,
        details: decidedDetails('REJECTED'),
      }));
      const loadHistoryPage = vi.fn(async () => historyPage(0, 7));
      render(
        <AppProviders session={store} services={fakeServices()} env="test">
          <FlowImplementationsProvider
            value={{
              [requestMachine.id]: {
                actors: {
                  loadAccessRequest: fromPromise(async () => REQUEST_DETAILS),
                  decideAccessRequest: fromPromise(decide),
                },
              },
              [historyMachine.id]: { actors: { loadHistoryPage: fromPromise(loadHistoryPage) } },
            }}
          >
            <RouterProvider router={router} />
          </FlowImplementationsProvider>
        </AppProviders>,
      );
      const user = userEvent.setup({ delay: null });
      await screen.findAllByTestId('history-item');
      expect(loadHistoryPage).toHaveBeenCalledTimes(1);
      await user.click(screen.getByRole('button', { name: t.decision.reject }));
      const form = screen.getByRole('region', { name: t.decision.rejectHeading(REQUEST_DETAILS.code) });
      const ticket = within(form).getByRole('textbox', { name: t.decision.ticketLabel });
      const reason = within(form).getByRole('textbox', { name: t.decision.reasonLabel });

      // Blank fields are refused here, at the fields, and nothing is sent.
      await user.type(reason, '   ');
      await user.click(within(form).getByRole('button', { name: t.decision.confirmReject }));
      expect(ticket).toHaveAccessibleDescription(expect.stringContaining(messages.required));
      expect(reason).toHaveAccessibleDescription(expect.stringContaining(messages.required));
      expect(ticket).toHaveFocus();
      expect(decide).not.toHaveBeenCalled();

      await user.type(ticket, ' SUP-815 ');
      await user.type(reason, 'No manager approval. ');
      expect(ticket).not.toHaveAccessibleDescription(expect.stringContaining(messages.required));
      await user.click(within(form).getByRole('button', { name: t.decision.confirmReject }));
      // The notice, a status region beside the history's result count.
      const notice = (
        await screen.findByText(t.decision.rejected(REQUEST_DETAILS.code))
      ).closest<HTMLElement>('[role="status"]')!;
      expect(notice).not.toBeNull();
      await waitFor(() => expect(notice).toHaveFocus());
      expect(decide).toHaveBeenCalledTimes(1);
      expect(decide.mock.calls[0]![0].input).toEqual({
        id: REQUEST_DETAILS.id,
        decision: 'reject',
        ticketCode: 'SUP-815',
        reason: 'No manager approval.',
      });
      // The history tab loads again, and the decided request offers no decision.
      await waitFor(() => expect(loadHistoryPage).toHaveBeenCalledTimes(2));
      expect(screen.queryByRole('button', { name: t.decision.approve })).toBeNull();
      expect(
        screen.queryByRole('region', { name: t.decision.rejectHeading(REQUEST_DETAILS.code) }),
      ).toBeNull();
    },
  );
});

describe('the decide actor', () => {
  const run = (input: DecideInput) =>
    toPromise(createActor(requestActors.decideAccessRequest, { input }).start());
  const refusal = (status: number, body: ApiError['body'], handled = false) =>
    new ApiError({ kind: 'http', status, body, callId: 'rejectAccessRequest', handled });
  const rejectInput: DecideInput = {
    id: REQUEST_DETAILS.id,
    decision: 'reject',
    ticketCode: 'x',
    reason: 'No.',
  };

  beforeEach(() => {
    vi.mocked(approveAccessRequest).mockReset();
    vi.mocked(rejectAccessRequest).mockReset();
  });

  it('sends an approval without a reason and answers the decided request', async () => {
    vi.mocked(approveAccessRequest).mockResolvedValue({
      ...decidedDetails('APPROVED'),
      status: 'APPROVED',
    } as never);
    await expect(run({ ...rejectInput, decision: 'approve', reason: null })).resolves.toEqual({
      type: 'decided',
      details: decidedDetails('APPROVED'),
    });
    expect(vi.mocked(approveAccessRequest).mock.calls[0]![0]).toEqual({
      id: REQUEST_DETAILS.id,
      ticketCode: 'x',
    });
    expect(rejectAccessRequest).not.toHaveBeenCalled();
  });

  it('answers a 422 as field refusals and a 409 as decided meanwhile; anything else fails', async () => {
    vi.mocked(rejectAccessRequest).mockRejectedValueOnce(
      refusal(422, {
        message: TICKET_REFUSAL,
        errors: [{ fieldName: 'ticketCode', message: TICKET_REFUSAL }],
      }),
    );
    await expect(run(rejectInput)).resolves.toEqual({
      type: 'refused',
      message: TICKET_REFUSAL,
      fieldErrors: { ticketCode: TICKET_REFUSAL },
    });
    expect(vi.mocked(rejectAccessRequest).mock.calls[0]![0]).toEqual({
      id: REQUEST_DETAILS.id,
      ticketCode: 'x',
      reason: 'No.',
    });
    vi.mocked(rejectAccessRequest).mockRejectedValueOnce(refusal(409, { message: ALREADY_DECIDED }));
    await expect(run(rejectInput)).resolves.toEqual({ type: 'alreadyDecided', message: ALREADY_DECIDED });
    // A 403 that section 8 handled (went to /permission-denied) is a failure, not a result.
    vi.mocked(rejectAccessRequest).mockRejectedValueOnce(
      refusal(403, { message: 'Permission denied' }, true),
    );
    await expect(run(rejectInput)).rejects.toBeInstanceOf(ApiError);
  });
});
