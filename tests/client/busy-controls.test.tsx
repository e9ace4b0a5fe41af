// Controls that the machine would ignore while a call is on its way are disabled then, by pointer
// and keyboard alike, as the page's other busy controls are: the MFA screens' "I don't have
// access" while a code is checked or another sent (section 2.6), and a code wizard's Cancel while
// another code is sent (section 4.7). Once the call has answered they work again.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mfaMachine } from '../../machines/forced/mfa/mfa.machine';
import { changeMobileMachine } from '../../machines/profile/change-mobile/change-mobile.machine';
import { enrolSmsMachine } from '../../machines/profile/enrol-sms/enrol-sms.machine';
import { FORCED_ACTION_ROUTES, PROFILE_ROUTES } from '../../machines/routes';
import { mfaTexts } from '../../src/client/flows/forced/mfa/mfa.texts';
import { forcedTexts } from '../../src/client/flows/forced/shared/forced.texts';
import ChangeMobilePage from '../../src/client/flows/profile/ChangeMobilePage';
import EnrolSmsPage from '../../src/client/flows/profile/EnrolSmsPage';
import { profileFormTexts, wizardTexts } from '../../src/client/flows/profile/profile.texts';
import { mfaNexts, resends, users, WRONG_CODE } from '../machines/continue-sign-in.fixtures';
import { mountForcedPage, mountMfa, type MountedForcedPage } from '../model/harness/forced-pages';

const codeField = () => screen.getByLabelText(/^Verification code/, { selector: 'input' });
const calls = (m: MountedForcedPage, src: string) => m.api.calls.filter((c) => c.src === src).length;

/** Tabs from `from` and says whether the keyboard reached `control`. */
async function tabReaches(m: MountedForcedPage, from: HTMLElement, control: HTMLElement) {
  act(() => from.focus());
  expect(from).toHaveFocus();
  await m.user.tab();
  return document.activeElement === control;
}

describe("MFA: I don't have access", () => {
  afterEach(() => notifications.clean());

  async function openSms() {
    const m = mountMfa({ machine: mfaMachine, user: users.pending, entry: FORCED_ACTION_ROUTES.MFA_SMS });
    await act(() => m.api.answer({ type: 'xstate.done.actor.getTrustedDevicePeriod', output: 7 }));
    await screen.findByRole('heading', { level: 1, name: mfaTexts.heading.SMS });
    return m;
  }
  const skip = () => screen.getByRole('button', { name: mfaTexts.noAccess });

  it('is disabled while a code is checked, by pointer and keyboard, and works once it is answered', async () => {
    const m = await openSms();
    expect(skip()).toBeEnabled();
    await m.user.type(codeField(), '000000');
    await m.user.click(screen.getByRole('button', { name: mfaTexts.verify }));
    await m.api.waiting('verifyCode');
    await waitFor(() => expect(skip()).toBeDisabled());
    expect(skip()).toHaveAttribute('aria-disabled', 'true');
    await m.user.click(skip());
    // The trust-device box comes just before the busy Verify button and the link.
    expect(await tabReaches(m, screen.getByRole('checkbox'), skip())).toBe(false);
    expect(calls(m, 'skipMfa')).toBe(0);

    await act(() => m.api.answer({ type: 'xstate.done.actor.verifyCode', output: WRONG_CODE }));
    await waitFor(() => expect(skip()).toBeEnabled());
    expect(skip()).toHaveAttribute('aria-disabled', 'false');
    await m.user.click(skip());
    await m.api.waiting('skipMfa');
  });

  it('is disabled while another code is sent, and works once it is answered', async () => {
    const m = await openSms();
    await m.user.click(screen.getByRole('button', { name: mfaTexts.resendCode }));
    await m.api.waiting('resendCode');
    await waitFor(() => expect(skip()).toBeDisabled());
    expect(await tabReaches(m, screen.getByRole('button', { name: mfaTexts.verify }), skip())).toBe(false);
    await m.user.click(skip());
    expect(calls(m, 'skipMfa')).toBe(0);

    await act(() => m.api.answer({ type: 'xstate.done.actor.resendCode', output: resends.sent }));
    await waitFor(() => expect(skip()).toBeEnabled());
    expect(await tabReaches(m, screen.getByRole('button', { name: mfaTexts.verify }), skip())).toBe(true);
    await m.user.keyboard('{Enter}');
    await m.api.waiting('skipMfa');
    await act(() => m.api.answer({ type: 'xstate.done.actor.skipMfa', output: mfaNexts.email }));
    expect(
      await screen.findByRole('heading', { level: 1, name: mfaTexts.heading.EMAIL }),
    ).toBeInTheDocument();
  });
});

describe("a code wizard's Cancel on step 2", () => {
  afterEach(() => notifications.clean());

  it.each([
    ['change mobile', changeMobileMachine, PROFILE_ROUTES.CHANGE_MOBILE, <ChangeMobilePage key="m" />],
    ['enable SMS', enrolSmsMachine, PROFILE_ROUTES.ENROL_SMS, <EnrolSmsPage key="s" />],
  ] as const)(
    '%s: is disabled while another code is sent, and calls the cancel endpoint once it is answered',
    async (_, machine, route, page) => {
      const m = mountForcedPage({
        machine,
        sources: ['start', 'verify', 'resend', 'cancelChange'],
        route: `${route}/*`,
        entry: route,
        page,
        user: users.customer,
      });
      const mobile = await screen.findByLabelText(new RegExp(`^${wizardTexts.mobile}`), {
        selector: 'input',
      });
      await m.user.type(mobile, '+61 400 123 456');
      await m.user.type(
        screen.getByLabelText(new RegExp(`^${profileFormTexts.currentPassword}`), { selector: 'input' }),
        'Harbour-Lights-2026',
      );
      await m.user.click(screen.getByRole('button', { name: wizardTexts.next }));
      await act(() =>
        m.api.answer({
          type: 'xstate.done.actor.start',
          output: { type: 'codeSent', destination: '+61 400 123 456' },
        }),
      );
      const cancel = () => screen.getByRole('button', { name: wizardTexts.cancel });
      const verify = () => screen.getByRole('button', { name: wizardTexts.verify });
      await waitFor(() => expect(cancel()).toBeEnabled());

      await m.user.click(screen.getByRole('button', { name: forcedTexts.resendCode }));
      await m.api.waiting('resend');
      await waitFor(() => expect(cancel()).toBeDisabled());
      expect(await tabReaches(m, verify(), cancel())).toBe(false);
      await m.user.click(cancel());
      expect(calls(m, 'cancelChange')).toBe(0);

      await act(() => m.api.answer({ type: 'xstate.done.actor.resend', output: { type: 'sent' } }));
      await waitFor(() => expect(cancel()).toBeEnabled());
      expect(await tabReaches(m, verify(), cancel())).toBe(true);
      await m.user.keyboard('{Enter}');
      await m.api.waiting('cancelChange');
    },
  );
});
