// Hand-pinned transitions of the registration wizard (sections 2.5, 4.6, 5 and 8), with fakes.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { registrationMachine } from '../../machines/registration/registration.machine';
import {
  selectCaptchaDraw,
  selectEditable,
  selectProgress,
  selectSmsUnavailableMessage,
  selectView,
} from '../../machines/registration/registration.select';
import type {
  AuthenticatorSetup,
  CodeCheckResult,
  ContinueSignInOutput,
  DetailsInput,
  EnrolSmsResult,
  ExistingAccountInput,
  InviteResult,
  OutcomeResult,
  PasswordInput,
  RegistrationCodeChannel,
  RegistrationFacts,
  ResendResult,
  SecurityQuestionsInput,
  StartInput,
  StepResult,
} from '../../machines/registration/registration.types';
import type { ContinueSignInInput } from '../../machines/forced/continue-sign-in/continue-sign-in.types';
import {
  continuations,
  MOBILE,
  noLanding,
  outcomes,
  resends,
  securityAnswers,
  SMS_UNAVAILABLE,
  WRONG_CODE,
} from './continue-sign-in.fixtures';
import {
  authenticatorSetup,
  detailsAnswers,
  EXISTING_HELP_REFUSAL,
  NEW_PASSWORD,
  registrationFacts,
  newInvite,
  staffInvite,
  startAnswers,
  typedStart,
} from './registration.fixtures';

interface Script {
  facts?: RegistrationFacts | Error;
  start?: InviteResult[];
  details?: InviteResult[];
  verify?: CodeCheckResult[];
  enrol?: EnrolSmsResult[];
  resend?: ResendResult[];
  questions?: StepResult[];
  submitNew?: OutcomeResult[];
  submitExisting?: OutcomeResult[];
  continuation?: ContinueSignInOutput;
}

function run(script: Script = {}) {
  const q = <T>(list: T[] | undefined) => [...(list ?? [])];
  const queues = {
    start: q(script.start),
    details: q(script.details),
    verify: q(script.verify),
    enrol: q(script.enrol),
    resend: q(script.resend),
    questions: q(script.questions),
    submitNew: q(script.submitNew),
    submitExisting: q(script.submitExisting),
  };
  const calls = {
    prepared: 0,
    forgotten: 0,
    starts: [] as StartInput[],
    details: [] as DetailsInput[],
    setups: 0,
    verifies: [] as { channel: RegistrationCodeChannel; code: string }[],
    emailEnrolments: 0,
    smsEnrolments: [] as string[],
    resends: 0,
    announced: 0,
    questions: [] as SecurityQuestionsInput[],
    newSubmissions: [] as PasswordInput[],
    existingSubmissions: [] as ExistingAccountInput[],
    continuations: [] as ContinueSignInInput[],
  };
  const machine = registrationMachine.provide({
    actors: {
      prepareRegistration: fromPromise<RegistrationFacts>(async () => {
        calls.prepared++;
        if (script.facts instanceof Error) throw script.facts;
        return script.facts ?? registrationFacts.gatewayUp;
      }),
      startRegistration: fromPromise<InviteResult, StartInput>(async ({ input }) => {
        calls.starts.push(input);
        return queues.start.shift() ?? startAnswers.newAccount;
      }),
      collectDetails: fromPromise<InviteResult, DetailsInput>(async ({ input }) => {
        calls.details.push(input);
        return queues.details.shift() ?? detailsAnswers.collected;
      }),
      loadAuthenticatorSetup: fromPromise<AuthenticatorSetup>(async () => {
        calls.setups++;
        return authenticatorSetup;
      }),
      verifyCode: fromPromise<CodeCheckResult, { channel: RegistrationCodeChannel; code: string }>(
        async ({ input }) => {
          calls.verifies.push(input);
          return queues.verify.shift() ?? { type: 'verified' };
        },
      ),
      enrolEmail: fromPromise<void>(async () => {
        calls.emailEnrolments++;
      }),
      enrolSms: fromPromise<EnrolSmsResult, { mobile: string }>(async ({ input }) => {
        calls.smsEnrolments.push(input.mobile);
        return queues.enrol.shift() ?? { type: 'enrolled', mobile: MOBILE };
      }),
      resendCode: fromPromise<ResendResult>(async () => {
        calls.resends++;
        return queues.resend.shift() ?? resends.sent;
      }),
      enrolSecurityQuestions: fromPromise<StepResult, SecurityQuestionsInput>(async ({ input }) => {
        calls.questions.push(input);
        return queues.questions.shift() ?? { type: 'done' };
      }),
      submitNew: fromPromise<OutcomeResult, PasswordInput>(async ({ input }) => {
        calls.newSubmissions.push(input);
        return queues.submitNew.shift() ?? { type: 'outcome', outcome: outcomes.directLogin };
      }),
      submitExisting: fromPromise<OutcomeResult, ExistingAccountInput>(async ({ input }) => {
        calls.existingSubmissions.push(input);
        return queues.submitExisting.shift() ?? { type: 'outcome', outcome: outcomes.directLogin };
      }),
      continueSignIn: fromPromise<ContinueSignInOutput, ContinueSignInInput>(async ({ input }) => {
        calls.continuations.push(input);
        return script.continuation ?? continuations.signedIn;
      }) as never,
    },
    actions: {
      announceResent: () => {
        calls.announced++;
      },
      forgetCurrentUser: () => {
        calls.forgotten++;
      },
    },
  });
  const actor = createActor(machine, { input: noLanding });
  actor.start();
  return { actor, calls };
}

