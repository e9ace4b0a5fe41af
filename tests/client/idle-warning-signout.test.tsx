// The idle warning's Sign out (WCAG 2.2.1), as the shell mounts it: a sign-out the server did not
// carry out (a 5xx, or no answer: section 8 has shown /error) leaves the user signed in, so the
// warning keeps watching the session and warns again before it ends, rather than letting it end
// unannounced.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/api/api-error';
import { idleWarningTexts as t } from '../../src/client/app/idle-warning/idle-warning.texts';
import { registerNavigator } from '../../src/client/app/navigation';
import { ANONYMOUS_USER } from '../../src/contract/entities';
import { users } from '../machines/continue-sign-in.fixtures';
import { mountIdleWarning, type MountedIdleWarning } from '../model/harness/idle-warning-shell';

const MINUTE = 60_000;

const checks = (m: MountedIdleWarning) => m.api.calls.filter((c) => c.src === 'checkSession').length;

/** Answers the session check with the time left, and lets the clock run to the warning. */
async function warned(m: MountedIdleWarning, leftMs: number) {
  await act(() =>
    m.api.answer({ type: 'xstate.done.actor.checkSession', output: { alive: true, expiresInMs: leftMs } }),
  );
  expect(screen.queryByRole('dialog', { name: t.title })).toBeNull();
  await act(() => m.clock.increment(leftMs - 2 * MINUTE));
  expect(await screen.findByRole('dialog', { name: t.title })).toBeInTheDocument();
}

describe("the idle warning's Sign out", () => {
  afterEach(() => {
    notifications.clean();
    registerNavigator(null);
  });

  it.each([
    [
      'a 5xx',
      new ApiError({ kind: 'http', status: 503, body: { message: 'Down' }, callId: 'logout', handled: true }),
    ],
    [
      'no answer',
      new ApiError({
        kind: 'no-response',
        status: 0,
        body: { message: 'No answer' },
        callId: 'logout',
        handled: true,
      }),
    ],
  ])('that fails (%s) leaves the user signed in, and the warning watches on', async (_, failure) => {
    const m = mountIdleWarning(users.customer);
    await warned(m, 30 * MINUTE);
    m.services.logout.mockRejectedValue(failure);
    await m.user.click(screen.getByRole('button', { name: t.signOut }));
    await waitFor(() => expect(m.services.logout).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: t.title })).toBeNull());
    expect(m.store.getState().currentUser).toEqual(users.customer);
    // Watching again: it asks how long the session has left, and warns two minutes before the end.
    await waitFor(() => expect(checks(m)).toBe(2));
    await warned(m, 10 * MINUTE);
  });

  it('that succeeds signs the user out, and nothing watches any more', async () => {
    const m = mountIdleWarning(users.customer);
    await warned(m, 30 * MINUTE);
    await m.user.click(screen.getByRole('button', { name: t.signOut }));
    await waitFor(() => expect(screen.getByTestId('landed-path')).toHaveTextContent(/^\/$/));
    expect(m.store.getState().currentUser).toEqual(ANONYMOUS_USER);
    await act(() => m.clock.increment(60 * MINUTE));
    expect(checks(m)).toBe(1);
    expect(screen.queryByRole('dialog', { name: t.title })).toBeNull();
  });
});
