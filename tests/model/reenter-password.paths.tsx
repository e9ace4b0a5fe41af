// Generated re-enter-password paths executed against the watcher as the shell mounts it: a
// simulated clock moves by the named delays, the scripted fake API answers the cookie check, the
// poll and the password, and each state is checked by what the user sees of the modal.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { reenterPasswordMachine } from '../../machines/session/reenter-password/reenter-password.machine';
import { passwordReentered } from '../../src/client/app/reenter-password/gate';
import { reenterPasswordTexts as t } from '../../src/client/app/reenter-password/reenter-password.texts';
import { ANONYMOUS_USER } from '../../src/contract/entities';
import { users } from '../machines/continue-sign-in.fixtures';
import type { MachineCoverage } from './harness/coverage';
import { leafStates, runPath } from './harness/forced-checks';
import { mountReenterPassword, type MountedReenterPassword } from './harness/reenter-password-shell';
import {
  AFTER,
  delayOf,
  reenterPasswordPaths,
  type ReenterPasswordModelEvent,
  type ReenterPasswordModelEventType,
  type ReenterPasswordSnapshot,
} from './reenter-password.model';
import { enter } from './harness/user';

type S = ReenterPasswordSnapshot;
const PATH_TIMEOUT_MS = 30_000;

const dialog = () => screen.queryByRole('dialog', { name: t.title });
const passwordField = () => screen.getByLabelText(/^Password/, { selector: 'input' });
const submitButton = () => screen.getByRole('button', { name: t.submit });

async function expectModal(s: S, { busy }: { busy: boolean }) {
  expect(await screen.findByRole('dialog', { name: t.title })).toBeInTheDocument();
  expect(screen.getByText(t.explanation)).toBeInTheDocument();
  expect(passwordField()).toBeInTheDocument();
  expect(screen.getByRole('button', { name: t.signOut })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /close/i })).toBeNull();
  await waitFor(() => {
    if (busy) expect(submitButton()).toHaveAttribute('data-loading', 'true');
    else expect(submitButton()).not.toHaveAttribute('data-loading');
  });
  const message = s.context.refusal?.message ?? s.context.errorMessage;
  if (message) {
    await waitFor(() => expect(passwordField()).toHaveAttribute('aria-invalid', 'true'));
    expect(passwordField()).toHaveAccessibleDescription(message);
  }
}

function stateChecks(m: MountedReenterPassword): Record<string, (s: S) => Promise<void>> {
  return {
    watching: async () => {
      await waitFor(() => expect(dialog()).toBeNull());
    },
    checking: async () => {
      expect(dialog()).toBeNull();
      await m.api.waiting('hasRecentAuthentication');
    },
    'prompting.form.editing': (s) => expectModal(s, { busy: false }),
    'prompting.form.submitting': async (s) => {
      await expectModal(s, { busy: true });
      expect((await m.api.waiting('reenterPassword')).input).toEqual({ password: 'Harbour-Lights-2026' });
      expect(JSON.stringify(s.context)).not.toContain('Harbour-Lights-2026');
    },
    'prompting.server.delaying': async () => {
      expect(await screen.findByRole('dialog', { name: t.title })).toBeInTheDocument();
      // Not before 8 s: the modal has just opened and the server has not been asked.
      expect(m.api.calls.filter((c) => c.src === 'isPasswordExpired')).toEqual([]);
    },
    'prompting.server.asking': async () => {
      expect(await screen.findByRole('dialog', { name: t.title })).toBeInTheDocument();
      await m.api.waiting('isPasswordExpired');
    },
    'prompting.server.waiting': async () => {
      expect(await screen.findByRole('dialog', { name: t.title })).toBeInTheDocument();
    },
    signingOut: async () => {
      await waitFor(() => expect(m.services.logout).toHaveBeenCalledTimes(1));
      await waitFor(() => expect(screen.getByTestId('landed-path')).toHaveTextContent(/^\/$/));
      expect(m.store.getState().currentUser).toEqual(ANONYMOUS_USER);
    },
  };
}

const EVENT_TYPES = Object.keys({
  [AFTER.CHECK_INTERVAL]: true,
  [AFTER.POLL_DELAY]: true,
  [AFTER.POLL_INTERVAL]: true,
  'user.submit': true,
  'user.signOut': true,
  'password.required': true,
  'xstate.done.actor.hasRecentAuthentication': true,
  'xstate.error.actor.hasRecentAuthentication': true,
  'xstate.done.actor.isPasswordExpired': true,
  'xstate.error.actor.isPasswordExpired': true,
  'xstate.done.actor.reenterPassword': true,
  'xstate.error.actor.reenterPassword': true,
} satisfies Record<ReenterPasswordModelEventType, true>);

function performer(m: MountedReenterPassword) {
  return async (event: ReenterPasswordModelEvent) => {
    switch (event.type) {
      case AFTER.CHECK_INTERVAL:
      case AFTER.POLL_DELAY:
      case AFTER.POLL_INTERVAL:
        await act(() => m.clock.increment(delayOf(event.type)));
        return;
      case 'user.submit':
        await enter(m.user, passwordField(), event.password);
        await m.user.click(submitButton());
        return;
      case 'user.signOut':
        await m.user.click(screen.getByRole('button', { name: t.signOut }));
        return;
      case 'password.required':
        // Through the api layer's way in: a call refused until the password is entered again.
        await act(async () => {
          void passwordReentered();
        });
        return;
      default:
        await act(() => m.api.answer(event));
    }
  };
}

export function defineReenterPasswordPaths(coverage: MachineCoverage): void {
  const paths = reenterPasswordPaths();

  describe(`session/reenter-password: ${paths.length} generated paths against the shell's watcher`, () => {
    afterEach(() => notifications.clean());

    it('has a check for every state', () => {
      expect(Object.keys(stateChecks({} as MountedReenterPassword)).sort()).toEqual(
        leafStates(reenterPasswordMachine.root).sort(),
      );
    });

    it.each(paths.map((path) => [path.description, path] as const))(
      '%s',
      async (_, path) => {
        const m = mountReenterPassword(users.customer, coverage.inspect);
        await runPath(m, path as never, stateChecks(m), EVENT_TYPES, performer(m));
      },
      PATH_TIMEOUT_MS,
    );
  });
}
