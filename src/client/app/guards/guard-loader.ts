// The thin route wrapper around the guards: a route loader that waits for the session's first load,
// asks the path's guard, remembers the target path when told to, and redirects.
import { redirect, type LoaderFunctionArgs } from 'react-router-dom';
import type { SessionStore } from '../session/session-store';
import { decide } from './guards';

export function guardLoader(session: SessionStore) {
  return async ({ request }: LoaderFunctionArgs): Promise<Response | null> => {
    const url = new URL(request.url);
    let user;
    try {
      user = await session.ready();
    } catch (error) {
      // The api layer has already navigated away (to /error or /cookies-disabled).
      if (request.signal.aborted) return null;
      throw error;
    }
    const decision = decide(user, url.pathname, session.getState().pendingStep);
    if (decision.type === 'allow') return null;
    if (decision.remember) session.remember(decision.remember, `${url.pathname}${url.search}`);
    return redirect(decision.to);
  };
}