type Running = ReturnType<typeof run>['actor'];
const at = (actor: Running, view: ReturnType<typeof selectView>) =>
  waitFor(actor, (s) => selectView(s) === view);

async function toCollectDetails(actor: Running) {
  await at(actor, 'start');
  actor.send({ type: 'user.start', ...typedStart });
  await at(actor, 'collectDetails');
}

async function toFactorChoice(actor: Running) {
  await toCollectDetails(actor);
  actor.send({ type: 'user.submitDetails', username: 'C10009' });
  await at(actor, 'selectAuthenticatorApp');
}

describe('registration machine', () => {
  it('start clears the user first, then checks the invitation; a refusal redraws the captcha', async () => {
    const { actor, calls } = run({ start: [startAnswers.invalidInvitation] });
    expect(selectView(actor.getSnapshot())).toBe('preparing');
    await at(actor, 'start');
    expect(calls.prepared).toBe(1);
    // The start clears the current user: the server's (prepare) and the portal's.
    expect(calls.forgotten).toBe(1);
    expect(selectProgress(actor.getSnapshot())).toBe(10);
    const draw = selectCaptchaDraw(actor.getSnapshot());
    actor.send({ type: 'user.start', ...typedStart });
    await waitFor(actor, (s) => s.context.refusal !== null);
    expect(actor.getSnapshot().context.refusal?.message).toBe(startAnswers.invalidInvitation.message);
    expect(selectCaptchaDraw(actor.getSnapshot())).toBe(draw + 1);
    expect(calls.starts).toEqual([typedStart]);
    actor.send({ type: 'user.refreshCaptcha' });
    expect(selectCaptchaDraw(actor.getSnapshot())).toBe(draw + 2);
  });

  it('a new account: details, authenticator app, SMS, questions, password, then signed in', async () => {
    const { actor, calls } = run();
    await toCollectDetails(actor);
    expect(selectProgress(actor.getSnapshot())).toBe(20);
    // The customer chooses a username; the name comes from the bank's records.
    expect(selectEditable(actor.getSnapshot())).toEqual({ username: true, name: false });
    actor.send({ type: 'user.submitDetails', username: 'C10009' });
    await at(actor, 'selectAuthenticatorApp');
    expect(selectProgress(actor.getSnapshot())).toBe(40);
    expect(actor.getSnapshot().context.authenticator).toEqual(authenticatorSetup);
    // The collected username does not make the field read-only on the way back.
    expect(selectEditable(actor.getSnapshot())).toEqual({ username: true, name: false });
    actor.send({ type: 'user.scanned' });
    await at(actor, 'authenticatorAppVerification');
    expect(selectProgress(actor.getSnapshot())).toBe(40);
    actor.send({ type: 'user.verify', code: '123456' });
    await at(actor, 'selectSms');
    expect(selectProgress(actor.getSnapshot())).toBe(60);
    actor.send({ type: 'user.enrolSms', mobile: '0400 000 003' });
    await at(actor, 'smsVerification');
    expect(actor.getSnapshot().context.mobile).toBe(MOBILE);
    actor.send({ type: 'user.resend' });
    await waitFor(actor, () => calls.announced === 1);
    actor.send({ type: 'user.verify', code: '654321' });
    await at(actor, 'securityQuestions');
    expect(selectProgress(actor.getSnapshot())).toBe(80);
    actor.send({ type: 'user.submitQuestions', ...securityAnswers });
    await at(actor, 'setPassword');
    expect(selectProgress(actor.getSnapshot())).toBe(100);
    actor.send({ type: 'user.submitPassword', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual(continuations.signedIn);
    expect(calls.verifies).toEqual([
      { channel: 'authenticator-app', code: '123456' },
      { channel: 'sms', code: '654321' },
    ]);
    expect(calls.continuations).toEqual([{ outcome: outcomes.directLogin, ...noLanding }]);
    // Passwords and answers pass through; the machine never keeps them.
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain(NEW_PASSWORD);
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain(securityAnswers.answer1);
  });

  it('email instead of an app enrols email and goes to the security questions', async () => {
    const { actor, calls } = run();
    await toFactorChoice(actor);
    actor.send({ type: 'user.chooseEmail' });
    await at(actor, 'securityQuestions');
    expect(calls.emailEnrolments).toBe(1);
  });

  it('SMS is skipped to the security questions with the alert when the gateway is down', async () => {
    const { actor, calls } = run({ facts: registrationFacts.gatewayDown });
    await toFactorChoice(actor);
    actor.send({ type: 'user.chooseSms' });
    await at(actor, 'securityQuestions');
    expect(selectSmsUnavailableMessage(actor.getSnapshot())).toBe(SMS_UNAVAILABLE);
    expect(calls.smsEnrolments).toEqual([]);
  });

  it('an SMS 503 moves on to the security questions with the customer message', async () => {
    const { actor } = run({ enrol: [{ type: 'unavailable', message: 'Our SMS provider is down.' }] });
    await toFactorChoice(actor);
    actor.send({ type: 'user.chooseSms' });
    await at(actor, 'selectSms');
    actor.send({ type: 'user.enrolSms', mobile: MOBILE });
    await at(actor, 'securityQuestions');
    expect(selectSmsUnavailableMessage(actor.getSnapshot())).toBe('Our SMS provider is down.');
  });

  it('a wrong app code stays on the code screen; back shows the QR code again', async () => {
    const { actor, calls } = run({ verify: [WRONG_CODE] });
    await toFactorChoice(actor);
    actor.send({ type: 'user.scanned' });
    await at(actor, 'authenticatorAppVerification');
    actor.send({ type: 'user.verify', code: '000000' });
    await waitFor(actor, (s) => s.context.refusal !== null);
    expect(selectView(actor.getSnapshot())).toBe('authenticatorAppVerification');
    actor.send({ type: 'route.changed', path: '/registration/select-authenticator-app-factor' });
    await at(actor, 'selectAuthenticatorApp');
    expect(calls.setups).toBe(2);
  });

  it('an existing identity goes to verify-identity; a 422 keeps the form for the help text', async () => {
    const { actor, calls } = run({
      start: [startAnswers.existingAccount],
      submitExisting: [EXISTING_HELP_REFUSAL],
    });
    await at(actor, 'start');
    actor.send({ type: 'user.start', ...typedStart, email: 'c10001@example.com' });
    await at(actor, 'verifyIdentity');
    expect(selectProgress(actor.getSnapshot())).toBe(100);
    actor.send({ type: 'user.submitExisting', username: 'C10001', password: 'wrong' });
    await waitFor(actor, (s) => s.context.refusal !== null);
    expect(selectView(actor.getSnapshot())).toBe('verifyIdentity');
    actor.send({ type: 'user.submitExisting', username: 'C10001', password: 'Harbour-Lights-2026' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.existingSubmissions).toHaveLength(2);
    expect(actor.getSnapshot().context.invite).toBeNull();
  });

  it('cancel leaves for sign-in; the start address starts over without the invite', async () => {
    const first = run();
    await toCollectDetails(first.actor);
    first.actor.send({ type: 'route.changed', path: '/registration' });
    await at(first.actor, 'start');
    expect(first.actor.getSnapshot().context.invite).toBeNull();
    expect(first.calls.prepared).toBe(2);
    // Another step's address is not a way in.
    first.actor.send({ type: 'route.changed', path: '/registration/set-password' });
    expect(selectView(first.actor.getSnapshot())).toBe('start');
    first.actor.send({ type: 'user.cancel' });
    expect(first.actor.getSnapshot().output).toEqual({ kind: 'cancelled', route: '/' });
  });

  it('an invitation that should carry the name but does not lets the customer enter it, as the server does', async () => {
    for (const name of [null, '', '   ']) {
      const { actor } = run({ start: [{ type: 'invite', invite: { ...newInvite, name } }] });
      await toCollectDetails(actor);
      expect(selectEditable(actor.getSnapshot()), JSON.stringify(name)).toEqual({
        username: true,
        name: true,
      });
      actor.stop();
    }
    // A customer number of blanks is no customer number: the name is entered.
    const { actor } = run({ start: [{ type: 'invite', invite: { ...newInvite, customerNumber: '  ' } }] });
    await toCollectDetails(actor);
    expect(selectEditable(actor.getSnapshot())).toEqual({ username: true, name: true });
  });

  it('staff may edit their name; a taken username is refused on the field', async () => {
    const { actor } = run({
      start: [{ type: 'invite', invite: staffInvite }],
      details: [detailsAnswers.usernameTaken],
    });
    await toCollectDetails(actor);
    expect(selectEditable(actor.getSnapshot())).toEqual({ username: true, name: true });
    actor.send({ type: 'user.submitDetails', username: '100001', name: 'Sam Staff' });
    await waitFor(actor, (s) => s.context.refusal !== null);
    expect(actor.getSnapshot().context.refusal?.fieldErrors).toEqual(
      detailsAnswers.usernameTaken.fieldErrors,
    );
  });

  it('an unexpected failure or a failed continuation shows the failure', async () => {
    const broken = run({ facts: new Error('The server could not be reached.') });
    await at(broken.actor, 'failed');
    expect(broken.actor.getSnapshot().context.errorMessage).toBe('The server could not be reached.');
    const unknown = run({ continuation: continuations.failed });
    await toFactorChoice(unknown.actor);
    unknown.actor.send({ type: 'user.chooseEmail' });
    await at(unknown.actor, 'securityQuestions');
    unknown.actor.send({ type: 'user.submitQuestions', ...securityAnswers });
    await at(unknown.actor, 'setPassword');
    unknown.actor.send({
      type: 'user.submitPassword',
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    await at(unknown.actor, 'failed');
    expect(unknown.actor.getSnapshot().context.errorMessage).toBe('Unknown authentication outcome');
  });
});
