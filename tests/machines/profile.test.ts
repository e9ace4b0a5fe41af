// Hand-pinned transitions of the profile machines (sections 2.3, 4.7 and 8), with fake actors: the
// single-step form (read-only once identity verified, 422 on the fields, saved, cancel), the code
// wizards (step 2 needs its parameter, resend, cancel call, SMS 503) and the authenticator-app
// wizards (setup, code and current password, back and forward); an unexpected failure in either
// wizard shows the progress of the step it came from (section 2.3).
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyActorLogic } from 'xstate';
import type {
  AppSetup,
  VerifyAppInput,
  VerifyAppResult,
} from '../../machines/profile/app-wizard/app-wizard.types';
import { changeAuthenticatorAppMachine } from '../../machines/profile/change-authenticator-app/change-authenticator-app.machine';
import { selectProgress as selectAppWizardProgress } from '../../machines/profile/app-wizard/app-wizard.select';
import { changeEmailMachine } from '../../machines/profile/change-email/change-email.machine';
import type {
  ResendResult,
  StartInput,
  StartResult,
  VerifyResult,
} from '../../machines/profile/code-wizard/code-wizard.types';
import {
  selectProgress as selectCodeWizardProgress,
  selectView as selectCodeWizardView,
} from '../../machines/profile/code-wizard/code-wizard.select';
import { enrolSmsMachine } from '../../machines/profile/enrol-sms/enrol-sms.machine';
import { profileFormMachine } from '../../machines/profile/profile-form/profile-form.machine';
import { selectView } from '../../machines/profile/profile-form/profile-form.select';
import type { FormValues, SubmitResult } from '../../machines/profile/profile-form/profile-form.types';
import { PROFILE_ROUTE, PROFILE_ROUTES } from '../../machines/routes';
import { users } from './continue-sign-in.fixtures';

const user = users.customer;
const refused = (fieldName: string, message: string) => ({
  type: 'refused' as const,
  message,
  fieldErrors: [{ fieldName, message }],
});
const routeOf = (actor: { getSnapshot(): { getMeta(): unknown } }) =>
  Object.values(actor.getSnapshot().getMeta() as Record<string, { route?: string } | undefined>).find(
    (m) => m?.route,
  )?.route;

function queue<T>(items: Array<T | Error>) {
  const list = [...items];
  return async () => {
    const next = list.shift();
    if (next === undefined) throw new Error('Nothing scripted');
    if (next instanceof Error) throw next;
    return next;
  };
}

describe('profile form', () => {
  function start(script: {
    verified?: boolean | Error;
    submit?: Array<SubmitResult | Error>;
    locked?: boolean;
  }) {
    const submitted: FormValues[] = [];
    const submit = queue(script.submit ?? []);
    const actor = createActor(
      profileFormMachine.provide({
        actors: {
          isIdentityVerified: fromPromise<boolean>(async () => {
            if (script.verified instanceof Error) throw script.verified;
            return script.verified ?? false;
          }),
          submit: fromPromise<SubmitResult, FormValues>(async ({ input }) => {
            submitted.push(input);
            return submit();
          }),
        },
      }),
      { input: { lockedWhenVerified: script.locked ?? true } },
    ).start();
    return { actor, submitted };
  }

  it('is read-only once the identity is verified, on the screens locked so; Back goes to /profile', async () => {
    const { actor } = start({ verified: true });
    await waitFor(actor, (s) => s.matches('readOnly'));
    expect(selectView(actor.getSnapshot())).toBe('readOnly');
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().output).toEqual({ kind: 'cancelled', route: PROFILE_ROUTE });
  });

  it('is editable for a verified identity on a screen not locked (change phone)', async () => {
    const { actor } = start({ verified: true, locked: false });
    await waitFor(actor, (s) => s.matches('form'));
  });

  it('shows a 422 on the fields, keeps no values, and hands over the updated user when saved', async () => {
    const { actor, submitted } = start({
      submit: [refused('currentPassword', 'The password is incorrect.'), { type: 'saved', user }],
    });
    await waitFor(actor, (s) => s.matches('form'));
    actor.send({ type: 'user.submit', values: { currentPassword: 'wrong', name: 'New Name' } });
    await waitFor(actor, (s) => s.matches('form') && s.context.refusal !== null);
    expect(actor.getSnapshot().context.refusal?.fieldErrors).toEqual([
      { fieldName: 'currentPassword', message: 'The password is incorrect.' },
    ]);
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('wrong');
    actor.send({ type: 'user.submit', values: { currentPassword: 'right', name: 'New Name' } });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ kind: 'saved', route: PROFILE_ROUTE, user });
    expect(submitted).toEqual([
      { currentPassword: 'wrong', name: 'New Name' },
      { currentPassword: 'right', name: 'New Name' },
    ]);
  });

  it('fails on an unexpected error and leaves by Back', async () => {
    const { actor } = start({ verified: new Error('Network down') });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.errorMessage).toBe('Network down');
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().status).toBe('done');
  });
});

