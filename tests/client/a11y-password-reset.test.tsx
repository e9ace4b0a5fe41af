// The password reset keeps the keyboard user's focus where it tells something (WCAG 2.4.3, 3.3.1,
// 4.1.3): a field error found on submit takes the focus to its field (read with its error); a
// refusal with no field to go back to takes it to its message (the submit button it was on is
// disabled while it sends); the failed and unavailable views take it to their heading.
import { act, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { passwordResetMachine } from '../../machines/password-reset/password-reset.machine';
import { PASSWORD_RESET_ROUTE } from '../../machines/routes';
import {
  SecurityAnswersForm,
  StartForm,
  UserSelectionForm,
} from '../../src/client/flows/password-reset/PasswordResetForms';
import PasswordResetPage from '../../src/client/flows/password-reset/PasswordResetPage';
import { passwordResetTexts as t } from '../../src/client/flows/password-reset/password-reset.texts';
import { users } from '../machines/continue-sign-in.fixtures';
import { QUESTIONS } from '../machines/password-reset.fixtures';
import { mountForcedPage } from '../model/harness/forced-pages';
import { PASSWORD_RESET_SOURCES } from '../model/password-reset.paths';

const wrap = (node: ReactNode) => <MantineProvider>{node}</MantineProvider>;
const user = () => userEvent.setup({ delay: null });
const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });

describe('get started', () => {
  const props = { busy: false, refusal: null, captchaDraw: 1, onRefreshCaptcha: vi.fn(), onSubmit: vi.fn() };

  it('an invalid email moves the focus to the email, described by its error', async () => {
    render(wrap(<StartForm {...props} />));
    const u = user();
    await u.type(input(/^Email/), 'not-an-email');
    await u.type(input(/^Security code/), 'E2E42');
    await u.click(screen.getByRole('button', { name: t.start.submit }));
    expect(input(/^Email/)).toHaveFocus();
    expect(input(/^Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(props.onSubmit).not.toHaveBeenCalled();
  });

  it('with a valid email and no code, the focus goes to the security code', async () => {
    render(wrap(<StartForm {...props} />));
    const u = user();
    await u.type(input(/^Email/), 'c10001@example.com');
    await u.click(screen.getByRole('button', { name: t.start.submit }));
    expect(input(/^Security code/)).toHaveFocus();
  });
});

describe('choose your account', () => {
  const identities = [
    { username: 'C10001', name: 'Ava Kowalski' },
    { username: 'C10002', name: null },
  ];
  const props = { identities, busy: false, refusal: null, onSubmit: vi.fn() };

  it('no account chosen moves the focus to the first account, the group described by the error', async () => {
    render(wrap(<UserSelectionForm {...props} />));
    await user().click(screen.getByRole('button', { name: t.userSelection.submit }));
    expect(screen.getByRole('radio', { name: /^C10001/ })).toHaveFocus();
    expect(screen.getByRole('radiogroup')).toHaveAccessibleDescription(t.userSelection.required);
  });

  it('a refusal moves the focus to its message', () => {
    const view = render(wrap(<UserSelectionForm {...props} />));
    screen.getByRole('button', { name: t.userSelection.submit }).focus();
    view.rerender(wrap(<UserSelectionForm {...props} busy />));
    view.rerender(
      wrap(<UserSelectionForm {...props} refusal={{ message: 'The account is locked.', fieldErrors: [] }} />),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The account is locked.');
    expect(screen.getByRole('alert')).toHaveFocus();
  });
});

describe('security questions', () => {
  const challenges = [{ code: 'MEDICARE', description: 'Medicare card number' }];
  const props = { challenges, busy: false, refusal: null, onSubmit: vi.fn() };

  it('a refusal without a field error moves the focus to its message', () => {
    const view = render(wrap(<SecurityAnswersForm {...props} />));
    screen.getByRole('button', { name: t.securityQuestions.submit }).focus();
    view.rerender(
      wrap(<SecurityAnswersForm {...props} refusal={{ message: 'Too many attempts.', fieldErrors: [] }} />),
    );
    expect(screen.getByRole('alert')).toHaveFocus();
  });

  it('a wrong answer still has the focus on its field', () => {
    const view = render(wrap(<SecurityAnswersForm {...props} />));
    const refusal = {
      message: 'Wrong.',
      fieldErrors: [{ fieldName: 'answer.MEDICARE', message: 'Incorrect.' }],
    };
    view.rerender(wrap(<SecurityAnswersForm {...props} refusal={refusal} />));
    expect(input(/^Medicare card number/)).toHaveFocus();
  });
});

describe('the views that replace the wizard', { timeout: 30_000 }, () => {
  async function mountPage() {
    const m = mountForcedPage({
      machine: passwordResetMachine,
      sources: PASSWORD_RESET_SOURCES,
      route: `${PASSWORD_RESET_ROUTE}/*`,
      entry: PASSWORD_RESET_ROUTE,
      page: <PasswordResetPage />,
      user: users.customer,
      context: null,
    });
    await act(() => m.store.ready());
    return m;
  }

  it('the failed view has the focus on its heading', async () => {
    const m = await mountPage();
    await act(() => m.api.answer({ type: 'xstate.error.actor.loadAvailability' }));
    const heading = await screen.findByRole('heading', { level: 1, name: t.failedHeading });
    expect(heading).toHaveFocus();
  });

  it('the unavailable view has the focus on its heading', async () => {
    const m = await mountPage();
    await act(() =>
      m.api.answer({
        type: 'xstate.done.actor.loadAvailability',
        output: { authEnabled: false, questions: QUESTIONS },
      }),
    );
    const heading = await screen.findByRole('heading', { level: 1, name: t.unavailableHeading });
    expect(heading).toHaveFocus();
  });
});
