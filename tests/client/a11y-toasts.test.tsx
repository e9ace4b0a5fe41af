// The toasts at the bottom right answer Escape (WCAG 2.1.2, 2.4.11): it dismisses the toast that has
// the focus, else the most recent one, unless something open on the page (a dialog, a menu) takes
// it. 'Update available', which stays until dismissed, is dismissed so by keyboard, as by its
// close button: the watcher hears the user's dismissal.
import { MantineProvider, Modal } from '@mantine/core';
import { notifications, notificationsStore } from '@mantine/notifications';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import ToastHost from '../../src/client/app/shell/ToastHost';
import { shellTexts } from '../../src/client/app/texts';
import { showNoticeToast } from '../../src/client/app/toasts';
import { toastTexts } from '../../src/client/app/toast.texts';
import { AppVersionContext, createAppVersionActor } from '../../src/client/app/version/app-version';

function mount(modalOpened = false) {
  const appVersion = createAppVersionActor(() => {});
  appVersion.start();
  render(
    <MantineProvider>
      <AppVersionContext value={appVersion}>
        <button type="button">On the page</button>
        <Modal opened={modalOpened} onClose={() => {}} title="A dialog">
          <button type="button">In the dialog</button>
        </Modal>
        <ToastHost />
      </AppVersionContext>
    </MantineProvider>,
  );
  return { appVersion, user: userEvent.setup({ delay: null }) };
}

const notice = (message: string) => act(() => showNoticeToast({ message, tone: 'info' }));
/** The toasts shown, by id: a dismissed one has left here while its exit transition runs. */
const shownToastIds = () => notificationsStore.getState().notifications.map(({ id }) => id);
/** Past Mantine's exit transition of a toast (250 ms under the plain provider mounted here). */
const PAST_EXIT_TRANSITION_MS = 500;

describe('Escape and the toasts', () => {
  afterEach(() => act(() => notifications.clean()));

  it('dismisses the most recent toast when no toast has the focus', async () => {
    const m = mount();
    await notice('First notice');
    await notice('Second notice');
    await screen.findByText('Second notice');
    screen.getByRole('button', { name: 'On the page' }).focus();
    await m.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('Second notice')).toBeNull());
    expect(screen.getByText('First notice')).toBeInTheDocument();
  });

  it('dismisses the toast that has the focus', async () => {
    const m = mount();
    await notice('First notice');
    await notice('Second notice');
    const first = (await screen.findByText('First notice')).closest<HTMLElement>('[data-toast-id]')!;
    first.querySelector<HTMLButtonElement>(`button[aria-label="${shellTexts.dismiss}"]`)!.focus();
    await m.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('First notice')).toBeNull());
    expect(screen.getByText('Second notice')).toBeInTheDocument();
  });

  it('leaves the toasts to an open dialog, whose Escape it is', async () => {
    const m = mount(true);
    await notice('A notice');
    await screen.findByText('A notice');
    expect(shownToastIds()).toEqual(['notice:A notice']);
    screen.getByRole('button', { name: 'In the dialog' }).focus();
    await m.user.keyboard('{Escape}');
    // A dismissed toast leaves the store at once but stays on the page through its exit
    // transition, so the store is what tells; the page is looked at once that would be over.
    expect(shownToastIds()).toEqual(['notice:A notice']);
    await act(() => new Promise((resolve) => setTimeout(resolve, PAST_EXIT_TRANSITION_MS)));
    expect(screen.getByText('A notice')).toBeInTheDocument();
    expect(shownToastIds()).toEqual(['notice:A notice']);
  });

  it("dismisses 'Update available' by keyboard, as the user's dismissal", async () => {
    const m = mount();
    act(() => {
      m.appVersion.send({ type: 'version.observed', version: '1.0.0' });
      m.appVersion.send({ type: 'version.observed', version: '1.1.0' });
    });
    await screen.findByText(toastTexts.updateAvailable);
    screen.getByRole('button', { name: 'On the page' }).focus();
    await m.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText(toastTexts.updateAvailable)).toBeNull());
    expect(m.appVersion.getSnapshot().value).toBe('dismissed');
  });
});
