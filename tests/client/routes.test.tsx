// The route wrapper: guard decisions carried out by the router (redirects, remembered target
// paths), lazy pages, and the back button's fallback.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setApiFetch } from '../../src/client/api';
import { BackButton } from '../../src/client/app/shell/BackButton';
import type { CurrentUser } from '../../src/contract/entities';
import { users } from './fixtures';
import { renderApp } from './render';

vi.mock('../../src/client/flows/sign-in/SignInPage', () => ({
  default: () => <h1>Sign in page</h1>,
}));

afterEach(() => {
  window.history.replaceState(null, '');
  setApiFetch(null);
});

async function landing(user: CurrentUser, path: string) {
  const app = renderApp({ user, path });
  await screen.findByRole('heading', { level: 1 });
  return { ...app, pathname: app.router.state.location.pathname };
}

describe('guards through the router', () => {
  it("'/' sends a signed-in user to the applications page", async () => {
    const { pathname } = await landing(users.customer, '/');
    expect(pathname).toBe('/profile/my-applications');
    expect(screen.getByRole('heading', { level: 1, name: 'Applications' })).toBeInTheDocument();
  });

  it("'/' sends a VIEW_ACCESS_REQUESTS holder to /access-requests", async () => {
    const { pathname } = await landing(users.auditor, '/');
    expect(pathname).toBe('/access-requests');
    expect(screen.getByRole('heading', { level: 1, name: 'Access Requests' })).toBeInTheDocument();
  });

  it("'/' keeps anonymous and AUTHENTICATION_PENDING users on the sign-in page", async () => {
    expect((await landing(users.anonymous, '/')).pathname).toBe('/');
    expect(screen.getByRole('heading', { name: 'Sign in page' })).toBeInTheDocument();
  });

  it('a profile route sends an anonymous user to sign in and remembers the target path', async () => {
    const { pathname, session } = await landing(users.anonymous, '/profile?tab=details');
    expect(pathname).toBe('/');
    expect(session.getState().targetPath).toBe('/profile?tab=details');
    expect(window.sessionStorage.getItem('portal.targetPath')).toBe('/profile?tab=details');
  });

  it('the applications page is denied to VIEW_ACCESS_REQUESTS holders', async () => {
    const { pathname } = await landing(users.auditor, '/profile/my-applications');
    expect(pathname).toBe('/permission-denied');
  });

  it('access requests are denied to other signed-in users, and remembered for anonymous ones', async () => {
    // What earlier tests remembered in this tab is not this test's.
    window.sessionStorage.clear();
    const customer = await landing(users.customer, '/access-requests');
    expect(customer.pathname).toBe('/permission-denied');
    // Denied, not sent to sign in: nothing to come back to.
    expect(customer.session.getState().targetPath).toBeNull();
    expect(window.sessionStorage.getItem('portal.targetPath')).toBeNull();
    customer.unmount();
    // Anonymous: sent to sign in, the path kept (in the tab's storage too) for the sign-in to land on.
    const anonymous = await landing(users.anonymous, '/access-requests?status=open');
    expect(anonymous.pathname).toBe('/');
    expect(screen.getByRole('heading', { name: 'Sign in page' })).toBeInTheDocument();
    expect(anonymous.session.getState().targetPath).toBe('/access-requests?status=open');
    expect(window.sessionStorage.getItem('portal.targetPath')).toBe('/access-requests?status=open');
  });

  it('access requests remember the target path for an anonymous user', async () => {
    const { pathname, session } = await landing(users.anonymous, '/access-requests/42/history');
    expect(pathname).toBe('/');
    expect(session.getState().targetPath).toBe('/access-requests/42/history');
  });

  it('forced-action routes are only for AUTHENTICATION_PENDING users; others go to /', async () => {
    const anonymous = await landing(users.anonymous, '/forced-actions/change-expired-password');
    expect(anonymous.pathname).toBe('/');
    expect(screen.getByRole('heading', { name: 'Sign in page' })).toBeInTheDocument();
    anonymous.unmount();
    // A signed-in customer goes to '/' too, which lands it on its own page (section 2.1).
    const customer = await landing(users.customer, '/forced-actions/change-expired-password');
    expect(customer.pathname).toBe('/profile/my-applications');
    expect(screen.getByRole('heading', { level: 1, name: 'Applications' })).toBeInTheDocument();
  });

  it('a pending user passes the forced-action guard to a step; an unknown step is not found', async () => {
    const step = await landing(users.pending, '/forced-actions/change-expired-password');
    expect(step.pathname).toBe('/forced-actions/change-expired-password');
    expect(await screen.findByRole('heading', { level: 1, name: 'Change password' })).toBeInTheDocument();
    step.unmount();
    expect((await landing(users.pending, '/forced-actions/no-such-step')).pathname).toBe('/not-found');
  });

  it('a pending user going Back into a step already passed is sent to the step it is at', async () => {
    window.sessionStorage.setItem('portal.pendingStep', '/forced-actions/change-expired-password');
    try {
      const back = await landing(users.pending, '/forced-actions/select-facility');
      expect(back.pathname).toBe('/forced-actions/change-expired-password');
      expect(await screen.findByRole('heading', { level: 1, name: 'Change password' })).toBeInTheDocument();
    } finally {
      window.sessionStorage.removeItem('portal.pendingStep');
    }
  });

  it('admin routes store the admin target path and go to / for anyone not signed in', async () => {
    const { pathname, session } = await landing(users.anonymous, '/admin/apps');
    expect(pathname).toBe('/');
    expect(session.getState().adminTargetPath).toBe('/admin/apps');
  });

  it('admin routes store the admin target path for a signed-in non-admin, who lands as usual from /', async () => {
    const customer = await landing(users.customer, '/admin/apps');
    expect(customer.pathname).toBe('/profile/my-applications');
    expect(customer.session.getState().adminTargetPath).toBe('/admin/apps');
    expect(screen.getByRole('heading', { level: 1, name: 'Applications' })).toBeInTheDocument();
    customer.unmount();
    // The access-request list's own calls stay unanswered (see 'admin routes load for admins').
    setApiFetch(() => new Promise<Response>(() => {}));
    const auditor = await landing(users.auditor, '/admin/invitations');
    expect(auditor.pathname).toBe('/access-requests');
    expect(auditor.session.getState().adminTargetPath).toBe('/admin/invitations');
  });

  it('admin routes load for admins', async () => {
    // The guard is under test, not the page's own load: its calls stay unanswered, so a failed
    // call cannot move the page to /error before the address is read.
    setApiFetch(() => new Promise<Response>(() => {}));
    expect((await landing(users.admin, '/admin/apps')).pathname).toBe('/admin/apps');
    expect(screen.getByRole('heading', { level: 1, name: 'Administration' })).toBeInTheDocument();
  });

  it('guards decide on navigation, not when the user changes on the page (the sign-in flow lands itself)', async () => {
    const { router, session } = await landing(users.anonymous, '/');
    session.setCurrentUser(users.customer);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('back button (section 2.2)', () => {
  function renderBack(idx: number | null) {
    window.history.replaceState(idx === null ? null : { idx }, '');
    const router = createMemoryRouter(
      [
        { path: '/first', element: <h1>First</h1> },
        { path: '/second', element: <BackButton fallback="/home" /> },
        { path: '/home', element: <h1>Home</h1> },
      ],
      { initialEntries: ['/first', '/second'], initialIndex: 1 },
    );
    render(
      <MantineProvider env="test">
        <RouterProvider router={router} />
      </MantineProvider>,
    );
    return router;
  }

  it('goes back when the user navigated within the app', async () => {
    const router = renderBack(1);
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/first'));
  });

  it('falls back to the named route when the user has not navigated within the app', async () => {
    const router = renderBack(0);
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('falls back when the page was opened from elsewhere (no router history state)', async () => {
    const router = renderBack(null);
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });
});
