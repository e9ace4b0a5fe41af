// An admin on their own account's page (/admin/identities/{ownId}). 'Sign out of all devices' has
// the own-account wording of section 2.2 (it said '{name} will be signed out...'), and once done the
// admin goes to sign in with the session forgotten, as the profile's sign-out does (the page was
// loaded again, which met the ended session's 401: 'session expired'). Unlock is not offered on
// one's own account (the server refuses it with 403, which section 8 shows as /permission-denied):
// the page says another administrator must unlock it. Another identity's page is as before.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import { identityMachine, type SignOutResult } from '../../machines/admin/identity/identity.machine';
import { SIGN_IN_ROUTE } from '../../machines/routes';
import { AppProviders } from '../../src/client/app/App';
import type { PortalServices } from '../../src/client/app/services';
import { SessionStore } from '../../src/client/app/session';
import { identityTexts } from '../../src/client/flows/admin/identities.texts';
import { IdentityScreen } from '../../src/client/flows/admin/IdentityScreen';
import { FlowImplementationsProvider } from '../../src/client/flows/shared/flow-implementations';
import { signOutAllTexts } from '../../src/client/pages/profile.texts';
import type { UnlockResult } from '../../src/contract/admin';
import type { IdentityDetails } from '../../src/contract/admin-identities';
import type { CurrentUser } from '../../src/contract/entities';
import { historyPage } from '../machines/access-requests.fixtures';
import { users } from '../machines/fixtures/sign-in.fixtures';
import { IDENTITY, IDENTITY_ID, LOCKED_DATE, TICKET } from '../model/admin-identities.model';

const t = identityTexts.identity;
const LOCKED: IdentityDetails = { ...IDENTITY, lockedDate: LOCKED_DATE };
/** The admin signed in: the identity IDENTITY_ID is their own account. */
const SELF: CurrentUser = {
  ...users.auditor,
  id: IDENTITY_ID,
  username: IDENTITY.username,
  isAdmin: true,
  roles: ['ADMIN'],
};
const OTHER_ADMIN: CurrentUser = { ...SELF, id: 'u-admin2', username: 'admin2' };

function Landed() {
  return <output data-testid="landed">{useLocation().pathname}</output>;
}

function renderIdentity(admin: CurrentUser, identity: IdentityDetails) {
  const store = new SessionStore(async () => ({ currentUser: admin, context: null }));
  const services: PortalServices = {
    loadSession: vi.fn<PortalServices['loadSession']>(),
    getAccessibleApps: vi.fn<PortalServices['getAccessibleApps']>(async () => []),
    logout: vi.fn<PortalServices['logout']>(async () => {}),
    getSalaryNumber: vi.fn<PortalServices['getSalaryNumber']>(async () => null),
    getSupportEmail: vi.fn<PortalServices['getSupportEmail']>(async () => null),
  };
  const loadIdentity = vi.fn(async () => identity);
  const signOutIdentity = vi.fn<
    (args: { input: { id: string; ticketCode: string } }) => Promise<SignOutResult>
  >(async () => ({ type: 'signedOut' }));
  const unlockIdentity = vi.fn(async (): Promise<UnlockResult> => ({
    username: identity.username,
    wasLocked: true,
  }));
  const path = `/admin/identities/${IDENTITY_ID}`;
  const router = createMemoryRouter(
    [
      { path, element: <IdentityScreen id={IDENTITY_ID} /> },
      { path: '*', element: <Landed /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProviders session={store} services={services} env="test">
      <FlowImplementationsProvider
        value={{
          [identityMachine.id]: {
            actors: {
              loadIdentity: fromPromise(loadIdentity),
              signOutIdentity: fromPromise(signOutIdentity),
              unlockIdentity: fromPromise(unlockIdentity),
            },
          },
          [historyMachine.id]: {
            actors: { loadHistoryPage: fromPromise(async () => historyPage(0, 2)) },
          },
        }}
      >
        <RouterProvider router={router} />
      </FlowImplementationsProvider>
    </AppProviders>,
  );
  return {
    store,
    router,
    loadIdentity,
    signOutIdentity,
    unlockIdentity,
    user: userEvent.setup({ delay: null }),
  };
}

async function signOutAll(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: t.signOutAll }));
  const modal = await screen.findByRole('dialog', { name: signOutAllTexts.title });
  await user.type(
    within(modal).getByRole('textbox', { name: new RegExp(`^${signOutAllTexts.ticket}`) }),
    TICKET,
  );
  return modal;
}

