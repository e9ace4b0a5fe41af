// Hand-pinned behaviours of the change-expired-password page that the generated paths do not
// explore: section 5's validation, the 422 reasons on their fields, Cancel, and axe.
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changeExpiredPasswordMachine } from '../../machines/forced/change-expired-password/change-expired-password.machine';
import { changeExpiredPasswordTexts as t } from '../../src/client/flows/forced/change-expired-password/change-expired-password.texts';
import { validateNewPassword } from '../../src/client/flows/forced/change-expired-password/ChangeExpiredPasswordForm';
import { ANONYMOUS_USER } from '../../src/contract/entities';
import { users } from '../machines/continue-sign-in.fixtures';
import { axeViolations } from './harness/axe';
import { mountChangeExpiredPassword } from './harness/forced-pages';

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const mount = () =>
  mountChangeExpiredPassword({ machine: changeExpiredPasswordMachine, user: users.pending });

describe('change-expired-password page', () => {
  it("shows the spec's heading and password hint, word for word", async () => {
    mount();
    expect(await screen.findByRole('heading', { level: 1, name: 'Change password' })).toBeInTheDocument();
    expect(field(/^New password/)).toHaveAccessibleDescription(
      'At least 14 characters with at least 1 letter and 1 number',
    );
    expect(t.hint).toBe('At least 14 characters with at least 1 letter and 1 number');
  });

  it('validates by section 5 before anything is sent', async () => {
    expect(validateNewPassword({ password: '', confirmPassword: '' })).toEqual({
      password: 'Required field',
      confirmPassword: 'Required field',
    });
    expect(validateNewPassword({ password: 'short1', confirmPassword: 'short1' })).toEqual({
      password: t.hint,
    });
    expect(validateNewPassword({ password: 'no-digits-in-this-one', confirmPassword: 'x' })).toEqual({
      password: t.hint,
    });
    expect(
      validateNewPassword({ password: 'Quiet-Harbour-2027', confirmPassword: 'Quiet-Harbour-2028' }),
    ).toEqual({
      confirmPassword: t.mismatch,
    });
    expect(
      validateNewPassword({ password: 'Quiet-Harbour-2027', confirmPassword: 'Quiet-Harbour-2027' }),
    ).toEqual({});

    const m = mount();
    await screen.findByRole('heading', { level: 1, name: t.heading });
    await m.user.type(field(/^New password/), 'short1');
    await m.user.click(screen.getByRole('button', { name: t.submit }));
    await waitFor(() => expect(field(/^New password/)).toHaveFocus());
    expect(field(/^New password/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(/^Confirm new password/)).toHaveAccessibleDescription('Required field');
    expect(m.api.calls).toEqual([]);
  });

  it("puts the server's reasons on their fields, empties the passwords and has no axe violations", async () => {
    const m = mount();
    await screen.findByRole('heading', { level: 1, name: t.heading });
    await m.user.type(field(/^New password/), 'Harbour-Lights-2026');
    await m.user.type(field(/^Confirm new password/), 'Harbour-Lights-2026');
    await m.user.click(screen.getByRole('button', { name: t.submit }));
    await act(() =>
      m.api.answer({
        type: 'xstate.done.actor.changeExpiredPassword',
        output: {
          type: 'refused',
          message: 'Choose a password you have not used before.',
          fieldErrors: [{ fieldName: 'password', message: 'This password was used recently.' }],
        },
      }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a password you have not used before.');
    await waitFor(() =>
      expect(field(/^New password/)).toHaveAccessibleDescription(
        expect.stringContaining('This password was used recently.'),
      ),
    );
    expect(field(/^New password/)).toHaveValue('');
    expect(field(/^Confirm new password/)).toHaveValue('');
    expect(field(/^New password/)).toHaveFocus();
    expect(await axeViolations()).toEqual([]);
  });

  it('Cancel signs out and goes to sign-in', async () => {
    const m = mount();
    await m.user.click(await screen.findByRole('button', { name: t.cancel }));
    await act(() => m.api.answer({ type: 'xstate.done.actor.logout', output: null }));
    expect(await screen.findByTestId('landed-path')).toHaveTextContent(/^\/$/);
    expect(m.store.getState().currentUser).toEqual(ANONYMOUS_USER);
  });
});
