// Hand-pinned transitions of the sign-in machine (section 4.1), with fake actors.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { signInMachine } from '../../machines/sign-in/sign-in.machine';
import {
  selectCaptchaDraw,
  selectFieldErrors,
  selectRefusalMessage,
  selectShowsSecurityCode,
  selectView,
} from '../../machines/sign-in/sign-in.select';
import type {
  FailedAuthCount,
  FailedAuthCountInput,
  LoginInput,
  LoginResult,
  MfaStart,
  SignInInput,
} from '../../machines/sign-in/sign-in.types';
import type { CurrentUser } from '../../src/contract/entities';
import { UNKNOWN_OUTCOME_MESSAGE } from '../../src/contract/errors';
import {
  counts,
  credentials,
  input,
  loginResults,
  mfaStarts,
  portalContext,
  previousSignInAttempt,
  users,
} from './fixtures/sign-in.fixtures';

interface Script {
  counts?: FailedAuthCount[];
  login?: LoginResult[] | Error;
  user?: CurrentUser | Error;
  mfa?: MfaStart;
  input?: Partial<SignInInput>;
}

function start(script: Script = {}) {
  const countQueue = [...(script.counts ?? [counts.none])];
  const loginQueue = script.login instanceof Error ? [] : [...(script.login ?? [])];
  const calls = {
    counts: [] as FailedAuthCountInput[],
    logins: [] as LoginInput[],
    users: 0,
    mfaStarts: 0,
    jwtPosts: [] as { jwt: string; frameOrigin: string }[],
  };
  const machine = signInMachine.provide({
    actors: {
      getFailedAuthCount: fromPromise<FailedAuthCount, FailedAuthCountInput>(async ({ input }) => {
        calls.counts.push(input);
        return countQueue.shift() ?? counts.none;
      }),
      login: fromPromise<LoginResult, LoginInput>(async ({ input }) => {
        calls.logins.push(input);
        if (script.login instanceof Error) throw script.login;
        const next = loginQueue.shift();
        if (!next) throw new Error('No login result scripted');
        return next;
      }),
      getCurrentUser: fromPromise<CurrentUser>(async () => {
        calls.users += 1;
        if (script.user instanceof Error) throw script.user;
        return script.user ?? users.customer;
      }),
      startMfa: fromPromise<MfaStart>(async () => {
        calls.mfaStarts += 1;
        return script.mfa ?? mfaStarts.authenticatorApp;
      }),
    },
    actions: {
      postJwtToParent: (_, handoff) => {
        calls.jwtPosts.push(handoff);
      },
    },
  });
  const actor = createActor(machine, { input: { ...input, ...script.input } }).start();
  return { actor, calls };
}

const atForm = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (s) => s.matches('form'));
const submit = (actor: ReturnType<typeof start>['actor'], captchaCode: string | null = null) =>
  actor.send({ type: 'user.submit', ...credentials, captchaCode });
const finished = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (s) => s.status === 'done');

describe('sign-in: the form and the failed count', () => {
  it('loads the failed count without a username and shows the form without a security code', async () => {
    const { actor, calls } = start({ counts: [counts.none] });
    expect(selectView(actor.getSnapshot())).toBe('loading');
    const snapshot = await atForm(actor);
    expect(calls.counts).toEqual([{}]);
    expect(selectShowsSecurityCode(snapshot)).toBe(false);
    expect(selectCaptchaDraw(snapshot)).toBe(1);
  });

  it('asks for the security code once the count reaches 3, with a captcha image', async () => {
    const { actor } = start({ counts: [counts.threshold] });
    const snapshot = await atForm(actor);
    expect(selectShowsSecurityCode(snapshot)).toBe(true);
    expect(selectCaptchaDraw(snapshot)).toBe(1);
  });

  it('does not ask for it at a count of 2', async () => {
    const { actor } = start({ counts: [{ count: 2 }] });
    expect(selectShowsSecurityCode(await atForm(actor))).toBe(false);
  });

  it('refreshes the captcha on request, only while the security code is asked', async () => {
    const challenged = start({ counts: [counts.threshold] });
    await atForm(challenged.actor);
    challenged.actor.send({ type: 'user.refreshCaptcha' });
    expect(selectCaptchaDraw(challenged.actor.getSnapshot())).toBe(2);
    challenged.actor.send({ type: 'user.refreshCaptcha' });
    expect(selectCaptchaDraw(challenged.actor.getSnapshot())).toBe(3);

    const plain = start({ counts: [counts.none] });
    await atForm(plain.actor);
    plain.actor.send({ type: 'user.refreshCaptcha' });
    expect(selectCaptchaDraw(plain.actor.getSnapshot())).toBe(1);
  });

  it('sends the credentials, the security code and the context fields, and never stores the password', async () => {
    const { actor, calls } = start({ counts: [counts.threshold], login: [loginResults.unavailable] });
    await atForm(actor);
    submit(actor, 'X7KQ2');
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain(credentials.password);
    await waitFor(actor, (s) => s.matches('unavailable'));
    expect(calls.logins).toEqual([{ ...portalContext, ...credentials, captchaCode: 'X7KQ2' }]);
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain(credentials.password);
  });
});

