// Generated registration paths executed against the mounted wizard: Testing Library fills the
// start form, details, codes, mobile, questions and passwords as a user would, the scripted fake
// API answers as each step says, and each state is checked by what the user sees: heading, progress,
// the step's address and form, refusals, the SMS-unavailable alert, and where the page went at the end.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { registrationMachine } from '../../machines/registration/registration.machine';
import type { RegistrationOutput } from '../../machines/registration/registration.types';
import { REGISTRATION_ROUTE, REGISTRATION_STEPS } from '../../machines/routes';
import { ANONYMOUS_USER } from '../../src/contract/entities';
import { factorEnrolmentTexts as fe } from '../../src/client/flows/forced/factor-enrolment/factor-enrolment.texts';
import { registrationTexts as t } from '../../src/client/flows/registration/registration.texts';
import RegistrationPage from '../../src/client/flows/registration/RegistrationPage';
import { securityAnswers } from '../machines/continue-sign-in.fixtures';
import { authenticatorSetup, newInvite, typedStart } from '../machines/registration.fixtures';
import type { MachineCoverage } from './harness/coverage';
import { expectLanded, expectStatus, leafStates, runPath } from './harness/forced-checks';
import { mountForcedPage, type MountedForcedPage } from './harness/forced-pages';
import {
  APP_CODE,
  existingAccount,
  projectRegistrationContext,
  registrationPaths,
  SMS_CODE,
  stepPath,
  TYPED_MOBILE,
  type RegistrationModelEvent,
  type RegistrationModelEventType,
  type RegistrationSnapshot,
} from './registration.model';
import { enter } from './harness/user';

type S = RegistrationSnapshot;
const PATH_TIMEOUT_MS = 30_000;

export const REGISTRATION_SOURCES = [
  'prepareRegistration',
  'startRegistration',
  'collectDetails',
  'loadAuthenticatorSetup',
  'verifyCode',
  'enrolEmail',
  'enrolSms',
  'resendCode',
  'enrolSecurityQuestions',
  'submitNew',
  'submitExisting',
  'continueSignIn',
] as const;

const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const select = (label: RegExp) => screen.getByLabelText(label, { selector: 'select' });
const button = (name: string) => screen.getByRole('button', { name });

async function expectStep(m: MountedForcedPage, title: string, step: string, progress: number) {
  expect(await screen.findByRole('heading', { level: 1, name: t.heading })).toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 2, name: title })).toBeInTheDocument();
  expect(screen.getByRole('progressbar', { name: t.progress })).toHaveAttribute(
    'aria-valuenow',
    String(progress),
  );
  expect(screen.getByTestId('step-progress')).toHaveTextContent(t.percent(progress));
  await waitFor(() => expect(m.router.state.location.pathname).toBe(stepPath(step)));
}

async function expectBusy(name: string, busy: boolean) {
  await waitFor(() => {
    const found = button(name);
    if (busy) expect(found).toHaveAttribute('data-loading', 'true');
    else expect(found).not.toHaveAttribute('data-loading');
  });
}

async function expectRefusal(s: S, field?: RegExp) {
  if (!s.context.refusal) return;
  expect(await screen.findByRole('alert')).toHaveTextContent(s.context.refusal.message);
  if (field) await waitFor(() => expect(input(field)).toHaveAttribute('aria-invalid', 'true'));
}

