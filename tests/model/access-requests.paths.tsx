// Generated access-request paths executed against the mounted /access-requests pages: the list
// (search and paging), one request (resolved by code and redirected, or loaded by id, with its
// tabs) and the history tab (five per page, 'result(s)', 'N pages', System, actor links for
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
        expect(rows[i]).toHaveTextContent(t.status[request.status]!);
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
  const byId = requestPaths({ id: REQUEST_DETAILS.id });
  const byCode = requestPaths({ appCode: REQUEST_DETAILS.app.code, code: REQUEST_DETAILS.code });
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
    loading: () => expectLoading(m, 'loadAccessRequest', { id: REQUEST_DETAILS.id }, false),
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
        `${ACCESS_REQUESTS_ROUTE}/${details.id}`,
        `${ACCESS_REQUESTS_ROUTE}/${details.id}/history`,
        `${ACCESS_REQUESTS_ROUTE}/${details.id}/api-calls`,
      ]);
      // Organisations is the default tab.
      expect(links[0]).toHaveAttribute('aria-current', 'page');
      const panel = screen.getByRole('region', { name: t.tabs.organisations });
      expect(panel).toHaveTextContent(details.app.name);
      expect(panel).toHaveTextContent(t.noFacilityText);
      expect(panel).toHaveTextContent(details.requester.username);
      expect(panel).toHaveTextContent(t.notDecided);
    },
    failed: (s: RequestSnapshot) => expectFailed(s.context.errorMessage, t.loadFailed),
  });
  const perform = async (m: Mounted, event: EventObject) => {
    if (event.type === 'user.retry') await m.user.click(screen.getByRole('button', { name: t.retry }));
    else await answer(m, event);
  };

  describe(`access-requests/request: ${byId.length + byCode.length} generated paths against /access-requests/{id} and /{appCode}/{code}`, () => {
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(
        Object.keys(requestMachine.root.states).sort(),
      );
    });
    describe('opened by id', () => {
      runPaths<RequestSnapshot>(byId, {
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
