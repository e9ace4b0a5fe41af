// Hand-pinned behaviours of the sign-in form that the generated paths do not explore: section 5's
// validation, focus on the first error, the Caps Lock hint, and what a refusal does to the fields.
import { act, screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_ROUTE } from '../../machines/routes';
import { signInTexts } from '../../src/client/flows/sign-in/sign-in.texts';
import { validateSignIn } from '../../src/client/flows/sign-in/sign-in.validation';
import { counts, input, loginResults } from '../machines/fixtures/sign-in.fixtures';
import { mountSignIn } from './harness/sign-in-page';

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });

async function atForm(count = counts.none) {
  const m = mountSignIn(input);
  await act(() => m.api.answer({ type: 'xstate.done.actor.getFailedAuthCount', output: count }));
  await screen.findByRole('heading', { level: 1, name: signInTexts.heading });
  return m;
}

describe('sign-in form: validation of section 5', () => {
  it('has the contract messages', () => {
    const withoutCode = { withSecurityCode: false };
    expect(validateSignIn({ username: '', password: '', captchaCode: '' }, withoutCode)).toEqual({
      username: 'Required field',
      password: 'Required field',
    });
    expect(validateSignIn({ username: 'x'.repeat(51), password: 'p', captchaCode: '' }, withoutCode)).toEqual(
      {
        username: 'Size cannot be greater than 50',
      },
    );
    expect(validateSignIn({ username: 'x'.repeat(50), password: 'p', captchaCode: '' }, withoutCode)).toEqual(
      {},
    );
    expect(validateSignIn({ username: '   ', password: ' ', captchaCode: '' }, withoutCode)).toEqual({
      username: 'Required field',
    });
    expect(
      validateSignIn({ username: 'C10001', password: 'p', captchaCode: '' }, { withSecurityCode: true }),
    ).toEqual({ captchaCode: 'Required field' });
  });

  it('shows the errors on their fields, focuses the first, and does not sign in', async () => {
    const m = await atForm();
    await m.user.click(screen.getByRole('button', { name: signInTexts.submit }));
    await waitFor(() => expect(field(/^Username/)).toHaveFocus());
    expect(field(/^Username/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(/^Username/)).toHaveAccessibleDescription('Required field');
    expect(field(/^Password/)).toHaveAccessibleDescription('Required field');
    expect(field(/^Password/)).toHaveAttribute('aria-invalid', 'true');
    expect(m.api.calls.filter((c) => c.src === 'login')).toEqual([]);
  });

  it('says a username longer than 50 is too long', async () => {
    const m = await atForm();
    await m.user.type(field(/^Username/), 'x'.repeat(51));
    await m.user.type(field(/^Password/), 'secret');
    await m.user.click(screen.getByRole('button', { name: signInTexts.submit }));
    await waitFor(() =>
      expect(field(/^Username/)).toHaveAccessibleDescription('Size cannot be greater than 50'),
    );
    expect(field(/^Username/)).toHaveFocus();
  });

  it('asks for the security code once it is shown, focusing it', async () => {
    const m = await atForm(counts.threshold);
    await m.user.type(field(/^Username/), 'C10001');
    await m.user.type(field(/^Password/), 'secret');
    await m.user.click(screen.getByRole('button', { name: signInTexts.submit }));
    await waitFor(() => expect(field(/^Security code/)).toHaveFocus());
    expect(field(/^Security code/)).toHaveAccessibleDescription('Required field');
  });
});

describe('sign-in form: hints and refusals', () => {
  it("shows 'Caps Lock is on' while Caps Lock is on", async () => {
    const m = await atForm();
    await m.user.click(field(/^Password/));
    await m.user.keyboard('{CapsLock}a');
    expect(screen.getByText(signInTexts.capsLockOn)).toBeInTheDocument();
    await m.user.keyboard('{CapsLock}a');
    expect(screen.queryByText(signInTexts.capsLockOn)).not.toBeInTheDocument();
  });

  it('empties the password after wrong credentials, keeps the username, and focuses the password', async () => {
    const m = await atForm();
    await m.user.type(field(/^Username/), 'C10001');
    await m.user.type(field(/^Password/), 'wrong-password');
    await m.user.click(screen.getByRole('button', { name: signInTexts.submit }));
    await act(() => m.api.answer({ type: 'xstate.done.actor.login', output: loginResults.wrongCredentials }));
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.getFailedAuthCount', output: counts.afterRefusal }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(loginResults.wrongCredentials.message);
    await waitFor(() => expect(field(/^Password/)).toHaveFocus());
    expect(field(/^Password/)).toHaveValue('');
    expect(field(/^Username/)).toHaveValue('C10001');
    expect(field(/^Security code/)).toBeInTheDocument();
  });

  it('puts a security-code refusal on the security code and focuses it', async () => {
    const m = await atForm(counts.threshold);
    const firstImage = screen.getByRole('img', { name: signInTexts.captchaAlt }).getAttribute('src');
    await m.user.type(field(/^Username/), 'C10001');
    await m.user.type(field(/^Password/), 'secret');
    await m.user.type(field(/^Security code/), 'WRONG');
    await m.user.click(screen.getByRole('button', { name: signInTexts.submit }));
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.login', output: loginResults.wrongSecurityCode }),
    );
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.getFailedAuthCount', output: counts.afterRefusal }),
    );
    await waitFor(() => expect(field(/^Security code/)).toHaveFocus());
    expect(field(/^Security code/)).toHaveValue('');
    expect(field(/^Security code/)).toHaveAccessibleDescription(loginResults.wrongSecurityCode.message);
    // The count read after the refusal comes with a new image.
    const image = screen.getByRole('img', { name: signInTexts.captchaAlt });
    expect(image).toHaveAttribute('src', expect.stringMatching(/^\/captcha\.jpg\?\d+$/));
    expect(image.getAttribute('src')).not.toBe(firstImage);
  });

  it('links to registration and password reset, and stays at /', async () => {
    const m = await atForm();
    expect(screen.getByRole('link', { name: signInTexts.registerLink })).toHaveAttribute(
      'href',
      '/registration',
    );
    expect(screen.getByRole('link', { name: signInTexts.problemsLink })).toHaveAttribute(
      'href',
      '/password-reset',
    );
    expect(m.router.state.location.pathname).toBe(SIGN_IN_ROUTE);
  });
});

describe('sign-in page: accessibility (axe, what jsdom can check)', () => {
  const violations = async () => {
    const result = await axe.run(document.body, {
      rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
    });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };

  it('has none on the form with the security code and a refusal with field errors', async () => {
    const m = await atForm(counts.threshold);
    await m.user.type(field(/^Username/), 'C10001');
    await m.user.type(field(/^Password/), 'secret');
    await m.user.type(field(/^Security code/), 'WRONG');
    await m.user.click(screen.getByRole('button', { name: signInTexts.submit }));
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.login', output: loginResults.wrongSecurityCode }),
    );
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.getFailedAuthCount', output: counts.afterRefusal }),
    );
    await screen.findByRole('alert');
    expect(await violations()).toEqual([]);
  });

  it('has none on the empty-submit errors', async () => {
    const m = await atForm();
    await m.user.click(screen.getByRole('button', { name: signInTexts.submit }));
    await waitFor(() => expect(field(/^Username/)).toHaveFocus());
    expect(await violations()).toEqual([]);
  });
});
