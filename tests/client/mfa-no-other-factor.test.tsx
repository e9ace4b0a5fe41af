// "I don't have access" that finds no other factor (section 2.6): the screen stays, the link the
// user chose is gone, and focus moves to the message that replaces it rather than falling to the
// page (WCAG 2.4.3), by pointer or keyboard.
import { notifications } from '@mantine/notifications';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mfaMachine } from '../../machines/forced/mfa/mfa.machine';
import { FORCED_ACTION_ROUTES } from '../../machines/routes';
import { mfaTexts as t } from '../../src/client/flows/forced/mfa/mfa.texts';
import { mfaNexts, users } from '../machines/continue-sign-in.fixtures';
import { axeViolations } from '../model/harness/axe';
import { mountMfa } from '../model/harness/forced-pages';

describe('MFA: a skip that finds no other factor', () => {
  afterEach(() => notifications.clean());

  it.each([
    [
      'authenticator app, by pointer',
      FORCED_ACTION_ROUTES.MFA_AUTHENTICATOR_APP,
      'AUTHENTICATOR_APP',
      'pointer',
    ],
    ['SMS, by keyboard', FORCED_ACTION_ROUTES.MFA_SMS, 'SMS', 'keyboard'],
  ] as const)('%s: focus moves to the message that replaces the link', async (_, entry, factor, how) => {
    const m = mountMfa({ machine: mfaMachine, user: users.pending, entry });
    await act(() => m.api.answer({ type: 'xstate.done.actor.getTrustedDevicePeriod', output: 7 }));
    const skip = await screen.findByRole('button', { name: t.noAccess });
    if (how === 'pointer') await m.user.click(skip);
    else {
      act(() => skip.focus());
      await m.user.keyboard('{Enter}');
    }
    await act(() => m.api.answer({ type: 'xstate.done.actor.skipMfa', output: mfaNexts.none }));
    const message = await screen.findByRole('alert', { name: t.noOtherFactorTitle });
    expect(message).toHaveTextContent(t.noOtherFactor);
    expect(screen.getByRole('heading', { level: 1, name: t.heading[factor] })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t.noAccess })).toBeNull();
    expect(message).toHaveFocus();
    expect(await axeViolations()).toEqual([]);
  });
});
