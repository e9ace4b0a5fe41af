// The shell of section 2.2: header variants, application grid, person menu and sign-out, footer,
// landmarks and focus, toasts (previous sign-in, api notices, 'Update available').
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setApiFetch } from '../../src/client/api';
import { ApiError } from '../../src/client/api/api-error';
import { announce } from '../../src/client/app/notices';
import { adminTexts } from '../../src/client/flows/admin/admin.texts';
import { ANONYMOUS_USER } from '../../src/client/app/session/session-store';
import { shellTexts } from '../../src/client/app/texts';
import { SESSION_EXPIRED_MESSAGE } from '../../src/contract/errors';
import { contexts, targets, users } from './fixtures';
import { fakeServices, renderApp } from './render';
import { navTexts } from '../../src/client/app/shell/nav.texts';
import { toastTexts } from '../../src/client/app/toast.texts';

vi.mock('../../src/client/flows/sign-in/SignInPage', async () => {
  const { useSession } = await import('../../src/client/app/session');
  const { previousAttempt } = await import('./fixtures');
  return {
    default: function SignInPageStandIn() {
      const session = useSession();
      return (
        <>
          <h1>Sign in page</h1>
          <button type="button" onClick={() => session.showPreviousSignIn(previousAttempt)}>
            Show previous sign-in
          </button>
        </>
      );
    },
  };
});

afterEach(() => {
  vi.useRealTimers();
  setApiFetch(null);
});

const mainNav = () => screen.findByRole('navigation', { name: shellTexts.mainNavigation }, { timeout: 5000 });

