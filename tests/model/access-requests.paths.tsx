// Generated access-request paths executed against the mounted /access-requests pages: the list
// (search and paging, status badges), one request (resolved by code and redirected, or loaded by
// id, with its tabs; an admin approves or rejects a pending one through a confirmation with the
// ticket and reason, with the busy state, refusals at their fields and the outcome focused; a
// VIEW_ACCESS_REQUESTS holder sees no actions) and the history tab (five per page, 'result(s)', 'N pages', System, actor links for
// READ_ONLY holders, ticket links, multi-line descriptions, type with variant). The scripted fake
// API answers as each step of the path says; each state is checked by what the user sees.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import type { AnyStateMachine, EventObject, InspectionEvent } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { pageCount } from '../../machines/access-requests/access-requests.types';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import { requestListMachine } from '../../machines/access-requests/request-list/request-list.machine';
import { requestMachine } from '../../machines/access-requests/request/request.machine';
import { ACCESS_REQUESTS_ROUTE } from '../../machines/routes';
import { AppProviders } from '../../src/client/app/App';
import type { PortalServices } from '../../src/client/app/services';
import { SessionStore } from '../../src/client/app/session';
import { accessRequestsTexts as t } from '../../src/client/flows/access-requests/access-requests.texts';
import { identityPath } from '../../src/client/flows/access-requests/HistoryTab';
import { ResolveRequest } from '../../src/client/flows/access-requests/RequestDetail';
import { FlowImplementationsProvider } from '../../src/client/flows/shared/flow-implementations';
import AccessRequestsPage from '../../src/client/pages/AccessRequestsPage';
import type { PageMetadata } from '../../src/contract/admin';
import type { CurrentUser } from '../../src/contract/entities';
import { REQUEST_DETAILS } from '../machines/access-requests.fixtures';
import { users } from '../machines/fixtures/sign-in.fixtures';
import {
  CONFIRMATION,
  HISTORY_EVENT_TYPES,
  historyPaths,
  LIST_EVENT_TYPES,
  listPaths,
  REQUEST_EVENT_TYPES,
  requestPaths,
  type HistorySnapshot,
  type ListSnapshot,
  type RequestSnapshot,
} from './access-requests.model';
import { done } from './handoff.model';
import type { MachineCoverage } from './harness/coverage';
import { scriptedApi } from './harness/scripted-api';
import { enter, pathUser } from './harness/user';

const PATH_TIMEOUT_MS = 30_000;
const SOURCES = [
  'loadAccessRequests',
  'resolveAccessRequestId',
  'loadAccessRequest',
  'decideAccessRequest',
  'loadHistoryPage',
] as const;

/** admin1 of the demo data: an admin holding READ_ONLY, who sees history actors as links. */
export const readOnlyAdmin: CurrentUser = {
  ...users.auditor,
  id: 'u-admin1',
  username: 'admin1',
  isAdmin: true,
  roles: ['ADMIN', 'READ_ONLY'],
};

function Landed() {
  const location = useLocation();
  return (
    <main>
      <output data-testid="landed-path">{location.pathname}</output>
    </main>
  );
}

function fakeServices() {
  return {
    loadSession: vi.fn<PortalServices['loadSession']>(),
    getAccessibleApps: vi.fn<PortalServices['getAccessibleApps']>(async () => []),
    logout: vi.fn<PortalServices['logout']>(async () => {}),
    getSalaryNumber: vi.fn<PortalServices['getSalaryNumber']>(async () => null),
    getSupportEmail: vi.fn<PortalServices['getSupportEmail']>(async () => null),
  } satisfies PortalServices;
}

