// Generated factor-enrolment paths executed against the mounted wizard: Testing Library enters
// codes, the mobile and the security answers as a user would, the scripted fake API answers as each
// step says, and each state is checked by what the user sees: heading, progress, the step's address
// and form, refusals, the SMS-unavailable alert, and where the page went at the end.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { factorEnrolmentMachine } from '../../machines/forced/factor-enrolment/factor-enrolment.machine';
import type { FactorEnrolmentOutput } from '../../machines/forced/factor-enrolment/factor-enrolment.types';
import { FACTOR_ENROLMENT_STEPS } from '../../machines/routes';
import { factorEnrolmentTexts as t } from '../../src/client/flows/forced/factor-enrolment/factor-enrolment.texts';
import { securityAnswers, users } from '../machines/continue-sign-in.fixtures';
import {
  factorEnrolmentPaths,
  projectFactorEnrolmentContext,
  stepPath,
  TYPED_MOBILE,
  type FactorEnrolmentModelEvent,
  type FactorEnrolmentModelEventType,
  type FactorEnrolmentSnapshot,
} from './factor-enrolment.model';
import type { MachineCoverage } from './harness/coverage';
import { expectLanded, expectStatus, leafStates, runPath } from './harness/forced-checks';
import { mountFactorEnrolment, type MountedForcedPage } from './harness/forced-pages';
import { enter } from './harness/user';

type S = FactorEnrolmentSnapshot;
const PATH_TIMEOUT_MS = 30_000;
const TRANSIENT = ['resuming'];

const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const select = (label: RegExp) => screen.getByLabelText(label, { selector: 'select' });
const resendLink = () => screen.getByRole('button', { name: t.resendCode });

/** Heading, progress, the step's title and address: what every step shows. */
async function expectStep(m: MountedForcedPage, s: S, title: string, step: string, progress: number) {
  const heading = s.context.mfaRequired ? t.headingMfa : t.headingSecurity;
  expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
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
    const button = screen.getByRole('button', { name });
    if (busy) expect(button).toHaveAttribute('data-loading', 'true');
    else expect(button).not.toHaveAttribute('data-loading');
  });
}

async function expectCodeScreen(
  s: S,
  submit: string,
  { busy, resending = false }: { busy: boolean; resending?: boolean },
) {
  expect(input(/^Verification code/)).toBeInTheDocument();
  await expectBusy(submit, busy);
  if (s.context.resendRefusal !== null) {
    expect(resendLink()).toBeDisabled();
    expect(screen.getByText(s.context.resendRefusal)).toHaveAttribute('role', 'alert');
  } else if (resending) {
    expect(resendLink()).toBeDisabled();
  } else {
    await waitFor(() => expect(resendLink()).toBeEnabled());
  }
  if (s.context.refusal) {
    const message = s.context.refusal.fieldErrors.find((e) => e.fieldName === 'code')?.message ?? '';
    await waitFor(() => expect(input(/^Verification code/)).toHaveAttribute('aria-invalid', 'true'));
    expect(input(/^Verification code/)).toHaveAccessibleDescription(message);
  }
}

