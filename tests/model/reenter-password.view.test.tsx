// The 'Re-enter password' modal's own behaviour (sections 2.2 and 4.2): it cannot be closed by Esc,
// the backdrop or a close button; Submit needs a password; axe finds nothing to fault.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/api/api-error';
import { reenterPasswordTexts as t } from '../../src/client/app/reenter-password/reenter-password.texts';
import { users } from '../machines/continue-sign-in.fixtures';
import { axeViolations } from './harness/axe';
import { mountReenterPassword } from './harness/reenter-password-shell';

async function opened() {
  const m = mountReenterPassword(users.customer);
  await act(() => m.clock.increment(4_000));
  await act(() => m.api.answer({ type: 'xstate.done.actor.hasRecentAuthentication', output: false }));
  expect(await screen.findByRole('dialog', { name: t.title })).toBeInTheDocument();
  return m;
}

describe("the 'Re-enter password' modal", () => {
  afterEach(() => notifications.clean());

  it('stays closed while the cookie is there', async () => {
    const m = mountReenterPassword(users.customer);
    await act(() => m.clock.increment(3_999));
    expect(m.api.calls).toEqual([]);
    await act(() => m.clock.increment(1));
    await act(() => m.api.answer({ type: 'xstate.done.actor.hasRecentAuthentication', output: true }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('cannot be dismissed by Esc, the backdrop or a close button', async () => {
    const m = await opened();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /close/i })).toBeNull();
    await m.user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: t.title })).toBeInTheDocument();
    const overlay = document.querySelector('.mantine-Modal-overlay');
    expect(overlay).not.toBeNull();
    await m.user.click(overlay as Element);
    expect(screen.getByRole('dialog', { name: t.title })).toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);
  });

  it('asks for the password before submitting, and shows a wrong one on the field', async () => {
    const m = await opened();
    const field = () => screen.getByLabelText(/^Password/, { selector: 'input' });
    await m.user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(field()).toHaveAccessibleDescription(t.required));
    expect(m.api.calls.filter((c) => c.src === 'reenterPassword')).toEqual([]);
    await m.user.type(field(), 'not-it');
    await m.user.click(screen.getByRole('button', { name: 'Submit' }));
    await act(() =>
      m.api.answer({
        type: 'xstate.done.actor.reenterPassword',
        output: { type: 'refused', message: 'The password you entered is incorrect.' },
      }),
    );
    await waitFor(() =>
      expect(field()).toHaveAccessibleDescription('The password you entered is incorrect.'),
    );
    expect(field()).toHaveValue('');
    expect(await axeViolations()).toEqual([]);
    await m.user.type(field(), 'Harbour-Lights-2026');
    await m.user.click(screen.getByRole('button', { name: 'Submit' }));
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.reenterPassword', output: { type: 'accepted' } }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes when the server says, from 8 s on, that the password has not expired', async () => {
    const m = await opened();
    await act(() => m.clock.increment(7_999));
    expect(m.api.calls.filter((c) => c.src === 'isPasswordExpired')).toEqual([]);
    await act(() => m.clock.increment(1));
    await act(() => m.api.answer({ type: 'xstate.done.actor.isPasswordExpired', output: true }));
    await act(() => m.clock.increment(2_000));
    await act(() => m.api.answer({ type: 'xstate.done.actor.isPasswordExpired', output: false }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(m.api.calls.filter((c) => c.src === 'isPasswordExpired')).toHaveLength(2);
  });
});

describe("the modal's Sign out", () => {
  afterEach(() => notifications.clean());

  it('that the server did not carry out leaves the user signed in, and the modal comes back', async () => {
    const m = await opened();
    m.services.logout.mockRejectedValue(
      new ApiError({ kind: 'http', status: 503, body: { message: 'Down' }, callId: 'logout', handled: true }),
    );
    await m.user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(m.services.logout).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(m.store.getState().currentUser).toEqual(users.customer);
    // A new watcher: the cookie is checked again 4 s later, and is still missing.
    await act(() => m.clock.increment(4_000));
    await act(() => m.api.answer({ type: 'xstate.done.actor.hasRecentAuthentication', output: false }));
    expect(await screen.findByRole('dialog', { name: t.title })).toBeInTheDocument();
  });
});