describe('sign-in: refusals', () => {
  it('after wrong credentials refetches the count for the username tried and redraws the captcha', async () => {
    const { actor, calls } = start({
      counts: [counts.none, counts.afterRefusal],
      login: [loginResults.wrongCredentials],
    });
    await atForm(actor);
    submit(actor);
    await waitFor(actor, (s) => s.matches('recheckingFailedCount'));
    const snapshot = await atForm(actor);
    expect(calls.counts).toEqual([{}, { username: 'C10001' }]);
    expect(selectRefusalMessage(snapshot)).toBe('The username or password you entered is incorrect.');
    expect(selectShowsSecurityCode(snapshot)).toBe(true);
    expect(selectCaptchaDraw(snapshot)).toBe(2);
  });

  it('redraws the captcha after each failure and attaches field errors', async () => {
    const { actor } = start({
      counts: [counts.threshold, counts.afterRefusal],
      login: [loginResults.wrongSecurityCode],
    });
    expect(selectCaptchaDraw(await atForm(actor))).toBe(1);
    submit(actor, 'WRONG');
    await waitFor(actor, (s) => s.matches('recheckingFailedCount'));
    const snapshot = await atForm(actor);
    expect(selectCaptchaDraw(snapshot)).toBe(2);
    expect(selectFieldErrors(snapshot)).toEqual({
      captchaCode: 'The security code you entered is incorrect.',
    });
  });

  it('stops asking for the security code when the count of the username tried is below 3', async () => {
    const { actor } = start({
      counts: [counts.threshold, counts.belowAfterRefusal],
      login: [loginResults.wrongCredentials],
    });
    await atForm(actor);
    submit(actor, 'X7KQ2');
    await waitFor(actor, (s) => s.matches('recheckingFailedCount'));
    expect(selectShowsSecurityCode(await atForm(actor))).toBe(false);
  });

  it('clears the refusal on the next submit', async () => {
    const { actor } = start({
      counts: [counts.none, counts.none],
      login: [loginResults.wrongCredentials, loginResults.unavailable],
    });
    await atForm(actor);
    submit(actor);
    await waitFor(actor, (s) => s.matches('recheckingFailedCount'));
    await atForm(actor);
    submit(actor);
    expect(actor.getSnapshot().context.refusal).toBeNull();
  });

  it('goes to sign-in unavailable on 503, and back to the form from the Sign in link', async () => {
    const { actor, calls } = start({ counts: [counts.none, counts.none], login: [loginResults.unavailable] });
    await atForm(actor);
    submit(actor);
    const snapshot = await waitFor(actor, (s) => s.matches('unavailable'));
    expect(selectView(snapshot)).toBe('unavailable');
    expect(snapshot.context.unavailableMessage).toBe('Sign in is currently unavailable.');
    actor.send({ type: 'route.changed', path: '/registration' });
    expect(actor.getSnapshot().matches('unavailable')).toBe(true);
    actor.send({ type: 'route.changed', path: '/' });
    expect(actor.getSnapshot().matches('loadingFailedCount')).toBe(true);
    await atForm(actor);
    expect(calls.counts).toHaveLength(2);
    expect(actor.getSnapshot().context.unavailableMessage).toBeNull();
  });
});

