// What a page does when its sign-in machine is done (the sign-in page, every forced step, and the
// flows that end in a sign-in): the session first, then the route. One function for all of them,
// so a step cannot hand over differently from sign-in.
import type { ForcedStepOutput } from '../../../../machines/forced/continue-sign-in/forced-step';
import type { SignInOutput } from '../../../../machines/sign-in/sign-in.types';
import { ANONYMOUS_USER } from '../../../contract/entities';
import type { Session } from '../../app/session';

export type FlowOutput = SignInOutput | ForcedStepOutput;

/** State handed to the next page with the navigation (read through useLocation().state). */
export interface FlowNavigationState {
  /** The MFA screens show it (MFA start said SMS is unavailable). */
  smsUnavailableMessage?: string;
}

export type FlowOutputSession = Pick<
  Session,
  | 'setCurrentUser'
  | 'showPreviousSignIn'
  | 'clearTargetPaths'
  | 'rememberSingleSignOnApp'
  | 'clearSingleSignOnApp'
  | 'rememberPendingStep'
>;

export function applyFlowOutput(
  output: FlowOutput,
  session: FlowOutputSession,
  navigate: (to: string, options: { replace: boolean; state?: FlowNavigationState }) => void,
): void {
  switch (output.kind) {
    case 'signedIn':
      session.setCurrentUser(output.currentUser);
      if (output.previousSignInAttempt) session.showPreviousSignIn(output.previousSignInAttempt);
      session.clearTargetPaths();
      // The single-sign-on error page names the application; it survives a reload of that page.
      if (output.singleSignOnAppName) session.rememberSingleSignOnApp(output.singleSignOnAppName);
      else session.clearSingleSignOnApp();
      navigate(output.route, { replace: true });
      return;
    case 'forcedAction': {
      session.setCurrentUser(output.currentUser);
      session.rememberPendingStep(output.route);
      const state = output.smsUnavailableMessage
        ? { smsUnavailableMessage: output.smsUnavailableMessage }
        : undefined;
      navigate(output.route, { replace: true, state });
      return;
    }
    case 'sessionExpired':
      navigate(output.route, { replace: true });
      return;
    case 'cancelled':
      // The server has ended the session (POST logout): the pending user is gone here as well.
      session.setCurrentUser(ANONYMOUS_USER);
      navigate(output.route, { replace: true });
  }
}