export function mount(options: {
  machine: AnyStateMachine;
  /** Every machine the page runs, each given the scripted actors (default: the access-request ones). */
  machines?: AnyStateMachine[];
  sources?: readonly string[];
  route: string;
  entry: string;
  page: ReactNode;
  user: CurrentUser;
  inspect: (event: InspectionEvent) => void;
}) {
  const api = scriptedApi<string>(options.sources ?? SOURCES);
  const store = new SessionStore(async () => ({ currentUser: options.user, context: null }));
  const router = createMemoryRouter(
    [
      { path: options.route, element: options.page },
      { path: '*', element: <Landed /> },
    ],
    { initialEntries: [options.entry] },
  );
  let running: unknown = null;
  const inspect = (event: InspectionEvent) => {
    options.inspect(event);
    if (event.type !== '@xstate.snapshot') return;
    const snapshot = event.snapshot as { machine?: AnyStateMachine };
    if (snapshot.machine?.id === options.machine.id) running = snapshot;
  };
  const implementations = Object.fromEntries(
    (options.machines ?? [requestListMachine, requestMachine, historyMachine]).map((machine) => [
      machine.id,
      { actors: api.actors, ...(machine.id === options.machine.id ? { inspect } : {}) },
    ]),
  );
  render(
    <AppProviders session={store} services={fakeServices()} env="test">
      <FlowImplementationsProvider value={implementations}>
        <RouterProvider router={router} />
      </FlowImplementationsProvider>
    </AppProviders>,
  );
  return {
    api,
    router,
    user: pathUser(),
    running: <T,>() => running as T | null,
  };
}
export type Mounted = ReturnType<typeof mount>;

export async function expectPager(page: PageMetadata) {
  const count = await screen.findByTestId('result-count');
  await waitFor(() => expect(count).toHaveTextContent(t.resultCount(page.totalElements)));
  const pages = pageCount(page);
  if (pages > 1) {
    expect(count).toHaveTextContent(t.pageCount(pages));
    const current = screen.getByRole('button', { name: String(page.number + 1) });
    expect(current).toHaveAttribute('aria-current', 'page');
  } else {
    expect(count.textContent).not.toMatch(/pages/);
  }
}

export async function expectLoading(m: Mounted, src: string, input: unknown, shown: boolean) {
  if (!shown) expect(await screen.findByLabelText(t.loading)).toBeInTheDocument();
  const call = await m.api.waiting(src);
  expect(call.input).toEqual(input);
}

export async function expectFailed(message: string | null, title: string) {
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent(title);
  expect(alert).toHaveTextContent(message ?? '');
  expect(screen.getByRole('button', { name: t.retry })).toBeEnabled();
}

/** Runs the generated paths of one machine: each state checked, each event performed. */
interface AnyPath {
  description: string;
  steps: Array<{ state: unknown; event: unknown }>;
  test: (params: never) => Promise<unknown>;
}

export function runPaths<S extends { value: unknown; context: unknown }>(
  paths: readonly AnyPath[],
  options: {
    eventTypes: string[];
    mount: () => Mounted;
    checks: (m: Mounted) => Record<string, (s: S) => Promise<void>>;
    perform: (m: Mounted, event: EventObject, before: S) => Promise<void>;
    before?: (m: Mounted) => Promise<void>;
  },
) {
  it.each(paths.map((path) => [path.description, path] as const))(
    '%s',
    async (_, path) => {
      const m = options.mount();
      await options.before?.(m);
      const checks = options.checks(m);
      const states = Object.fromEntries(
        Object.entries(checks).map(([key, check]) => [
          key,
          async (s: S) => {
            await waitFor(() => {
              expect(m.running<S>()?.value).toEqual(s.value);
              expect(m.running<S>()?.context).toEqual(s.context);
            });
            await check(s);
          },
        ]),
      );
      const events = Object.fromEntries(
        options.eventTypes.map((type) => [
          type,
          async (step: { event: unknown }) => {
            const index = path.steps.findIndex((candidate) => candidate === step);
            const before = path.steps[index - 1]?.state as unknown as S;
            await options.perform(m, step.event as EventObject, before);
          },
        ]),
      );
      await (path.test as (p: unknown) => Promise<unknown>)({ states, events });
    },
    PATH_TIMEOUT_MS,
  );
}

export async function answer(m: Mounted, event: EventObject) {
  await act(() => m.api.answer(event as { type: string }));
}

