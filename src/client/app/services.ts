// The calls the shell's own views need, behind one interface. Views never import the api module
// (lint boundary); they get these through ServicesContext, and tests give them fakes.
import { createContext, useContext } from 'react';
import type { HandoffTarget } from '../../contract/entities';
import { sessionCalls } from '../../contract/session';
import { getAccessibleApps, getContext, getCurrentUser, logout, request, type CallOptions } from '../api';
import type { LoadedSession } from './session/session-store';

export interface PortalServices {
  loadSession(options?: CallOptions): Promise<LoadedSession>;
  getAccessibleApps(options?: CallOptions): Promise<HandoffTarget[]>;
  logout(options?: CallOptions): Promise<void>;
  /** Staff only; null for anyone without one. */
  getSalaryNumber(options?: CallOptions): Promise<string | null>;
  /** The support email shown on /error; null when none is configured or it cannot be read. */
  getSupportEmail(options?: CallOptions): Promise<string | null>;
}

export const portalServices: PortalServices = {
  async loadSession(options) {
    const [currentUser, context] = await Promise.all([getCurrentUser(options), getContext(options)]);
    return { currentUser, context };
  },
  getAccessibleApps: (options) => getAccessibleApps(options),
  async logout(options) {
    await logout(options);
  },
  async getSalaryNumber(options) {
    // The profile contract is loaded with the profile page, not with the sign-in page.
    const { profileCalls } = await import('../../contract/profile');
    const answer = await request(profileCalls.getSalaryNumber, { signal: options?.signal });
    return answer.salaryNumber;
  },
  async getSupportEmail(options) {
    // Read on /error itself: a failure here must not lead to /error again, so no global handling.
    try {
      const answer = await request(sessionCalls.getProperty, {
        params: { name: 'support-email' },
        signal: options?.signal,
        withoutGlobalHandling: true,
      });
      return 'value' in answer ? answer.value : null;
    } catch {
      return null;
    }
  },
};

export const ServicesContext = createContext<PortalServices>(portalServices);

export const useServices = (): PortalServices => useContext(ServicesContext);
