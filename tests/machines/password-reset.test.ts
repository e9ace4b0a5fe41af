// Hand-pinned transitions of the password reset wizard (sections 2.4, 4.5, 5 and 8), with fakes.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  passwordResetMachine,
  SMS_UNAVAILABLE_MESSAGE,
} from '../../machines/password-reset/password-reset.machine';
import {
  selectCanSkip,
  selectCaptchaDraw,
  selectChallenges,
  selectProgress,
  selectView,
} from '../../machines/password-reset/password-reset.select';
import type {
  CheckResult,
  DetailsResult,
  PasswordResetDetails,
  ResendResult,
  SecurityAnswer,
  StartResetInput,
  StartResult,
  SubmitResult,
} from '../../machines/password-reset/password-reset.types';
import type { Context } from '../../src/contract/entities';
import {
  ANSWERS,
  CAPTCHA,
  details,
  GATEWAY_DOWN,
  NEW_PASSWORD,
  QUESTIONS,
  refusals,
  RESET_EMAIL,
  sends,
} from './password-reset.fixtures';

const BASE = '/password-reset';

interface Script {
  /** The session's context, given as the machine's input. */
  context?: Context | null;
  authEnabled?: boolean;
  start?: StartResult[];
  verifyEmail?: DetailsResult[];
  selectUser?: DetailsResult[];
  sendSms?: ResendResult[];
  check?: CheckResult[];
  submit?: SubmitResult[];
}

function run(script: Script = {}) {
  const queue = <T>(items: T[] | undefined) => [...(items ?? [])];
  const q = {
    start: queue(script.start),
    verifyEmail: queue(script.verifyEmail),
    selectUser: queue(script.selectUser),
    sendSms: queue(script.sendSms),
    check: queue(script.check),
    submit: queue(script.submit),
  };
  const calls: Array<{ src: string; input: unknown }> = [];
  const next = <T, I>(src: string, items: T[]) =>
    fromPromise<T, I>(async ({ input }) => {
      calls.push({ src, input });
      const item = items.shift();
      if (item === undefined) throw new Error(`No scripted answer for ${src}`);
      return item;
    });
  let cleared = 0;
  const machine = passwordResetMachine.provide({
    actors: {
      loadAvailability: fromPromise(async () => ({
        authEnabled: script.authEnabled ?? true,
        questions: QUESTIONS,
      })),
      startReset: next<StartResult, StartResetInput>('startReset', q.start),
      verifyEmail: next<DetailsResult, { code: string }>('verifyEmail', q.verifyEmail),
      resendEmail: next<ResendResult, unknown>('resendEmail', [sends.sent]),
      selectUser: next<DetailsResult, { username: string }>('selectUser', q.selectUser),
      verifyAuthenticatorApp: next<CheckResult, { code: string }>('verifyAuthenticatorApp', q.check),
      sendSms: next<ResendResult, unknown>('sendSms', q.sendSms),
      verifySms: next<CheckResult, { code: string }>('verifySms', q.check),
      verifySecurityQuestions: next<CheckResult, { answers: SecurityAnswer[] }>(
        'verifySecurityQuestions',
        q.check,
      ),
      submitPassword: next<SubmitResult, { password: string; confirmPassword: string }>(
        'submitPassword',
        q.submit,
      ),
    },
    actions: {
      clearCurrentUser: () => {
        cleared++;
      },
    },
  });
  const actor = createActor(machine, {
    input: script.context === undefined ? {} : { context: script.context },
  }).start();
  return { actor, calls, cleared: () => cleared };
}

const started = { type: 'started', email: RESET_EMAIL } as StartResult;
const detailsOf = (d: PasswordResetDetails): DetailsResult => ({ type: 'details', details: d });

async function toEmailVerification(script: Script) {
  const r = run({ start: [started], ...script });
  await waitFor(r.actor, (s) => s.matches({ start: 'form' }));
  r.actor.send({ type: 'user.start', email: RESET_EMAIL, captchaCode: CAPTCHA });
  await waitFor(r.actor, (s) => s.matches({ emailVerification: 'form' }));
  return r;
}

