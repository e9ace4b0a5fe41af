// What runs beside the pages while a session is there, in one chunk the sign-in page does not
// carry: the 'Re-enter password' watcher (section 4.2) for a signed-in user, and the idle warning
// (WCAG 2.2.1) for a signed-in or pending one. The shell mounts this once a session is there.
import type { CurrentUser } from '../../../contract/entities';
import IdleWarning from '../idle-warning/IdleWarning';
import ReenterPasswordWatcher from '../reenter-password/ReenterPasswordModal';
import { isSignedIn } from '../guards/guards';

export default function SessionWatchers({ user }: { user: CurrentUser }) {
  return (
    <>
      {isSignedIn(user) && <ReenterPasswordWatcher />}
      <IdleWarning />
    </>
  );
}
