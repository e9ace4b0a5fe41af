// The idle warning as the shell mounts it for a signed-in user, inside the app's providers and a
// router, with the page's one session store (section 8's 401 handling acts on it), the scripted
// fake API as its actor, and a simulated clock for its delays (watcher-shell.ts). An answer's time
// left reaches it the way the api layer passes answers' headers on (notifyResponse).
import type { InspectionEvent } from 'xstate';
import { idleWarningMachine } from '../../../machines/session/idle-warning/idle-warning.machine';
import IdleWarning from '../../../src/client/app/idle-warning/IdleWarning';
import { registerNavigator } from '../../../src/client/app/navigation';
import { sessionStore } from '../../../src/client/app/session/session-store';
import type { CurrentUser } from '../../../src/contract/entities';
import { mountWatcher } from './watcher-shell';

export const IDLE_WARNING_SOURCES = ['checkSession'] as const;

export function mountIdleWarning(user: CurrentUser, inspectExtra?: (event: InspectionEvent) => void) {
  // Section 8's 401 handling, which the warning's end uses, acts on the page's one session store
  // and navigates through the api layer's navigator.
  sessionStore.clear();
  sessionStore.setCurrentUser(user);
  return mountWatcher({
    machineId: idleWarningMachine.id,
    sources: IDLE_WARNING_SOURCES,
    store: sessionStore,
    heading: 'Profile',
    path: '/profile',
    watcher: (clock) => <IdleWarning clock={clock} />,
    inspectExtra,
    withRouter: (router) =>
      registerNavigator(
        (to, options) => router.navigate(to, options),
        () => `${router.state.location.pathname}${router.state.location.search}`,
      ),
  });
}

export type MountedIdleWarning = ReturnType<typeof mountIdleWarning>;