async function verified(d: PasswordResetDetails, script: Script = {}) {
  const r = await toEmailVerification({ verifyEmail: [detailsOf(d)], ...script });
  r.actor.send({ type: 'user.verify', code: '123456' });
  await waitFor(r.actor, (s) => !s.matches('emailVerification') && !s.matches('routing'));
  return r;
}

describe('password reset machine', () => {
  it('clears the current user and starts at Get started (25) when the realm allows sign-in', async () => {
    const { actor, cleared } = run();
    await waitFor(actor, (s) => s.matches({ start: 'form' }));
    expect(cleared()).toBe(1);
    expect(selectProgress(actor.getSnapshot())).toBe(25);
    expect(selectCaptchaDraw(actor.getSnapshot())).toBe(0);
  });

  it('start sends the email and code, plus the app code and type of the session context (section 7)', async () => {
    const withContext = await toEmailVerification({
      context: { appCode: 'LOANS', realmCode: 'RETAIL', showInHeader: true, type: 'SAML' },
    });
    expect(withContext.calls.find((c) => c.src === 'startReset')?.input).toEqual({
      email: RESET_EMAIL,
      captchaCode: CAPTCHA,
      appCode: 'LOANS',
      type: 'SAML',
    });
    const without = await toEmailVerification({ context: null });
    expect(without.calls.find((c) => c.src === 'startReset')?.input).toEqual({
      email: RESET_EMAIL,
      captchaCode: CAPTCHA,
    });
  });

  it('shows the unavailable page when the realm does not allow sign-in, or start answers 503', async () => {
    const closed = run({ authEnabled: false });
    await waitFor(closed.actor, (s) => s.matches('unavailable'));
    expect(selectView(closed.actor.getSnapshot())).toBe('unavailable');
    // The address cannot leave it for a later step.
    closed.actor.send({ type: 'route.changed', path: `${BASE}/set-password` });
    closed.actor.send({ type: 'route.changed', path: BASE });
    expect(closed.actor.getSnapshot().matches('unavailable')).toBe(true);

    const r = run({ start: [{ type: 'unavailable', message: 'Reset password is currently unavailable.' }] });
    await waitFor(r.actor, (s) => s.matches({ start: 'form' }));
    r.actor.send({ type: 'user.start', email: RESET_EMAIL, captchaCode: CAPTCHA });
    await waitFor(r.actor, (s) => s.matches('unavailable'));
  });

  it('refreshes the captcha after a refused start and on request, keeping no email', async () => {
    const r = run({ start: [refusals.captcha, started] });
    await waitFor(r.actor, (s) => s.matches({ start: 'form' }));
    r.actor.send({ type: 'user.start', email: RESET_EMAIL, captchaCode: 'WRONG' });
    await waitFor(r.actor, (s) => s.matches({ start: 'form' }) && s.context.refusal !== null);
    expect(selectCaptchaDraw(r.actor.getSnapshot())).toBe(1);
    expect(r.actor.getSnapshot().context.email).toBeNull();
    r.actor.send({ type: 'user.refreshCaptcha' });
    expect(selectCaptchaDraw(r.actor.getSnapshot())).toBe(2);
    r.actor.send({ type: 'user.start', email: RESET_EMAIL, captchaCode: CAPTCHA });
    await waitFor(r.actor, (s) => s.matches({ emailVerification: 'form' }));
    expect(r.actor.getSnapshot().context.email).toBe(RESET_EMAIL);
    expect(selectProgress(r.actor.getSnapshot())).toBe(50);
  });

  it('redirects later steps to the start unless the reset email is held', async () => {
    const r = run();
    await waitFor(r.actor, (s) => s.matches({ start: 'form' }));
    for (const step of ['email-verification', 'user-selection', 'sms-verification', 'set-password']) {
      r.actor.send({ type: 'route.changed', path: `${BASE}/${step}` });
      expect(r.actor.getSnapshot().matches({ start: 'form' })).toBe(true);
    }
    // With the email held but nothing verified: email-verification only.
    const held = await toEmailVerification({});
    held.actor.send({ type: 'route.changed', path: `${BASE}/set-password` });
    held.actor.send({ type: 'route.changed', path: `${BASE}/user-selection` });
    expect(held.actor.getSnapshot().matches({ emailVerification: 'form' })).toBe(true);
    held.actor.send({ type: 'route.changed', path: BASE });
    expect(held.actor.getSnapshot().matches({ start: 'form' })).toBe(true);
    expect(held.actor.getSnapshot().context.email).toBeNull();
  });

  it('routes in the order of 4.5: accounts, authenticator app, SMS, questions, set-password', async () => {
    expect((await verified(details.shared)).actor.getSnapshot().matches({ userSelection: 'form' })).toBe(
      true,
    );
    expect((await verified(details.all)).actor.getSnapshot().matches({ authenticatorApp: 'form' })).toBe(
      true,
    );
    const sms = await verified(details.smsOnly, { sendSms: [sends.sent] });
    await waitFor(sms.actor, (s) => s.matches({ sms: 'form' }));
    expect(selectProgress(sms.actor.getSnapshot())).toBe(75);
    const down = await verified(details.smsDownQuestions);
    expect(down.actor.getSnapshot().matches({ securityQuestions: 'form' })).toBe(true);
    expect(down.actor.getSnapshot().context.smsUnavailableMessage).toBe(SMS_UNAVAILABLE_MESSAGE);
    expect(selectChallenges(down.actor.getSnapshot())).toEqual(QUESTIONS);
    const none = await verified(details.none);
    expect(none.actor.getSnapshot().matches({ setPassword: 'form' })).toBe(true);
    expect(selectProgress(none.actor.getSnapshot())).toBe(100);
  });

  describe('set-password when SMS is the only factor and it is down (the server refuses submit)', () => {
    it('chooses cannotFinish on entry: no form, nothing to submit, the set-password route', async () => {
      const r = await verified(details.smsOnlyDown);
      const s = r.actor.getSnapshot();
      expect(s.matches({ setPassword: 'cannotFinish' })).toBe(true);
      expect(selectView(s)).toBe('cannotFinish');
      expect(s.getMeta()['passwordReset.setPassword']).toMatchObject({ route: 'set-password' });
      expect(s.context.smsUnavailableMessage).toBe(SMS_UNAVAILABLE_MESSAGE);
      expect(s.can({ type: 'user.submit', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).toBe(
        false,
      );
      // The step's own address keeps it; nothing was sent.
      r.actor.send({ type: 'route.changed', path: `${BASE}/set-password` });
      expect(r.actor.getSnapshot().matches({ setPassword: 'cannotFinish' })).toBe(true);
      expect(r.calls.map((c) => c.src)).toEqual(['startReset', 'verifyEmail']);
    });

    it('only then: SMS up goes to the SMS step, SMS with questions to the questions, no factor to the form', async () => {
      expect(
        (await verified(details.smsOnlyDown)).actor.getSnapshot().matches({ setPassword: 'cannotFinish' }),
      ).toBe(true);
      const up = await verified(details.smsOnly, { sendSms: [sends.sent] });
      await waitFor(up.actor, (s) => s.matches({ sms: 'form' }));
      const questions = await verified(details.smsDownQuestions);
      expect(questions.actor.getSnapshot().matches({ securityQuestions: 'form' })).toBe(true);
      const app = await verified({ ...details.smsOnlyDown, isAuthAppEnrolled: true });
      expect(app.actor.getSnapshot().matches({ authenticatorApp: 'form' })).toBe(true);
      // The server's smsOnly reads the enrolment flag, not the challenges.
      const enrolled = await verified({ ...details.smsOnlyDown, isSecurityQuestionsEnrolled: true });
      expect(enrolled.actor.getSnapshot().matches({ setPassword: 'form' })).toBe(true);
      const none = await verified({ ...details.none, isSmsGatewayAvailable: false });
      expect(none.actor.getSnapshot().matches({ setPassword: 'form' })).toBe(true);
      expect(selectView(none.actor.getSnapshot())).toBe('setPassword');
    });

    it('a verified SMS code is a proof: the form, for that account until the email is verified again', async () => {
      // The details said down; the address takes the user to the SMS step, and a code comes through.
      const r = await verified(details.smsOnlyDown, {
        sendSms: [sends.sent],
        check: [{ type: 'verified' }],
        verifyEmail: [detailsOf(details.smsOnlyDown), detailsOf(details.smsOnlyDown)],
      });
      r.actor.send({ type: 'route.changed', path: `${BASE}/sms-verification` });
      await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));
      r.actor.send({ type: 'user.verify', code: '123456' });
      await waitFor(r.actor, (s) => s.matches({ setPassword: 'form' }));
      r.actor.send({ type: 'route.changed', path: `${BASE}/set-password` });
      expect(r.actor.getSnapshot().matches({ setPassword: 'form' })).toBe(true);
      // The email code again: the server forgets the proof, and so does the wizard.
      r.actor.send({ type: 'route.changed', path: `${BASE}/email-verification` });
      r.actor.send({ type: 'user.verify', code: '654321' });
      await waitFor(r.actor, (s) => s.matches({ setPassword: 'cannotFinish' }));
    });

    it('user-selection keeps the proof for the same account only', async () => {
      const shared = { ...details.smsOnlyDown, identities: details.shared.identities };
      const r = await verified(details.shared, {
        selectUser: [
          detailsOf({ ...shared, username: 'C10007' }),
          detailsOf({ ...shared, username: 'C10007' }),
          detailsOf({ ...shared, username: 'C10006' }),
        ],
        sendSms: [sends.sent],
        check: [{ type: 'verified' }],
      });
      r.actor.send({ type: 'user.select', username: 'C10007' });
      await waitFor(r.actor, (s) => s.matches({ setPassword: 'cannotFinish' }));
      r.actor.send({ type: 'route.changed', path: `${BASE}/sms-verification` });
      await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));
      r.actor.send({ type: 'user.verify', code: '123456' });
      await waitFor(r.actor, (s) => s.matches({ setPassword: 'form' }));
      r.actor.send({ type: 'route.changed', path: `${BASE}/user-selection` });
      r.actor.send({ type: 'user.select', username: 'C10007' });
      await waitFor(r.actor, (s) => s.matches({ setPassword: 'form' }));
      r.actor.send({ type: 'route.changed', path: `${BASE}/user-selection` });
      r.actor.send({ type: 'user.select', username: 'C10006' });
      await waitFor(r.actor, (s) => s.matches({ setPassword: 'cannotFinish' }));
    });

    it('the end of the reset forgets the proof', async () => {
      const r = await verified(details.appAndQuestions, {
        check: [{ type: 'verified' }],
        submit: [{ type: 'reset' }],
      });
      r.actor.send({ type: 'user.verify', code: '123456' });
      await waitFor(r.actor, (s) => s.matches({ setPassword: 'form' }));
      expect(r.actor.getSnapshot().context.factorVerifiedFor).toBe('C10009');
      r.actor.send({ type: 'user.submit', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
      await waitFor(r.actor, (s) => s.status === 'done');
      expect(r.actor.getSnapshot().context.factorVerifiedFor).toBeNull();
    });
  });

  it('user-selection needs the identities list and routes on the chosen account', async () => {
    const r = await verified(details.shared, { selectUser: [detailsOf(details.sharedChosen)] });
    r.actor.send({ type: 'user.select', username: 'C10007' });
    await waitFor(r.actor, (s) => s.matches({ setPassword: 'form' }));
    expect(r.calls.find((c) => c.src === 'selectUser')?.input).toEqual({ username: 'C10007' });
    r.actor.send({ type: 'route.changed', path: `${BASE}/user-selection` });
    expect(r.actor.getSnapshot().matches({ userSelection: 'form' })).toBe(true);

    const single = await verified(details.none);
    single.actor.send({ type: 'route.changed', path: `${BASE}/user-selection` });
    expect(single.actor.getSnapshot().matches({ setPassword: 'form' })).toBe(true);
  });

  it('authenticator skip goes to SMS when usable, else to the questions; never without a factor', async () => {
    const r = await verified(details.all, { sendSms: [sends.sent] });
    expect(selectCanSkip(r.actor.getSnapshot())).toBe(true);
    r.actor.send({ type: 'user.skip' });
    await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));
    // SMS skip: to the questions.
    r.actor.send({ type: 'user.skip' });
    expect(r.actor.getSnapshot().matches({ securityQuestions: 'form' })).toBe(true);

    const app = await verified(details.appAndQuestions);
    app.actor.send({ type: 'user.skip' });
    expect(app.actor.getSnapshot().matches({ securityQuestions: 'form' })).toBe(true);

    const appOnly = await verified({ ...details.none, isAuthAppEnrolled: true });
    expect(selectCanSkip(appOnly.actor.getSnapshot())).toBe(false);
    appOnly.actor.send({ type: 'user.skip' });
    expect(appOnly.actor.getSnapshot().matches({ authenticatorApp: 'form' })).toBe(true);

    const smsOnly = await verified(details.smsOnly, { sendSms: [sends.sent] });
    await waitFor(smsOnly.actor, (s) => s.matches({ sms: 'form' }));
    expect(selectCanSkip(smsOnly.actor.getSnapshot())).toBe(false);
  });

  it('a 503 on the SMS send stores the customer message and falls back to the questions', async () => {
    const r = await verified({ ...details.all, isAuthAppEnrolled: false }, { sendSms: [sends.unavailable] });
    await waitFor(r.actor, (s) => s.matches({ securityQuestions: 'form' }));
    expect(r.actor.getSnapshot().context.smsUnavailableMessage).toBe(GATEWAY_DOWN);
    // Without questions the message stays on the SMS screen and the resend link is disabled.
    const only = await verified(details.smsOnly, { sendSms: [sends.unavailable] });
    await waitFor(only.actor, (s) => s.matches({ sms: 'form' }));
    expect(only.actor.getSnapshot().context.resendRefusal).toBe(GATEWAY_DOWN);
  });

  it('answers every question, then submits the password once and ends at sign-in with nothing held', async () => {
    const r = await verified(details.smsDownQuestions, {
      check: [refusals.answer, { type: 'verified' }],
      submit: [refusals.password, { type: 'reset' }],
    });
    r.actor.send({ type: 'user.answer', answers: ANSWERS });
    await waitFor(r.actor, (s) => s.matches({ securityQuestions: 'form' }) && s.context.refusal !== null);
    r.actor.send({ type: 'user.answer', answers: ANSWERS });
    await waitFor(r.actor, (s) => s.matches({ setPassword: 'form' }));
    r.actor.send({ type: 'user.submit', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    await waitFor(r.actor, (s) => s.matches({ setPassword: 'form' }) && s.context.refusal !== null);
    r.actor.send({ type: 'user.submit', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    await waitFor(r.actor, (s) => s.status === 'done');
    const done = r.actor.getSnapshot();
    expect(done.output).toEqual({ route: '/' });
    expect(done.context.details).toBeNull();
    expect(done.context.email).toBeNull();
    expect(JSON.stringify(done.context)).not.toContain(NEW_PASSWORD);
    expect(r.calls.filter((c) => c.src === 'verifySecurityQuestions')[0]?.input).toEqual({
      answers: ANSWERS,
    });
  });

  it('an unexpected failure shows the failed view; the start address begins again', async () => {
    const r = await toEmailVerification({ verifyEmail: [] });
    r.actor.send({ type: 'user.verify', code: '123456' });
    await waitFor(r.actor, (s) => s.matches('failed'));
    expect(r.actor.getSnapshot().context.errorMessage).toBe('No scripted answer for verifyEmail');
    r.actor.send({ type: 'route.changed', path: BASE });
    expect(r.actor.getSnapshot().matches({ start: 'form' })).toBe(true);
  });
});