export function defineRequestListPaths(coverage: MachineCoverage): void {
  const paths = listPaths();
  const checks = (m: Mounted) => ({
    loading: async (s: ListSnapshot) =>
      expectLoading(
        m,
        'loadAccessRequests',
        { query: s.context.query, page: s.context.page },
        s.context.result !== null,
      ),
    ready: async (s: ListSnapshot) => {
      const result = s.context.result!;
      await expectPager(result.page);
      const table = screen.getByRole('table');
      const rows = within(table).getAllByRole('row').slice(1);
      expect(rows).toHaveLength(result.data.length);
      result.data.forEach((request, i) => {
        const link = within(rows[i]!).getByRole('link', { name: request.code });
        expect(link).toHaveAttribute('href', `${ACCESS_REQUESTS_ROUTE}/${request.id}`);
        expect(rows[i]).toHaveTextContent(request.app.name);
        expect(rows[i]).toHaveTextContent(request.requester.username);
        const badge = within(rows[i]!).getByText(t.status[request.status]!);
        expect(badge.closest('[data-status]')).toHaveAttribute('data-status', request.status);
      });
      expect(screen.getByRole('searchbox', { name: t.searchLabel })).toHaveValue(s.context.query);
    },
    failed: (s: ListSnapshot) => expectFailed(s.context.errorMessage, t.loadFailed),
  });

  describe(`access-requests/request-list: ${paths.length} generated paths against /access-requests`, () => {
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(
        Object.keys(requestListMachine.root.states).sort(),
      );
    });
    runPaths<ListSnapshot>(paths, {
      eventTypes: LIST_EVENT_TYPES,
      mount: () =>
        mount({
          machine: requestListMachine,
          route: `${ACCESS_REQUESTS_ROUTE}/*`,
          entry: ACCESS_REQUESTS_ROUTE,
          page: <AccessRequestsPage />,
          user: users.auditor,
          inspect: coverage.inspect,
        }),
      checks,
      perform: async (m, event) => {
        const e = event as { type: string; query?: string; page?: number };
        switch (e.type) {
          case 'user.search': {
            const box = screen.getByRole('searchbox', { name: t.searchLabel });
            await enter(m.user, box, e.query ?? '');
            await m.user.click(screen.getByRole('button', { name: t.search }));
            return;
          }
          case 'user.page':
            await m.user.click(screen.getByRole('button', { name: String((e.page ?? 0) + 1) }));
            return;
          case 'user.retry':
            await m.user.click(screen.getByRole('button', { name: t.retry }));
            return;
          default:
            await answer(m, event);
        }
      },
    });
  });
}