function stateChecks(m: MountedForcedPage): Record<string, (s: S) => Promise<void>> {
  const email = async (s: S, busy: boolean, resending = false) => {
    await expectStep(m, s, t.email.title, FACTOR_ENROLMENT_STEPS.EMAIL_VERIFICATION, 25);
    expect(screen.getByText(t.email.instructions)).toBeInTheDocument();
    await expectCodeScreen(s, t.email.submit, { busy, resending });
  };
  const selectSms = async (s: S, busy: boolean) => {
    await expectStep(m, s, t.selectSms.title, FACTOR_ENROLMENT_STEPS.SELECT_SMS_FACTOR, 50);
    expect(input(/^Mobile/)).toHaveAccessibleDescription(expect.stringContaining(t.selectSms.mobileHint));
    expect(screen.getByRole('button', { name: t.selectSms.chooseEmail })).toBeInTheDocument();
    await expectBusy(t.selectSms.submit, busy);
    if (s.context.refusal) {
      expect(screen.getByRole('alert')).toHaveTextContent(s.context.refusal.message);
      const message = s.context.refusal.fieldErrors.find((e) => e.fieldName === 'mobile')?.message ?? '';
      await waitFor(() =>
        expect(input(/^Mobile/)).toHaveAccessibleDescription(expect.stringContaining(message)),
      );
    }
  };
  const smsVerification = async (s: S, busy: boolean, resending = false) => {
    await expectStep(m, s, t.smsVerification.title, FACTOR_ENROLMENT_STEPS.SMS_VERIFICATION, 50);
    expect(screen.getByText(t.smsVerification.instructions(s.context.mobile))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t.smsVerification.changeMobile })).toHaveAttribute(
      'href',
      stepPath(FACTOR_ENROLMENT_STEPS.SELECT_SMS_FACTOR),
    );
    await expectCodeScreen(s, t.smsVerification.submit, { busy, resending });
  };
  const securityQuestions = async (s: S, busy: boolean) => {
    await expectStep(m, s, t.securityQuestions.title, FACTOR_ENROLMENT_STEPS.SECURITY_QUESTIONS, 100);
    expect(select(/^Question 1/)).toHaveValue('DRIVERS_LICENCE');
    expect(select(/^Question 2/)).toHaveValue('MEDICARE');
    expect(input(/^Answer 1/)).toBeInTheDocument();
    expect(input(/^Answer 2/)).toBeInTheDocument();
    await expectBusy(t.securityQuestions.submit, busy);
    if (s.context.smsUnavailableMessage) {
      expect(screen.getByText(s.context.smsUnavailableMessage)).toBeInTheDocument();
      expect(screen.getByText(t.smsUnavailableTitle)).toBeInTheDocument();
    } else {
      expect(screen.queryByText(t.smsUnavailableTitle)).toBeNull();
    }
    if (s.context.refusal) {
      expect(screen.getByText(s.context.refusal.message)).toBeInTheDocument();
      await waitFor(() => expect(input(/^Answer 2/)).toHaveAttribute('aria-invalid', 'true'));
    }
  };
  return {
    loading: async () => {
      await expectStatus(t.loading);
      await m.api.waiting('loadEnrolment');
    },
    'email.form': (s) => email(s, false),
    'email.verifying': async (s) => {
      await email(s, true);
      expect((await m.api.waiting('verifyCode')).input).toEqual({ channel: 'email', code: '482913' });
    },
    'email.resending': async (s) => {
      await expectStatus(t.resending);
      await email(s, false, true);
      expect((await m.api.waiting('resendCode')).input).toEqual({ channel: 'email' });
    },
    'selectSms.form': (s) => selectSms(s, false),
    'selectSms.enrolling': async (s) => {
      await selectSms(s, true);
      expect((await m.api.waiting('enrolSms')).input).toEqual({ mobile: TYPED_MOBILE });
    },
    'smsVerification.form': (s) => smsVerification(s, false),
    'smsVerification.verifying': async (s) => {
      await smsVerification(s, true);
      expect((await m.api.waiting('verifyCode')).input).toEqual({ channel: 'sms', code: '774411' });
    },
    'smsVerification.resending': async (s) => {
      await expectStatus(t.resending);
      await smsVerification(s, false, true);
      expect((await m.api.waiting('resendCode')).input).toEqual({ channel: 'sms' });
    },
    'securityQuestions.form': (s) => securityQuestions(s, false),
    'securityQuestions.submitting': async (s) => {
      await securityQuestions(s, true);
      expect((await m.api.waiting('submitEnrolment')).input).toEqual(securityAnswers);
      expect(JSON.stringify(s.context)).not.toContain(securityAnswers.answer1);
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
    done: (s) => expectLanded(m, s.output as FactorEnrolmentOutput),
  };
}

