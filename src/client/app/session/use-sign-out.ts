// Sign out (section 4.1): POST logout, forget the user, the target paths and the context, go to '/'.
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { isApiError } from '../../api';
import { SIGN_IN_ROUTE } from '../routes';
import { useServices } from '../services';
import { useSession } from './use-session';

export function useSignOut(): () => Promise<void> {
  const services = useServices();
  const { clear } = useSession();
  const navigate = useNavigate();
  return useCallback(async () => {
    let handledElsewhere = false;
    try {
      await services.logout();
    } catch (error) {
      // Section 8 may already have sent the user on (401 to sign-in, 5xx to /error).
      handledElsewhere = isApiError(error) && error.handled;
    }
    clear();
    if (!handledElsewhere) await navigate(SIGN_IN_ROUTE);
  }, [services, clear, navigate]);
}