describe('header, unauthenticated', () => {
  it('has Sign in and User guide links, and the brand leads to sign-in', async () => {
    renderApp({ user: users.anonymous });
    const nav = await mainNav();
    expect(within(nav).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'User guide' })).toHaveAttribute('href', '/docs/user-guide');
    expect(screen.getByRole('link', { name: shellTexts.brand })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: navTexts.applicationGrid })).toBeNull();
  });

  it('gives a sign-in pending at a forced step no User guide link (section 6: it would go to /)', async () => {
    renderApp({ user: users.pending, path: '/' });
    const nav = await mainNav();
    expect(within(nav).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/');
    expect(within(nav).queryByRole('link', { name: 'User guide' })).toBeNull();
  });

  it('sends a pending sign-in that opens the user guide to /', async () => {
    renderApp({ user: users.pending, path: '/docs/user-guide' });
    expect(
      await screen.findByRole('heading', { name: 'Sign in page' }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it('shows no App and Realm badges unless the context has showInHeader', async () => {
    renderApp({ user: users.anonymous, context: contexts.portal });
    await mainNav();
    expect(screen.queryByText(/^App: /)).toBeNull();
  });

  it('shows App and Realm badges when the context has showInHeader', async () => {
    renderApp({ user: users.anonymous, context: contexts.loans });
    expect(await screen.findByText('App: LOANS')).toBeInTheDocument();
    expect(screen.getByText('Realm: RETAIL')).toBeInTheDocument();
  });

  it('treats an AUTHENTICATION_PENDING user as not yet signed in', async () => {
    renderApp({ user: users.pendingFlaggedAuthenticated });
    const nav = await mainNav();
    expect(within(nav).getByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  });
});

describe('header, authenticated', () => {
  it('has the application grid and the person menu, no Sign in link; the brand leads to the applications page', async () => {
    renderApp({ user: users.customer, path: '/profile' });
    const nav = await mainNav();
    expect(await within(nav).findByRole('button', { name: navTexts.applicationGrid })).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Casey Customer account menu' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: navTexts.accessRequests })).toBeNull();
    expect(screen.getByRole('link', { name: shellTexts.brand })).toHaveAttribute(
      'href',
      '/profile/my-applications',
    );
  });

  it('lists the accessible applications in the grid dropdown', async () => {
    const user = userEvent.setup();
    const services = fakeServices([targets.loansF001, targets.payroll]);
    renderApp({ user: users.customer, path: '/profile', services });
    await user.click(await screen.findByRole('button', { name: navTexts.applicationGrid }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['LoansHarbour Branch (HB1)', 'Payroll']);
    expect(services.getAccessibleApps).toHaveBeenCalledTimes(1);
  });

  it("says 'You do not have access to any other applications' when there are none", async () => {
    const user = userEvent.setup();
    renderApp({ user: users.customer, path: '/profile', services: fakeServices([]) });
    await user.click(await screen.findByRole('button', { name: navTexts.applicationGrid }));
    const empty = await screen.findByRole('menuitem', {
      name: 'You do not have access to any other applications',
    });
    expect(empty).toBeDisabled();
  });

  it('hands off from the grid through the handoff hook point', async () => {
    const user = userEvent.setup();
    const handoff = vi.fn();
    renderApp({ user: users.customer, path: '/profile', services: fakeServices([targets.payroll]), handoff });
    await user.click(await screen.findByRole('button', { name: navTexts.applicationGrid }));
    await user.click(await screen.findByRole('menuitem', { name: 'Payroll' }));
    expect(handoff).toHaveBeenCalledWith(targets.payroll);
  });

  it('person menu: Profile, User guide, Sign out', async () => {
    const user = userEvent.setup();
    renderApp({ user: users.customer, path: '/profile/my-applications' });
    await user.click(await screen.findByRole('button', { name: 'Casey Customer account menu' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Profile', 'User guide', 'Sign out']);
    expect(screen.getByRole('menuitem', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('menuitem', { name: 'User guide' })).toHaveAttribute('href', '/docs/user-guide');
  });

  it('Sign out: POST logout, forget user, target paths and context, go to /', async () => {
    const user = userEvent.setup();
    const { router, session, services } = renderApp({ user: users.customer, path: '/profile' });
    await screen.findByRole('heading', { level: 1, name: 'Profile' });
    session.remember('targetPath', '/profile/change-name');
    session.remember('adminTargetPath', '/admin/apps');
    await user.click(await screen.findByRole('button', { name: 'Casey Customer account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(services.logout).toHaveBeenCalledTimes(1);
    expect(session.getState()).toEqual({
      currentUser: ANONYMOUS_USER,
      context: null,
      targetPath: null,
      adminTargetPath: null,
      singleSignOnAppName: null,
      pendingStep: null,
    });
    expect(await screen.findByRole('heading', { name: 'Sign in page' })).toBeInTheDocument();
    expect(within(await mainNav()).getByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('a sign-out the server did not carry out (5xx, no answer) leaves the user signed in', async () => {
    const user = userEvent.setup();
    const services = fakeServices();
    services.logout.mockRejectedValue(
      new ApiError({ kind: 'http', status: 503, body: { message: 'Down' }, callId: 'logout', handled: true }),
    );
    const { router, session } = renderApp({ user: users.customer, path: '/profile', services });
    await screen.findByRole('heading', { level: 1, name: 'Profile' });
    await user.click(await screen.findByRole('button', { name: 'Casey Customer account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(services.logout).toHaveBeenCalledTimes(1));
    // Section 8 shows /error; the header still shows who is signed in.
    await waitFor(() => expect(router.state.location.pathname).toBe('/error'));
    expect(session.getState().currentUser).toEqual(users.customer);
    expect(screen.getByRole('button', { name: 'Casey Customer account menu' })).toBeInTheDocument();
  });

  it('a sign-out answered 401 (the session was already gone) forgets the user', async () => {
    const user = userEvent.setup();
    const services = fakeServices();
    services.logout.mockRejectedValue(
      new ApiError({
        kind: 'http',
        status: 401,
        body: { message: SESSION_EXPIRED_MESSAGE },
        callId: 'logout',
        handled: true,
      }),
    );
    const { session } = renderApp({ user: users.customer, path: '/profile', services });
    await screen.findByRole('heading', { level: 1, name: 'Profile' });
    await user.click(await screen.findByRole('button', { name: 'Casey Customer account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(session.getState().currentUser).toEqual(ANONYMOUS_USER));
  });

  it('VIEW_ACCESS_REQUESTS holders get an Access Requests link; their brand leads there', async () => {
    renderApp({ user: users.auditor, path: '/profile' });
    const nav = await mainNav();
    expect(await within(nav).findByRole('link', { name: 'Access Requests' })).toHaveAttribute(
      'href',
      '/access-requests',
    );
    expect(screen.getByRole('link', { name: shellTexts.brand })).toHaveAttribute('href', '/access-requests');
  });
});

describe('admin navbar (sections 2.2 and 6)', () => {
  it('takes an admin to the access requests, which the header links only for VIEW_ACCESS_REQUESTS holders', async () => {
    // The admin screens' own calls stay unanswered: the navigation is under test.
    setApiFetch(() => new Promise<Response>(() => {}));
    const user = userEvent.setup();
    const { router } = renderApp({ user: users.admin, path: '/admin' });
    const adminNav = await screen.findByRole('navigation', { name: adminTexts.navLabel }, { timeout: 5000 });
    expect(within(await mainNav()).queryByRole('link', { name: navTexts.accessRequests })).toBeNull();
    const link = within(adminNav).getByRole('link', { name: navTexts.accessRequests });
    expect(link).toHaveAttribute('href', '/access-requests');
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/access-requests'));
    expect(
      await screen.findByRole('heading', { level: 1, name: navTexts.accessRequests }),
    ).toBeInTheDocument();
  });
});

describe('footer', () => {
  it('has the financial-advice disclaimer and real privacy statement and website terms pages', async () => {
    const user = userEvent.setup();
    renderApp({ user: users.anonymous, path: '/not-found' });
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByText(shellTexts.disclaimer)).toBeInTheDocument();
    await user.click(within(footer).getByRole('link', { name: 'Privacy statement' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy statement' })).toBeInTheDocument();
    await user.click(within(footer).getByRole('link', { name: 'Website terms' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Website terms' })).toBeInTheDocument();
  });
});

describe('accessibility', () => {
  it('has header, main and footer landmarks and one h1', async () => {
    renderApp({ user: users.anonymous, path: '/not-found' });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('the skip link moves focus to the main content', async () => {
    const user = userEvent.setup();
    renderApp({ user: users.anonymous, path: '/not-found' });
    await user.click(await screen.findByRole('link', { name: shellTexts.skipToContent }));
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('focus moves to the new page heading on a route change, and the title follows it', async () => {
    const user = userEvent.setup();
    renderApp({ user: users.anonymous, path: '/not-found' });
    await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    expect(document.title).toBe('Page not found - Identity Portal');
    await user.click(screen.getByRole('link', { name: 'Website terms' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Website terms' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(document.title).toBe('Website terms - Identity Portal');
  });
});

describe('toasts', () => {
  it('shows the previous sign-in toast for 8 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderApp({ user: users.anonymous });
    await user.click(await screen.findByRole('button', { name: 'Show previous sign-in' }));
    expect(await screen.findByText('Previous sign-in')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: shellTexts.dismiss })).toBeInTheDocument();
    expect(
      screen.getByText(/^Your previous sign-in attempt was on .* from Sydney, Australia, Oceania\.$/),
    ).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(7_000);
    });
    expect(screen.getByText('Previous sign-in')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_500);
    });
    await waitFor(() => expect(screen.queryByText('Previous sign-in')).toBeNull());
  });

  it('shows the notices of the api layer (401 session expired)', async () => {
    renderApp({ user: users.anonymous });
    await screen.findByRole('heading', { name: 'Sign in page' });
    act(() => announce({ message: SESSION_EXPIRED_MESSAGE, tone: 'warning' }));
    expect(await screen.findByText(SESSION_EXPIRED_MESSAGE)).toBeInTheDocument();
  });

  it("'Update available' appears on a new version and stays until dismissed", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { appVersion } = renderApp({ user: users.anonymous });
    await screen.findByRole('heading', { name: 'Sign in page' });
    act(() => appVersion.send({ type: 'version.observed', version: '1.0.0' }));
    expect(screen.queryByText(toastTexts.updateAvailable)).toBeNull();
    act(() => appVersion.send({ type: 'version.observed', version: '1.1.0' }));
    expect(await screen.findByText(toastTexts.updateAvailable)).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10 * 60_000);
    });
    expect(screen.getByText(toastTexts.updateAvailable)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: shellTexts.dismiss }));
    await waitFor(() => expect(screen.queryByText(toastTexts.updateAvailable)).toBeNull());
    expect(appVersion.getSnapshot().value).toBe('dismissed');
  });

  it("'Reload page' reloads through the watcher's reloadPage action", async () => {
    const user = userEvent.setup();
    const { appVersion, reloadPage } = renderApp({ user: users.anonymous });
    await screen.findByRole('heading', { name: 'Sign in page' });
    act(() => {
      appVersion.send({ type: 'version.observed', version: '1.0.0' });
      appVersion.send({ type: 'version.observed', version: '2.0.0' });
    });
    await user.click(await screen.findByRole('button', { name: shellTexts.reloadPage }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });
});