function stateChecks(m: MountedForcedPage): Record<string, (s: S) => Promise<void>> {
  const start = async (s: S, busy: boolean) => {
    await expectStep(m, t.start.title, REGISTRATION_STEPS.START, 10);
    expect(screen.getByRole('img', { name: t.start.captchaAlt })).toHaveAttribute(
      'src',
      expect.stringMatching(/^\/captcha\.jpg\?\d+$/),
    );
    expect(input(/^Email/)).toBeInTheDocument();
    expect(input(/^Invitation code/)).toBeInTheDocument();
    expect(input(/^Security code/)).toBeInTheDocument();
    await expectBusy(t.start.submit, busy);
    await expectRefusal(s);
  };
  const details = async (s: S, busy: boolean) => {
    await expectStep(m, t.details.title, REGISTRATION_STEPS.COLLECT_DETAILS, 20);
    expect(screen.getByRole('group', { name: t.invitation.title })).toHaveTextContent(newInvite.productName);
    expect(input(/^Username/)).toHaveAccessibleDescription(expect.stringContaining(t.details.customerHint));
    expect(input(/^Full name/)).toHaveAttribute('readonly');
    expect(input(/^Full name/)).toHaveValue(newInvite.name);
    await expectBusy(t.details.submit, busy);
    await expectRefusal(s, /^Username/);
  };
  const factorChoice = async (busy: boolean) => {
    await expectStep(m, t.authenticator.title, REGISTRATION_STEPS.SELECT_AUTHENTICATOR_APP_FACTOR, 40);
    expect(screen.getByRole('img', { name: t.authenticator.qrAlt })).toHaveAttribute(
      'src',
      authenticatorSetup.qrCode,
    );
    expect(screen.getByTestId('setup-key')).toHaveTextContent(authenticatorSetup.setupKey);
    await expectBusy(t.authenticator.chooseEmail, busy);
  };
  const appCode = async (s: S, busy: boolean) => {
    await expectStep(
      m,
      t.authenticatorVerification.title,
      REGISTRATION_STEPS.AUTHENTICATOR_APP_VERIFICATION,
      40,
    );
    expect(input(/^Verification code/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t.authenticatorVerification.back })).toHaveAttribute(
      'href',
      stepPath(REGISTRATION_STEPS.SELECT_AUTHENTICATOR_APP_FACTOR),
    );
    await expectBusy(t.authenticatorVerification.submit, busy);
    if (s.context.refusal)
      await waitFor(() => expect(input(/^Verification code/)).toHaveAttribute('aria-invalid', 'true'));
  };
  const selectSms = async (s: S, busy: boolean) => {
    await expectStep(m, fe.selectSms.title, REGISTRATION_STEPS.SELECT_SMS_FACTOR, 60);
    expect(input(/^Mobile/)).toBeInTheDocument();
    await expectBusy(fe.selectSms.submit, busy);
    await expectRefusal(s);
  };
  const smsCode = async (s: S, busy: boolean, resending = false) => {
    await expectStep(m, fe.smsVerification.title, REGISTRATION_STEPS.SMS_VERIFICATION, 60);
    expect(screen.getByText(fe.smsVerification.instructions(s.context.mobile))).toBeInTheDocument();
    await expectBusy(fe.smsVerification.submit, busy);
    const resend = button(t.resendCode);
    if (s.context.resendRefusal !== null) {
      expect(resend).toBeDisabled();
      expect(screen.getByText(s.context.resendRefusal)).toHaveAttribute('role', 'alert');
    } else if (resending) expect(resend).toBeDisabled();
    else await waitFor(() => expect(resend).toBeEnabled());
    if (s.context.refusal)
      await waitFor(() => expect(input(/^Verification code/)).toHaveAttribute('aria-invalid', 'true'));
  };
  const questions = async (s: S, busy: boolean) => {
    await expectStep(m, t.securityQuestions.title, REGISTRATION_STEPS.SECURITY_QUESTIONS, 80);
    expect(select(/^Question 1/)).toHaveValue('DRIVERS_LICENCE');
    expect(select(/^Question 2/)).toHaveValue('MEDICARE');
    await expectBusy(t.securityQuestions.submitLabel, busy);
    expect(screen.queryByRole('button', { name: fe.securityQuestions.submit })).toBeNull();
    if (s.context.smsUnavailableMessage) {
      expect(screen.getByText(s.context.smsUnavailableMessage)).toBeInTheDocument();
      expect(screen.getByText(t.smsUnavailableTitle)).toBeInTheDocument();
    } else expect(screen.queryByText(t.smsUnavailableTitle)).toBeNull();
    if (s.context.refusal) expect(screen.getAllByText(s.context.refusal.message).length).toBeGreaterThan(0);
  };
  const password = async (s: S, busy: boolean) => {
    await expectStep(m, t.setPassword.title, REGISTRATION_STEPS.SET_PASSWORD, 100);
    expect(input(/^Password/)).toHaveAccessibleDescription(expect.stringContaining(t.setPassword.hint));
    expect(input(/^Confirm password/)).toBeInTheDocument();
    await expectBusy(t.setPassword.submit, busy);
    // The message is on the alert and on the password field.
    await expectRefusal(s);
    if (s.context.refusal)
      await waitFor(() => expect(screen.getAllByText(s.context.refusal!.message)).toHaveLength(2));
  };
  const existing = async (s: S, busy: boolean) => {
    await expectStep(m, t.verifyIdentity.title, REGISTRATION_STEPS.VERIFY_IDENTITY, 100);
    expect(screen.getByText(t.verifyIdentity.instructions)).toBeInTheDocument();
    await expectBusy(t.verifyIdentity.submit, busy);
    if (s.context.refusal) {
      expect(screen.getByRole('alert')).toHaveTextContent(s.context.refusal.message);
      expect(screen.getByRole('alert')).toHaveTextContent(t.verifyIdentity.help);
    } else expect(screen.queryByText(t.verifyIdentity.help)).toBeNull();
  };
  return {
    'start.preparing': async () => {
      await expectStatus(t.preparing);
      await m.api.waiting('prepareRegistration');
    },
    'start.form': (s) => start(s, false),
    'start.starting': async (s) => {
      await start(s, true);
      expect((await m.api.waiting('startRegistration')).input).toEqual(typedStart);
    },
    'collectDetails.form': (s) => details(s, false),
    'collectDetails.submitting': async (s) => {
      await details(s, true);
      expect((await m.api.waiting('collectDetails')).input).toEqual({ username: 'C10009' });
    },
    'selectAuthenticatorApp.loading': async () => {
      await expectStatus(t.preparing);
      await m.api.waiting('loadAuthenticatorSetup');
    },
    'selectAuthenticatorApp.form': () => factorChoice(false),
    'selectAuthenticatorApp.enrollingEmail': async () => {
      await factorChoice(true);
      await m.api.waiting('enrolEmail');
    },
    'authenticatorAppVerification.form': (s) => appCode(s, false),
    'authenticatorAppVerification.verifying': async (s) => {
      await appCode(s, true);
      expect((await m.api.waiting('verifyCode')).input).toEqual({
        channel: 'authenticator-app',
        code: APP_CODE,
      });
    },
    'selectSms.form': (s) => selectSms(s, false),
    'selectSms.enrolling': async (s) => {
      await selectSms(s, true);
      expect((await m.api.waiting('enrolSms')).input).toEqual({ mobile: TYPED_MOBILE });
    },
    'smsVerification.form': (s) => smsCode(s, false),
    'smsVerification.verifying': async (s) => {
      await smsCode(s, true);
      expect((await m.api.waiting('verifyCode')).input).toEqual({ channel: 'sms', code: SMS_CODE });
    },
    'smsVerification.resending': async (s) => {
      await expectStatus(t.resending);
      await smsCode(s, false, true);
      await m.api.waiting('resendCode');
    },
    'securityQuestions.form': (s) => questions(s, false),
    'securityQuestions.submitting': async (s) => {
      await questions(s, true);
      expect((await m.api.waiting('enrolSecurityQuestions')).input).toEqual(securityAnswers);
    },
    'setPassword.form': (s) => password(s, false),
    'setPassword.submitting': async (s) => {
      await password(s, true);
      await m.api.waiting('submitNew');
      expect(JSON.stringify(s.context)).not.toContain('Quiet-Harbour');
    },
    'verifyIdentity.form': (s) => existing(s, false),
    'verifyIdentity.submitting': async (s) => {
      await existing(s, true);
      expect((await m.api.waiting('submitExisting')).input).toEqual(existingAccount);
    },
    continuing: async (s) => {
      await expectStatus(t.signingIn);
      const call = await m.api.waiting('continueSignIn');
      expect(call.input).toEqual({ outcome: s.context.outcome, targetPath: null, adminTargetPath: null });
    },
    failed: async (s) => {
      expect(await screen.findByRole('heading', { level: 1, name: t.failedHeading })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(s.context.errorMessage ?? '');
    },
    cancelled: (s) => expectLanded(m, s.output as RegistrationOutput),
    done: (s) => expectLanded(m, s.output as RegistrationOutput),
  };
}