describe('sign-in: outcomes', () => {
  it('SAML_HANDOFF: keeps the handoff for the hidden form', async () => {
    const { actor } = start({ login: [loginResults.samlHandoff] });
    await atForm(actor);
    submit(actor);
    const snapshot = await waitFor(actor, (s) => s.matches('postingSaml'));
    expect(selectView(snapshot)).toBe('postingSaml');
    expect(snapshot.context.samlHandoff).toEqual({
      assertionConsumerServiceUrl: 'https://loans.example.com/saml/acs',
      samlResponse: 'PHNhbWxwOlJlc3BvbnNlLz4=',
      relayState: 'loans-home',
    });
  });

  it("JWT inside the application's frame: posts the token to the parent frame at the exact origin", async () => {
    const { actor, calls } = start({ input: { insideFrame: true }, login: [loginResults.jwtHandoff] });
    await atForm(actor);
    submit(actor);
    await waitFor(actor, (s) => s.matches('handingOffToParent'));
    expect(selectView(actor.getSnapshot())).toBe('handingOff');
    expect(calls.jwtPosts).toEqual([
      { jwt: 'header.payload.signature', frameOrigin: 'https://treasury.example.com' },
    ]);
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('header.payload.signature');
  });

  it('JWT in a tab of its own: nothing is posted; the error view, and the Sign in link starts again', async () => {
    const { actor, calls } = start({ input: { insideFrame: false }, login: [loginResults.jwtHandoff] });
    await atForm(actor);
    submit(actor);
    const snapshot = await waitFor(actor, (s) => s.matches('jwtOutsideFrame'));
    expect(selectView(snapshot)).toBe('jwtOutsideFrame');
    expect(calls.jwtPosts).toEqual([]);
    expect(JSON.stringify(snapshot.context)).not.toContain('header.payload.signature');
    // Another address than sign-in's is not the machine's to take.
    actor.send({ type: 'route.changed', path: '/profile' });
    expect(actor.getSnapshot().matches('jwtOutsideFrame')).toBe(true);
    actor.send({ type: 'route.changed', path: '/' });
    await atForm(actor);
    expect(calls.counts).toHaveLength(2);
  });

  it('JWT without a frame origin is never posted: unknown outcome', async () => {
    const { actor, calls } = start({ input: { insideFrame: true }, login: [loginResults.jwtWithoutOrigin] });
    await atForm(actor);
    submit(actor);
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot.context.errorMessage).toBe(UNKNOWN_OUTCOME_MESSAGE);
    expect(calls.jwtPosts).toEqual([]);
  });

  it('409 on the JWT frame handoff goes to /session-expired-error', async () => {
    const { actor } = start({
      input: { context: { ...portalContext, type: 'JWT' } },
      login: [loginResults.sessionExpired],
    });
    await atForm(actor);
    submit(actor);
    const snapshot = await finished(actor);
    expect(snapshot.output).toEqual({ kind: 'sessionExpired', route: '/session-expired-error' });
  });

  it.each([
    ['changeExpiredPassword', '/forced-actions/change-expired-password'],
    ['factorEnrolment', '/forced-actions/factor-enrolment'],
    ['selectFacility', '/forced-actions/select-facility'],
    ['duplicateAccounts', '/forced-actions/duplicate-accounts'],
  ] as const)('FORCED_ACTION %s: loads the user, then goes to %s', async (result, route) => {
    const { actor, calls } = start({ login: [loginResults[result]], user: users.pending });
    await atForm(actor);
    submit(actor);
    const snapshot = await finished(actor);
    expect(calls.users).toBe(1);
    expect(calls.mfaStarts).toBe(0);
    expect(snapshot.output).toEqual({
      kind: 'forcedAction',
      route,
      currentUser: users.pending,
      smsUnavailableMessage: null,
    });
  });

  it.each([
    ['authenticatorApp', '/forced-actions/mfa/authenticator-app-verification', null],
    ['sms', '/forced-actions/mfa/sms-verification', null],
    [
      'emailBecauseSmsIsDown',
      '/forced-actions/mfa/email-verification',
      mfaStarts.emailBecauseSmsIsDown.smsUnavailableMessage,
    ],
  ] as const)(
    'FORCED_ACTION MFA: loads the user, starts MFA, goes to the %s route',
    async (start_, route, message) => {
      const { actor, calls } = start({
        login: [loginResults.mfa],
        user: users.pending,
        mfa: mfaStarts[start_],
      });
      await atForm(actor);
      submit(actor);
      await waitFor(actor, (s) => s.matches({ forcedAction: 'startingMfa' }));
      expect(calls.users).toBe(1);
      const snapshot = await finished(actor);
      expect(calls.mfaStarts).toBe(1);
      expect(snapshot.output).toEqual({
        kind: 'forcedAction',
        route,
        currentUser: users.pending,
        smsUnavailableMessage: message,
      });
    },
  );

  it('MFA without a next factor is an unknown outcome', async () => {
    const { actor } = start({ login: [loginResults.mfa], user: users.pending, mfa: mfaStarts.none });
    await atForm(actor);
    submit(actor);
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot.context.errorMessage).toBe(UNKNOWN_OUTCOME_MESSAGE);
  });

  it('any other outcome is an error: Unknown authentication outcome', async () => {
    const { actor } = start({ login: [loginResults.unknownOutcome] });
    await atForm(actor);
    submit(actor);
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));
    expect(selectView(snapshot)).toBe('failed');
    expect(snapshot.context.errorMessage).toBe('Unknown authentication outcome');
  });

  it('an unexpected failure is shown with the server message, and the Sign in link starts again', async () => {
    const error = Object.assign(new Error('Request failed'), {
      status: 500,
      body: { message: 'Internal error' },
    });
    const { actor } = start({ counts: [counts.none, counts.none], login: error });
    await atForm(actor);
    submit(actor);
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot.context.errorMessage).toBe('Internal error');
    actor.send({ type: 'route.changed', path: '/' });
    expect(selectView(await atForm(actor))).toBe('form');
  });

  it('a new attempt starts clean: nothing of the failed one stays in context', async () => {
    const { actor } = start({
      counts: [counts.none, counts.none],
      login: [loginResults.mfa],
      mfa: mfaStarts.none,
    });
    await atForm(actor);
    submit(actor);
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.forcedAction).toBe('MFA');
    expect(failed.context.currentUser).not.toBeNull();
    actor.send({ type: 'route.changed', path: '/' });
    const fresh = await atForm(actor);
    expect(fresh.context).toMatchObject({
      forcedAction: null,
      currentUser: null,
      errorMessage: null,
      route: null,
      smsUnavailableMessage: null,
    });
  });

  it('a failed user load after DIRECT_LOGIN is shown as a failure', async () => {
    const { actor } = start({ login: [loginResults.directLogin], user: new Error('offline') });
    await atForm(actor);
    submit(actor);
    expect((await waitFor(actor, (s) => s.matches('failed'))).context.errorMessage).toBe('offline');
  });
});

