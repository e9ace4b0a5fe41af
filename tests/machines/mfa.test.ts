// Hand-pinned transitions of the MFA step (sections 2.6, 4.3 and 8), with fake actors.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { mfaMachine } from '../../machines/forced/mfa/mfa.machine';
import {
  selectCodeError,
  selectErrorMessage,
  selectNoOtherFactor,
  selectResendRefusal,
  selectResending,
  selectSmsUnavailableMessage,
  selectTrustedDevicePeriod,
  selectVerifying,
  selectView,
} from '../../machines/forced/mfa/mfa.select';
import type {
  CodeChannel,
  ContinueSignInOutput,
  MfaInput,
  MfaNext,
  OutcomeResult,
  ResendResult,
  TrustedDevicePeriod,
  VerifyCodeInput,
} from '../../machines/forced/mfa/mfa.types';
import type { ContinueSignInInput } from '../../machines/forced/continue-sign-in/continue-sign-in.types';
import {
  continuations,
  mfaNexts,
  noLanding,
  outcomes,
  resends,
  SMS_UNAVAILABLE,
  WRONG_CODE,
} from './continue-sign-in.fixtures';

interface Script {
  period?: TrustedDevicePeriod | Error;
  start?: MfaNext;
  skips?: MfaNext[];
  verify?: OutcomeResult[] | Error;
  resend?: ResendResult[];
  continuation?: ContinueSignInOutput;
}

function start(input: Partial<MfaInput> = {}, script: Script = {}) {
  const verifyQueue = script.verify instanceof Error ? [] : [...(script.verify ?? [])];
  const resendQueue = [...(script.resend ?? [])];
  const skipQueue = [...(script.skips ?? [])];
  const calls = {
    starts: 0,
    skips: 0,
    verifies: [] as VerifyCodeInput[],
    resends: [] as CodeChannel[],
    announced: [] as CodeChannel[],
    continuations: [] as ContinueSignInInput[],
  };
  const machine = mfaMachine.provide({
    actors: {
      getTrustedDevicePeriod: fromPromise<TrustedDevicePeriod>(async () => {
        if (script.period instanceof Error) throw script.period;
        return script.period ?? 7;
      }),
      startMfa: fromPromise<MfaNext>(async () => {
        calls.starts += 1;
        return script.start ?? mfaNexts.authenticatorApp;
      }),
      skipMfa: fromPromise<MfaNext>(async () => {
        calls.skips += 1;
        return skipQueue.shift() ?? mfaNexts.none;
      }),
      verifyCode: fromPromise<OutcomeResult, VerifyCodeInput>(async ({ input }) => {
        calls.verifies.push(input);
        if (script.verify instanceof Error) throw script.verify;
        return verifyQueue.shift() ?? { type: 'outcome', outcome: outcomes.directLogin };
      }),
      resendCode: fromPromise<ResendResult, { channel: CodeChannel }>(async ({ input }) => {
        calls.resends.push(input.channel);
        return resendQueue.shift() ?? resends.sent;
      }),
      continueSignIn: fromPromise<ContinueSignInOutput, ContinueSignInInput>(async ({ input }) => {
        calls.continuations.push(input);
        return script.continuation ?? continuations.signedIn;
      }) as never,
    },
    actions: { announceResent: (_, { channel }) => void calls.announced.push(channel) },
  });
  const actor = createActor(machine, {
    input: { factor: null, smsUnavailableMessage: null, ...noLanding, ...input },
  }).start();
  return { actor, calls };
}

type Actor = ReturnType<typeof start>['actor'];
const at = (actor: Actor, view: ReturnType<typeof selectView>) =>
  waitFor(actor, (s) => selectView(s) === view && !selectVerifying(s) && !selectResending(s));

