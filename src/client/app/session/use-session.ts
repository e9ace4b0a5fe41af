// useSession(): the session state and what the app and flows may do with it.
import { createContext, useContext } from 'react';
import type { CurrentUser, PreviousSignInAttempt } from '../../../contract/entities';
import type { SessionState } from './session-store';

export interface Session extends SessionState {
  /** Loads the current user (and context) again from the server. */
  reload(): Promise<CurrentUser>;
  setCurrentUser(user: CurrentUser): void;
  /** Forgets the user, the target paths and the context (sign-out). */
  clear(): void;
  /** Remembers a /profile or /access-requests path (or an /admin path as the admin target). */
  rememberTargetPath(path: string): void;
  clearTargetPaths(): void;
  /** Keeps the application a single sign-on could not hand off to, for /single-sign-on-error. */
  rememberSingleSignOnApp(appName: string): void;
  clearSingleSignOnApp(): void;
  /** A pending sign-in was sent to the forced step at this route. */
  rememberPendingStep(route: string): void;
  /** Shows the previous sign-in toast for 8 s. */
  showPreviousSignIn(attempt: PreviousSignInAttempt): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() needs a <SessionProvider> above it');
  return session;
}
