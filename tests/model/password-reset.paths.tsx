// Generated password reset paths executed against the mounted wizard: Testing Library types the
// email, the security code, codes, answers and the new password as a user would, the scripted fake
// API answers as each step says, and each state is checked by what the user sees: heading, step
// title, progress, the step's address, refusals, the SMS-unavailable alert, and where it ended; and
// set-password without its form when SMS is the only factor and it is down.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { passwordResetMachine } from '../../machines/password-reset/password-reset.machine';
import { PASSWORD_RESET_ROUTE, PASSWORD_RESET_STEPS, SIGN_IN_ROUTE } from '../../machines/routes';
import PasswordResetPage from '../../src/client/flows/password-reset/PasswordResetPage';
import { passwordResetTexts as t } from '../../src/client/flows/password-reset/password-reset.texts';
import { ANONYMOUS_USER } from '../../src/contract/entities';
import { ANSWERS, CAPTCHA, NEW_PASSWORD, QUESTIONS, RESET_EMAIL } from '../machines/password-reset.fixtures';
import { users } from '../machines/continue-sign-in.fixtures';
import type { MachineCoverage } from './harness/coverage';
import { expectStatus, leafStates, runPath } from './harness/forced-checks';
import { mountForcedPage, type MountedForcedPage } from './harness/forced-pages';
import {
  CODES,
  passwordResetPaths,
  projectPasswordResetContext,
  stepPath,
  type PasswordResetModelEvent,
  type PasswordResetModelEventType,
  type PasswordResetSnapshot,
} from './password-reset.model';
import { enter } from './harness/user';

type S = PasswordResetSnapshot;
const PATH_TIMEOUT_MS = 30_000;
const TRANSIENT = ['routing', 'setPassword.choosing'];
const R = PASSWORD_RESET_STEPS;

export const PASSWORD_RESET_SOURCES = [
  'loadAvailability',
  'startReset',
  'verifyEmail',
  'resendEmail',
  'selectUser',
  'verifyAuthenticatorApp',
  'sendSms',
  'verifySms',
  'verifySecurityQuestions',
  'submitPassword',
] as const;

export const mountPasswordReset = (options: { inspect?: MachineCoverage['inspect']; entry?: string } = {}) =>
  mountForcedPage({
    machine: passwordResetMachine,
    sources: PASSWORD_RESET_SOURCES,
    route: `${PASSWORD_RESET_ROUTE}/*`,
    entry: options.entry ?? PASSWORD_RESET_ROUTE,
    page: <PasswordResetPage />,
    // Someone signed in opens the page: it clears the current user.
    user: users.customer,
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Required fields' labels end with Mantine's asterisk: match the start. */
const input = (label: string | RegExp) =>
  screen.getByLabelText(typeof label === 'string' ? new RegExp(`^${escape(label)}`) : label, {
    selector: 'input',
  });
const codeField = () => input(/^Verification code/);
const resendLink = () => screen.getByRole('button', { name: t.resendCode });
const skipLink = () => screen.queryByRole('button', { name: t.skip });

async function expectBusy(name: string, busy: boolean) {
  await waitFor(() => {
    const button = screen.getByRole('button', { name });
    if (busy) expect(button).toHaveAttribute('data-loading', 'true');
    else expect(button).not.toHaveAttribute('data-loading');
  });
}

/** Heading, progress, the step's title and address: what every step shows. */
async function expectStep(m: MountedForcedPage, title: string, step: string, progress: number) {
  expect(await screen.findByRole('heading', { level: 1, name: t.heading })).toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 2, name: title })).toBeInTheDocument();
  expect(screen.getByRole('progressbar', { name: t.progress })).toHaveAttribute(
    'aria-valuenow',
    String(progress),
  );
  expect(screen.getByTestId('step-progress')).toHaveTextContent(t.percent(progress));
  await waitFor(() => expect(m.router.state.location.pathname).toBe(stepPath(step)));
  expect(m.store.getState().currentUser).toEqual(ANONYMOUS_USER);
}

/** An alert with the message (the SMS-unavailable alert may be there too). */
function expectAlert(message: string) {
  expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContainEqual(
    expect.stringContaining(message),
  );
}

function expectSmsAlert(s: S) {
  if (s.context.smsUnavailableMessage) {
    expect(screen.getByText(s.context.smsUnavailableMessage)).toBeInTheDocument();
    expect(screen.getByText(t.smsUnavailableTitle)).toBeInTheDocument();
  } else {
    expect(screen.queryByText(t.smsUnavailableTitle)).toBeNull();
  }
}

