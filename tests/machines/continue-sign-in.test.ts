// Hand-pinned transitions of continue-sign-in (sections 4.1 and 4.3): what a forced step does with
// the authentication outcome its call answered.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { continueSignInMachine } from '../../machines/forced/continue-sign-in/continue-sign-in.machine';
import {
  selectContinueSignInView,
  selectSamlHandoff,
} from '../../machines/forced/continue-sign-in/continue-sign-in.select';
import type {
  ContinueSignInInput,
  MfaStart,
} from '../../machines/forced/continue-sign-in/continue-sign-in.types';
import type { AuthenticationOutcome, CurrentUser } from '../../src/contract/entities';
import {
  mfaNexts,
  noLanding,
  outcomes,
  previousSignInAttempt,
  SMS_UNAVAILABLE,
  users,
} from './continue-sign-in.fixtures';

interface Script {
  user?: CurrentUser | Error;
  mfa?: MfaStart | Error;
  landing?: Partial<ContinueSignInInput>;
  /** The page in a tab of its own, not in a frame (the app's isOutsideFrame guard). */
  outsideFrame?: boolean;
}

function start(outcome: AuthenticationOutcome, script: Script = {}) {
  const calls = { users: 0, mfaStarts: 0, jwtPosts: [] as { jwt: string; frameOrigin: string }[] };
  const machine = continueSignInMachine.provide({
    actors: {
      getCurrentUser: fromPromise<CurrentUser>(async () => {
        calls.users += 1;
        if (script.user instanceof Error) throw script.user;
        return script.user ?? users.customer;
      }),
      startMfa: fromPromise<MfaStart>(async () => {
        calls.mfaStarts += 1;
        if (script.mfa instanceof Error) throw script.mfa;
        return script.mfa ?? mfaNexts.authenticatorApp;
      }),
    },
    actions: { postJwtToParent: (_, handoff) => void calls.jwtPosts.push(handoff) },
    guards: { isOutsideFrame: () => script.outsideFrame === true },
  });
  const actor = createActor(machine, { input: { outcome, ...noLanding, ...script.landing } }).start();
  return { actor, calls };
}

const finished = async (actor: ReturnType<typeof start>['actor']) =>
  (await waitFor(actor, (s) => s.status === 'done')).output;