const EVENT_TYPES = Object.keys({
  'user.start': true,
  'user.refreshCaptcha': true,
  'user.submitDetails': true,
  'user.scanned': true,
  'user.chooseSms': true,
  'user.chooseEmail': true,
  'user.verify': true,
  'user.enrolSms': true,
  'user.resend': true,
  'user.submitQuestions': true,
  'user.submitPassword': true,
  'user.submitExisting': true,
  'user.cancel': true,
  'route.changed': true,
  'xstate.done.actor.prepareRegistration': true,
  'xstate.error.actor.prepareRegistration': true,
  'xstate.done.actor.startRegistration': true,
  'xstate.error.actor.startRegistration': true,
  'xstate.done.actor.collectDetails': true,
  'xstate.error.actor.collectDetails': true,
  'xstate.done.actor.loadAuthenticatorSetup': true,
  'xstate.error.actor.loadAuthenticatorSetup': true,
  'xstate.done.actor.verifyCode': true,
  'xstate.error.actor.verifyCode': true,
  'xstate.done.actor.enrolEmail': true,
  'xstate.error.actor.enrolEmail': true,
  'xstate.done.actor.enrolSms': true,
  'xstate.error.actor.enrolSms': true,
  'xstate.done.actor.resendCode': true,
  'xstate.error.actor.resendCode': true,
  'xstate.done.actor.enrolSecurityQuestions': true,
  'xstate.error.actor.enrolSecurityQuestions': true,
  'xstate.done.actor.submitNew': true,
  'xstate.error.actor.submitNew': true,
  'xstate.done.actor.submitExisting': true,
  'xstate.error.actor.submitExisting': true,
  'xstate.done.actor.continueSignIn': true,
  'xstate.error.actor.continueSignIn': true,
} satisfies Record<RegistrationModelEventType, true>);

