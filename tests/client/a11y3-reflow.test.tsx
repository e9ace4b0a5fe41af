// WCAG 1.4.10, content reflowing at 320 CSS px (jsdom lays nothing out, so these check the styles
// that make it), after tests/client/a11y2-reflow.test.tsx: the pages' own Containers, inside the
// shell's, add no side padding to it (sign-in, password reset, single sign-on, the forced steps,
// the profile's forms and wizards, administration, access requests); the admin apps', an
// identity's and an access request's vertical tables break a long value anywhere, and their
// header column is 40% of the table below the xs breakpoint instead of a fixed width.
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { afterEach, describe, expect, it } from 'vitest';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import { requestMachine } from '../../machines/access-requests/request/request.machine';
import { appsMachine } from '../../machines/admin/apps/apps.machine';
import { identityMachine } from '../../machines/admin/identity/identity.machine';
import {
  ACCESS_REQUESTS_ROUTE,
  FORCED_ACTION_ROUTES,
  MERGE_ACCOUNTS_ROUTE,
  PASSWORD_RESET_ROUTE,
  PROFILE_ROUTES,
  SIGN_IN_ROUTE,
  SINGLE_SIGN_ON_ROUTE,
} from '../../machines/routes';
import { setApiFetch } from '../../src/client/api';
import { AppProviders } from '../../src/client/app/App';
import { SessionStore } from '../../src/client/app/session';
import { AppsScreen } from '../../src/client/flows/admin/AppsScreen';
import { IdentityScreen } from '../../src/client/flows/admin/IdentityScreen';
import { FlowImplementationsProvider } from '../../src/client/flows/shared/flow-implementations';
import AccessRequestsPage from '../../src/client/pages/AccessRequestsPage';
import type { Context, CurrentUser } from '../../src/contract/entities';
import { historyPage, REQUEST_DETAILS } from '../machines/access-requests.fixtures';
import { ADMIN_APPS } from '../model/admin.model';
import { IDENTITY, IDENTITY_ID } from '../model/admin-identities.model';
import { fakeServices } from '../model/harness/forced-pages';
import { contexts, users } from './fixtures';
import { renderApp } from './render';
import { renderAdmin } from './render-admin';

afterEach(() => setApiFetch(null));

/** The page's own Container, inside the shell's (the first the page draws). */
async function pageContainer(): Promise<HTMLElement> {
  const selector = 'main .mantine-Container-root .mantine-Container-root';
  return waitFor(
    () => {
      const container = document.querySelector<HTMLElement>(selector);
      expect(container, "a Container inside the shell's").not.toBeNull();
      return container!;
    },
    { timeout: 10_000 },
  );
}

type Case = [name: string, path: string, user: CurrentUser, context: Context, size: number | string];

/** Each page at its address, with its Container's own max width (kept as it was). */
const pages: Case[] = [
  ['the sign-in page', SIGN_IN_ROUTE, users.anonymous, contexts.portal, 440],
  ['password reset', PASSWORD_RESET_ROUTE, users.anonymous, contexts.portal, 520],
  ['single sign-on', SINGLE_SIGN_ON_ROUTE, users.customer, contexts.loans, 560],
  [
    'change expired password',
    FORCED_ACTION_ROUTES.CHANGE_EXPIRED_PASSWORD,
    users.pending,
    contexts.portal,
    440,
  ],
  ['factor enrolment', FORCED_ACTION_ROUTES.FACTOR_ENROLMENT, users.pending, contexts.portal, 520],
  ['MFA', FORCED_ACTION_ROUTES.MFA_AUTHENTICATOR_APP, users.pending, contexts.portal, 440],
  ['select facility', FORCED_ACTION_ROUTES.SELECT_FACILITY, users.pending, contexts.loans, 560],
  ['merge accounts', MERGE_ACCOUNTS_ROUTE, users.pending, contexts.portal, 560],
  ["the profile's change-name form", PROFILE_ROUTES.CHANGE_NAME, users.customer, contexts.portal, 520],
  ["the profile's change-email wizard", PROFILE_ROUTES.CHANGE_EMAIL, users.customer, contexts.portal, 520],
  ['administration', '/admin', users.admin, contexts.portal, 'xl'],
  ['access requests', ACCESS_REQUESTS_ROUTE, users.auditor, contexts.portal, 'lg'],
];

