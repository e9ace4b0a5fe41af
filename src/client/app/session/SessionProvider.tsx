// Gives React the session store (currentUser is null until the first load answers).
import { useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { loadChunk } from '../chunk-reload';
import { sessionStore as defaultStore, type SessionStore } from './session-store';
import { SessionContext, type Session } from './use-session';

export interface SessionProviderProps {
  /** Tests pass their own store; the app uses the page's one. */
  store?: SessionStore;
  children: ReactNode;
}

export function SessionProvider({ store = defaultStore, children }: SessionProviderProps) {
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);

  useEffect(() => {
    // A failed load has been handled by the api layer (it navigated to /error).
    store.ready().catch(() => {});
  }, [store]);

  const session = useMemo<Session>(
    () => ({
      ...state,
      reload: () => store.reload(),
      setCurrentUser: (user) => store.setCurrentUser(user),
      clear: () => store.clear(),
      rememberTargetPath: (path) => {
        store.rememberTargetPath(path);
      },
      clearTargetPaths: () => store.clearTargetPaths(),
      rememberSingleSignOnApp: (appName) => store.rememberSingleSignOnApp(appName),
      clearSingleSignOnApp: () => store.clearSingleSignOnApp(),
      rememberPendingStep: (route) => store.rememberPendingStep(route),
      showPreviousSignIn: (attempt) => {
        // The toast code arrives with the first toast, not with the sign-in page.
        void loadChunk(() => import('../toasts'), 'toasts').then((toasts) =>
          toasts.showPreviousSignInToast(attempt),
        );
      },
    }),
    [state, store],
  );

  return <SessionContext value={session}>{children}</SessionContext>;
}
