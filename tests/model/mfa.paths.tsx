// Generated MFA paths executed against the mounted MFA page: Testing Library enters codes, ticks
// trust-this-device, resends and skips as a user would, the scripted fake API answers as each step
// says, and each state is checked by what the user sees (and where the page went at the end).
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mfaMachine } from '../../machines/forced/mfa/mfa.machine';
import type { MfaOutput } from '../../machines/forced/mfa/mfa.types';
import type { FactorType } from '../../src/contract/entities';
import { mfaTexts as t } from '../../src/client/flows/forced/mfa/mfa.texts';
import { users } from '../machines/continue-sign-in.fixtures';
import type { MachineCoverage } from './harness/coverage';
import { expectLanded, expectStatus, leafStates, runPath } from './harness/forced-checks';
import { mountMfa, type MountedForcedPage } from './harness/forced-pages';
import {
  mfaPaths,
  projectMfaContext,
  type MfaModelEvent,
  type MfaModelEventType,
  type MfaSnapshot,
} from './mfa.model';
import { enter } from './harness/user';

type S = MfaSnapshot;
const PATH_TIMEOUT_MS = 30_000;

const TRANSIENT = ['choosingFactor'];
const codeField = () => screen.getByLabelText(/^Verification code/, { selector: 'input' });
const verifyButton = () => screen.getByRole('button', { name: t.verify });
const resendLink = () => screen.queryByRole('button', { name: t.resendCode });

async function expectScreen(s: S, factor: FactorType, { busy }: { busy: boolean }) {
  expect(await screen.findByRole('heading', { level: 1, name: t.heading[factor] })).toBeInTheDocument();
  expect(screen.getByText(t.instructions[factor])).toBeInTheDocument();
  expect(codeField()).toBeInTheDocument();
  expect(
    screen.getByRole('checkbox', { name: t.trustDevice(t.period(s.context.trustedDevicePeriod)) }),
  ).toBeInTheDocument();
  const skip = screen.queryByRole('button', { name: t.noAccess });
  if (factor === 'EMAIL' || s.context.noOtherFactor) expect(skip).toBeNull();
  else expect(skip).toBeInTheDocument();
  // Skip found nothing after this factor: the screen says so, announced.
  if (s.context.noOtherFactor)
    expect(screen.getByRole('alert', { name: t.noOtherFactorTitle })).toHaveTextContent(t.noOtherFactor);
  else expect(screen.queryByText(t.noOtherFactor)).toBeNull();
  if (factor === 'AUTHENTICATOR_APP') {
    expect(resendLink()).toBeNull();
  } else {
    expect(resendLink()).toBeInTheDocument();
    if (s.context.resendRefusal !== null) {
      expect(resendLink()).toBeDisabled();
      expect(screen.getByText(s.context.resendRefusal)).toHaveAttribute('role', 'alert');
    }
  }
  if (s.context.smsUnavailableMessage)
    expect(screen.getByText(s.context.smsUnavailableMessage)).toBeInTheDocument();
  else expect(screen.queryByText(t.smsUnavailableTitle)).toBeNull();
  await waitFor(() => {
    if (busy) expect(verifyButton()).toHaveAttribute('data-loading', 'true');
    else expect(verifyButton()).not.toHaveAttribute('data-loading');
  });
  if (s.context.refusal) {
    const message = s.context.refusal.fieldErrors.find((e) => e.fieldName === 'code')?.message ?? '';
    await waitFor(() => expect(codeField()).toHaveAttribute('aria-invalid', 'true'));
    expect(codeField()).toHaveAccessibleDescription(message);
  }
}