async function expectCodeScreen(
  s: S,
  { busy, resend, sending = false }: { busy: boolean; resend: boolean; sending?: boolean },
) {
  expect(codeField()).toBeInTheDocument();
  await expectBusy('Verify', busy);
  if (!resend) expect(screen.queryByRole('button', { name: t.resendCode })).toBeNull();
  else if (s.context.resendRefusal !== null) {
    expect(resendLink()).toBeDisabled();
    expect(screen.getByText(s.context.resendRefusal)).toHaveAttribute('role', 'alert');
  } else if (sending) expect(resendLink()).toBeDisabled();
  else await waitFor(() => expect(resendLink()).toBeEnabled());
  if (s.context.refusal) {
    const message = s.context.refusal.fieldErrors.find((e) => e.fieldName === 'code')?.message ?? '';
    await waitFor(() => expect(codeField()).toHaveAttribute('aria-invalid', 'true'));
    expect(codeField()).toHaveAccessibleDescription(message);
  }
}

function expectSkip(s: S) {
  const can = s.can({ type: 'user.skip' });
  if (can) expect(skipLink()).toBeInTheDocument();
  else expect(skipLink()).toBeNull();
}

function stateChecks(m: MountedForcedPage): Record<string, (s: S) => Promise<void>> {
  const start = async (s: S, busy: boolean) => {
    await expectStep(m, t.start.title, R.START, 25);
    expect(screen.getByRole('img', { name: t.start.captchaAlt })).toHaveAttribute(
      'src',
      expect.stringMatching(/^\/captcha\.jpg\?\d+$/),
    );
    expect(input(/^Email/)).toBeInTheDocument();
    await expectBusy(t.start.submit, busy);
    if (s.context.refusal) {
      expectAlert(s.context.refusal.message);
      await waitFor(() => expect(input(/^Security code/)).toHaveAttribute('aria-invalid', 'true'));
    }
  };
  const email = async (s: S, busy: boolean, sending = false) => {
    await expectStep(m, t.emailVerification.title, R.EMAIL_VERIFICATION, 50);
    expect(screen.getByText(t.emailVerification.instructions(s.context.email))).toBeInTheDocument();
    await expectCodeScreen(s, { busy, resend: true, sending });
  };
  const userSelection = async (s: S, busy: boolean) => {
    await expectStep(m, t.userSelection.title, R.USER_SELECTION, 50);
    expect(screen.getByRole('radio', { name: 'C10006 (Liam Walsh)' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'C10007 (Liam Walsh)' })).toBeInTheDocument();
    await expectBusy(t.userSelection.submit, busy);
    if (s.context.refusal) expectAlert(s.context.refusal.message);
  };
  const app = async (s: S, busy: boolean) => {
    await expectStep(m, t.authenticatorApp.title, R.AUTHENTICATOR_APP_VERIFICATION, 75);
    await expectCodeScreen(s, { busy, resend: false });
    expectSkip(s);
    expectSmsAlert(s);
  };
  const sms = async (s: S, busy: boolean, sending = false) => {
    await expectStep(m, t.sms.title, R.SMS_VERIFICATION, 75);
    expect(screen.getByText(t.sms.instructions(s.context.details?.mobile ?? null))).toBeInTheDocument();
    await expectCodeScreen(s, { busy, resend: true, sending });
    expectSkip(s);
  };
  const questions = async (s: S, busy: boolean) => {
    await expectStep(m, t.securityQuestions.title, R.SECURITY_QUESTION_VERIFICATION, 75);
    for (const q of QUESTIONS) expect(input(q.description)).toBeInTheDocument();
    await expectBusy(t.securityQuestions.submit, busy);
    expectSmsAlert(s);
    if (s.context.refusal) {
      expectAlert(s.context.refusal.message);
      await waitFor(() => expect(input('Medicare card number')).toHaveAttribute('aria-invalid', 'true'));
    }
  };
  const setPassword = async (s: S, busy: boolean) => {
    await expectStep(m, t.setPassword.title, R.SET_PASSWORD, 100);
    expect(input(/^New password/)).toHaveAccessibleDescription(expect.stringContaining(t.setPassword.hint));
    await expectBusy(t.setPassword.submit, busy);
    if (s.context.refusal) {
      expectAlert(s.context.refusal.message);
      await waitFor(() => expect(input(/^New password/)).toHaveAttribute('aria-invalid', 'true'));
    }
  };
  return {
    loading: async () => {
      await expectStatus(t.loading);
      await m.api.waiting('loadAvailability');
      expect(m.store.getState().currentUser).toEqual(ANONYMOUS_USER);
    },
    unavailable: async () => {
      expect(
        await screen.findByRole('heading', { level: 1, name: t.unavailableHeading }),
      ).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(t.unavailable);
      expect(screen.queryByRole('textbox')).toBeNull();
      await waitFor(() => expect(m.router.state.location.pathname).toBe(PASSWORD_RESET_ROUTE));
    },
    'start.form': (s) => start(s, false),
    'start.starting': async (s) => {
      await start(s, true);
      expect((await m.api.waiting('startReset')).input).toEqual({ email: RESET_EMAIL, captchaCode: CAPTCHA });
    },
    'emailVerification.form': (s) => email(s, false),
    'emailVerification.verifying': async (s) => {
      await email(s, true);
      expect((await m.api.waiting('verifyEmail')).input).toEqual({ code: CODES.email });
    },
    'emailVerification.resending': async (s) => {
      await expectStatus(t.resending);
      await email(s, false, true);
      await m.api.waiting('resendEmail');
    },
    'userSelection.form': (s) => userSelection(s, false),
    'userSelection.selecting': async (s) => {
      await userSelection(s, true);
      expect((await m.api.waiting('selectUser')).input).toEqual({ username: 'C10007' });
    },
    'authenticatorApp.form': (s) => app(s, false),
    'authenticatorApp.verifying': async (s) => {
      await app(s, true);
      expect((await m.api.waiting('verifyAuthenticatorApp')).input).toEqual({ code: CODES.app });
    },
    'sms.sending': async (s) => {
      await expectStatus(t.resending);
      await sms(s, false, true);
      await m.api.waiting('sendSms');
    },
    'sms.form': (s) => sms(s, false),
    'sms.verifying': async (s) => {
      await sms(s, true);
      expect((await m.api.waiting('verifySms')).input).toEqual({ code: CODES.sms });
    },
    'sms.resending': async (s) => {
      await expectStatus(t.resending);
      await sms(s, false, true);
      await m.api.waiting('sendSms');
    },
    'securityQuestions.form': (s) => questions(s, false),
    'securityQuestions.verifying': async (s) => {
      await questions(s, true);
      expect((await m.api.waiting('verifySecurityQuestions')).input).toEqual({ answers: ANSWERS });
      expect(JSON.stringify(s.context)).not.toContain(ANSWERS[0]!.answer);
    },
    'setPassword.form': (s) => setPassword(s, false),
    'setPassword.cannotFinish': async () => {
      // The step, its address and heading, without progress, form or the SMS banner: the message.
      expect(await screen.findByRole('heading', { level: 1, name: t.heading })).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 2, name: t.cannotFinish.title })).toBeInTheDocument();
      await waitFor(() => expect(m.router.state.location.pathname).toBe(stepPath(R.SET_PASSWORD)));
      expect(screen.getByRole('alert')).toHaveTextContent(t.cannotFinish.message);
      expect(screen.queryByRole('progressbar')).toBeNull();
      expect(screen.queryByText(t.smsUnavailableTitle)).toBeNull();
      expect(screen.queryByLabelText(/^New password/)).toBeNull();
      expect(screen.queryByRole('button', { name: t.setPassword.submit })).toBeNull();
      expect(screen.getByRole('link', { name: t.cannotFinish.signIn })).toHaveAttribute(
        'href',
        SIGN_IN_ROUTE,
      );
      expect(m.store.getState().currentUser).toEqual(ANONYMOUS_USER);
    },
    'setPassword.submitting': async (s) => {
      await setPassword(s, true);
      expect((await m.api.waiting('submitPassword')).input).toEqual({
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(JSON.stringify(s.context)).not.toContain(NEW_PASSWORD);
    },
    failed: async (s) => {
      expect(await screen.findByRole('heading', { level: 1, name: t.failedHeading })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(s.context.errorMessage ?? '');
    },
    done: async (s) => {
      expect(await screen.findByTestId('landed-path')).toHaveTextContent(SIGN_IN_ROUTE);
      expect(await screen.findByText(t.done)).toBeInTheDocument();
      expect(s.output).toEqual({ route: SIGN_IN_ROUTE });
      expect(s.context.details).toBeNull();
      expect(s.context.email).toBeNull();
    },
  };
}

const EVENT_TYPES = Object.keys({
  'user.start': true,
  'user.refreshCaptcha': true,
  'user.verify': true,
  'user.resend': true,
  'user.select': true,
  'user.skip': true,
  'user.answer': true,
  'user.submit': true,
  'route.changed': true,
  'xstate.done.actor.loadAvailability': true,
  'xstate.error.actor.loadAvailability': true,
  'xstate.done.actor.startReset': true,
  'xstate.error.actor.startReset': true,
  'xstate.done.actor.verifyEmail': true,
  'xstate.error.actor.verifyEmail': true,
  'xstate.done.actor.resendEmail': true,
  'xstate.error.actor.resendEmail': true,
  'xstate.done.actor.selectUser': true,
  'xstate.error.actor.selectUser': true,
  'xstate.done.actor.verifyAuthenticatorApp': true,
  'xstate.error.actor.verifyAuthenticatorApp': true,
  'xstate.done.actor.sendSms': true,
  'xstate.error.actor.sendSms': true,
  'xstate.done.actor.verifySms': true,
  'xstate.error.actor.verifySms': true,
  'xstate.done.actor.verifySecurityQuestions': true,
  'xstate.error.actor.verifySecurityQuestions': true,
  'xstate.done.actor.submitPassword': true,
  'xstate.error.actor.submitPassword': true,
} satisfies Record<PasswordResetModelEventType, true>);

function performer(m: MountedForcedPage) {
  return async (event: PasswordResetModelEvent) => {
    switch (event.type) {
      case 'user.start':
        await enter(m.user, input(/^Email/), event.email);
        await enter(m.user, input(/^Security code/), event.captchaCode);
        await m.user.click(screen.getByRole('button', { name: t.start.submit }));
        return;
      case 'user.refreshCaptcha': {
        const before = screen.getByRole('img', { name: t.start.captchaAlt }).getAttribute('src');
        await m.user.click(screen.getByRole('button', { name: t.start.refreshCaptcha }));
        await waitFor(() =>
          expect(screen.getByRole('img', { name: t.start.captchaAlt }).getAttribute('src')).not.toBe(before),
        );
        return;
      }
      case 'user.verify':
        await enter(m.user, codeField(), event.code);
        await m.user.click(screen.getByRole('button', { name: 'Verify' }));
        return;
      case 'user.resend':
        await m.user.click(resendLink());
        return;
      case 'user.select':
        await m.user.click(screen.getByRole('radio', { name: `${event.username} (Liam Walsh)` }));
        await m.user.click(screen.getByRole('button', { name: t.userSelection.submit }));
        return;
      case 'user.skip':
        await m.user.click(screen.getByRole('button', { name: t.skip }));
        return;
      case 'user.answer':
        for (const answer of event.answers) {
          const label = QUESTIONS.find((q) => q.code === answer.question)!.description;
          await enter(m.user, input(label), answer.answer);
        }
        await m.user.click(screen.getByRole('button', { name: t.securityQuestions.submit }));
        return;
      case 'user.submit':
        await enter(m.user, input(/^New password/), event.password);
        await enter(m.user, input(/^Confirm new password/), event.confirmPassword);
        await m.user.click(screen.getByRole('button', { name: t.setPassword.submit }));
        return;
      case 'route.changed':
        // An address the machine did not ask for (back button, typed address).
        await act(() => m.router.navigate(event.path));
        return;
      case 'xstate.done.actor.resendEmail':
      case 'xstate.done.actor.sendSms': {
        const resend =
          event.type === 'xstate.done.actor.resendEmail' ||
          (m.running() as unknown as PasswordResetSnapshot | null)?.matches({ sms: 'resending' }) === true;
        await act(() => m.api.answer(event));
        if (resend && event.output.type === 'sent')
          expect(
            await screen.findByText(t.resent(event.type === 'xstate.done.actor.sendSms' ? 'sms' : 'email')),
          ).toBeInTheDocument();
        return;
      }
      default:
        await act(() => m.api.answer(event));
    }
  };
}

export function definePasswordResetPaths(coverage: MachineCoverage): void {
  const paths = passwordResetPaths();

  describe(`password-reset: ${paths.length} generated paths against the mounted wizard`, () => {
    afterEach(() => notifications.clean());

    it('has a check for every state the user can see', () => {
      const checked = Object.keys(stateChecks({} as MountedForcedPage));
      expect([...checked, ...TRANSIENT].sort()).toEqual(leafStates(passwordResetMachine.root).sort());
    });

    it.each(paths.map((path) => [path.description, path] as const))(
      '%s',
      async (_, path) => {
        const m = mountPasswordReset({ inspect: coverage.inspect });
        await runPath(
          m,
          path as never,
          stateChecks(m),
          EVENT_TYPES,
          performer(m),
          projectPasswordResetContext as never,
        );
      },
      PATH_TIMEOUT_MS,
    );
  });
}
