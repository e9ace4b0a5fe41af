// Generated idle-warning paths executed against the warning as the shell mounts it: answers' time
// left arrive as the api layer passes them on, a simulated clock moves by the delays each state
// computed, the scripted fake API answers the session check, and each state is checked by what
// the user sees: no dialog, the dialog with the time the session ends, its busy Stay signed in,
// section 8's session-expired notice and the sign-in page, or the sign-out.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { idleWarningMachine } from '../../machines/session/idle-warning/idle-warning.machine';
import { notifyResponse } from '../../src/client/api/version';
import { SESSION_EXPIRES_IN_HEADER } from '../../src/contract/call';
import { idleWarningTexts as t } from '../../src/client/app/idle-warning/idle-warning.texts';
import { registerNavigator } from '../../src/client/app/navigation';
import { ANONYMOUS_USER } from '../../src/contract/entities';
import { SESSION_EXPIRED_MESSAGE } from '../../src/contract/errors';
import { users } from '../machines/continue-sign-in.fixtures';
import type { MachineCoverage } from './harness/coverage';
import { leafStates, runPath } from './harness/forced-checks';
import { mountIdleWarning, type MountedIdleWarning } from './harness/idle-warning-shell';
import {
  AFTER,
  delayOf,
  idleWarningPaths,
  type IdleWarningModelEvent,
  type IdleWarningModelEventType,
  type IdleWarningSnapshot,
} from './idle-warning.model';

type S = IdleWarningSnapshot;
const PATH_TIMEOUT_MS = 30_000;

const dialog = () => screen.queryByRole('dialog', { name: t.title });
const stayButton = () => screen.getByRole('button', { name: t.staySignedIn });

async function expectDialog({ busy }: { busy: boolean }) {
  const open = await screen.findByRole('dialog', { name: t.title });
  // When the session ends, as a clock time (read once), not a countdown.
  expect(open).toHaveTextContent(/you will be signed out at \d{1,2}:\d{2}\s?(am|pm)\./i);
  expect(screen.getByRole('button', { name: t.signOut })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /close/i })).toBeNull();
  await waitFor(() => {
    if (busy) expect(stayButton()).toHaveAttribute('data-loading', 'true');
    else expect(stayButton()).not.toHaveAttribute('data-loading');
  });
}

function stateChecks(m: MountedIdleWarning): Record<string, (s: S) => Promise<void>> {
  const noDialog = async () => {
    await waitFor(() => expect(dialog()).toBeNull());
    expect(m.store.getState().currentUser).toEqual(users.customer);
  };
  return {
    asking: async () => {
      await noDialog();
      await m.api.waiting('checkSession');
    },
    unknown: noDialog,
    counting: noDialog,
    warning: () => expectDialog({ busy: false }),
    extending: async () => {
      await expectDialog({ busy: true });
      await m.api.waiting('checkSession');
    },
    ending: async () => {
      await m.api.waiting('checkSession');
    },
    ended: async () => {
      await waitFor(() => expect(screen.getByTestId('landed-path')).toHaveTextContent(/^\/$/));
      expect(m.store.getState().currentUser).toEqual(ANONYMOUS_USER);
      // The page it ended on is kept, so signing in again comes back to it (section 4.1).
      expect(m.store.getState().targetPath).toBe('/profile');
      expect(await screen.findByText(SESSION_EXPIRED_MESSAGE)).toBeInTheDocument();
    },
    signingOut: async () => {
      await waitFor(() => expect(m.services.logout).toHaveBeenCalledTimes(1));
      await waitFor(() => expect(screen.getByTestId('landed-path')).toHaveTextContent(/^\/$/));
      expect(m.store.getState().currentUser).toEqual(ANONYMOUS_USER);
    },
  };
}

const EVENT_TYPES = Object.keys({
  [AFTER.UNTIL_WARNING]: true,
  [AFTER.UNTIL_END]: true,
  'session.seen': true,
  'user.staySignedIn': true,
  'user.signOut': true,
  'xstate.done.actor.checkSession': true,
  'xstate.error.actor.checkSession': true,
} satisfies Record<IdleWarningModelEventType, true>);

function performer(m: MountedIdleWarning) {
  return async (event: IdleWarningModelEvent) => {
    switch (event.type) {
      case AFTER.UNTIL_WARNING:
      case AFTER.UNTIL_END:
        await act(() => m.clock.increment(delayOf(event.type, m.running())));
        return;
      case 'session.seen':
        // As the api layer passes on an answer's headers.
        await act(async () =>
          notifyResponse(new Headers({ [SESSION_EXPIRES_IN_HEADER]: String(event.expiresInMs / 1000) })),
        );
        return;
      case 'user.staySignedIn':
        await m.user.click(stayButton());
        return;
      case 'user.signOut':
        await m.user.click(screen.getByRole('button', { name: t.signOut }));
        return;
      default:
        await act(() => m.api.answer(event));
    }
  };
}

export function defineIdleWarningPaths(coverage: MachineCoverage): void {
  const paths = idleWarningPaths();

  describe(`session/idle-warning: ${paths.length} generated paths against the shell's warning`, () => {
    afterEach(() => {
      notifications.clean();
      registerNavigator(null);
    });

    it('has a check for every state', () => {
      expect(Object.keys(stateChecks({} as MountedIdleWarning)).sort()).toEqual(
        leafStates(idleWarningMachine.root).sort(),
      );
    });

    it.each(paths.map((path) => [path.description, path] as const))(
      '%s',
      async (_, path) => {
        const m = mountIdleWarning(users.customer, coverage.inspect);
        await runPath(m, path as never, stateChecks(m), EVENT_TYPES, performer(m));
      },
      PATH_TIMEOUT_MS,
    );
  });
}
