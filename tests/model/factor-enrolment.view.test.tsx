// Hand-pinned behaviours of the factor-enrolment wizard that the generated paths do not explore:
// the 'Security enrolment' heading, the percentage with two decimals, section 5's validation of the
// mobile and the security questions, and axe on each step.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { factorEnrolmentMachine } from '../../machines/forced/factor-enrolment/factor-enrolment.machine';
import type { EnrolmentFacts } from '../../machines/forced/factor-enrolment/factor-enrolment.types';
import { FORCED_ACTION_ROUTES } from '../../machines/routes';
import { factorEnrolmentTexts as t } from '../../src/client/flows/forced/factor-enrolment/factor-enrolment.texts';
import { validateSecurityQuestions } from '../../src/client/flows/forced/factor-enrolment/SecurityQuestionsForm';
import { enrolmentFacts, SECURITY_QUESTIONS, users } from '../machines/continue-sign-in.fixtures';
import { axeViolations } from './harness/axe';
import { mountFactorEnrolment } from './harness/forced-pages';

const BASE = FORCED_ACTION_ROUTES.FACTOR_ENROLMENT;
const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const select = (label: RegExp) => screen.getByLabelText(label, { selector: 'select' });

async function openAt(entry: string, facts: EnrolmentFacts = enrolmentFacts.mfaRequired) {
  const m = mountFactorEnrolment({ machine: factorEnrolmentMachine, user: users.pending, entry });
  await act(() => m.api.answer({ type: 'xstate.done.actor.loadEnrolment', output: facts }));
  return m;
}

describe('factor-enrolment wizard', () => {
  afterEach(() => notifications.clean());

  it("says 'Multi-factor enrolment' when MFA is required and shows the progress with two decimals", async () => {
    await openAt(BASE);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Multi-factor enrolment' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('step-progress')).toHaveTextContent('25.00%');
    expect(screen.getByRole('progressbar', { name: t.progress })).toHaveAttribute('aria-valuenow', '25');
    expect(await axeViolations()).toEqual([]);
  });

  it("says 'Security enrolment' when MFA is not required", async () => {
    await openAt(BASE, enrolmentFacts.securityOnly);
    expect(await screen.findByRole('heading', { level: 1, name: 'Security enrolment' })).toBeInTheDocument();
  });

  it('requires a mobile of at most 20 characters before enrolling it', async () => {
    const m = await openAt(`${BASE}/select-sms-factor`);
    expect(await screen.findByTestId('step-progress')).toHaveTextContent('50.00%');
    await m.user.click(screen.getByRole('button', { name: t.selectSms.submit }));
    await waitFor(() =>
      expect(input(/^Mobile/)).toHaveAccessibleDescription(expect.stringContaining('Required field')),
    );
    await m.user.type(input(/^Mobile/), '+61 400 000 000 000 000');
    await m.user.click(screen.getByRole('button', { name: t.selectSms.submit }));
    await waitFor(() =>
      expect(input(/^Mobile/)).toHaveAccessibleDescription(
        expect.stringContaining('Size cannot be greater than 20'),
      ),
    );
    expect(m.api.calls.filter((c) => c.src === 'enrolSms')).toEqual([]);
    expect(await axeViolations()).toEqual([]);
  });

  it('validates the security questions by section 5', async () => {
    const values = { question1: 'DRIVERS_LICENCE', answer1: '', question2: 'MEDICARE', answer2: 'abc' };
    expect(validateSecurityQuestions(values)).toEqual({
      answer1: 'Required field',
      answer2: 'Size cannot be less than 4',
    });
    expect(
      validateSecurityQuestions({
        ...values,
        answer1: 'x'.repeat(51),
        answer2: 'abcd',
        question2: 'DRIVERS_LICENCE',
      }),
    ).toEqual({ answer1: 'Size cannot be greater than 50', question2: t.securityQuestions.sameQuestion });
    expect(validateSecurityQuestions({ ...values, answer1: 'abcd', answer2: 'efgh' })).toEqual({});

    const m = await openAt(`${BASE}/security-questions`);
    expect(await screen.findByTestId('step-progress')).toHaveTextContent('100.00%');
    expect(select(/^Question 1/)).toHaveValue('DRIVERS_LICENCE');
    expect(select(/^Question 2/)).toHaveValue('MEDICARE');
    expect([...select(/^Question 1/).querySelectorAll('option')].map((o) => o.textContent)).toEqual(
      SECURITY_QUESTIONS.map((q) => q.description),
    );
    await m.user.selectOptions(select(/^Question 2/), 'DRIVERS_LICENCE');
    await m.user.type(input(/^Answer 1/), 'abc');
    await m.user.click(screen.getByRole('button', { name: t.securityQuestions.submit }));
    await waitFor(() => expect(input(/^Answer 1/)).toHaveAccessibleDescription('Size cannot be less than 4'));
    expect(select(/^Question 2/)).toHaveAccessibleDescription(t.securityQuestions.sameQuestion);
    expect(input(/^Answer 1/)).toHaveFocus();
    expect(m.api.calls.filter((c) => c.src === 'submitEnrolment')).toEqual([]);
    expect(await axeViolations()).toEqual([]);
  });

  it('sends trimmed answers', async () => {
    const m = await openAt(`${BASE}/security-questions`);
    await m.user.type(await screen.findByLabelText(/^Answer 1/, { selector: 'input' }), '  DL 1234 ');
    await m.user.type(input(/^Answer 2/), ' 2123 4567 ');
    await m.user.click(screen.getByRole('button', { name: t.securityQuestions.submit }));
    expect((await m.api.waiting('submitEnrolment')).input).toEqual({
      question1: 'DRIVERS_LICENCE',
      answer1: 'DL 1234',
      question2: 'MEDICARE',
      answer2: '2123 4567',
    });
  });

  it('goes to security questions with the SMS-unavailable alert when the gateway is down', async () => {
    await openAt(`${BASE}/sms-verification`, enrolmentFacts.gatewayDown);
    expect(
      await screen.findByRole('heading', { level: 2, name: t.securityQuestions.title }),
    ).toBeInTheDocument();
    expect(screen.getByText(t.smsUnavailable)).toBeInTheDocument();
    expect(t.smsUnavailable).toBe(
      'SMS verification codes are currently unavailable. You may try to enrol mobile as a factor at a later date.',
    );
    expect(await axeViolations()).toEqual([]);
  });
});
