// Sign out (section 4.1): POST logout, forget the user, the target paths and the context, go to '/'.
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { isApiError } from '../../api';
import { SIGN_IN_ROUTE } from '../routes';
import { useServices } from '../services';
import { useSession } from './use-session';

/**
 * Answers whether the session has ended. It has when the server says so, or answers 401 (it was
 * already gone). Any other failure (a 5xx, no answer) may leave it alive on the server, so the user
 * stays signed in here too: section 8 has shown /error, and the header must not claim a sign-out
 * that did not happen, on a terminal the next person may use.
 */
export function useSignOut(): () => Promise<boolean> {
  const services = useServices();
  const { clear } = useSession();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await services.logout();
    } catch (error) {
      if (!isApiError(error) || error.status !== 401) return false;
      // Section 8 has already invalidated the session and gone to the sign-in page.
      clear();
      return true;
    }
    clear();
    await navigate(SIGN_IN_ROUTE);
    return true;
  }, [services, clear, navigate]);
}