export function defineRequestPaths(coverage: MachineCoverage): void {
  // The page passes the signed-in user's id: the mounted admin and viewer are not the requester.
  const byId = requestPaths({ id: REQUEST_DETAILS.id, mayDecide: true, selfId: readOnlyAdmin.id! });
  const byIdViewer = requestPaths({ id: REQUEST_DETAILS.id, mayDecide: false, selfId: users.auditor.id! });
  const byCode = requestPaths({ appCode: REQUEST_DETAILS.app.code, code: REQUEST_DETAILS.code });
  const d = t.decision;
  const confirmationHeading = (s: RequestSnapshot) =>
    s.context.decision === 'reject'
      ? d.rejectHeading(REQUEST_DETAILS.code)
      : d.approveHeading(REQUEST_DETAILS.code);
  const checks = (m: Mounted) => ({
    // Left in the actor's first macrostep: never a snapshot of its own.
    start: async () => {},
    resolving: () =>
      expectLoading(
        m,
        'resolveAccessRequestId',
        { appCode: REQUEST_DETAILS.app.code, code: REQUEST_DETAILS.code },
        false,
      ),
    resolved: async () => {
      // /access-requests/{appCode}/{code} redirects to /access-requests/{id}.
      expect(await screen.findByTestId('landed-path')).toHaveTextContent(
        `${ACCESS_REQUESTS_ROUTE}/${REQUEST_DETAILS.id}`,
      );
      expect(m.router.state.historyAction).toBe('REPLACE');
    },
    // Loaded again after a decision made meanwhile: the request stays shown while it loads.
    loading: (s: RequestSnapshot) =>
      expectLoading(m, 'loadAccessRequest', { id: REQUEST_DETAILS.id }, s.context.details !== null),
    ready: async (s: RequestSnapshot) => {
      const details = s.context.details!;
      expect(
        await screen.findByRole('heading', { level: 2, name: t.requestHeading(details.code) }),
      ).toBeInTheDocument();
      const tabs = screen.getByRole('navigation', { name: t.tabsLabel });
      const links = within(tabs).getAllByRole('link');
      expect(links.map((link) => link.textContent)).toEqual([
        t.tabs.organisations,
        t.tabs.history,
        t.tabs.apiCalls,
      ]);
      expect(links.map((link) => link.getAttribute('href'))).toEqual([
        `${ACCESS_REQUESTS_ROUTE}/${details.id}/organisations`,
        `${ACCESS_REQUESTS_ROUTE}/${details.id}/history`,
        `${ACCESS_REQUESTS_ROUTE}/${details.id}/api-calls`,
      ]);
      // Organisations is the default tab.
      expect(links[0]).toHaveAttribute('aria-current', 'page');
      const panel = screen.getByRole('region', { name: t.tabs.organisations });
      expect(panel).toHaveTextContent(details.app.name);
      expect(panel).toHaveTextContent(t.noFacilityText);
      expect(panel).toHaveTextContent(details.requester.username);
      await waitFor(() =>
        expect(within(panel).getByText(t.status[details.status]!).closest('[data-status]')).toHaveAttribute(
          'data-status',
          details.status,
        ),
      );
      if (details.decidedDate) expect(panel).not.toHaveTextContent(t.notDecided);
      else expect(panel).toHaveTextContent(t.notDecided);

      // Approve and Reject: only for an admin, on a pending request, with no confirmation open.
      const offered = s.matches({ ready: 'viewing' }) && s.context.mayDecide && details.status === 'PENDING';
      if (offered) {
        const actions = screen.getByRole('region', { name: d.actionsLabel });
        expect(within(actions).getByRole('button', { name: d.approve })).toBeEnabled();
        expect(within(actions).getByRole('button', { name: d.reject })).toBeEnabled();
      } else {
        expect(screen.queryByRole('region', { name: d.actionsLabel })).toBeNull();
        expect(screen.queryByRole('button', { name: d.approve })).toBeNull();
      }

      const outcome = s.context.outcome;
      if (s.matches({ ready: 'viewing' })) {
        expect(screen.queryByRole('region', { name: confirmationHeading(s) })).toBeNull();
        if (outcome?.type === 'decided') {
          const notice = screen.getByRole('status');
          expect(notice).toHaveTextContent(
            outcome.status === 'REJECTED' ? d.rejected(details.code) : d.approved(details.code),
          );
          await waitFor(() => expect(notice).toHaveFocus());
        } else if (outcome?.type === 'alreadyDecided') {
          const alert = screen.getByRole('alert');
          expect(alert).toHaveTextContent(d.alreadyDecidedTitle);
          expect(alert).toHaveTextContent(outcome.message);
          await waitFor(() => expect(alert).toHaveFocus());
        }
        return;
      }

      // The confirmation: what it does, the labelled fields, busy while the decision is sent.
      const form = screen.getByRole('region', { name: confirmationHeading(s) });
      const rejecting = s.context.decision === 'reject';
      expect(form).toHaveTextContent(
        rejecting
          ? d.rejectSummary(`${details.requester.name} (${details.requester.username})`, details.app.name)
          : d.approveSummary(`${details.requester.name} (${details.requester.username})`, details.app.name),
      );
      const ticket = within(form).getByRole('textbox', { name: d.ticketLabel });
      expect(ticket).toBeRequired();
      const reason = within(form).queryByRole('textbox', { name: d.reasonLabel });
      if (rejecting) expect(reason).toBeRequired();
      else expect(reason).toBeNull();
      const confirm = within(form).getByRole('button', {
        name: rejecting ? d.confirmReject : d.confirmApprove,
      });
      if (s.matches({ ready: 'deciding' })) {
        await waitFor(() => expect(confirm).toBeDisabled());
        expect(within(form).getByRole('button', { name: d.cancel })).toBeDisabled();
        expect(form.querySelector('form')).toHaveAttribute('aria-busy', 'true');
        const call = await m.api.waiting('decideAccessRequest');
        const typed = CONFIRMATION[rejecting ? 'reject' : 'approve'];
        expect(call.input).toEqual({
          id: REQUEST_DETAILS.id,
          decision: rejecting ? 'reject' : 'approve',
          ticketCode: typed.ticketCode,
          reason: rejecting ? typed.reason : null,
        });
        return;
      }
      await waitFor(() => expect(confirm).toBeEnabled());
      const refusal = s.context.refusal;
      if (!refusal) {
        // Just opened: the focus is on its heading.
        await waitFor(() =>
          expect(within(form).getByRole('heading', { name: confirmationHeading(s) })).toHaveFocus(),
        );
      } else if (refusal.fieldErrors.ticketCode) {
        // The server's refusal at the field, announced, and the field focused.
        await waitFor(() =>
          expect(ticket).toHaveAccessibleDescription(expect.stringContaining(refusal.message)),
        );
        expect(ticket).toHaveAttribute('aria-invalid', 'true');
        await waitFor(() => expect(ticket).toHaveFocus());
      } else {
        const alert = within(form).getByRole('alert');
        expect(alert).toHaveTextContent(d.refusedTitle);
        expect(alert).toHaveTextContent(refusal.message);
      }
    },
    failed: (s: RequestSnapshot) => expectFailed(s.context.errorMessage, t.loadFailed),
  });
  const perform = async (m: Mounted, event: EventObject, before: RequestSnapshot) => {
    switch (event.type) {
      case 'user.retry':
        return m.user.click(screen.getByRole('button', { name: t.retry }));
      case 'user.approve':
        return m.user.click(screen.getByRole('button', { name: d.approve }));
      case 'user.reject':
        return m.user.click(screen.getByRole('button', { name: d.reject }));
      case 'user.cancel':
        return m.user.click(screen.getByRole('button', { name: d.cancel }));
      case 'user.confirm': {
        const e = event as EventObject & { ticketCode: string; reason: string };
        const form = screen.getByRole('region', { name: confirmationHeading(before) });
        await enter(m.user, within(form).getByRole('textbox', { name: d.ticketLabel }), e.ticketCode);
        const rejecting = before.context.decision === 'reject';
        if (rejecting)
          await enter(m.user, within(form).getByRole('textbox', { name: d.reasonLabel }), e.reason);
        return m.user.click(
          within(form).getByRole('button', { name: rejecting ? d.confirmReject : d.confirmApprove }),
        );
      }
      default:
        return answer(m, event);
    }
  };

  describe(`access-requests/request: ${byId.length + byIdViewer.length + byCode.length} generated paths against /access-requests/{id} and /{appCode}/{code}`, () => {
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(
        Object.keys(requestMachine.root.states).sort(),
      );
    });
    describe('opened by id by an admin, who decides', () => {
      runPaths<RequestSnapshot>(byId, {
        eventTypes: REQUEST_EVENT_TYPES,
        mount: () =>
          mount({
            machine: requestMachine,
            route: `${ACCESS_REQUESTS_ROUTE}/*`,
            entry: `${ACCESS_REQUESTS_ROUTE}/${REQUEST_DETAILS.id}`,
            page: <AccessRequestsPage />,
            user: readOnlyAdmin,
            inspect: coverage.inspect,
          }),
        checks,
        perform,
      });
    });
    describe('opened by id by a VIEW_ACCESS_REQUESTS holder, who only views', () => {
      runPaths<RequestSnapshot>(byIdViewer, {
        eventTypes: REQUEST_EVENT_TYPES,
        mount: () =>
          mount({
            machine: requestMachine,
            route: `${ACCESS_REQUESTS_ROUTE}/*`,
            entry: `${ACCESS_REQUESTS_ROUTE}/${REQUEST_DETAILS.id}`,
            page: <AccessRequestsPage />,
            user: users.auditor,
            inspect: coverage.inspect,
          }),
        checks,
        perform,
      });
    });
    describe('opened by app code and code', () => {
      runPaths<RequestSnapshot>(byCode, {
        eventTypes: REQUEST_EVENT_TYPES,
        mount: () =>
          mount({
            machine: requestMachine,
            route: `${ACCESS_REQUESTS_ROUTE}/:appCode/:code`,
            entry: `${ACCESS_REQUESTS_ROUTE}/${REQUEST_DETAILS.app.code}/${REQUEST_DETAILS.code}`,
            page: <ResolveRequest appCode={REQUEST_DETAILS.app.code} code={REQUEST_DETAILS.code} />,
            user: users.auditor,
            inspect: coverage.inspect,
          }),
        checks,
        perform,
      });
    });
  });
}

