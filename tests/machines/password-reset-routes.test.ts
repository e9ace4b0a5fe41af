// The address and the password reset wizard (sections 2.4, 4.5): a route change (browser Back or
// Forward, a link) is followed only while a step waits for the user; during a call it is not acted
// on, so the call is not aborted and its answer is not lost. And the SMS step sends its first code
// only when this reset holds no valid one: passing through the step again sends nothing (Resend does).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyActorLogic } from 'xstate';
import {
  passwordResetMachine,
  SMS_CODE_LIFETIME_MS,
} from '../../machines/password-reset/password-reset.machine';
import { selectSending, selectView } from '../../machines/password-reset/password-reset.select';
import type { PasswordResetDetails } from '../../machines/password-reset/password-reset.types';
import { CODE_TTL_MS } from '../../src/server/domain/factors/codes';
import {
  ANSWERS,
  CAPTCHA,
  details,
  NEW_PASSWORD,
  QUESTIONS,
  RESET_EMAIL,
  sends,
} from './password-reset.fixtures';

const BASE = '/password-reset';
const at = (step: string) => `${BASE}/${step}`;

type Src =
  | 'startReset'
  | 'verifyEmail'
  | 'resendEmail'
  | 'selectUser'
  | 'verifyAuthenticatorApp'
  | 'sendSms'
  | 'verifySms'
  | 'verifySecurityQuestions'
  | 'submitPassword';

interface Call {
  src: Src;
  input: unknown;
  signal: AbortSignal;
  answer: (output: unknown) => void;
}

/**
 * The wizard with held calls: each call waits until the test answers it (or `auto` answers it at
 * once), so a route change can arrive while it is under way; every call is recorded with its signal.
 */
function run(auto: Partial<Record<Src, (input: unknown) => unknown>> = {}) {
  const calls: Call[] = [];
  const held = (src: Src) =>
    fromPromise<unknown, unknown>(
      ({ input, signal }) =>
        new Promise((resolve) => {
          calls.push({ src, input, signal, answer: resolve });
          const answer = auto[src];
          if (answer) resolve(answer(input));
        }),
    ) as AnyActorLogic;
  const sources: Src[] = [
    'startReset',
    'verifyEmail',
    'resendEmail',
    'selectUser',
    'verifyAuthenticatorApp',
    'sendSms',
    'verifySms',
    'verifySecurityQuestions',
    'submitPassword',
  ];
  const machine = passwordResetMachine.provide({
    actors: {
      loadAvailability: fromPromise(async () => ({ authEnabled: true, questions: QUESTIONS })),
      ...Object.fromEntries(sources.map((src) => [src, held(src)])),
    } as never,
  });
  const actor = createActor(machine, { input: {} }).start();
  const last = (src: Src) => calls.filter((c) => c.src === src).at(-1)!;
  const count = (src: Src) => calls.filter((c) => c.src === src).length;
  const route = (path: string) => actor.send({ type: 'route.changed', path });
  return { actor, calls, last, count, route };
}

type Wizard = ReturnType<typeof run>;

const detailsOf = (d: PasswordResetDetails) => ({ type: 'details', details: d });

/** Through Get started and the email code, answered with `d`. */
async function verified(r: Wizard, d: PasswordResetDetails) {
  await waitFor(r.actor, (s) => s.matches({ start: 'form' }));
  r.actor.send({ type: 'user.start', email: RESET_EMAIL, captchaCode: CAPTCHA });
  r.last('startReset').answer({ type: 'started', email: RESET_EMAIL });
  await waitFor(r.actor, (s) => s.matches({ emailVerification: 'form' }));
  r.actor.send({ type: 'user.verify', code: '482913' });
  r.last('verifyEmail').answer(detailsOf(d));
  await waitFor(r.actor, (s) => !s.matches('emailVerification') && !s.matches('routing'));
}