const containerSize = (size: number | string) =>
  typeof size === 'number' ? `calc(${size / 16}rem * var(--mantine-scale))` : `var(--container-size-${size})`;

describe("the pages' Containers at 320 CSS px", () => {
  it.each(pages)(
    "%s adds no side padding to the shell's",
    { timeout: 20_000 },
    async (_name, path, user, context, size) => {
      // The pages' calls stay unanswered: their Container is drawn before any answer.
      setApiFetch(() => new Promise<Response>(() => {}));
      const { router } = renderApp({ path, user, context });
      const container = await pageContainer();
      expect(router.state.location.pathname).toBe(path);
      expect(container.style.getPropertyValue('--container-size')).toBe(containerSize(size));
      expect(container.style.paddingInline).toMatch(/^0(px|rem)?$/);
    },
  );
});

/** The CSS Mantine writes for an element's responsive style props (its inline <style> rule). */
function responsiveCss(element: HTMLElement): string {
  const generated = [...element.classList].find((c) => c.startsWith('__m__-'));
  expect(generated, 'a responsive style prop').toBeDefined();
  const style = [...document.querySelectorAll('style')].find((s) =>
    s.textContent?.includes(`.${generated}{`),
  );
  expect(style).toBeDefined();
  return style!.textContent!.replace(/\s+/g, ' ');
}

/** A vertical table: each value cell breaks a long word; the first header is 40% when narrow. */
function expectReflowingTable(table: HTMLElement, wide: number) {
  const cells = [...table.querySelectorAll<HTMLElement>('td')];
  expect(cells.length).toBeGreaterThan(0);
  for (const cell of cells) expect(cell.style.overflowWrap).toBe('anywhere');
  const header = table.querySelector<HTMLElement>('th')!;
  const css = responsiveCss(header);
  expect(css).toMatch(/^\.__m__-[^{]+\{width:40%;\}/);
  expect(css).toContain(`@media(min-width: 36em){`);
  expect(css).toContain(`width:calc(${wide / 16}rem * var(--mantine-scale))`);
}

describe('the vertical tables at 320 CSS px', () => {
  it("the admin apps' tables", async () => {
    renderAdmin(<AppsScreen />, {
      [appsMachine.id]: { actors: { loadApps: fromPromise(async () => ADMIN_APPS) } },
    });
    const tables = await screen.findAllByRole('table');
    expect(tables).toHaveLength(ADMIN_APPS.length);
    for (const table of tables) expectReflowingTable(table, 220);
  });

  it("an identity's details", async () => {
    renderAdmin(<IdentityScreen id={IDENTITY_ID} />, {
      [identityMachine.id]: { actors: { loadIdentity: fromPromise(async () => IDENTITY) } },
      [historyMachine.id]: { actors: { loadHistoryPage: fromPromise(async () => historyPage(0, 2)) } },
    });
    const details = await screen.findByTestId('identity-details');
    expect(details).toHaveTextContent(IDENTITY.email!);
    expectReflowingTable(details.querySelector('table')!, 200);
  });

  it("an access request's organisations", async () => {
    const store = new SessionStore(async () => ({ currentUser: users.auditor, context: null }));
    const router = createMemoryRouter(
      [{ path: `${ACCESS_REQUESTS_ROUTE}/*`, element: <AccessRequestsPage /> }],
      {
        initialEntries: [`${ACCESS_REQUESTS_ROUTE}/${REQUEST_DETAILS.id}`],
      },
    );
    render(
      <AppProviders session={store} services={fakeServices()} env="test">
        <FlowImplementationsProvider
          value={{
            [requestMachine.id]: { actors: { loadAccessRequest: fromPromise(async () => REQUEST_DETAILS) } },
            [historyMachine.id]: { actors: { loadHistoryPage: fromPromise(async () => historyPage(0, 2)) } },
          }}
        >
          <RouterProvider router={router} />
        </FlowImplementationsProvider>
      </AppProviders>,
    );
    const requester = await screen.findByText(new RegExp(REQUEST_DETAILS.requester.username));
    expectReflowingTable(requester.closest('table')!, 160);
  });
});
