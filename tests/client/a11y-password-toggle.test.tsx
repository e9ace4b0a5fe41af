// WCAG 2.1.1: the show/hide password toggle of every PasswordInput is in the Tab order (Mantine 9
// leaves it out by default, tabIndex -1); the portal's theme puts it back, so a keyboard user can
// reveal what they typed.
import { MantineProvider, PasswordInput } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { theme } from '../../src/client/app/theme';

describe('the password visibility toggle', () => {
  it('follows its password field in the Tab order, and Enter shows the password', async () => {
    const user = userEvent.setup({ delay: null });
    render(
      <MantineProvider theme={theme}>
        <PasswordInput label="Password" />
        <button type="button">Next</button>
      </MantineProvider>,
    );
    const password = screen.getByLabelText('Password');
    const toggle = screen.getByRole('button', { name: 'Toggle password visibility' });
    expect(toggle).not.toHaveAttribute('tabindex', '-1');
    await user.tab();
    expect(password).toHaveFocus();
    await user.tab();
    expect(toggle).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(password).toHaveAttribute('type', 'text');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveFocus();
  });
});