describe('code wizards', () => {
  function start(
    machine: typeof changeEmailMachine,
    script: {
      start?: Array<StartResult | Error>;
      verify?: Array<VerifyResult | Error>;
      resend?: Array<ResendResult | Error>;
    },
  ) {
    const calls = { starts: [] as StartInput[], codes: [] as string[], cancels: 0, resent: 0 };
    const [startNext, verifyNext, resendNext] = [
      queue(script.start ?? []),
      queue(script.verify ?? []),
      queue(script.resend ?? []),
    ];
    const actor = createActor(
      machine.provide({
        actors: {
          start: fromPromise<StartResult, StartInput>(async ({ input }) => {
            calls.starts.push(input);
            return startNext();
          }),
          verify: fromPromise<VerifyResult, { code: string }>(async ({ input }) => {
            calls.codes.push(input.code);
            return verifyNext();
          }),
          resend: fromPromise<ResendResult>(() => resendNext()),
          cancelChange: fromPromise<void>(async () => {
            calls.cancels += 1;
          }),
        },
        actions: { announceResent: () => (calls.resent += 1) },
      }),
    ).start();
    return { actor, calls };
  }

  it('change email: step 1 at 50, step 2 at 100 with the email, verified gives the updated user', async () => {
    const { actor, calls } = start(changeEmailMachine, {
      start: [refused('email', 'Invalid email format'), { type: 'codeSent', destination: 'new@example.com' }],
      verify: [refused('code', 'The code is incorrect.'), { type: 'verified', user }],
    });
    expect(actor.getSnapshot().getMeta()['changeEmail.details']).toMatchObject({
      route: PROFILE_ROUTES.CHANGE_EMAIL,
      progress: 50,
    });
    actor.send({ type: 'user.start', currentPassword: 'pw', value: 'bad' });
    await waitFor(actor, (s) => s.matches('details') && s.context.refusal !== null);
    actor.send({ type: 'user.start', currentPassword: 'pw', value: 'new@example.com' });
    await waitFor(actor, (s) => s.matches('verification'));
    expect(actor.getSnapshot().context.destination).toBe('new@example.com');
    expect(routeOf(actor)).toBe(`${PROFILE_ROUTES.CHANGE_EMAIL}/email-verification`);
    expect(actor.getSnapshot().getMeta()['changeEmail.verification']).toMatchObject({ progress: 100 });
    actor.send({ type: 'user.verify', code: '000000' });
    await waitFor(actor, (s) => s.matches('verification') && s.context.codeRefusal !== null);
    actor.send({ type: 'user.verify', code: '123456' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ kind: 'saved', route: PROFILE_ROUTE, user });
    expect(calls.codes).toEqual(['000000', '123456']);
  });

  it('step 2 needs its parameter: the verification address without one stays at step 1', () => {
    const { actor } = start(changeEmailMachine, {});
    actor.send({ type: 'route.changed', path: `${PROFILE_ROUTES.CHANGE_EMAIL}/email-verification` });
    expect(actor.getSnapshot().value).toBe('details');
  });

  it('back to step 1 and forward again once a code was sent', async () => {
    const { actor } = start(changeEmailMachine, { start: [{ type: 'codeSent', destination: 'a@b.co' }] });
    actor.send({ type: 'user.start', currentPassword: 'pw', value: 'a@b.co' });
    await waitFor(actor, (s) => s.matches('verification'));
    actor.send({ type: 'route.changed', path: PROFILE_ROUTES.CHANGE_EMAIL });
    expect(actor.getSnapshot().value).toBe('details');
    actor.send({ type: 'route.changed', path: `${PROFILE_ROUTES.CHANGE_EMAIL}/email-verification` });
    expect(actor.getSnapshot().value).toBe('verification');
  });

  it('cancelling step 2 calls the cancel endpoint and returns to /profile', async () => {
    const { actor, calls } = start(changeEmailMachine, {
      start: [{ type: 'codeSent', destination: 'a@b.co' }],
    });
    actor.send({ type: 'user.start', currentPassword: 'pw', value: 'a@b.co' });
    await waitFor(actor, (s) => s.matches('verification'));
    actor.send({ type: 'user.cancel' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.cancels).toBe(1);
    expect(actor.getSnapshot().output).toEqual({ kind: 'cancelled', route: PROFILE_ROUTE });
  });

  it('cancelling step 1 calls nothing', () => {
    const { actor, calls } = start(changeEmailMachine, {});
    actor.send({ type: 'user.cancel' });
    expect(calls.cancels).toBe(0);
    expect(actor.getSnapshot().output).toEqual({ kind: 'cancelled', route: PROFILE_ROUTE });
  });

  it('an SMS 503 at start stores the customer message and returns to /profile', async () => {
    const { actor } = start(enrolSmsMachine, {
      start: [{ type: 'unavailable', message: 'SMS unavailable.' }],
    });
    actor.send({ type: 'user.start', currentPassword: 'pw', value: '+61 400 000 010' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({
      kind: 'unavailable',
      route: PROFILE_ROUTE,
      message: 'SMS unavailable.',
    });
  });

  it('resend: announced when sent; a refused resend disables the link', async () => {
    const { actor, calls } = start(enrolSmsMachine, {
      start: [{ type: 'codeSent', destination: '+61 400 000 010' }],
      resend: [
        { type: 'sent' },
        { type: 'refused', message: 'Too soon' },
        { type: 'unavailable', message: 'Down' },
      ],
    });
    actor.send({ type: 'user.start', currentPassword: 'pw', value: '+61 400 000 010' });
    await waitFor(actor, (s) => s.matches('verification'));
    actor.send({ type: 'user.resend' });
    await waitFor(actor, (s) => s.matches('verification'));
    expect(calls.resent).toBe(1);
    actor.send({ type: 'user.resend' });
    await waitFor(actor, (s) => s.matches('verification') && s.context.resendRefusal !== null);
    actor.send({ type: 'user.resend' });
    expect(actor.getSnapshot().value).toBe('verification');
  });

  it('an unexpected failure keeps the step it came from: a failed start at 50, a failed code or resend at 100', async () => {
    const down = new Error('Down');
    const failedStart = start(changeEmailMachine, { start: [down] }).actor;
    failedStart.send({ type: 'user.start', currentPassword: 'pw', value: 'a@b.co' });
    await waitFor(failedStart, (s) => s.matches('failed'));
    expect(selectCodeWizardView(failedStart.getSnapshot())).toBe('failed');
    expect(selectCodeWizardProgress(failedStart.getSnapshot())).toBe(50);

    const sent = { type: 'codeSent', destination: '+61 400 000 010' } as const;
    for (const script of [
      { start: [sent], verify: [down] },
      { start: [sent], resend: [down] },
    ]) {
      const { actor } = start(enrolSmsMachine, script);
      actor.send({ type: 'user.start', currentPassword: 'pw', value: '+61 400 000 010' });
      await waitFor(actor, (s) => s.matches('verification'));
      if (script.verify) actor.send({ type: 'user.verify', code: '123456' });
      else actor.send({ type: 'user.resend' });
      await waitFor(actor, (s) => s.matches('failed'));
      expect(actor.getSnapshot().context.errorMessage).toBe('Down');
      expect(selectCodeWizardProgress(actor.getSnapshot())).toBe(100);
    }
  });

  it('start answering the updated user needs no code', async () => {
    const { actor } = start(changeEmailMachine, { start: [{ type: 'updated', user }] });
    actor.send({ type: 'user.start', currentPassword: 'pw', value: 'same' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ kind: 'saved', route: PROFILE_ROUTE, user });
  });
});

describe('authenticator-app wizards', () => {
  const setupAnswer: AppSetup = { setupKey: 'ABCD EFGH', qrCode: 'data:image/png;base64,AAAA' };

  function start(script: { setup?: AppSetup | Error; verify?: Array<VerifyAppResult | Error> }) {
    const verified: VerifyAppInput[] = [];
    const next = queue(script.verify ?? []);
    const actor = createActor(
      changeAuthenticatorAppMachine.provide({
        actors: {
          loadSetup: fromPromise<AppSetup>(async () => {
            if (script.setup instanceof Error) throw script.setup;
            return script.setup ?? setupAnswer;
          }),
          verify: fromPromise<VerifyAppResult, VerifyAppInput>(async ({ input }) => {
            verified.push(input);
            return next();
          }),
        },
      }) as AnyActorLogic,
    ).start();
    return { actor, verified };
  }

  it('shows the setup, then verifies a code with the current password', async () => {
    const { actor, verified } = start({
      verify: [refused('code', 'The code is incorrect.'), { type: 'verified' }],
    });
    await waitFor(actor, (s) => s.matches('setup'));
    expect(actor.getSnapshot().context.setup).toEqual(setupAnswer);
    expect(routeOf(actor)).toBe(PROFILE_ROUTES.CHANGE_AUTHENTICATOR_APP);
    actor.send({ type: 'user.next' });
    expect(routeOf(actor)).toBe(`${PROFILE_ROUTES.CHANGE_AUTHENTICATOR_APP}/code-verification`);
    actor.send({ type: 'route.changed', path: PROFILE_ROUTES.CHANGE_AUTHENTICATOR_APP });
    expect(actor.getSnapshot().value).toBe('setup');
    actor.send({
      type: 'route.changed',
      path: `${PROFILE_ROUTES.CHANGE_AUTHENTICATOR_APP}/code-verification`,
    });
    actor.send({ type: 'user.verify', code: '000000', currentPassword: 'pw' });
    await waitFor(actor, (s) => s.matches('verification') && s.context.refusal !== null);
    actor.send({ type: 'user.verify', code: '123456', currentPassword: 'pw' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ kind: 'saved', route: PROFILE_ROUTE, user: null });
    expect(verified).toEqual([
      { code: '000000', currentPassword: 'pw' },
      { code: '123456', currentPassword: 'pw' },
    ]);
  });

  it('step 2 needs the setup: its address while loading is ignored', () => {
    const { actor } = start({ setup: new Promise(() => {}) as never });
    actor.send({
      type: 'route.changed',
      path: `${PROFILE_ROUTES.CHANGE_AUTHENTICATOR_APP}/code-verification`,
    });
    expect(actor.getSnapshot().value).toBe('loading');
  });

  it('a failed setup leaves by Back', async () => {
    const { actor } = start({ setup: new Error('Down') });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectAppWizardProgress(actor.getSnapshot() as never)).toBe(50);
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().output).toEqual({ kind: 'cancelled', route: PROFILE_ROUTE });
  });

  it('progress: step 1 at 50, step 2 at 100, and a failed verification keeps step 2', async () => {
    const { actor } = start({ verify: [new Error('Down')] });
    expect(selectAppWizardProgress(actor.getSnapshot() as never)).toBe(50);
    await waitFor(actor, (s) => s.matches('setup'));
    expect(selectAppWizardProgress(actor.getSnapshot() as never)).toBe(50);
    actor.send({ type: 'user.next' });
    expect(selectAppWizardProgress(actor.getSnapshot() as never)).toBe(100);
    actor.send({ type: 'user.verify', code: '123456', currentPassword: 'pw' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectAppWizardProgress(actor.getSnapshot() as never)).toBe(100);
  });
});