describe('mfa', () => {
  it('opens the screen of the address, with the trusted-device period', async () => {
    const { actor, calls } = start({ factor: 'SMS' });
    await at(actor, 'SMS');
    expect(actor.getSnapshot().getMeta()['mfa.sms']).toMatchObject({
      route: '/forced-actions/mfa/sms-verification',
    });
    expect(selectTrustedDevicePeriod(actor.getSnapshot())).toBe(7);
    expect(calls.starts).toBe(0);
  });

  it('keeps the default period when the server cannot say', async () => {
    const { actor } = start({ factor: 'EMAIL' }, { period: new Error('offline') });
    await at(actor, 'EMAIL');
    expect(selectTrustedDevicePeriod(actor.getSnapshot())).toBeNull();
  });

  it('starts MFA when the address names no factor', async () => {
    const { actor, calls } = start({}, { start: mfaNexts.emailBecauseSmsIsDown });
    await at(actor, 'EMAIL');
    expect(calls.starts).toBe(1);
    expect(selectSmsUnavailableMessage(actor.getSnapshot())).toBe(SMS_UNAVAILABLE);
  });

  it('fails when start names no factor', async () => {
    const { actor } = start({}, { start: mfaNexts.none });
    await at(actor, 'failed');
    expect(selectErrorMessage(actor.getSnapshot())).toBe('Unknown authentication outcome');
  });

  it('verifies the code with trust-this-device and continues sign-in with the outcome', async () => {
    const landing = { targetPath: '/profile', adminTargetPath: '/admin' };
    const { actor, calls } = start(
      { factor: 'AUTHENTICATOR_APP', ...landing },
      { verify: [{ type: 'outcome', outcome: outcomes.directLogin }] },
    );
    await at(actor, 'AUTHENTICATOR_APP');
    actor.send({ type: 'user.verify', code: '123456', trustDevice: true });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(calls.verifies).toEqual([{ factor: 'AUTHENTICATOR_APP', code: '123456', trustDevice: true }]);
    expect(calls.continuations).toEqual([{ outcome: outcomes.directLogin, ...landing }]);
    expect(done.output).toEqual(continuations.signedIn);
  });

  it('shows a wrong code (422) on the code field and clears it on the next try', async () => {
    const { actor } = start({ factor: 'EMAIL' }, { verify: [WRONG_CODE] });
    await at(actor, 'EMAIL');
    actor.send({ type: 'user.verify', code: '000000', trustDevice: false });
    expect(selectVerifying(actor.getSnapshot())).toBe(true);
    await at(actor, 'EMAIL');
    expect(selectCodeError(actor.getSnapshot())).toBe('The code you entered is incorrect.');
    actor.send({ type: 'user.verify', code: '111111', trustDevice: false });
    expect(selectCodeError(actor.getSnapshot())).toBeNull();
  });

  it("skips to the factor the server names (I don't have access), keeping its SMS-unavailable message", async () => {
    const { actor, calls } = start(
      { factor: 'AUTHENTICATOR_APP' },
      { skips: [mfaNexts.sms, mfaNexts.emailBecauseSmsIsDown] },
    );
    await at(actor, 'AUTHENTICATOR_APP');
    actor.send({ type: 'user.skip' });
    await at(actor, 'SMS');
    expect(selectSmsUnavailableMessage(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'user.skip' });
    await at(actor, 'EMAIL');
    expect(selectSmsUnavailableMessage(actor.getSnapshot())).toBe(SMS_UNAVAILABLE);
    expect(calls.skips).toBe(2);
  });

  it('offers no skip on the email screen', async () => {
    const { actor, calls } = start({ factor: 'EMAIL' });
    await at(actor, 'EMAIL');
    actor.send({ type: 'user.skip' });
    expect(selectView(actor.getSnapshot())).toBe('EMAIL');
    expect(calls.skips).toBe(0);
  });

  it('resends a code and announces it', async () => {
    const { actor, calls } = start({ factor: 'SMS' }, { resend: [resends.sent] });
    await at(actor, 'SMS');
    actor.send({ type: 'user.resend' });
    expect(selectResending(actor.getSnapshot())).toBe(true);
    await at(actor, 'SMS');
    expect(calls.resends).toEqual(['sms']);
    expect(calls.announced).toEqual(['sms']);
    expect(selectResendRefusal(actor.getSnapshot())).toBeNull();
  });

  it('shows a refused resend (422) in red and keeps it until another screen', async () => {
    const { actor, calls } = start({ factor: 'EMAIL' }, { resend: [resends.refused] });
    await at(actor, 'EMAIL');
    actor.send({ type: 'user.resend' });
    await at(actor, 'EMAIL');
    expect(selectResendRefusal(actor.getSnapshot())).toBe(resends.refused.message);
    expect(calls.announced).toEqual([]);
    // The link is disabled: another resend is not even asked for.
    actor.send({ type: 'user.resend' });
    expect(selectResending(actor.getSnapshot())).toBe(false);
    expect(calls.resends).toEqual(['email']);
  });

  it('treats an SMS-unavailable resend (503) on the SMS screen as a skip, storing the message', async () => {
    const { actor, calls } = start(
      { factor: 'SMS' },
      { resend: [resends.unavailable], skips: [mfaNexts.email] },
    );
    await at(actor, 'SMS');
    actor.send({ type: 'user.resend' });
    await at(actor, 'EMAIL');
    expect(calls.skips).toBe(1);
    expect(selectSmsUnavailableMessage(actor.getSnapshot())).toBe(SMS_UNAVAILABLE);
  });

  it('shows an email resend 503 like a refused resend', async () => {
    const { actor } = start({ factor: 'EMAIL' }, { resend: [resends.unavailable] });
    await at(actor, 'EMAIL');
    actor.send({ type: 'user.resend' });
    await at(actor, 'EMAIL');
    expect(selectResendRefusal(actor.getSnapshot())).toBe(SMS_UNAVAILABLE);
  });

  it('fails on an unexpected failure', async () => {
    const broken = start({ factor: 'SMS' }, { verify: new Error('offline') });
    await at(broken.actor, 'SMS');
    broken.actor.send({ type: 'user.verify', code: '123456', trustDevice: false });
    await at(broken.actor, 'failed');
    expect(selectErrorMessage(broken.actor.getSnapshot())).toBe('offline');
  });

  it('stays on the screen, offering no skip, when the skip names no factor after it', async () => {
    const noNext = start({ factor: 'AUTHENTICATOR_APP' }, { skips: [mfaNexts.none] });
    await at(noNext.actor, 'AUTHENTICATOR_APP');
    expect(selectNoOtherFactor(noNext.actor.getSnapshot())).toBe(false);
    noNext.actor.send({ type: 'user.skip' });
    await waitFor(noNext.actor, (s) => s.matches('skipping'));
    await at(noNext.actor, 'AUTHENTICATOR_APP');
    expect(selectNoOtherFactor(noNext.actor.getSnapshot())).toBe(true);
    expect(selectErrorMessage(noNext.actor.getSnapshot())).toBeNull();
    // Asking again goes nowhere: the skip is not offered any more.
    noNext.actor.send({ type: 'user.skip' });
    expect(noNext.actor.getSnapshot().matches({ authenticatorApp: 'form' })).toBe(true);
    expect(noNext.calls.skips).toBe(1);
    // The code of this factor still signs in.
    noNext.actor.send({ type: 'user.verify', code: '123456', trustDevice: false });
    await waitFor(noNext.actor, (s) => s.matches('continuing') || s.status === 'done');
  });

  it("fails with the continuation's message when sign-in cannot continue", async () => {
    const { actor } = start({ factor: 'SMS' }, { continuation: continuations.failed });
    await at(actor, 'SMS');
    actor.send({ type: 'user.verify', code: '123456', trustDevice: false });
    await at(actor, 'failed');
    expect(selectErrorMessage(actor.getSnapshot())).toBe('Unknown authentication outcome');
  });

  it('keeps the SMS-unavailable message handed over by sign-in', async () => {
    const { actor } = start({ factor: 'EMAIL', smsUnavailableMessage: SMS_UNAVAILABLE });
    await at(actor, 'EMAIL');
    expect(selectSmsUnavailableMessage(actor.getSnapshot())).toBe(SMS_UNAVAILABLE);
  });
});