describe('continue-sign-in', () => {
  it('lands a direct login on the applications page with the previous sign-in attempt', async () => {
    const { actor, calls } = start(outcomes.directLogin);
    expect(await finished(actor)).toEqual({
      kind: 'signedIn',
      route: '/profile/my-applications',
      currentUser: users.customer,
      previousSignInAttempt,
      singleSignOnAppName: null,
    });
    expect(calls.users).toBe(1);
  });

  it('lands on the target path first, then the admin target path', async () => {
    const both = start(outcomes.directLogin, {
      landing: { targetPath: '/profile/change-name', adminTargetPath: '/admin/apps' },
    });
    expect(await finished(both.actor)).toMatchObject({ route: '/profile/change-name' });
    const admin = start(outcomes.directLogin, { landing: { adminTargetPath: '/admin/apps' } });
    expect(await finished(admin.actor)).toMatchObject({ route: '/admin/apps' });
  });

  it('lands a single sign-on without access on the single-sign-on error page, naming the app', async () => {
    const { actor } = start(outcomes.singleSignOn);
    expect(await finished(actor)).toMatchObject({
      kind: 'signedIn',
      route: '/single-sign-on-error',
      singleSignOnAppName: 'Loans',
    });
  });

  it('lands a VIEW_ACCESS_REQUESTS holder on /access-requests', async () => {
    const { actor } = start(outcomes.directLogin, { user: users.auditor });
    expect(await finished(actor)).toMatchObject({ route: '/access-requests', currentUser: users.auditor });
  });

  it('forwards to the next forced action with the pending user', async () => {
    const facility = start(outcomes.selectFacility, { user: users.pending });
    expect(await finished(facility.actor)).toEqual({
      kind: 'forcedAction',
      route: '/forced-actions/select-facility',
      currentUser: users.pending,
      smsUnavailableMessage: null,
    });
    expect(facility.calls.mfaStarts).toBe(0);
    const duplicates = start(outcomes.duplicateAccounts, { user: users.pending });
    expect(await finished(duplicates.actor)).toMatchObject({ route: '/forced-actions/duplicate-accounts' });
  });

  it('starts MFA and forwards to the screen of the next factor, keeping the SMS-unavailable message', async () => {
    const { actor, calls } = start(outcomes.mfa, {
      user: users.pending,
      mfa: mfaNexts.emailBecauseSmsIsDown,
    });
    expect(await finished(actor)).toEqual({
      kind: 'forcedAction',
      route: '/forced-actions/mfa/email-verification',
      currentUser: users.pending,
      smsUnavailableMessage: SMS_UNAVAILABLE,
    });
    expect(calls.mfaStarts).toBe(1);
  });

  it('fails when MFA start names no factor', async () => {
    const { actor } = start(outcomes.mfa, { user: users.pending, mfa: mfaNexts.none });
    expect(await finished(actor)).toEqual({ kind: 'failed', message: 'Unknown authentication outcome' });
  });

  it('keeps a SAML handoff for the view to post, and finishes no further', async () => {
    const { actor, calls } = start(outcomes.samlHandoff);
    expect(actor.getSnapshot().value).toBe('postingSaml');
    expect(selectContinueSignInView(actor.getSnapshot())).toBe('postingSaml');
    expect(selectSamlHandoff(actor.getSnapshot())).toEqual(outcomes.samlHandoff.saml);
    expect(calls.users).toBe(0);
  });

  it('posts a JWT to the exact frame origin the server named', () => {
    const { actor, calls } = start(outcomes.jwtHandoff);
    expect(actor.getSnapshot().value).toBe('handingOffToParent');
    expect(selectContinueSignInView(actor.getSnapshot())).toBe('handingOff');
    expect(calls.jwtPosts).toEqual([
      { jwt: 'header.payload.signature', frameOrigin: 'https://treasury.example.com' },
    ]);
  });

  it('posts no JWT when the page is in no frame: the step says to open the application', async () => {
    const { actor, calls } = start(outcomes.jwtHandoff, { outsideFrame: true });
    expect(await finished(actor)).toEqual({
      kind: 'failed',
      message:
        'This sign-in belongs to an application that shows it within its own pages, so it cannot be completed here. Open the application and sign in there.',
    });
    expect(calls.jwtPosts).toEqual([]);
  });

  it("reports 'Unknown authentication outcome' for a JWT without origin and for an unknown outcome", async () => {
    const noOrigin = start(outcomes.jwtWithoutOrigin);
    expect(await finished(noOrigin.actor)).toEqual({
      kind: 'failed',
      message: 'Unknown authentication outcome',
    });
    expect(noOrigin.calls.jwtPosts).toEqual([]);
    const unknown = start(outcomes.unknown);
    expect(await finished(unknown.actor)).toEqual({
      kind: 'failed',
      message: 'Unknown authentication outcome',
    });
  });

  it("reports an unexpected failure with the server's message", async () => {
    const failure = Object.assign(new Error('x'), { body: { message: 'The server is unavailable.' } });
    const { actor } = start(outcomes.directLogin, { user: failure });
    expect(await finished(actor)).toEqual({ kind: 'failed', message: 'The server is unavailable.' });
    const mfa = start(outcomes.mfa, { user: users.pending, mfa: new Error('MFA could not start') });
    expect(await finished(mfa.actor)).toEqual({ kind: 'failed', message: 'MFA could not start' });
  });

  it('shows progress for a step whose continuation is not a machine (a test fake)', () => {
    expect(selectContinueSignInView(undefined)).toBe('signingIn');
    expect(selectContinueSignInView({ status: 'active', output: undefined })).toBe('signingIn');
    expect(selectSamlHandoff({ status: 'active' })).toBeNull();
  });
});