const EVENT_TYPES = Object.keys({
  'user.verify': true,
  'user.resend': true,
  'user.enrolSms': true,
  'user.chooseEmail': true,
  'user.submit': true,
  'route.changed': true,
  'xstate.done.actor.loadEnrolment': true,
  'xstate.error.actor.loadEnrolment': true,
  'xstate.done.actor.verifyCode': true,
  'xstate.error.actor.verifyCode': true,
  'xstate.done.actor.resendCode': true,
  'xstate.error.actor.resendCode': true,
  'xstate.done.actor.enrolSms': true,
  'xstate.error.actor.enrolSms': true,
  'xstate.done.actor.submitEnrolment': true,
  'xstate.error.actor.submitEnrolment': true,
  'xstate.done.actor.continueSignIn': true,
  'xstate.error.actor.continueSignIn': true,
} satisfies Record<FactorEnrolmentModelEventType, true>);

function performer(m: MountedForcedPage) {
  return async (event: FactorEnrolmentModelEvent) => {
    switch (event.type) {
      case 'user.verify':
        await enter(m.user, input(/^Verification code/), event.code);
        await m.user.click(screen.getByRole('button', { name: t.email.submit }));
        await waitFor(() => expect(m.api.lastCall('verifyCode')?.input).toMatchObject({ code: event.code }));
        return;
      case 'user.resend':
        await m.user.click(resendLink());
        return;
      case 'user.enrolSms':
        await enter(m.user, input(/^Mobile/), event.mobile);
        await m.user.click(screen.getByRole('button', { name: t.selectSms.submit }));
        return;
      case 'user.chooseEmail':
        await m.user.click(screen.getByRole('button', { name: t.selectSms.chooseEmail }));
        return;
      case 'user.submit':
        await m.user.selectOptions(select(/^Question 1/), event.question1);
        await m.user.selectOptions(select(/^Question 2/), event.question2);
        await enter(m.user, input(/^Answer 1/), event.answer1);
        await enter(m.user, input(/^Answer 2/), event.answer2);
        await m.user.click(screen.getByRole('button', { name: t.securityQuestions.submit }));
        return;
      case 'route.changed':
        // The 'Change mobile number' link: an address the machine did not ask for.
        await m.user.click(screen.getByRole('link', { name: t.smsVerification.changeMobile }));
        return;
      case 'xstate.done.actor.resendCode': {
        const channel = (m.api.lastCall('resendCode')?.input as { channel: 'sms' | 'email' }).channel;
        await act(() => m.api.answer(event));
        if (event.output.type === 'sent')
          expect(await screen.findByText(t.resent(channel))).toBeInTheDocument();
        return;
      }
      default:
        await act(() => m.api.answer(event));
    }
  };
}

export function defineFactorEnrolmentPaths(coverage: MachineCoverage): void {
  const paths = factorEnrolmentPaths();

  describe(`forced/factor-enrolment: ${paths.length} generated paths against the mounted wizard`, () => {
    afterEach(() => notifications.clean());

    it('has a check for every state the user can see', () => {
      const checked = Object.keys(stateChecks({} as MountedForcedPage));
      expect([...checked, ...TRANSIENT].sort()).toEqual(leafStates(factorEnrolmentMachine.root).sort());
    });

    it.each(
      paths.map(({ scenario, path }) => [`${scenario.name}: ${path.description}`, scenario, path] as const),
    )(
      '%s',
      async (_, scenario, path) => {
        const m = mountFactorEnrolment({
          machine: factorEnrolmentMachine,
          user: users.pending,
          entry: scenario.input.path,
          inspect: coverage.inspect,
        });
        await runPath(
          m,
          path as never,
          stateChecks(m),
          EVENT_TYPES,
          performer(m),
          projectFactorEnrolmentContext as never,
        );
      },
      PATH_TIMEOUT_MS,
    );
  });
}
