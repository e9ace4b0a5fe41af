import type {
  AuthenticationOutcome,
  CurrentUser,
  ForcedAction,
  PreviousSignInAttempt,
} from '../../../src/contract/entities';
import type { MfaStart, SignInOutput } from '../../sign-in/sign-in.types';
import type { LandingInput } from './forced-step';

export type { MfaStart };

/** The answer of a forced step's call and where sign-in would land. */
export interface ContinueSignInInput extends LandingInput {
  outcome: AuthenticationOutcome;
}

export interface ContinueSignInContext extends LandingInput {
  outcome: AuthenticationOutcome;
  /** FORCED_ACTION: the next step the server requires. */
  forcedAction: ForcedAction | null;
  /** The user as loaded after the outcome. */
  currentUser: CurrentUser | null;
  previousSignInAttempt: PreviousSignInAttempt | null;
  /** MFA start: the message kept for the MFA screens. */
  smsUnavailableMessage: string | null;
  /** Where the finished continuation hands over. */
  route: string | null;
  /** 'Unknown authentication outcome' or the message of an unexpected failure. */
  errorMessage: string | null;
}

/** The continuation has no events of its own: its actors' answers move it. */
export type ContinueSignInEvent = never;

/**
 * How the page updates the session once sign-in has continued: the same hand-overs as the sign-in
 * page's (signedIn, forcedAction), or the failure its step shows.
 */
export type ContinueSignInOutput =
  | Extract<SignInOutput, { kind: 'signedIn' }>
  | Extract<SignInOutput, { kind: 'forcedAction' }>
  | { kind: 'failed'; message: string };
