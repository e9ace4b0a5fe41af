export { SessionProvider, type SessionProviderProps } from './SessionProvider';
export { useSession, type Session } from './use-session';
export {
  ANONYMOUS_USER,
  SessionStore,
  sessionStore,
  targetPathKind,
  type LoadedSession,
  type SessionState,
  type TargetPathKind,
} from './session-store';