describe("an admin on their own account's page", () => {
  it(
    "words 'Sign out of all devices' for their own account, and sends them to sign in once signed out",
    { timeout: 20_000 },
    async () => {
      const { store, router, loadIdentity, signOutIdentity, user } = renderIdentity(SELF, IDENTITY);
      const modal = await signOutAll(user);
      expect(modal).toHaveTextContent(signOutAllTexts.ownIntro);
      expect(modal).toHaveTextContent(signOutAllTexts.ownApps);
      expect(modal).not.toHaveTextContent(signOutAllTexts.otherIntro(IDENTITY.name));
      expect(modal).not.toHaveTextContent(signOutAllTexts.otherApps);

      await user.click(within(modal).getByRole('button', { name: signOutAllTexts.confirm }));
      expect(await screen.findByTestId('landed')).toHaveTextContent(SIGN_IN_ROUTE);
      expect(router.state.location.pathname).toBe(SIGN_IN_ROUTE);
      expect(signOutIdentity).toHaveBeenCalledTimes(1);
      expect(signOutIdentity.mock.calls[0]![0]).toMatchObject({
        input: { id: IDENTITY_ID, ticketCode: TICKET },
      });
      // Forgotten here as the header's Sign out forgets it; the page was not loaded again.
      expect(store.getState().currentUser).toMatchObject({ id: null, isAuthenticated: false });
      expect(store.getState().adminTargetPath).toBeNull();
      expect(loadIdentity).toHaveBeenCalledTimes(1);
    },
  );

  it(
    'offers no Unlock on their own locked account, and says another administrator must unlock it',
    { timeout: 20_000 },
    async () => {
      const { unlockIdentity } = renderIdentity(SELF, LOCKED);
      const locked = await screen.findByTestId('locked-notice');
      expect(locked).toHaveTextContent(t.lockedTitle);
      expect(locked).toHaveTextContent(t.ownAccountUnlock);
      expect(screen.queryByRole('button', { name: t.unlock })).toBeNull();
      expect(unlockIdentity).not.toHaveBeenCalled();
    },
  );
});

describe("an admin on another identity's page", () => {
  it(
    "names the identity in 'Sign out of all devices', and shows its page again once signed out",
    { timeout: 20_000 },
    async () => {
      const { store, router, loadIdentity, user } = renderIdentity(OTHER_ADMIN, LOCKED);
      // Unlock is offered on another's locked account.
      expect(await screen.findByRole('button', { name: t.unlock })).toBeEnabled();
      expect(screen.queryByText(t.ownAccountUnlock)).toBeNull();

      const modal = await signOutAll(user);
      expect(modal).toHaveTextContent(signOutAllTexts.otherIntro(IDENTITY.name));
      await user.click(within(modal).getByRole('button', { name: signOutAllTexts.confirm }));
      expect(await screen.findByTestId('signed-out-notice')).toHaveTextContent(
        t.signedOut(IDENTITY.username, TICKET),
      );
      await waitFor(() => expect(loadIdentity).toHaveBeenCalledTimes(2));
      expect(router.state.location.pathname).toBe(`/admin/identities/${IDENTITY_ID}`);
      expect(store.getState().currentUser).toMatchObject({ id: OTHER_ADMIN.id });
    },
  );
});
