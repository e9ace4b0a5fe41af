// Hand-pinned behaviours of the MFA screens that the generated paths do not explore: the period
// text (7 days, 24 hours, the default), trust-this-device sent as ticked, the code's validation,
// the SMS-unavailable message handed over by sign-in, and axe on each screen.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mfaMachine } from '../../machines/forced/mfa/mfa.machine';
import { FORCED_ACTION_ROUTES } from '../../machines/routes';
import { mfaTexts as t } from '../../src/client/flows/forced/mfa/mfa.texts';
import { factorOfPath } from '../../src/client/flows/forced/mfa/MfaPage';
import { mfaNexts, resends, SMS_UNAVAILABLE, users, WRONG_CODE } from '../machines/continue-sign-in.fixtures';
import { axeViolations } from './harness/axe';
import { mountMfa } from './harness/forced-pages';

const codeField = () => screen.getByLabelText(/^Verification code/, { selector: 'input' });

async function openAt(entry: string, period: 1 | 7 | Error = 7, entryState: unknown = null) {
  const m = mountMfa({ machine: mfaMachine, user: users.pending, entry, entryState });
  await act(() =>
    m.api.answer(
      period instanceof Error
        ? { type: 'xstate.error.actor.getTrustedDevicePeriod', error: period }
        : { type: 'xstate.done.actor.getTrustedDevicePeriod', output: period },
    ),
  );
  return m;
}

describe('MFA screens', () => {
  afterEach(() => notifications.clean());

  it('reads the factor from the address', () => {
    expect(factorOfPath(FORCED_ACTION_ROUTES.MFA_AUTHENTICATOR_APP)).toBe('AUTHENTICATOR_APP');
    expect(factorOfPath(`${FORCED_ACTION_ROUTES.MFA_SMS}/`)).toBe('SMS');
    expect(factorOfPath(FORCED_ACTION_ROUTES.MFA_EMAIL)).toBe('EMAIL');
    expect(factorOfPath('/forced-actions/mfa')).toBeNull();
  });

  it('names the trusted-device period: 7 days, 24 hours, and 24 hours when unknown', async () => {
    expect([t.period(7), t.period(1), t.period(null)]).toEqual(['7 days', '24 hours', '24 hours']);
    const week = await openAt(FORCED_ACTION_ROUTES.MFA_AUTHENTICATOR_APP, 7);
    expect(await screen.findByRole('checkbox', { name: 'Trust this device for 7 days' })).not.toBeChecked();
    week.unmount();
    const day = await openAt(FORCED_ACTION_ROUTES.MFA_AUTHENTICATOR_APP, 1);
    expect(
      await screen.findByRole('checkbox', { name: 'Trust this device for 24 hours' }),
    ).toBeInTheDocument();
    day.unmount();
    await openAt(FORCED_ACTION_ROUTES.MFA_AUTHENTICATOR_APP, new Error('offline'));
    expect(
      await screen.findByRole('checkbox', { name: 'Trust this device for 24 hours' }),
    ).toBeInTheDocument();
  });

  it('sends trust-this-device as the user left it, and requires a code', async () => {
    const m = await openAt(FORCED_ACTION_ROUTES.MFA_AUTHENTICATOR_APP);
    await m.user.click(await screen.findByRole('button', { name: t.verify }));
    await waitFor(() => expect(codeField()).toHaveAccessibleDescription('Required field'));
    expect(m.api.calls.filter((c) => c.src === 'verifyCode')).toEqual([]);
    await m.user.type(codeField(), ' 123456 ');
    await m.user.click(screen.getByRole('button', { name: t.verify }));
    expect((await m.api.waiting('verifyCode')).input).toEqual({
      factor: 'AUTHENTICATOR_APP',
      code: '123456',
      trustDevice: false,
    });
  });

  it('shows a wrong code on the field, empties it, and has no axe violations', async () => {
    const m = await openAt(FORCED_ACTION_ROUTES.MFA_SMS);
    await m.user.type(await screen.findByLabelText(/^Verification code/, { selector: 'input' }), '000000');
    await m.user.click(screen.getByRole('checkbox'));
    await m.user.click(screen.getByRole('button', { name: t.verify }));
    expect((await m.api.waiting('verifyCode')).input).toMatchObject({ trustDevice: true });
    await act(() => m.api.answer({ type: 'xstate.done.actor.verifyCode', output: WRONG_CODE }));
    await waitFor(() => expect(codeField()).toHaveAccessibleDescription(WRONG_CODE.message));
    expect(codeField()).toHaveValue('');
    expect(codeField()).toHaveFocus();
    expect(await axeViolations()).toEqual([]);
  });

  it('shows a refused resend in red and disables the link; a sent one is announced', async () => {
    const m = await openAt(FORCED_ACTION_ROUTES.MFA_EMAIL);
    await m.user.click(await screen.findByRole('button', { name: t.resendCode }));
    await act(() => m.api.answer({ type: 'xstate.done.actor.resendCode', output: resends.sent }));
    expect(await screen.findByText('Resent email verification code')).toBeInTheDocument();
    await m.user.click(screen.getByRole('button', { name: t.resendCode }));
    await act(() => m.api.answer({ type: 'xstate.done.actor.resendCode', output: resends.refused }));
    expect(await screen.findByText(resends.refused.message)).toHaveAttribute('role', 'alert');
    expect(screen.getByRole('button', { name: t.resendCode })).toBeDisabled();
    expect(await axeViolations()).toEqual([]);
  });

  it("skips with I don't have access to the screen the server names, with its SMS message", async () => {
    const m = await openAt(FORCED_ACTION_ROUTES.MFA_SMS);
    await m.user.click(await screen.findByRole('button', { name: "I don't have access" }));
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.skipMfa', output: mfaNexts.emailBecauseSmsIsDown }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Email verification' })).toBeInTheDocument();
    await waitFor(() => expect(m.router.state.location.pathname).toBe(FORCED_ACTION_ROUTES.MFA_EMAIL));
    expect(screen.getByText(SMS_UNAVAILABLE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: "I don't have access" })).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });

  it('shows the SMS-unavailable message sign-in handed over', async () => {
    await openAt(FORCED_ACTION_ROUTES.MFA_EMAIL, 7, { smsUnavailableMessage: SMS_UNAVAILABLE });
    expect(await screen.findByText(SMS_UNAVAILABLE)).toBeInTheDocument();
  });
});
