// The admin's identity page (/admin/identities/{id}) as an admin uses it: no control stays enabled
// while the machine would ignore it ('Sign out of all devices' while an unlock runs; the sign-out
// modal's close button, Escape and a click outside while its sign-out runs), the unlock's notice
// says what the server found (the lock lifted, or lifted by another admin first) and takes the
// focus from the Unlock button it replaces, and an unlock's failure does not outlive the next
// action (signed out, the reloaded page no longer locked shows no reason it cannot clear).
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise, type InspectionEvent } from 'xstate';
import { describe, expect, it } from 'vitest';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import { identityMachine, type SignOutResult } from '../../machines/admin/identity/identity.machine';
import type { UnlockResult } from '../../src/contract/admin';
import type { IdentityDetails } from '../../src/contract/admin-identities';
import { identityTexts } from '../../src/client/flows/admin/identities.texts';
import { IdentityScreen } from '../../src/client/flows/admin/IdentityScreen';
import { signOutAllTexts } from '../../src/client/pages/profile.texts';
import { historyPage } from '../machines/access-requests.fixtures';
import { held } from '../machines/admin-identities.fixtures';
import { IDENTITY, IDENTITY_ID, LOCKED_DATE, TICKET } from '../model/admin-identities.model';
import { renderAdmin } from './render-admin';

const t = identityTexts.identity;
const LOCKED: IdentityDetails = { ...IDENTITY, lockedDate: LOCKED_DATE };

/** The page over fakes: each load answers the identity as `current()` says at that moment. */
function renderIdentity(actors: {
  current: () => IdentityDetails;
  unlock?: () => Promise<UnlockResult>;
  signOut?: () => Promise<SignOutResult>;
  /** The events the page sent its machine, by type. */
  sent?: string[];
}) {
  renderAdmin(<IdentityScreen id={IDENTITY_ID} />, {
    [identityMachine.id]: {
      inspect: (event: InspectionEvent) => {
        if (event.type === '@xstate.event' && event.event.type.startsWith('user.'))
          actors.sent?.push(event.event.type);
      },
      actors: {
        loadIdentity: fromPromise(async () => actors.current()),
        unlockIdentity: fromPromise(() => actors.unlock?.() ?? Promise.reject(new Error('No unlock'))),
        signOutIdentity: fromPromise(() => actors.signOut?.() ?? Promise.reject(new Error('No sign-out'))),
      },
    },
    [historyMachine.id]: { actors: { loadHistoryPage: fromPromise(async () => historyPage(0, 2)) } },
  });
  return userEvent.setup({ delay: null });
}