export function defineHistoryPaths(coverage: MachineCoverage): void {
  const paths = historyPaths();
  const checks = (m: Mounted) => ({
    loading: (s: HistorySnapshot) =>
      expectLoading(
        m,
        'loadHistoryPage',
        { id: REQUEST_DETAILS.id, page: s.context.page },
        s.context.result !== null,
      ),
    ready: async (s: HistorySnapshot) => {
      const result = s.context.result!;
      await expectPager(result.page);
      const rows = screen.getAllByTestId('history-item');
      expect(rows.length).toBeLessThanOrEqual(5);
      expect(rows).toHaveLength(result.data.length);
      result.data.forEach((item, i) => {
        const row = rows[i]!;
        if (item.actor) {
          // admin1 holds READ_ONLY: actors are links to the identity.
          expect(within(row).getByRole('link', { name: item.actor.username })).toHaveAttribute(
            'href',
            identityPath(item.actor.id),
          );
        } else {
          expect(row).toHaveTextContent(t.system);
        }
        if (item.actorApp) expect(row).toHaveTextContent(t.viaApp(item.actorApp.name));
        expect(within(row).getByText(item.type.text).closest('[data-variant]')).toHaveAttribute(
          'data-variant',
          item.type.variant,
        );
        if (item.ticket) {
          expect(within(row).getByRole('link', { name: item.ticket.code })).toHaveAttribute(
            'href',
            item.ticket.url,
          );
        }
        if (item.description) {
          const lines = item.description.split('\n');
          const cell = within(row).getByText(
            (_, el) => el?.textContent === item.description && el.tagName === 'P',
          );
          expect(cell).toHaveStyle({ whiteSpace: 'pre-line' });
          expect(lines.length).toBeGreaterThanOrEqual(1);
        }
      });
    },
    failed: (s: HistorySnapshot) => expectFailed(s.context.errorMessage, t.historyLoadFailed),
  });

  describe(`access-requests/history: ${paths.length} generated paths against the history tab`, () => {
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(
        Object.keys(historyMachine.root.states).sort(),
      );
    });
    runPaths<HistorySnapshot>(paths, {
      eventTypes: HISTORY_EVENT_TYPES,
      mount: () =>
        mount({
          machine: historyMachine,
          route: `${ACCESS_REQUESTS_ROUTE}/*`,
          entry: `${ACCESS_REQUESTS_ROUTE}/${REQUEST_DETAILS.id}/history`,
          page: <AccessRequestsPage />,
          user: readOnlyAdmin,
          inspect: coverage.inspect,
        }),
      // The request itself loads first; the history tab starts once it is shown.
      before: (m) => answer(m, done('loadAccessRequest', REQUEST_DETAILS)),
      checks,
      perform: async (m, event) => {
        const e = event as { type: string; page?: number };
        if (e.type === 'user.page')
          await m.user.click(screen.getByRole('button', { name: String((e.page ?? 0) + 1) }));
        else if (e.type === 'user.retry') await m.user.click(screen.getByRole('button', { name: t.retry }));
        else await answer(m, event);
      },
    });
  });
}
