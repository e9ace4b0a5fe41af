// The single sign-on routes through the router: who may see /single-sign-on (section 2.1: a
// signed-in user whose context is a SAML request of another application), the stored app name that
// /single-sign-on-error needs, and the forced select-facility page under its guard.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiFetch } from '../../src/client/api';
import { singleSignOnErrorGuard, singleSignOnGuard } from '../../src/client/app/guards/guards';
import { SessionStore } from '../../src/client/app/session/session-store';
import type { Context, CurrentUser } from '../../src/contract/entities';
import { contexts, fakeFetch, json, targets, users } from './fixtures';
import { renderApp } from './render';

vi.mock('../../src/client/flows/sign-in/SignInPage', () => ({
  default: () => <h1>Sign in page</h1>,
}));

const samlContext = (appCode: string): Context => ({ ...contexts.loans, appCode });
const toSignIn = { type: 'redirect', to: '/' };

let requests: ReturnType<typeof fakeFetch>['requests'] = [];
beforeEach(() => {
  const fake = fakeFetch((request) => {
    if (request.url.pathname.endsWith('/current-user/handoff-targets')) return json([targets.loansF001]);
    if (request.url.pathname.endsWith('/forced-actions/select-facility/facilities')) {
      return json([{ code: 'F001', name: 'Harbour Branch', aliasOrCode: 'HB1', app: { code: 'LOANS' } }]);
    }
    return json({ message: 'not scripted' }, 500);
  });
  requests = fake.requests;
  setApiFetch(fake.fetch);
});
afterEach(() => setApiFetch(null));

describe('singleSignOnGuard (section 2.1)', () => {
  it('lets in a signed-in user whose context is a SAML request of another application', () => {
    expect(singleSignOnGuard(users.customer, contexts.loans)).toEqual({ type: 'allow' });
    expect(singleSignOnGuard(users.admin, samlContext('PAYROLL'))).toEqual({ type: 'allow' });
  });

  it.each<[string, CurrentUser, Context | null]>([
    ['an anonymous user', users.anonymous, contexts.loans],
    ['a pending sign-in', users.pending, contexts.loans],
    ['a pending sign-in flagged authenticated', users.pendingFlaggedAuthenticated, contexts.loans],
    ['a signed-in user without context', users.customer, null],
    ['a signed-in user in the portal’s own context', users.customer, contexts.portal],
    ['a signed-in user with a SAML context of SAM', users.customer, samlContext('SAM')],
    ['a signed-in user with a JWT context', users.customer, { ...contexts.loans, type: 'JWT' }],
  ])('sends %s to /', (_, user, context) => {
    expect(singleSignOnGuard(user, context)).toEqual(toSignIn);
  });
});

describe('singleSignOnErrorGuard (section 2.1)', () => {
  it('needs a stored single sign-on app name, otherwise /', () => {
    expect(singleSignOnErrorGuard(users.customer, 'Loans')).toEqual({ type: 'allow' });
    expect(singleSignOnErrorGuard(users.anonymous, 'Loans')).toEqual({ type: 'allow' });
    expect(singleSignOnErrorGuard(users.customer, null)).toEqual(toSignIn);
    expect(singleSignOnErrorGuard(users.customer, '')).toEqual(toSignIn);
  });
  it('sends a pending sign-in to / (section 6)', () => {
    expect(singleSignOnErrorGuard(users.pending, 'Loans')).toEqual(toSignIn);
    expect(singleSignOnErrorGuard(users.pendingFlaggedAuthenticated, 'Loans')).toEqual(toSignIn);
  });
});

describe('single sign-on routes through the router', () => {
  it('/single-sign-on shows the handoff question for the context app', async () => {
    const { router } = renderApp({ user: users.customer, context: contexts.loans, path: '/single-sign-on' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Single sign on' })).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Would you like to handoff to Loans?' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/single-sign-on');
    expect(requests.map((r) => `${r.url.pathname}${r.url.search}`)).toEqual([
      '/rest/ui/current-user/handoff-targets?appCode=LOANS',
    ]);
  });

  it('/single-sign-on sends a signed-in user without a SAML context to / (and on to their landing page)', async () => {
    const { router } = renderApp({ user: users.customer, context: contexts.portal, path: '/single-sign-on' });
    await screen.findByRole('heading', { level: 1, name: 'Applications' });
    expect(router.state.location.pathname).toBe('/profile/my-applications');
    expect(requests).toEqual([]);
  });

  it('/single-sign-on sends an anonymous user to sign in', async () => {
    const { router } = renderApp({ user: users.anonymous, context: contexts.loans, path: '/single-sign-on' });
    await screen.findByRole('heading', { level: 1, name: 'Sign in page' });
    expect(router.state.location.pathname).toBe('/');
  });

  it('/single-sign-on-error shows the stored app name', async () => {
    window.sessionStorage.setItem('portal.singleSignOnApp', 'Loans');
    renderApp({ user: users.customer, path: '/single-sign-on-error' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Single sign on error' }),
    ).toBeInTheDocument();
    expect(screen.getByText('You do not have access to Loans.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue to the portal' })).toHaveAttribute(
      'href',
      '/profile/my-applications',
    );
  });

  it('/single-sign-on-error without a stored app name goes to /', async () => {
    const { router } = renderApp({ user: users.anonymous, path: '/single-sign-on-error' });
    await screen.findByRole('heading', { level: 1, name: 'Sign in page' });
    expect(router.state.location.pathname).toBe('/');
  });

  it('the app name is kept in session storage and forgotten on sign-out', () => {
    const store = new SessionStore();
    store.rememberSingleSignOnApp('Payroll');
    expect(window.sessionStorage.getItem('portal.singleSignOnApp')).toBe('Payroll');
    expect(new SessionStore().getState().singleSignOnAppName).toBe('Payroll');
    store.clear();
    expect(store.getState().singleSignOnAppName).toBeNull();
    expect(window.sessionStorage.getItem('portal.singleSignOnApp')).toBeNull();
  });

  it('/forced-actions/select-facility lists the facilities for a pending sign-in', async () => {
    renderApp({ user: users.pending, context: contexts.loans, path: '/forced-actions/select-facility' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Select facility' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /^Harbour Branch/ })).toHaveTextContent('HB1');
  });

  it('/forced-actions/select-facility sends anyone not pending to /', async () => {
    const { router } = renderApp({ user: users.customer, path: '/forced-actions/select-facility' });
    await screen.findByRole('heading', { level: 1, name: 'Applications' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile/my-applications'));
    expect(requests).toEqual([]);
  });
});
