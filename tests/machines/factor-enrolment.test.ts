// Hand-pinned transitions of the factor-enrolment step (sections 2.6, 4.3, 5 and 8), with fakes.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { factorEnrolmentMachine } from '../../machines/forced/factor-enrolment/factor-enrolment.machine';
import {
  selectBusy,
  selectErrorMessage,
  selectFieldErrors,
  selectMfaRequired,
  selectMobile,
  selectProgress,
  selectQuestions,
  selectResendRefusal,
  selectResending,
  selectSmsUnavailableMessage,
  selectView,
} from '../../machines/forced/factor-enrolment/factor-enrolment.select';
import type {
  CodeChannel,
  CodeCheckResult,
  ContinueSignInOutput,
  EnrolmentFacts,
  EnrolSmsResult,
  OutcomeResult,
  ResendResult,
  SecurityQuestionsInput,
} from '../../machines/forced/factor-enrolment/factor-enrolment.types';
import type { ContinueSignInInput } from '../../machines/forced/continue-sign-in/continue-sign-in.types';
import {
  continuations,
  enrolmentFacts,
  MOBILE,
  noLanding,
  outcomes,
  resends,
  securityAnswers,
  SECURITY_QUESTIONS,
  SMS_UNAVAILABLE,
  WRONG_CODE,
} from './continue-sign-in.fixtures';

const BASE = '/forced-actions/factor-enrolment';
const GATEWAY_DOWN_CUSTOMER_MESSAGE = 'Our SMS provider is down. Please enrol your mobile later.';

interface Script {
  facts?: EnrolmentFacts | Error;
  verify?: CodeCheckResult[];
  resend?: ResendResult[];
  enrol?: EnrolSmsResult[];
  submit?: OutcomeResult[];
}

function start(path = BASE, script: Script = {}) {
  const queues = {
    verify: [...(script.verify ?? [])],
    resend: [...(script.resend ?? [])],
    enrol: [...(script.enrol ?? [])],
    submit: [...(script.submit ?? [])],
  };
  const calls = {
    verifies: [] as { channel: CodeChannel; code: string }[],
    resends: [] as CodeChannel[],
    announced: [] as CodeChannel[],
    enrolments: [] as string[],
    submissions: [] as SecurityQuestionsInput[],
    continuations: [] as ContinueSignInInput[],
  };
  const machine = factorEnrolmentMachine.provide({
    actors: {
      loadEnrolment: fromPromise<EnrolmentFacts>(async () => {
        if (script.facts instanceof Error) throw script.facts;
        return script.facts ?? enrolmentFacts.mfaRequired;
      }),
      verifyCode: fromPromise<CodeCheckResult, { channel: CodeChannel; code: string }>(async ({ input }) => {
        calls.verifies.push(input);
        return queues.verify.shift() ?? { type: 'verified' };
      }),
      resendCode: fromPromise<ResendResult, { channel: CodeChannel }>(async ({ input }) => {
        calls.resends.push(input.channel);
        return queues.resend.shift() ?? resends.sent;
      }),
      enrolSms: fromPromise<EnrolSmsResult, { mobile: string }>(async ({ input }) => {
        calls.enrolments.push(input.mobile);
        return queues.enrol.shift() ?? { type: 'enrolled', mobile: MOBILE };
      }),
      submitEnrolment: fromPromise<OutcomeResult, SecurityQuestionsInput>(async ({ input }) => {
        calls.submissions.push(input);
        return queues.submit.shift() ?? { type: 'outcome', outcome: outcomes.directLogin };
      }),
      continueSignIn: fromPromise<ContinueSignInOutput, ContinueSignInInput>(async ({ input }) => {
        calls.continuations.push(input);
        return continuations.signedIn;
      }) as never,
    },
    actions: { announceResent: (_, { channel }) => void calls.announced.push(channel) },
  });
  const actor = createActor(machine, { input: { path, ...noLanding } }).start();
  return { actor, calls };
}

type Actor = ReturnType<typeof start>['actor'];
type View = ReturnType<typeof selectView>;
const at = (actor: Actor, view: View) =>
  waitFor(actor, (s) => selectView(s) === view && !selectBusy(s) && !selectResending(s));

