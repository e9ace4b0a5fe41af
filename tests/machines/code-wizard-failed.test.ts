// Leaving a code wizard's failure view (section 4.7): once step 1 has started a change (a code was
// sent), Back goes through the cancel call, as cancelling step 2 does, so the started change does
// not stay pending on the server; a failure before any code was sent has nothing to cancel.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { changeEmailMachine } from '../../machines/profile/change-email/change-email.machine';
import { changeMobileMachine } from '../../machines/profile/change-mobile/change-mobile.machine';
import type { CodeWizardMachine } from '../../machines/profile/code-wizard/code-wizard.machine';
import { selectCancelling, selectView } from '../../machines/profile/code-wizard/code-wizard.select';
import type {
  ResendResult,
  StartInput,
  StartResult,
  VerifyResult,
} from '../../machines/profile/code-wizard/code-wizard.types';
import { enrolSmsMachine } from '../../machines/profile/enrol-sms/enrol-sms.machine';
import { PROFILE_ROUTE, PROFILE_ROUTES } from '../../machines/routes';

const DOWN = new Error('The server could not be reached.');
const SENT = { type: 'codeSent', destination: 'new@example.com' } as const;

function start(
  machine: CodeWizardMachine,
  script: { start: Array<StartResult | Error>; verify?: Error; resend?: Error; cancel?: Error },
) {
  const calls = { cancels: 0 };
  const starts = [...script.start];
  const actor = createActor(
    machine.provide({
      actors: {
        start: fromPromise<StartResult, StartInput>(async () => {
          const next = starts.shift();
          if (next === undefined) throw new Error('Nothing scripted');
          if (next instanceof Error) throw next;
          return next;
        }),
        verify: fromPromise<VerifyResult, { code: string }>(async () => {
          throw script.verify ?? new Error('Nothing scripted');
        }),
        resend: fromPromise<ResendResult>(async () => {
          throw script.resend ?? new Error('Nothing scripted');
        }),
        cancelChange: fromPromise<void>(async () => {
          calls.cancels += 1;
          if (script.cancel) throw script.cancel;
        }),
      },
    }),
  ).start();
  return { actor, calls };
}

async function toStep2(actor: ReturnType<typeof start>['actor']) {
  actor.send({ type: 'user.start', currentPassword: 'pw', value: SENT.destination });
  await waitFor(actor, (s) => s.matches('verification'));
}

describe("a code wizard's failure view, left by Back", () => {
  it.each([
    ['change email', changeEmailMachine],
    ['change mobile', changeMobileMachine],
    ['enable SMS', enrolSmsMachine],
  ] as const)('%s: a failed code check calls the cancel endpoint, then /profile', async (_, machine) => {
    const { actor, calls } = start(machine, { start: [SENT], verify: DOWN });
    await toStep2(actor);
    actor.send({ type: 'user.verify', code: '123456' });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'user.cancel' });
    // The cancel call is on its way, shown as cancelling.
    expect(selectCancelling(actor.getSnapshot())).toBe(true);
    expect(selectView(actor.getSnapshot())).toBe('verification');
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.cancels).toBe(1);
    expect(actor.getSnapshot().output).toEqual({ kind: 'cancelled', route: PROFILE_ROUTE });
  });

  it('a failed resend calls the cancel endpoint; a failed cancel call still returns to /profile', async () => {
    const { actor, calls } = start(changeMobileMachine, { start: [SENT], resend: DOWN, cancel: DOWN });
    await toStep2(actor);
    actor.send({ type: 'user.resend' });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'user.cancel' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.cancels).toBe(1);
    expect(actor.getSnapshot().output).toEqual({ kind: 'cancelled', route: PROFILE_ROUTE });
  });

  it('a failed step 1 after a code was sent (back to step 1, sent again) calls the cancel endpoint', async () => {
    const { actor, calls } = start(changeEmailMachine, { start: [SENT, DOWN] });
    await toStep2(actor);
    actor.send({ type: 'route.changed', path: PROFILE_ROUTES.CHANGE_EMAIL });
    expect(actor.getSnapshot().value).toBe('details');
    actor.send({ type: 'user.start', currentPassword: 'pw', value: 'other@example.com' });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'user.cancel' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.cancels).toBe(1);
  });

  it('a failed first step 1 started nothing: Back returns to /profile without a call', async () => {
    const { actor, calls } = start(changeEmailMachine, { start: [DOWN] });
    actor.send({ type: 'user.start', currentPassword: 'pw', value: SENT.destination });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(calls.cancels).toBe(0);
    expect(actor.getSnapshot().output).toEqual({ kind: 'cancelled', route: PROFILE_ROUTE });
  });
});

describe('a code wizard left from step 1 after a code was sent', () => {
  it('Cancel at step 1, reached back from step 2, calls the cancel endpoint', async () => {
    const { actor, calls } = start(changeEmailMachine, { start: [SENT] });
    await toStep2(actor);
    actor.send({ type: 'route.changed', path: PROFILE_ROUTES.CHANGE_EMAIL });
    expect(actor.getSnapshot().value).toBe('details');
    actor.send({ type: 'user.cancel' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.cancels).toBe(1);
    expect(actor.getSnapshot().output).toEqual({ kind: 'cancelled', route: PROFILE_ROUTE });
  });

  it('Cancel at step 1 before any code was sent makes no call', async () => {
    const { actor, calls } = start(changeEmailMachine, { start: [] });
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(calls.cancels).toBe(0);
  });
});