describe('sign-in: DIRECT_LOGIN landing, in order', () => {
  const land = async (script: Script) => {
    const { actor, calls } = start({ login: [loginResults.directLogin], ...script });
    await atForm(actor);
    submit(actor);
    const snapshot = await finished(actor);
    expect(calls.users).toBe(1);
    return snapshot.output;
  };

  it('1. the remembered target path, before everything else', async () => {
    const output = await land({
      input: { targetPath: '/profile/change-name', adminTargetPath: '/admin/apps' },
      login: [loginResults.singleSignOn],
      user: users.auditor,
    });
    expect(output).toEqual({
      kind: 'signedIn',
      route: '/profile/change-name',
      currentUser: users.auditor,
      previousSignInAttempt,
      singleSignOnAppName: null,
    });
  });

  it('2. else the admin target path', async () => {
    const output = await land({
      input: { adminTargetPath: '/admin/apps' },
      login: [loginResults.singleSignOn],
      user: users.auditor,
    });
    expect(output?.route).toBe('/admin/apps');
  });

  it('3. else for single sign-on the single-sign-on error page, naming the app', async () => {
    const output = await land({ login: [loginResults.singleSignOn], user: users.auditor });
    expect(output).toMatchObject({ route: '/single-sign-on-error', singleSignOnAppName: 'Loans' });
  });

  it('4. else /access-requests for VIEW_ACCESS_REQUESTS holders', async () => {
    expect((await land({ user: users.auditor }))?.route).toBe('/access-requests');
  });

  it('5. else the applications page, with the previous sign-in attempt recorded', async () => {
    expect(await land({ user: users.customer })).toEqual({
      kind: 'signedIn',
      route: '/profile/my-applications',
      currentUser: users.customer,
      previousSignInAttempt,
      singleSignOnAppName: null,
    });
  });
});
