// The re-enter-password watcher as the shell mounts it for a signed-in user, inside the app's
// providers and a router (its Sign out goes to '/'), with the scripted fake API as its actors and
// a simulated clock for its 4 s, 8 s and 2 s delays.
import type { InspectionEvent } from 'xstate';
import { reenterPasswordMachine } from '../../../machines/session/reenter-password/reenter-password.machine';
import ReenterPasswordWatcher from '../../../src/client/app/reenter-password/ReenterPasswordModal';
import { SessionStore } from '../../../src/client/app/session';
import type { CurrentUser } from '../../../src/contract/entities';
import { mountWatcher } from './watcher-shell';

export const REENTER_PASSWORD_SOURCES = [
  'hasRecentAuthentication',
  'isPasswordExpired',
  'reenterPassword',
] as const;

export function mountReenterPassword(user: CurrentUser, inspectExtra?: (event: InspectionEvent) => void) {
  const store = new SessionStore(async () => ({ currentUser: user, context: null }));
  store.setCurrentUser(user);
  return mountWatcher({
    machineId: reenterPasswordMachine.id,
    sources: REENTER_PASSWORD_SOURCES,
    store,
    heading: 'Applications',
    path: '/profile/my-applications',
    watcher: (clock) => <ReenterPasswordWatcher clock={clock} />,
    inspectExtra,
  });
}

export type MountedReenterPassword = ReturnType<typeof mountReenterPassword>;