describe('the admin identity page', () => {
  it("disables 'Sign out of all devices' while an unlock runs (the machine would ignore it), and enables it again once the page is back", async () => {
    const unlock = held<UnlockResult>();
    let identity = LOCKED;
    const user = renderIdentity({ current: () => identity, unlock: () => unlock.promise });
    const signOutAll = await screen.findByRole('button', { name: t.signOutAll });
    expect(signOutAll).toBeEnabled();

    await user.click(screen.getByRole('button', { name: t.unlock }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: t.unlock })).toHaveAttribute('data-loading', 'true'),
    );
    expect(signOutAll).toBeDisabled();
    await user.click(signOutAll);
    expect(screen.queryByRole('dialog')).toBeNull();

    identity = IDENTITY;
    await act(async () => unlock.resolve({ username: IDENTITY.username, wasLocked: true }));
    expect(await screen.findByTestId('unlocked-notice')).toHaveTextContent(t.unlocked(IDENTITY.username));
    await waitFor(() => expect(signOutAll).toBeEnabled());
    expect(screen.queryByTestId('locked-notice')).toBeNull();
  });

  it('says the account had already been unlocked when the server found no lock left, and shows the page reloaded', async () => {
    let identity = LOCKED;
    const user = renderIdentity({
      current: () => identity,
      unlock: async () => {
        identity = IDENTITY;
        return { username: IDENTITY.username, wasLocked: false };
      },
    });
    await user.click(await screen.findByRole('button', { name: t.unlock }));
    const notice = await screen.findByTestId('unlocked-notice');
    expect(notice).toHaveTextContent(t.alreadyUnlocked(IDENTITY.username));
    expect(notice).not.toHaveTextContent(t.unlocked(IDENTITY.username));
    await waitFor(() => expect(screen.queryByTestId('locked-notice')).toBeNull());
  });

  it("drops an unlock's failure once the admin signs the identity out; the reloaded page, no longer locked, does not show it", async () => {
    let identity = LOCKED;
    const user = renderIdentity({
      current: () => identity,
      unlock: async () => {
        throw new Error('The server could not be reached.');
      },
      signOut: async () => {
        // Meanwhile another admin lifted the lock.
        identity = { ...IDENTITY, sessions: [], trustedDevices: [] };
        return { type: 'signedOut' };
      },
    });
    await user.click(await screen.findByRole('button', { name: t.unlock }));
    expect(await screen.findByRole('alert', { name: t.unlockFailed })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: t.signOutAll }));
    const dialog = await screen.findByRole('dialog', { name: signOutAllTexts.title });
    await user.type(within(dialog).getByRole('textbox', { name: signOutAllTexts.ticket }), TICKET);
    await user.click(within(dialog).getByRole('button', { name: signOutAllTexts.confirm }));

    expect(await screen.findByTestId('signed-out-notice')).toHaveTextContent(
      t.signedOut(IDENTITY.username, TICKET),
    );
    await waitFor(() => expect(screen.queryByTestId('locked-notice')).toBeNull());
    expect(screen.queryByRole('alert', { name: t.unlockFailed })).toBeNull();
    expect(screen.queryByRole('button', { name: t.unlock })).toBeNull();
  });

  it.each([
    ['was unlocked', true, t.unlocked(IDENTITY.username)],
    ['had already been unlocked', false, t.alreadyUnlocked(IDENTITY.username)],
  ])(
    'puts the focus on the notice that the account %s: the Unlock button it was on is gone (WCAG 2.4.3)',
    { timeout: 20_000 },
    async (_, wasLocked, text) => {
      let identity = LOCKED;
      const user = renderIdentity({
        current: () => identity,
        unlock: async () => {
          identity = IDENTITY;
          return { username: IDENTITY.username, wasLocked };
        },
      });
      const unlock = await screen.findByRole('button', { name: t.unlock });
      await act(async () => unlock.focus());
      await user.keyboard('{Enter}');
      const notice = await screen.findByTestId('unlocked-notice');
      expect(notice).toHaveTextContent(text);
      await waitFor(() => expect(screen.queryByTestId('locked-notice')).toBeNull());
      expect(screen.queryByRole('button', { name: t.unlock })).toBeNull();
      await waitFor(() => expect(notice).toHaveFocus());
    },
  );

  it(
    'offers no way to close the sign-out modal while its sign-out runs (close button disabled, Escape and a click outside do nothing), and closes again once the server refused',
    { timeout: 20_000 },
    async () => {
      const signOut = held<SignOutResult>();
      const sent: string[] = [];
      const user = renderIdentity({ current: () => IDENTITY, signOut: () => signOut.promise, sent });
      await user.click(await screen.findByRole('button', { name: t.signOutAll }));
      const dialog = await screen.findByRole('dialog', { name: signOutAllTexts.title });
      await user.type(within(dialog).getByRole('textbox', { name: signOutAllTexts.ticket }), TICKET);
      await user.click(within(dialog).getByRole('button', { name: signOutAllTexts.confirm }));
      await waitFor(() =>
        expect(within(dialog).getByRole('button', { name: signOutAllTexts.confirm })).toHaveAttribute(
          'data-loading',
          'true',
        ),
      );

      const [close, cancel] = closeButtonsOf(dialog);
      expect(cancel).toBeDisabled();
      expect(close).toBeDisabled();
      await user.click(close);
      await user.keyboard('{Escape}');
      await user.click(overlay());
      // Nothing asked the machine to cancel (it would have ignored it): the modal stays, busy.
      expect(sent).not.toContain('user.cancel');
      expect(screen.getByRole('dialog', { name: signOutAllTexts.title })).toBe(dialog);

      await act(async () => signOut.resolve({ type: 'refused', message: 'No such ticket.' }));
      await waitFor(() =>
        expect(within(dialog).getByRole('button', { name: signOutAllTexts.confirm })).toBeEnabled(),
      );
      expect(close).toBeEnabled();
      expect(cancel).toBeEnabled();
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(sent).toContain('user.cancel');
    },
  );

  it(
    'closes the sign-out modal by its close button, Escape or a click outside when no sign-out runs',
    { timeout: 20_000 },
    async () => {
      const user = renderIdentity({ current: () => IDENTITY });
      const signOutAll = await screen.findByRole('button', { name: t.signOutAll });
      for (const close of [
        async (dialog: HTMLElement) => user.click(closeButtonsOf(dialog)[0]),
        async () => user.keyboard('{Escape}'),
        async () => user.click(overlay()),
      ]) {
        await user.click(signOutAll);
        const dialog = await screen.findByRole('dialog', { name: signOutAllTexts.title });
        await close(dialog);
        await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
        await waitFor(() => expect(signOutAll).toBeEnabled());
      }
    },
  );
});

/** The modal's close button (in its title bar) and its Cancel button: both are named Cancel. */
function closeButtonsOf(dialog: HTMLElement): [close: HTMLElement, cancel: HTMLElement] {
  const buttons = within(dialog).getAllByRole('button', { name: signOutAllTexts.cancel });
  const close = buttons.find((button) => button.textContent !== signOutAllTexts.cancel);
  const cancel = buttons.find((button) => button.textContent === signOutAllTexts.cancel);
  expect(close).toBeDefined();
  expect(cancel).toBeDefined();
  return [close!, cancel!];
}

/** The overlay behind the modal: a click on it is a click outside. */
function overlay(): HTMLElement {
  const element = document.querySelector<HTMLElement>('.mantine-Modal-overlay');
  expect(element).not.toBeNull();
  return element!;
}