async function fill(m: MountedForcedPage, label: RegExp, value: string) {
  await enter(m.user, input(label), value);
}

function performer(m: MountedForcedPage) {
  return async (event: RegistrationModelEvent) => {
    switch (event.type) {
      case 'user.start':
        await fill(m, /^Email/, event.email);
        await fill(m, /^Invitation code/, event.inviteCode);
        await fill(m, /^Security code/, event.captchaCode);
        await m.user.click(button(t.start.submit));
        return;
      case 'user.refreshCaptcha': {
        const before = screen.getByRole('img', { name: t.start.captchaAlt }).getAttribute('src');
        await m.user.click(button(t.start.refreshCaptcha));
        await waitFor(() =>
          expect(screen.getByRole('img', { name: t.start.captchaAlt }).getAttribute('src')).not.toBe(before),
        );
        return;
      }
      case 'user.submitDetails':
        await fill(m, /^Username/, event.username ?? '');
        await m.user.click(button(t.details.submit));
        return;
      case 'user.scanned':
        await m.user.click(button(t.authenticator.scanned));
        return;
      case 'user.chooseSms':
        await m.user.click(button(t.authenticator.chooseSms));
        return;
      case 'user.chooseEmail':
        await m.user.click(
          screen.queryByRole('button', { name: t.authenticator.chooseEmail }) ??
            button(fe.selectSms.chooseEmail),
        );
        return;
      case 'user.verify':
        await fill(m, /^Verification code/, event.code);
        await m.user.click(
          screen.queryByRole('button', { name: t.authenticatorVerification.submit }) ??
            button(fe.smsVerification.submit),
        );
        await waitFor(() => expect(m.api.lastCall('verifyCode')?.input).toMatchObject({ code: event.code }));
        return;
      case 'user.enrolSms':
        await fill(m, /^Mobile/, event.mobile);
        await m.user.click(button(fe.selectSms.submit));
        return;
      case 'user.resend':
        await m.user.click(button(t.resendCode));
        return;
      case 'user.submitQuestions':
        await m.user.selectOptions(select(/^Question 1/), event.question1);
        await m.user.selectOptions(select(/^Question 2/), event.question2);
        await fill(m, /^Answer 1/, event.answer1);
        await fill(m, /^Answer 2/, event.answer2);
        await m.user.click(button(t.securityQuestions.submitLabel));
        return;
      case 'user.submitPassword':
        await fill(m, /^Password/, event.password);
        await fill(m, /^Confirm password/, event.confirmPassword);
        await m.user.click(button(t.setPassword.submit));
        return;
      case 'user.submitExisting':
        await fill(m, /^Username/, event.username);
        await fill(m, /^Password/, event.password);
        await m.user.click(button(t.verifyIdentity.submit));
        return;
      case 'user.cancel':
        await m.user.click(screen.queryByRole('button', { name: t.cancel }) ?? button(t.backToSignIn));
        return;
      case 'route.changed':
        if (event.path === REGISTRATION_ROUTE) {
          // Typed into the address bar.
          await act(() => m.router.navigate(REGISTRATION_ROUTE));
          return;
        }
        await m.user.click(
          screen.queryByRole('link', { name: t.authenticatorVerification.back }) ??
            screen.getByRole('link', { name: fe.smsVerification.changeMobile }),
        );
        return;
      case 'xstate.done.actor.resendCode':
        await act(() => m.api.answer(event));
        if (event.output.type === 'sent')
          expect(await screen.findByText(t.resent('sms'))).toBeInTheDocument();
        return;
      default:
        await act(() => m.api.answer(event));
    }
  };
}