function stateChecks(m: MountedForcedPage): Record<string, (s: S) => Promise<void>> {
  const factorChecks = (factor: FactorType, key: string, channel: 'sms' | 'email' | null) => ({
    [`${key}.form`]: (s: S) => expectScreen(s, factor, { busy: false }),
    [`${key}.verifying`]: async (s: S) => {
      await expectScreen(s, factor, { busy: true });
      const call = await m.api.waiting('verifyCode');
      expect(call.input).toEqual({ factor, code: '123456', trustDevice: true });
    },
    ...(channel && {
      [`${key}.resending`]: async (s: S) => {
        await expectScreen(s, factor, { busy: false });
        await expectStatus(t.resending);
        const call = await m.api.waiting('resendCode');
        expect(call.input).toEqual({ channel });
      },
    }),
  });
  return {
    loadingPeriod: async () => {
      await expectStatus(t.loading);
      await m.api.waiting('getTrustedDevicePeriod');
    },
    starting: async () => {
      await expectStatus(t.loading);
      await m.api.waiting('startMfa');
    },
    skipping: async () => {
      await expectStatus(t.skipping);
      await m.api.waiting('skipMfa');
    },
    ...factorChecks('AUTHENTICATOR_APP', 'authenticatorApp', null),
    ...factorChecks('SMS', 'sms', 'sms'),
    ...factorChecks('EMAIL', 'email', 'email'),
    continuing: async (s) => {
      await expectStatus(t.signingIn);
      const call = await m.api.waiting('continueSignIn');
      expect(call.input).toEqual({ outcome: s.context.outcome, targetPath: null, adminTargetPath: null });
    },
    failed: async (s) => {
      expect(await screen.findByRole('heading', { level: 1, name: t.failedHeading })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(s.context.errorMessage ?? '');
      expect(screen.getByRole('button', { name: t.backToSignIn })).toBeInTheDocument();
    },
    done: (s) => expectLanded(m, s.output as MfaOutput),
  };
}

const EVENT_TYPES = Object.keys({
  'user.verify': true,
  'user.skip': true,
  'user.resend': true,
  'xstate.done.actor.getTrustedDevicePeriod': true,
  'xstate.error.actor.getTrustedDevicePeriod': true,
  'xstate.done.actor.startMfa': true,
  'xstate.error.actor.startMfa': true,
  'xstate.done.actor.skipMfa': true,
  'xstate.error.actor.skipMfa': true,
  'xstate.done.actor.verifyCode': true,
  'xstate.error.actor.verifyCode': true,
  'xstate.done.actor.resendCode': true,
  'xstate.error.actor.resendCode': true,
  'xstate.done.actor.continueSignIn': true,
  'xstate.error.actor.continueSignIn': true,
} satisfies Record<MfaModelEventType, true>);

function performer(m: MountedForcedPage) {
  return async (event: MfaModelEvent) => {
    switch (event.type) {
      case 'user.verify': {
        await enter(m.user, codeField(), event.code);
        const trust = screen.getByRole('checkbox');
        if ((trust as HTMLInputElement).checked !== event.trustDevice) await m.user.click(trust);
        await m.user.click(verifyButton());
        await waitFor(() => expect(m.api.lastCall('verifyCode')?.input).toMatchObject({ code: event.code }));
        return;
      }
      case 'user.skip':
        await m.user.click(screen.getByRole('button', { name: t.noAccess }));
        return;
      case 'user.resend':
        await m.user.click(resendLink() as HTMLElement);
        return;
      case 'xstate.done.actor.resendCode': {
        const channel = (m.api.lastCall('resendCode')?.input as { channel: 'sms' | 'email' }).channel;
        await act(() => m.api.answer(event));
        if (event.output.type === 'sent')
          expect(await screen.findByText(t.resent(channel))).toBeInTheDocument();
        return;
      }
      default:
        await act(() => m.api.answer(event));
    }
  };
}

export function defineMfaPaths(coverage: MachineCoverage): void {
  const paths = mfaPaths();

  describe(`forced/mfa: ${paths.length} generated paths against the mounted MFA page`, () => {
    afterEach(() => notifications.clean());

    it('has a check for every state the user can see', () => {
      const checked = Object.keys(stateChecks({} as MountedForcedPage));
      expect([...checked, ...TRANSIENT].sort()).toEqual(leafStates(mfaMachine.root).sort());
    });

    it.each(
      paths.map(({ scenario, path }) => [`${scenario.name}: ${path.description}`, scenario, path] as const),
    )(
      '%s',
      async (_, scenario, path) => {
        const m = mountMfa({
          machine: mfaMachine,
          user: users.pending,
          entry: scenario.entry,
          entryState: scenario.entryState,
          inspect: coverage.inspect,
        });
        await runPath(
          m,
          path as never,
          stateChecks(m),
          EVENT_TYPES,
          performer(m),
          projectMfaContext as never,
        );
      },
      PATH_TIMEOUT_MS,
    );
  });
}