/** The SMS step with its first code sent (details.all: skip the authenticator app). */
async function atSmsWithCode(r: Wizard) {
  await verified(r, details.all);
  r.actor.send({ type: 'user.skip' });
  await waitFor(r.actor, (s) => s.matches({ sms: 'sending' }));
  r.last('sendSms').answer(sends.sent);
  await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('password reset: route changes during a call are not acted on', () => {
  it('Back while set-password submits: the call runs on, its answer ends the reset at sign-in', async () => {
    const r = run({ verifyAuthenticatorApp: () => ({ type: 'verified' }) });
    await verified(r, details.all);
    r.actor.send({ type: 'user.verify', code: '774411' });
    await waitFor(r.actor, (s) => s.matches({ setPassword: 'form' }));
    r.actor.send({ type: 'user.submit', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(r.actor.getSnapshot().matches({ setPassword: 'submitting' })).toBe(true);

    // Back (to the factor step), and any other step's address: not acted on.
    for (const step of [
      'authenticator-app-verification',
      'sms-verification',
      'security-question-verification',
      'email-verification',
      '',
    ]) {
      r.route(step === '' ? BASE : at(step));
      expect(r.actor.getSnapshot().matches({ setPassword: 'submitting' })).toBe(true);
    }
    expect(r.last('submitPassword').signal.aborted).toBe(false);
    expect(r.count('submitPassword')).toBe(1);
    // The address follows the step shown (useFlowRoute redirects to the state's route).
    expect(r.actor.getSnapshot().getMeta()['passwordReset.setPassword']).toMatchObject({
      route: 'set-password',
    });

    r.last('submitPassword').answer({ type: 'reset' });
    await waitFor(r.actor, (s) => s.status === 'done');
    expect(r.actor.getSnapshot().output).toEqual({ route: '/' });
  });

  it('no call of any step is left by a route change; at rest the same address is followed', async () => {
    const r = run();
    // Get started: starting.
    await waitFor(r.actor, (s) => s.matches({ start: 'form' }));
    r.actor.send({ type: 'user.start', email: RESET_EMAIL, captchaCode: CAPTCHA });
    r.route(BASE);
    expect(r.actor.getSnapshot().matches({ start: 'starting' })).toBe(true);
    expect(r.last('startReset').signal.aborted).toBe(false);
    r.last('startReset').answer({ type: 'started', email: RESET_EMAIL });
    await waitFor(r.actor, (s) => s.matches({ emailVerification: 'form' }));

    // Email code: resending, then verifying.
    r.actor.send({ type: 'user.resend' });
    r.route(BASE);
    expect(r.actor.getSnapshot().matches({ emailVerification: 'resending' })).toBe(true);
    r.last('resendEmail').answer(sends.sent);
    await waitFor(r.actor, (s) => s.matches({ emailVerification: 'form' }));
    r.actor.send({ type: 'user.verify', code: '482913' });
    r.route(BASE);
    expect(r.actor.getSnapshot().matches({ emailVerification: 'verifying' })).toBe(true);
    expect(r.last('verifyEmail').signal.aborted).toBe(false);
    r.last('verifyEmail').answer(detailsOf(details.shared));
    await waitFor(r.actor, (s) => s.matches({ userSelection: 'form' }));

    // Choosing the account.
    r.actor.send({ type: 'user.select', username: 'C10007' });
    r.route(at('email-verification'));
    expect(r.actor.getSnapshot().matches({ userSelection: 'selecting' })).toBe(true);
    r.last('selectUser').answer(detailsOf({ ...details.all, identities: details.shared.identities }));
    await waitFor(r.actor, (s) => s.matches({ authenticatorApp: 'form' }));

    // The authenticator app code.
    r.actor.send({ type: 'user.verify', code: '774411' });
    r.route(at('user-selection'));
    expect(r.actor.getSnapshot().matches({ authenticatorApp: 'verifying' })).toBe(true);
    r.last('verifyAuthenticatorApp').answer({ type: 'refused', message: 'No', fieldErrors: [] });
    await waitFor(r.actor, (s) => s.matches({ authenticatorApp: 'form' }));

    // SMS: the first code, a resend, the check.
    r.actor.send({ type: 'user.skip' });
    r.route(at('authenticator-app-verification'));
    expect(r.actor.getSnapshot().matches({ sms: 'sending' })).toBe(true);
    expect(r.last('sendSms').signal.aborted).toBe(false);
    r.last('sendSms').answer(sends.sent);
    await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));
    r.actor.send({ type: 'user.resend' });
    r.route(at('authenticator-app-verification'));
    expect(r.actor.getSnapshot().matches({ sms: 'resending' })).toBe(true);
    r.last('sendSms').answer(sends.sent);
    await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));
    r.actor.send({ type: 'user.verify', code: '195302' });
    r.route(at('authenticator-app-verification'));
    expect(r.actor.getSnapshot().matches({ sms: 'verifying' })).toBe(true);
    r.last('verifySms').answer({ type: 'refused', message: 'No', fieldErrors: [] });
    await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));

    // The security questions.
    r.actor.send({ type: 'user.skip' });
    r.actor.send({ type: 'user.answer', answers: ANSWERS });
    r.route(at('sms-verification'));
    expect(r.actor.getSnapshot().matches({ securityQuestions: 'verifying' })).toBe(true);
    expect(r.last('verifySecurityQuestions').signal.aborted).toBe(false);
    r.last('verifySecurityQuestions').answer({ type: 'verified' });
    await waitFor(r.actor, (s) => s.matches({ setPassword: 'form' }));

    // At rest, Back is followed as section 4.5 allows (the factor step of the chosen account).
    r.route(at('security-question-verification'));
    expect(r.actor.getSnapshot().matches({ securityQuestions: 'form' })).toBe(true);
    r.route(at('authenticator-app-verification'));
    expect(r.actor.getSnapshot().matches({ authenticatorApp: 'form' })).toBe(true);
    r.route(BASE);
    expect(r.actor.getSnapshot().matches({ start: 'form' })).toBe(true);
    expect(r.actor.getSnapshot().context.email).toBeNull();
  });
});

