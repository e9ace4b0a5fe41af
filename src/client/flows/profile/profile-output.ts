// What a profile screen's page does with its machine's output: the success toast and the updated
// user for a saved change; an SMS 503's customer message handed to /profile, which shows it; and
// back to /profile in every case.
import type { ProfileOutput } from '../../../../machines/profile/profile.types';
import { announce } from '../../app/notices';
import type { Session } from '../../app/session';

/** State handed to /profile with the navigation (read through useLocation().state). */
export interface ProfileNavigationState {
  smsUnavailableMessage?: string;
}

export function applyProfileOutput(
  output: ProfileOutput,
  toast: string,
  session: Pick<Session, 'setCurrentUser'>,
  navigate: (to: string, options: { replace: boolean; state?: ProfileNavigationState }) => void,
): void {
  switch (output.kind) {
    case 'saved':
      if (output.user) session.setCurrentUser(output.user);
      announce({ message: toast, tone: 'success' });
      navigate(output.route, { replace: true });
      return;
    case 'unavailable':
      navigate(output.route, { replace: true, state: { smsUnavailableMessage: output.message } });
      return;
    case 'cancelled':
      navigate(output.route, { replace: true });
  }
}
