// The registration's password fields are marked invalid for assistive technology (aria-invalid)
// when refused, as its text fields are: Mantine's PasswordInput marks its input data-invalid only.
// The keyboard journey (tests/e2e/keyboard-forced.e2e.test.ts) found set-password's confirmation
// refused without it; verify-identity's password had the same gap.
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ExistingAccountForm } from '../../src/client/flows/registration/ExistingAccountForm';
import { PasswordForm } from '../../src/client/flows/registration/PasswordForm';
import { registrationTexts as t } from '../../src/client/flows/registration/registration.texts';

const user = () => userEvent.setup({ delay: null });

/** The field is invalid, has the focus, and is described by its error, which is announced. */
function expectRefused(field: HTMLElement, message: string | RegExp) {
  expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(field).toHaveAccessibleDescription(expect.stringMatching(message));
  const error = (field.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id))
    .find((el) => el?.id.endsWith('-error'));
  expect(error?.closest('[aria-live]')).not.toBeNull();
}

describe('set-password', () => {
  it('marks a confirmation that differs invalid, and the password the server refuses', async () => {
    const onSubmit = vi.fn();
    const view = render(
      <MantineProvider>
        <PasswordForm busy={false} refusal={null} onSubmit={onSubmit} />
      </MantineProvider>,
    );
    const password = screen.getByLabelText(new RegExp(`^${t.setPassword.password}`));
    const confirm = screen.getByLabelText(new RegExp(`^${t.setPassword.confirmPassword}`));
    expect(confirm).toHaveAttribute('aria-invalid', 'false');
    await user().type(password, 'Quiet-Harbour-Morning-4821');
    await user().type(confirm, 'Quiet-Harbour-Morning-4822{Enter}');
    expectRefused(confirm, t.setPassword.mismatch);
    expect(confirm).toHaveFocus();
    expect(password).toHaveAttribute('aria-invalid', 'false');
    expect(onSubmit).not.toHaveBeenCalled();

    const refusal = {
      message: 'The password is too common.',
      fieldErrors: [{ fieldName: 'password', message: 'The password is too common.' }],
    };
    view.rerender(
      <MantineProvider>
        <PasswordForm busy={false} refusal={refusal} onSubmit={onSubmit} />
      </MantineProvider>,
    );
    expectRefused(password, 'The password is too common.');
    expect(password).toHaveFocus();
  });
});

describe('verify-identity', () => {
  it('marks a missing password invalid', async () => {
    render(
      <MantineProvider>
        <ExistingAccountForm busy={false} refusal={null} onSubmit={vi.fn()} onCancel={vi.fn()} />
      </MantineProvider>,
    );
    const password = screen.getByLabelText(new RegExp(`^${t.verifyIdentity.password}`));
    await user().type(screen.getByLabelText(new RegExp(`^${t.verifyIdentity.username}`)), 'C10001{Enter}');
    expectRefused(password, /./);
    expect(password).toHaveFocus();
  });
});
