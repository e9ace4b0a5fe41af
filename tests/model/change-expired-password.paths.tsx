// Generated change-expired-password paths executed against the mounted page: Testing Library types
// and clicks as a user would, the scripted fake API answers as each step says, and each state is
// checked by what the user sees (and where the page went when the step finished).
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeExpiredPasswordMachine } from '../../machines/forced/change-expired-password/change-expired-password.machine';
import type { ChangeExpiredPasswordOutput } from '../../machines/forced/change-expired-password/change-expired-password.types';
import { changeExpiredPasswordTexts as t } from '../../src/client/flows/forced/change-expired-password/change-expired-password.texts';
import {
  changeExpiredPasswordInput,
  changeExpiredPasswordPaths,
  type ChangeExpiredPasswordModelEvent,
  type ChangeExpiredPasswordModelEventType,
  type ChangeExpiredPasswordSnapshot,
} from './change-expired-password.model';
import type { MachineCoverage } from './harness/coverage';
import { expectLanded, expectStatus, leafStates, runPath } from './harness/forced-checks';
import { mountChangeExpiredPassword, type MountedForcedPage } from './harness/forced-pages';
import { users } from '../machines/continue-sign-in.fixtures';
import { enter } from './harness/user';

type S = ChangeExpiredPasswordSnapshot;
const PATH_TIMEOUT_MS = 30_000;

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const submitButton = () => screen.getByRole('button', { name: t.submit });

async function expectForm(s: S, { busy }: { busy: boolean }) {
  expect(await screen.findByRole('heading', { level: 1, name: t.heading })).toBeInTheDocument();
  expect(screen.getByText(t.hint)).toBeInTheDocument();
  expect(field(/^New password/)).toBeInTheDocument();
  expect(field(/^Confirm new password/)).toBeInTheDocument();
  await waitFor(() => {
    if (busy) expect(submitButton()).toHaveAttribute('data-loading', 'true');
    else expect(submitButton()).not.toHaveAttribute('data-loading');
  });
  const alert = screen.queryByRole('alert');
  if (s.context.refusal) {
    expect(alert).toHaveTextContent(s.context.refusal.message);
    for (const { fieldName, message } of s.context.refusal.fieldErrors) {
      const input = () => field(fieldName === 'password' ? /^New password/ : /^Confirm new password/);
      await waitFor(() => expect(input()).toHaveAttribute('aria-invalid', 'true'));
      expect(input()).toHaveAccessibleDescription(expect.stringContaining(message));
    }
  } else {
    expect(alert).toBeNull();
  }
}

function stateChecks(m: MountedForcedPage): Record<string, (s: S) => Promise<void>> {
  return {
    form: (s) => expectForm(s, { busy: false }),
    submitting: async (s) => {
      await expectForm(s, { busy: true });
      const call = await m.api.waiting('changeExpiredPassword');
      expect(call.input).toEqual({ password: 'Quiet-Harbour-2027', confirmPassword: 'Quiet-Harbour-2027' });
      expect(JSON.stringify(s.context)).not.toContain('Quiet-Harbour-2027');
    },
    continuing: async (s) => {
      await expectStatus(t.signingIn);
      const call = await m.api.waiting('continueSignIn');
      expect(call.input).toEqual({ outcome: s.context.outcome, ...changeExpiredPasswordInput });
    },
    failed: async (s) => {
      expect(await screen.findByRole('heading', { level: 1, name: t.failedHeading })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(s.context.errorMessage ?? '');
      expect(screen.getByRole('button', { name: t.backToSignIn })).toBeInTheDocument();
    },
    cancelling: async () => {
      await expectStatus(t.cancelling);
      await m.api.waiting('logout');
    },
    done: (s) => expectLanded(m, s.output as ChangeExpiredPasswordOutput),
    cancelled: (s) => expectLanded(m, s.output as ChangeExpiredPasswordOutput),
  };
}

const EVENT_TYPES = Object.keys({
  'user.submit': true,
  'user.cancel': true,
  'xstate.done.actor.changeExpiredPassword': true,
  'xstate.error.actor.changeExpiredPassword': true,
  'xstate.done.actor.continueSignIn': true,
  'xstate.error.actor.continueSignIn': true,
  'xstate.done.actor.logout': true,
  'xstate.error.actor.logout': true,
} satisfies Record<ChangeExpiredPasswordModelEventType, true>);

function performer(m: MountedForcedPage) {
  return async (event: ChangeExpiredPasswordModelEvent) => {
    switch (event.type) {
      case 'user.submit':
        await enter(m.user, field(/^New password/), event.password);
        await enter(m.user, field(/^Confirm new password/), event.confirmPassword);
        await m.user.click(submitButton());
        await waitFor(() =>
          expect(m.api.lastCall('changeExpiredPassword')?.input).toEqual({
            password: event.password,
            confirmPassword: event.confirmPassword,
          }),
        );
        return;
      case 'user.cancel': {
        const button =
          screen.queryByRole('button', { name: t.cancel }) ??
          screen.getByRole('button', { name: t.backToSignIn });
        await m.user.click(button);
        return;
      }
      default:
        await act(() => m.api.answer(event));
    }
  };
}

export function defineChangeExpiredPasswordPaths(coverage: MachineCoverage): void {
  const paths = changeExpiredPasswordPaths();

  describe(`forced/change-expired-password: ${paths.length} generated paths against the mounted page`, () => {
    afterEach(() => notifications.clean());

    it('has a check for every state', () => {
      expect(Object.keys(stateChecks({} as MountedForcedPage)).sort()).toEqual(
        leafStates(changeExpiredPasswordMachine.root).sort(),
      );
    });

    it.each(paths.map((path) => [path.description, path] as const))(
      '%s',
      async (_, path) => {
        const m = mountChangeExpiredPassword({
          machine: changeExpiredPasswordMachine,
          user: users.pending,
          targetPath: changeExpiredPasswordInput.targetPath,
          adminTargetPath: changeExpiredPasswordInput.adminTargetPath,
          inspect: coverage.inspect,
        });
        await runPath(m, path as never, stateChecks(m), EVENT_TYPES, performer(m));
      },
      PATH_TIMEOUT_MS,
    );
  });
}