describe('factor-enrolment', () => {
  it('starts with email verification at 25 and the MFA heading facts', async () => {
    const { actor } = start();
    await at(actor, 'emailVerification');
    expect(selectProgress(actor.getSnapshot())).toBe(25);
    expect(selectMfaRequired(actor.getSnapshot())).toBe(true);
    expect(selectQuestions(actor.getSnapshot())).toEqual(SECURITY_QUESTIONS);
    expect(actor.getSnapshot().getMeta()['factorEnrolment.email']).toMatchObject({ route: '' });
  });

  it('says security enrolment when MFA is not required', async () => {
    const { actor } = start(BASE, { facts: enrolmentFacts.securityOnly });
    await at(actor, 'emailVerification');
    expect(selectMfaRequired(actor.getSnapshot())).toBe(false);
  });

  it('goes email -> SMS -> security questions -> continue sign-in, storing the returned mobile', async () => {
    const { actor, calls } = start();
    await at(actor, 'emailVerification');
    actor.send({ type: 'user.verify', code: '482913' });
    await at(actor, 'selectSms');
    expect(selectProgress(actor.getSnapshot())).toBe(50);
    actor.send({ type: 'user.enrolSms', mobile: '0400 000 003' });
    await at(actor, 'smsVerification');
    expect(selectMobile(actor.getSnapshot())).toBe(MOBILE);
    expect(selectProgress(actor.getSnapshot())).toBe(50);
    actor.send({ type: 'user.verify', code: '774411' });
    await at(actor, 'securityQuestions');
    expect(selectProgress(actor.getSnapshot())).toBe(100);
    expect(selectSmsUnavailableMessage(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'user.submit', ...securityAnswers });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(calls.verifies).toEqual([
      { channel: 'email', code: '482913' },
      { channel: 'sms', code: '774411' },
    ]);
    expect(calls.enrolments).toEqual(['0400 000 003']);
    expect(calls.submissions).toEqual([securityAnswers]);
    expect(calls.continuations).toEqual([{ outcome: outcomes.directLogin, ...noLanding }]);
    expect(done.output).toEqual(continuations.signedIn);
    expect(JSON.stringify(done.context)).not.toContain(securityAnswers.answer1);
  });

  it('choosing email goes straight to security questions without an alert', async () => {
    const { actor, calls } = start(`${BASE}/select-sms-factor`);
    await at(actor, 'selectSms');
    actor.send({ type: 'user.chooseEmail' });
    await at(actor, 'securityQuestions');
    expect(selectSmsUnavailableMessage(actor.getSnapshot())).toBeNull();
    expect(calls.enrolments).toEqual([]);
  });

  it('an SMS enrolment 503 goes to security questions with the customer message', async () => {
    const { actor } = start(`${BASE}/select-sms-factor`, {
      enrol: [{ type: 'unavailable', message: GATEWAY_DOWN_CUSTOMER_MESSAGE }],
    });
    await at(actor, 'selectSms');
    actor.send({ type: 'user.enrolSms', mobile: MOBILE });
    await at(actor, 'securityQuestions');
    expect(selectSmsUnavailableMessage(actor.getSnapshot())).toBe(GATEWAY_DOWN_CUSTOMER_MESSAGE);
  });

  it('shows a refused mobile (422) on its field', async () => {
    const { actor } = start(`${BASE}/select-sms-factor`, {
      enrol: [
        {
          type: 'refused',
          message: 'Invalid mobile.',
          fieldErrors: [{ fieldName: 'mobile', message: 'Enter a mobile number.' }],
        },
      ],
    });
    await at(actor, 'selectSms');
    actor.send({ type: 'user.enrolSms', mobile: '12' });
    await at(actor, 'selectSms');
    expect(selectFieldErrors(actor.getSnapshot())).toEqual({ mobile: 'Enter a mobile number.' });
  });

  it('skips the SMS steps when the gateway is down, after email and on their addresses', async () => {
    const afterEmail = start(BASE, { facts: enrolmentFacts.gatewayDown });
    await at(afterEmail.actor, 'emailVerification');
    afterEmail.actor.send({ type: 'user.verify', code: '482913' });
    await at(afterEmail.actor, 'securityQuestions');
    expect(selectSmsUnavailableMessage(afterEmail.actor.getSnapshot())).toBe(SMS_UNAVAILABLE);
    for (const step of ['select-sms-factor', 'sms-verification']) {
      const direct = start(`${BASE}/${step}`, { facts: enrolmentFacts.gatewayDown });
      await at(direct.actor, 'securityQuestions');
      expect(selectSmsUnavailableMessage(direct.actor.getSnapshot())).toBe(SMS_UNAVAILABLE);
    }
  });

  it('resumes at the address: security questions, and SMS verification without a mobile at its selection', async () => {
    const questions = start(`${BASE}/security-questions`);
    await at(questions.actor, 'securityQuestions');
    const sms = start(`${BASE}/sms-verification`);
    await at(sms.actor, 'selectSms');
    const unknown = start(`${BASE}/elsewhere`);
    await at(unknown.actor, 'emailVerification');
  });

  it('shows a wrong code (422) and clears it on the next try', async () => {
    const { actor } = start(BASE, { verify: [WRONG_CODE] });
    await at(actor, 'emailVerification');
    actor.send({ type: 'user.verify', code: '000000' });
    await at(actor, 'emailVerification');
    expect(selectFieldErrors(actor.getSnapshot())).toEqual({ code: WRONG_CODE.message });
    actor.send({ type: 'user.verify', code: '482913' });
    expect(selectFieldErrors(actor.getSnapshot())).toEqual({});
  });

  it('resends: success announced, 422 in red, SMS 503 falls back to security questions', async () => {
    const { actor, calls } = start(BASE, {
      resend: [resends.sent, resends.refused, resends.sent, resends.unavailable],
    });
    await at(actor, 'emailVerification');
    actor.send({ type: 'user.resend' });
    await at(actor, 'emailVerification');
    expect(calls.announced).toEqual(['email']);
    actor.send({ type: 'user.resend' });
    await at(actor, 'emailVerification');
    expect(selectResendRefusal(actor.getSnapshot())).toBe(resends.refused.message);
    actor.send({ type: 'user.verify', code: '482913' });
    await at(actor, 'selectSms');
    expect(selectResendRefusal(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'user.enrolSms', mobile: MOBILE });
    await at(actor, 'smsVerification');
    actor.send({ type: 'user.resend' });
    await at(actor, 'smsVerification');
    expect(calls.announced).toEqual(['email', 'sms']);
    actor.send({ type: 'user.resend' });
    await at(actor, 'securityQuestions');
    expect(selectSmsUnavailableMessage(actor.getSnapshot())).toBe(SMS_UNAVAILABLE);
    expect(calls.resends).toEqual(['email', 'email', 'sms', 'sms']);
  });

  it('goes back from SMS verification to change the number, and only there', async () => {
    const { actor } = start(`${BASE}/select-sms-factor`);
    await at(actor, 'selectSms');
    actor.send({ type: 'user.enrolSms', mobile: MOBILE });
    await at(actor, 'smsVerification');
    actor.send({ type: 'route.changed', path: BASE });
    expect(selectView(actor.getSnapshot())).toBe('smsVerification');
    actor.send({ type: 'route.changed', path: `${BASE}/select-sms-factor` });
    expect(selectView(actor.getSnapshot())).toBe('selectSms');
  });

  it('shows refused answers (422) on their fields', async () => {
    const { actor } = start(`${BASE}/security-questions`, {
      submit: [
        {
          type: 'refused',
          message: 'Check your answers.',
          fieldErrors: [{ fieldName: 'answer2', message: 'Size cannot be less than 4' }],
        },
      ],
    });
    await at(actor, 'securityQuestions');
    actor.send({ type: 'user.submit', ...securityAnswers });
    await at(actor, 'securityQuestions');
    expect(selectFieldErrors(actor.getSnapshot())).toEqual({ answer2: 'Size cannot be less than 4' });
  });

  it('fails when the wizard cannot load', async () => {
    const { actor } = start(BASE, { facts: new Error('offline') });
    await at(actor, 'failed');
    expect(selectErrorMessage(actor.getSnapshot())).toBe('offline');
  });
});