describe('password reset: the SMS step sends its first code only without a valid one', () => {
  it('Back and Forward through the SMS step send no other code; Resend still does', async () => {
    const r = run();
    await atSmsWithCode(r);
    expect(r.count('sendSms')).toBe(1);

    for (let pass = 0; pass < 3; pass++) {
      r.route(at('authenticator-app-verification'));
      expect(r.actor.getSnapshot().matches({ authenticatorApp: 'form' })).toBe(true);
      r.route(at('sms-verification'));
      expect(r.actor.getSnapshot().matches({ sms: 'form' })).toBe(true);
      expect(selectSending(r.actor.getSnapshot())).toBe(false);
    }
    // The same address again (a link to the page shown): nothing sent either.
    r.route(at('sms-verification'));
    expect(r.actor.getSnapshot().matches({ sms: 'form' })).toBe(true);
    expect(r.count('sendSms')).toBe(1);
    expect(selectView(r.actor.getSnapshot())).toBe('sms');

    // Resend is offered and sends.
    expect(r.actor.getSnapshot().context.resendRefusal).toBeNull();
    expect(r.actor.getSnapshot().can({ type: 'user.resend' })).toBe(true);
    r.actor.send({ type: 'user.resend' });
    expect(r.actor.getSnapshot().matches({ sms: 'resending' })).toBe(true);
    r.last('sendSms').answer(sends.sent);
    await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));
    expect(r.count('sendSms')).toBe(2);
    // The resent code is the one held: passing through again sends nothing.
    r.route(at('security-question-verification'));
    r.route(at('sms-verification'));
    expect(r.actor.getSnapshot().matches({ sms: 'form' })).toBe(true);
    expect(r.count('sendSms')).toBe(2);
  });

  it('the skip link and the SMS step reached again by the account choice reuse the code too', async () => {
    const chosen = { ...details.all, identities: details.shared.identities, username: 'C10007' };
    const r = run({ selectUser: () => detailsOf(chosen) });
    await verified(r, details.shared);
    r.actor.send({ type: 'user.select', username: 'C10007' });
    await waitFor(r.actor, (s) => s.matches({ authenticatorApp: 'form' }));
    r.actor.send({ type: 'user.skip' });
    r.last('sendSms').answer(sends.sent);
    await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));

    r.route(at('authenticator-app-verification'));
    r.actor.send({ type: 'user.skip' });
    expect(r.actor.getSnapshot().matches({ sms: 'form' })).toBe(true);
    r.route(at('user-selection'));
    r.actor.send({ type: 'user.select', username: 'C10007' });
    await waitFor(r.actor, (s) => s.matches({ authenticatorApp: 'form' }));
    r.actor.send({ type: 'user.skip' });
    expect(r.actor.getSnapshot().matches({ sms: 'form' })).toBe(true);
    expect(r.count('sendSms')).toBe(1);
  });

  it('a code past its lifetime is not reused: entering the step again sends one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const r = run();
    await atSmsWithCode(r);
    vi.setSystemTime(Date.now() + SMS_CODE_LIFETIME_MS - 1_000);
    r.route(at('authenticator-app-verification'));
    r.route(at('sms-verification'));
    expect(r.actor.getSnapshot().matches({ sms: 'form' })).toBe(true);
    expect(r.count('sendSms')).toBe(1);

    vi.setSystemTime(Date.now() + 1_000);
    r.route(at('authenticator-app-verification'));
    r.route(at('sms-verification'));
    expect(r.actor.getSnapshot().matches({ sms: 'sending' })).toBe(true);
    expect(r.count('sendSms')).toBe(2);
  });

  it("the lifetime is the server's, counted from when the send was asked for", async () => {
    expect(SMS_CODE_LIFETIME_MS).toBe(CODE_TTL_MS);
    vi.useFakeTimers({ toFake: ['Date'] });
    const r = run();
    await verified(r, details.all);
    const asked = Date.now();
    r.actor.send({ type: 'user.skip' });
    // The answer comes 20 s later: the code's lifetime started when it was asked for.
    vi.setSystemTime(asked + 20_000);
    r.last('sendSms').answer(sends.sent);
    await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));
    expect(r.actor.getSnapshot().context.smsCode).toEqual({
      username: details.all.username,
      mobile: details.all.mobile,
      sentAt: asked,
    });
    vi.setSystemTime(asked + SMS_CODE_LIFETIME_MS);
    r.route(at('authenticator-app-verification'));
    r.route(at('sms-verification'));
    expect(r.count('sendSms')).toBe(2);
  });

  it('a verified code is used: the SMS step reached again sends a new one', async () => {
    const r = run({ verifySms: () => ({ type: 'verified' }) });
    await atSmsWithCode(r);
    r.actor.send({ type: 'user.verify', code: '195302' });
    await waitFor(r.actor, (s) => s.matches({ setPassword: 'form' }));
    r.route(at('sms-verification'));
    expect(r.actor.getSnapshot().matches({ sms: 'sending' })).toBe(true);
    expect(r.count('sendSms')).toBe(2);
  });

  it('a code of another account, or of a reset started again, is not reused', async () => {
    const shared = { ...details.all, identities: details.shared.identities };
    const r = run();
    await verified(r, details.shared);
    r.actor.send({ type: 'user.select', username: 'C10007' });
    r.last('selectUser').answer(detailsOf({ ...shared, username: 'C10007' }));
    await waitFor(r.actor, (s) => s.matches({ authenticatorApp: 'form' }));
    r.actor.send({ type: 'user.skip' });
    r.last('sendSms').answer(sends.sent);
    await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));

    r.route(at('user-selection'));
    r.actor.send({ type: 'user.select', username: 'C10006' });
    r.last('selectUser').answer(detailsOf({ ...shared, username: 'C10006' }));
    await waitFor(r.actor, (s) => s.matches({ authenticatorApp: 'form' }));
    r.actor.send({ type: 'user.skip' });
    expect(r.actor.getSnapshot().matches({ sms: 'sending' })).toBe(true);
    expect(r.count('sendSms')).toBe(2);
    r.last('sendSms').answer(sends.sent);
    await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));

    // Get started again: the reset, and its code, are forgotten.
    r.route(BASE);
    expect(r.actor.getSnapshot().context.smsCode).toBeNull();
    await verified(r, details.all);
    r.actor.send({ type: 'user.skip' });
    expect(r.actor.getSnapshot().matches({ sms: 'sending' })).toBe(true);
    expect(r.count('sendSms')).toBe(3);
  });

  it('a refused first send keeps no code: the step entered again asks once more', async () => {
    const r = run();
    await verified(r, details.all);
    r.actor.send({ type: 'user.skip' });
    r.last('sendSms').answer(sends.refused);
    await waitFor(r.actor, (s) => s.matches({ sms: 'form' }));
    expect(r.actor.getSnapshot().context.resendRefusal).toBe(sends.refused.message);
    expect(r.actor.getSnapshot().context.smsCode).toBeNull();
    r.route(at('authenticator-app-verification'));
    r.route(at('sms-verification'));
    expect(r.actor.getSnapshot().matches({ sms: 'sending' })).toBe(true);
    expect(r.count('sendSms')).toBe(2);
  });
});
