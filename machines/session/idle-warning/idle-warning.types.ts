export interface IdleWarningContext {
  /** Milliseconds the session had left when this was last heard (x-session-expires-in). */
  expiresInMs: number | null;
}

/**
 * GET anonymous/current-user: whether the session is still signed in or pending, and the time left
 * its answer said (null if it said none).
 */
export type SessionCheck = { alive: boolean; expiresInMs: number | null };

export type IdleWarningEvent =
  /** An answer said how long the session has left (the api layer, from any call). */
  | { type: 'session.seen'; expiresInMs: number }
  /** 'Stay signed in' in the warning. */
  | { type: 'user.staySignedIn' }
  /** 'Sign out' in the warning: the shell's sign-out. */
  | { type: 'user.signOut' };