export function defineRegistrationPaths(coverage: MachineCoverage): void {
  const paths = registrationPaths();

  describe(`registration: ${paths.length} generated paths against the mounted wizard`, () => {
    afterEach(() => notifications.clean());

    it('has a check for every state the user can see', () => {
      const checked = Object.keys(stateChecks({} as MountedForcedPage));
      expect(checked.sort()).toEqual(leafStates(registrationMachine.root).sort());
    });

    it('a later step without the invite lands on the start', async () => {
      const m = mountForcedPage({
        machine: registrationMachine,
        sources: REGISTRATION_SOURCES,
        route: `${REGISTRATION_ROUTE}/*`,
        entry: stepPath(REGISTRATION_STEPS.VERIFY_IDENTITY),
        page: <RegistrationPage />,
        user: ANONYMOUS_USER,
        inspect: coverage.inspect,
      });
      await waitFor(() => expect(m.router.state.location.pathname).toBe(REGISTRATION_ROUTE));
      expect(await screen.findByRole('heading', { level: 1, name: t.heading })).toBeInTheDocument();
    });

    it.each(paths.map((path) => [path.description, path] as const))(
      '%s',
      async (_, path) => {
        const m = mountForcedPage({
          machine: registrationMachine,
          sources: REGISTRATION_SOURCES,
          route: `${REGISTRATION_ROUTE}/*`,
          entry: REGISTRATION_ROUTE,
          page: <RegistrationPage />,
          user: ANONYMOUS_USER,
          inspect: coverage.inspect,
        });
        await runPath(
          m,
          path as never,
          stateChecks(m),
          EVENT_TYPES,
          performer(m),
          projectRegistrationContext as never,
        );
      },
      PATH_TIMEOUT_MS,
    );
  });
}
