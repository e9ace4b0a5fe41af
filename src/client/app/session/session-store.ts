// The local session state: the current user, the context the portal was opened in, and the
// remembered target paths (section 4.1). Plain TypeScript so that the api layer can invalidate it
// on a 401 or a 422 reroute; React reads it through SessionProvider.
import { ANONYMOUS_USER, type Context, type CurrentUser } from '../../../contract/entities';

/** Who the portal treats the visitor as after the session was invalidated or cleared. */
export { ANONYMOUS_USER };

export interface SessionState {
  /** null until the first load has answered. */
  currentUser: CurrentUser | null;
  context: Context | null;
  /** A /profile or /access-requests path asked for before signing in. */
  targetPath: string | null;
  /** An /admin path asked for before signing in as an admin. */
  adminTargetPath: string | null;
  /** The application a single sign-on could not hand off to (section 2.1, /single-sign-on-error). */
  singleSignOnAppName: string | null;
  /** The route of the forced step a pending sign-in was last sent to (guards.ts keeps it there). */
  pendingStep: string | null;
}

export interface LoadedSession {
  currentUser: CurrentUser;
  context: Context | null;
}

export type SessionLoader = () => Promise<LoadedSession>;
export type TargetPathKind = 'targetPath' | 'adminTargetPath';

const STORAGE_KEYS: Record<TargetPathKind, string> = {
  targetPath: 'portal.targetPath',
  adminTargetPath: 'portal.adminTargetPath',
};

const SINGLE_SIGN_ON_APP_KEY = 'portal.singleSignOnApp';
const PENDING_STEP_KEY = 'portal.pendingStep';
/**
 * The merge wizard's stored data (flows/forced/merge-accounts/merge-accounts.storage.ts): other
 * accounts' usernames and names and a new email, the user's own, so it goes with the session.
 * Named here so that the sign-in page does not load the wizard's storage code.
 */
export const MERGE_WIZARD_STORAGE_KEY = 'merge-accounts.wizard';

const isUnder = (path: string, base: string) =>
  path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`);

/** Section 4.1: which remembered path a path belongs to, if any. */
export function targetPathKind(path: string): TargetPathKind | null {
  if (isUnder(path, '/admin')) return 'adminTargetPath';
  if (isUnder(path, '/profile') || isUnder(path, '/access-requests')) return 'targetPath';
  return null;
}

/** Session storage, for a reload of the tab; where it is refused, the value lives in memory only. */
function readKey(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeKey(key: string, value: string | null): void {
  try {
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, value);
  } catch {
    // Storage refused: the value is still kept in memory for this page.
  }
}

const readStored = (kind: TargetPathKind) => readKey(STORAGE_KEYS[kind]);
const writeStored = (kind: TargetPathKind, value: string | null) => writeKey(STORAGE_KEYS[kind], value);
const forgetMergeWizard = () => writeKey(MERGE_WIZARD_STORAGE_KEY, null);
const writeStoredSingleSignOnApp = (value: string | null) => writeKey(SINGLE_SIGN_ON_APP_KEY, value);

export class SessionStore {
  private state: SessionState;
  private readonly listeners = new Set<() => void>();
  private loader: SessionLoader | null;
  private loading: Promise<CurrentUser> | null = null;
  private firstLoad: Promise<CurrentUser> | null = null;
  /** Bumped by every local change, so a load that started before it cannot overwrite it. */
  private generation = 0;

  constructor(loader: SessionLoader | null = null) {
    this.loader = loader;
    this.state = {
      currentUser: null,
      context: null,
      targetPath: readStored('targetPath'),
      adminTargetPath: readStored('adminTargetPath'),
      singleSignOnAppName: readKey(SINGLE_SIGN_ON_APP_KEY),
      pendingStep: readKey(PENDING_STEP_KEY),
    };
  }

  configure(loader: SessionLoader): void {
    this.loader = loader;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getState = (): SessionState => this.state;

  /** The user once the first load has answered (starts it if nobody has). */
  ready(): Promise<CurrentUser> {
    const { currentUser } = this.state;
    if (currentUser !== null) return Promise.resolve(currentUser);
    this.firstLoad ??= this.reload();
    return this.firstLoad;
  }

  /** Loads the current user and context again; concurrent callers share one load. */
  reload(): Promise<CurrentUser> {
    if (this.loading) return this.loading;
    const loader = this.loader;
    if (!loader) return Promise.reject(new Error('SessionStore: no loader configured'));
    const startedAt = this.generation;
    const loading = loader()
      .then(({ currentUser, context }) => {
        if (this.generation === startedAt) this.update({ currentUser, context });
        return this.state.currentUser ?? currentUser;
      })
      .finally(() => {
        if (this.loading === loading) this.loading = null;
        if (this.state.currentUser === null) this.firstLoad = null;
      });
    this.loading = loading;
    return loading;
  }

  setCurrentUser(currentUser: CurrentUser): void {
    this.generation++;
    this.update({ currentUser });
  }

  /** A 401 or a 422 reroute: the server has forgotten the user, so do we. */
  invalidate(): void {
    this.generation++;
    // The merge wizard's data (other accounts' usernames and names, a new email) is the user's.
    forgetMergeWizard();
    this.forgetPendingStep();
    this.update({ currentUser: ANONYMOUS_USER });
  }

  /** Sign-out: the user, the target paths, the single sign-on app name, the context and the merge wizard's data go. */
  clear(): void {
    this.generation++;
    forgetMergeWizard();
    this.clearTargetPaths();
    this.clearSingleSignOnApp();
    this.forgetPendingStep();
    this.update({ currentUser: ANONYMOUS_USER, context: null });
  }

  /** A pending sign-in was sent to the forced step at `route`. */
  rememberPendingStep(route: string): void {
    writeKey(PENDING_STEP_KEY, route);
    this.update({ pendingStep: route });
  }

  private forgetPendingStep(): void {
    writeKey(PENDING_STEP_KEY, null);
    this.update({ pendingStep: null });
  }

  /** Keeps the name of the application a single sign-on could not hand off to (session storage). */
  rememberSingleSignOnApp(appName: string): void {
    writeStoredSingleSignOnApp(appName);
    this.update({ singleSignOnAppName: appName });
  }

  clearSingleSignOnApp(): void {
    writeStoredSingleSignOnApp(null);
    this.update({ singleSignOnAppName: null });
  }

  /** Remembers `path` as the target or admin target path when section 4.1 says so. */
  rememberTargetPath(path: string): TargetPathKind | null {
    const kind = targetPathKind(path);
    if (kind) this.remember(kind, path);
    return kind;
  }

  remember(kind: TargetPathKind, path: string): void {
    writeStored(kind, path);
    this.update({ [kind]: path });
  }

  clearTargetPaths(): void {
    writeStored('targetPath', null);
    writeStored('adminTargetPath', null);
    this.update({ targetPath: null, adminTargetPath: null });
  }

  private update(patch: Partial<SessionState>): void {
    const next = { ...this.state, ...patch };
    const changed = (Object.keys(patch) as (keyof SessionState)[]).some((k) => next[k] !== this.state[k]);
    if (!changed) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}

/** The page's one session; start-up gives it its loader (see app/services.ts). */
export const sessionStore = new SessionStore();
