// The single-step profile screens keep the keyboard user's focus (WCAG 2.4.3): a refusal without a
// field of the form to go to takes it to its message, and a failure to its alert (the submit button,
// disabled while it sent, has dropped it); the date field's clear button is at least 24 px (WCAG
// 2.5.8).
import { MantineProvider } from '@mantine/core';
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { profileFormMachine } from '../../machines/profile/profile-form/profile-form.machine';
import { PROFILE_ROUTES } from '../../machines/routes';
import { ProfileFormPage } from '../../src/client/flows/profile/ProfileFormPage';
import { profileFormScreens } from '../../src/client/flows/profile/profile-form.screens';
import { profileFormTexts, screenTexts } from '../../src/client/flows/profile/profile.texts';
import { WizardFailed } from '../../src/client/flows/profile/WizardFrame';
import { users } from '../machines/continue-sign-in.fixtures';
import { mountForcedPage } from '../model/harness/forced-pages';

const t = screenTexts.changeDateOfBirth;
const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });

async function mountDateOfBirth() {
  const m = mountForcedPage({
    machine: profileFormMachine,
    sources: ['isIdentityVerified', 'submit'],
    route: PROFILE_ROUTES.CHANGE_DATE_OF_BIRTH,
    entry: PROFILE_ROUTES.CHANGE_DATE_OF_BIRTH,
    page: <ProfileFormPage spec={profileFormScreens.changeDateOfBirth} />,
    user: { ...users.customer, birthDate: '1980-01-01' },
  });
  await m.api.answer({ type: 'xstate.done.actor.isIdentityVerified', output: false });
  await screen.findByLabelText(/^Date of birth/, { selector: 'input' });
  return m;
}

async function submit(m: Awaited<ReturnType<typeof mountDateOfBirth>>) {
  await m.user.type(input(/^Current password/), 'Old-password-1');
  await m.user.click(screen.getByRole('button', { name: t.submit }));
  await m.api.waiting('submit');
}

describe('a single-step profile screen', { timeout: 30_000 }, () => {
  it('a refusal without a field error moves the focus to its message', async () => {
    const m = await mountDateOfBirth();
    await submit(m);
    await act(() =>
      m.api.answer({
        type: 'xstate.done.actor.submit',
        output: { type: 'refused', message: 'The change cannot be made now.', fieldErrors: [] },
      }),
    );
    const alert = await screen.findByText('The change cannot be made now.');
    await waitFor(() => expect(alert.closest('[role="alert"]')).toHaveFocus());
  });

  it('a refusal on a field still moves the focus to that field', async () => {
    const m = await mountDateOfBirth();
    await submit(m);
    await act(() =>
      m.api.answer({
        type: 'xstate.done.actor.submit',
        output: {
          type: 'refused',
          message: 'Incorrect password.',
          fieldErrors: [{ fieldName: 'currentPassword', message: 'Incorrect password.' }],
        },
      }),
    );
    await waitFor(() => expect(input(/^Current password/)).toHaveFocus());
  });

  it('a failure moves the focus to its alert', async () => {
    const m = await mountDateOfBirth();
    await submit(m);
    await act(() => m.api.answer({ type: 'xstate.error.actor.submit' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(profileFormTexts.failedHeading);
    expect(alert).toHaveFocus();
  });

  it("the date field's clear button is 28 px (Mantine's md), not 22 px", async () => {
    await mountDateOfBirth();
    const clear = screen.getByRole('button', { name: 'Clear date of birth' });
    expect(clear.style.getPropertyValue('--cb-size')).toBe('var(--cb-size-md)');
  });
});

describe("a profile wizard's failure", () => {
  it('takes the focus when it appears', () => {
    render(
      <MantineProvider>
        <WizardFailed message="The code could not be checked." onBack={vi.fn()} />
      </MantineProvider>,
    );
    expect(screen.getByRole('alert')).toHaveFocus();
  });
});
