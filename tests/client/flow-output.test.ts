// How the sign-in page, every forced step and the flows ending in a sign-in hand over when their
// machine is done: the session first, then the route; Cancel leaves an anonymous user at '/'.
import { describe, expect, it, vi } from 'vitest';
import type { ForcedStepOutput } from '../../machines/forced/continue-sign-in/forced-step';
import { applyFlowOutput } from '../../src/client/flows/shared/flow-output';
import { ANONYMOUS_USER } from '../../src/contract/entities';
import { previousAttempt, users } from './fixtures';

function recorder() {
  const calls: unknown[][] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      void calls.push([name, ...args]);
  const session = {
    setCurrentUser: vi.fn(record('setCurrentUser')),
    showPreviousSignIn: vi.fn(record('showPreviousSignIn')),
    clearTargetPaths: vi.fn(record('clearTargetPaths')),
    rememberSingleSignOnApp: vi.fn(record('rememberSingleSignOnApp')),
    clearSingleSignOnApp: vi.fn(record('clearSingleSignOnApp')),
    rememberPendingStep: vi.fn(record('rememberPendingStep')),
  };
  return { calls, session, navigate: record('navigate') };
}

const outputs: Exclude<ForcedStepOutput, { kind: 'cancelled' }>[] = [
  {
    kind: 'signedIn',
    route: '/profile/my-applications',
    currentUser: users.customer,
    previousSignInAttempt: previousAttempt,
    singleSignOnAppName: null,
  },
  {
    kind: 'signedIn',
    route: '/single-sign-on-error',
    currentUser: users.customer,
    previousSignInAttempt: null,
    singleSignOnAppName: 'Loans',
  },
  {
    kind: 'forcedAction',
    route: '/forced-actions/mfa/email-verification',
    currentUser: users.pending,
    smsUnavailableMessage: 'SMS verification codes are currently unavailable.',
  },
  {
    kind: 'forcedAction',
    route: '/forced-actions/select-facility',
    currentUser: users.pending,
    smsUnavailableMessage: null,
  },
];

describe('a finished sign-in flow hands over', () => {
  it.each(outputs.map((o) => [`${o.kind} to ${o.route}`, o] as const))('%s', (_, output) => {
    const { calls, session, navigate } = recorder();
    applyFlowOutput(output, session, navigate);
    if (output.kind === 'signedIn') {
      expect(calls).toEqual([
        ['setCurrentUser', output.currentUser],
        ...(output.previousSignInAttempt ? [['showPreviousSignIn', output.previousSignInAttempt]] : []),
        ['clearTargetPaths'],
        output.singleSignOnAppName
          ? ['rememberSingleSignOnApp', output.singleSignOnAppName]
          : ['clearSingleSignOnApp'],
        ['navigate', output.route, { replace: true }],
      ]);
    } else {
      const state = output.smsUnavailableMessage
        ? { smsUnavailableMessage: output.smsUnavailableMessage }
        : undefined;
      // A forced step keeps the target paths: the sign-in is not complete yet. Its route is
      // remembered: the forced-actions guard keeps the sign-in at it.
      expect(calls).toEqual([
        ['setCurrentUser', output.currentUser],
        ['rememberPendingStep', output.route],
        ['navigate', output.route, { replace: true, state }],
      ]);
    }
  });

  it('409 on the frame handoff: only the route', () => {
    const { calls, session, navigate } = recorder();
    applyFlowOutput({ kind: 'sessionExpired', route: '/session-expired-error' }, session, navigate);
    expect(calls).toEqual([['navigate', '/session-expired-error', { replace: true }]]);
  });

  it('Cancel: an anonymous user at /, target paths kept', () => {
    const { calls, session, navigate } = recorder();
    applyFlowOutput({ kind: 'cancelled', route: '/' }, session, navigate);
    expect(calls).toEqual([
      ['setCurrentUser', ANONYMOUS_USER],
      ['navigate', '/', { replace: true }],
    ]);
  });
});
