// Hand-pinned transitions of the change-expired-password step (sections 2.6, 4.3 and 5), with fake
// actors; the continuation is faked as a promise that answers its output.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { changeExpiredPasswordMachine } from '../../machines/forced/change-expired-password/change-expired-password.machine';
import type { LandingInput } from '../../machines/forced/continue-sign-in/forced-step';
import {
  selectBusy,
  selectErrorMessage,
  selectRefusal,
  selectView,
} from '../../machines/forced/change-expired-password/change-expired-password.select';
import type {
  ContinueSignInInput,
  ContinueSignInOutput,
  NewPasswordInput,
  OutcomeResult,
} from '../../machines/forced/change-expired-password/change-expired-password.types';
import { continuations, noLanding, outcomes, PASSWORD_POLICY_REFUSAL } from './continue-sign-in.fixtures';

const NEW_PASSWORD = { password: 'Quiet-Harbour-2027', confirmPassword: 'Quiet-Harbour-2027' };

interface Script {
  change?: OutcomeResult[] | Error;
  continuation?: ContinueSignInOutput | Error;
  logout?: Error;
}

function start(script: Script = {}, landing: LandingInput = noLanding) {
  const queue = script.change instanceof Error ? [] : [...(script.change ?? [])];
  const calls = { changes: [] as NewPasswordInput[], continuations: [] as ContinueSignInInput[], logouts: 0 };
  const machine = changeExpiredPasswordMachine.provide({
    actors: {
      changeExpiredPassword: fromPromise<OutcomeResult, NewPasswordInput>(async ({ input }) => {
        calls.changes.push(input);
        if (script.change instanceof Error) throw script.change;
        const next = queue.shift();
        if (!next) throw new Error('No change result scripted');
        return next;
      }),
      continueSignIn: fromPromise<ContinueSignInOutput, ContinueSignInInput>(async ({ input }) => {
        calls.continuations.push(input);
        if (script.continuation instanceof Error) throw script.continuation;
        return script.continuation ?? continuations.signedIn;
      }) as never,
      logout: fromPromise<void>(async () => {
        calls.logouts += 1;
        if (script.logout) throw script.logout;
      }),
    },
  });
  const actor = createActor(machine, { input: landing }).start();
  return { actor, calls };
}

const settled = (actor: ReturnType<typeof start>['actor'], state: string) =>
  waitFor(actor, (s) => s.matches(state as never) || s.status === 'done');

describe('change-expired-password', () => {
  it('starts on the form at /forced-actions/change-expired-password', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('form');
    expect(actor.getSnapshot().getMeta()['changeExpiredPassword.form']).toMatchObject({
      route: '/forced-actions/change-expired-password',
    });
    expect(selectView(actor.getSnapshot())).toBe('form');
  });

  it('sends the new password and its confirmation and never keeps them', async () => {
    const { actor, calls } = start({ change: [{ type: 'outcome', outcome: outcomes.directLogin }] });
    actor.send({ type: 'user.submit', ...NEW_PASSWORD });
    expect(selectBusy(actor.getSnapshot())).toBe(true);
    await settled(actor, 'never');
    expect(calls.changes).toEqual([NEW_PASSWORD]);
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain(NEW_PASSWORD.password);
  });

  it('continues sign-in with the outcome and the remembered paths, and hands over its output', async () => {
    const landing = { targetPath: '/profile', adminTargetPath: null };
    const { actor, calls } = start(
      { change: [{ type: 'outcome', outcome: outcomes.mfa }], continuation: continuations.forwardedToMfa },
      landing,
    );
    actor.send({ type: 'user.submit', ...NEW_PASSWORD });
    const done = await settled(actor, 'never');
    expect(calls.continuations).toEqual([{ outcome: outcomes.mfa, ...landing }]);
    expect(done.output).toEqual(continuations.forwardedToMfa);
  });

  it('shows a 422 (policy or blocklist) on the form, and clears it on the next submit', async () => {
    const { actor } = start({
      change: [PASSWORD_POLICY_REFUSAL, { type: 'outcome', outcome: outcomes.directLogin }],
    });
    actor.send({ type: 'user.submit', ...NEW_PASSWORD });
    await settled(actor, 'form');
    expect(selectRefusal(actor.getSnapshot())).toEqual({
      message: PASSWORD_POLICY_REFUSAL.message,
      fieldErrors: PASSWORD_POLICY_REFUSAL.fieldErrors,
    });
    actor.send({ type: 'user.submit', ...NEW_PASSWORD });
    expect(selectRefusal(actor.getSnapshot())).toBeNull();
    expect((await settled(actor, 'never')).output).toEqual(continuations.signedIn);
  });

  it('Cancel invalidates the session (POST logout) and goes to /', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.cancel' });
    expect(selectView(actor.getSnapshot())).toBe('cancelling');
    const done = await settled(actor, 'never');
    expect(calls.logouts).toBe(1);
    expect(done.output).toEqual({ kind: 'cancelled', route: '/' });
  });

  it('goes to / even when logout fails unexpectedly', async () => {
    const { actor } = start({ logout: new Error('offline') });
    actor.send({ type: 'user.cancel' });
    expect((await settled(actor, 'never')).output).toEqual({ kind: 'cancelled', route: '/' });
  });

  it('shows an unexpected failure, from which Cancel still leads out', async () => {
    const failure = Object.assign(new Error('x'), { body: { message: 'The service is unavailable.' } });
    const { actor, calls } = start({ change: failure });
    actor.send({ type: 'user.submit', ...NEW_PASSWORD });
    await settled(actor, 'failed');
    expect(selectView(actor.getSnapshot())).toBe('failed');
    expect(selectErrorMessage(actor.getSnapshot())).toBe('The service is unavailable.');
    actor.send({ type: 'user.cancel' });
    expect((await settled(actor, 'never')).output).toEqual({ kind: 'cancelled', route: '/' });
    expect(calls.logouts).toBe(1);
  });

  it("fails with the continuation's message when sign-in cannot continue", async () => {
    const { actor } = start({
      change: [{ type: 'outcome', outcome: outcomes.unknown }],
      continuation: continuations.failed,
    });
    actor.send({ type: 'user.submit', ...NEW_PASSWORD });
    await settled(actor, 'failed');
    expect(selectErrorMessage(actor.getSnapshot())).toBe('Unknown authentication outcome');
    const broken = start({
      change: [{ type: 'outcome', outcome: outcomes.directLogin }],
      continuation: new Error('lost'),
    });
    broken.actor.send({ type: 'user.submit', ...NEW_PASSWORD });
    await settled(broken.actor, 'failed');
    expect(selectErrorMessage(broken.actor.getSnapshot())).toBe('lost');
  });

  it('ignores a submit while one is under way', async () => {
    const { actor, calls } = start({ change: [{ type: 'outcome', outcome: outcomes.directLogin }] });
    actor.send({ type: 'user.submit', ...NEW_PASSWORD });
    actor.send({ type: 'user.submit', ...NEW_PASSWORD });
    actor.send({ type: 'user.cancel' });
    await settled(actor, 'never');
    expect(calls.changes).toHaveLength(1);
    expect(calls.logouts).toBe(0);
  });
});
