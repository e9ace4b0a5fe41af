// The route guards of sections 2.1, 2.3, 2.6, 2.7 and 6, as pure functions of (current user, path).
import { describe, expect, it } from 'vitest';
import {
  accessRequestsGuard,
  adminGuard,
  applicationsGuard,
  decide,
  forcedActionsGuard,
  guardFor,
  isApplicationsPath,
  isPending,
  isSignedIn,
  landingRoute,
  notPendingGuard,
  profileGuard,
  signInGuard,
} from '../../src/client/app/guards/guards';
import { users } from './fixtures';

const allow = { type: 'allow' };
const to = (path: string, remember?: 'targetPath' | 'adminTargetPath') =>
  remember ? { type: 'redirect', to: path, remember } : { type: 'redirect', to: path };

describe("'/' (section 2.1)", () => {
  it('sends a signed-in VIEW_ACCESS_REQUESTS holder to /access-requests', () => {
    expect(signInGuard(users.auditor, '/')).toEqual(to('/access-requests'));
  });
  it('sends any other signed-in user to the applications page', () => {
    expect(signInGuard(users.customer, '/')).toEqual(to('/profile/my-applications'));
    expect(signInGuard(users.admin, '/')).toEqual(to('/profile/my-applications'));
  });
  it('lets anonymous visitors and AUTHENTICATION_PENDING users stay on the sign-in flow', () => {
    expect(signInGuard(users.anonymous, '/')).toEqual(allow);
    expect(signInGuard(users.pending, '/')).toEqual(allow);
    expect(signInGuard(users.pendingFlaggedAuthenticated, '/')).toEqual(allow);
  });
});

describe('profile routes (section 2.3)', () => {
  it('need a signed-in user', () => {
    expect(profileGuard(users.customer, '/profile')).toEqual(allow);
    expect(profileGuard(users.auditor, '/profile/change-name')).toEqual(allow);
  });
  it('send anyone else to sign in and remember the target path', () => {
    expect(profileGuard(users.anonymous, '/profile')).toEqual(to('/', 'targetPath'));
    expect(profileGuard(users.pending, '/profile/change-email')).toEqual(to('/', 'targetPath'));
  });
});

describe('applications page (section 2.3)', () => {
  it('is a route under /profile ending in -applications', () => {
    expect(isApplicationsPath('/profile/my-applications')).toBe(true);
    expect(isApplicationsPath('/profile/other-applications')).toBe(true);
    expect(isApplicationsPath('/profile')).toBe(false);
    expect(isApplicationsPath('/profile/change-name')).toBe(false);
    expect(guardFor('/profile/my-applications')).toBe(applicationsGuard);
  });
  it('is open to signed-in users without VIEW_ACCESS_REQUESTS', () => {
    expect(applicationsGuard(users.customer, '/profile/my-applications')).toEqual(allow);
    expect(applicationsGuard(users.admin, '/profile/my-applications')).toEqual(allow);
  });
  it('denies VIEW_ACCESS_REQUESTS holders', () => {
    expect(applicationsGuard(users.auditor, '/profile/my-applications')).toEqual(to('/permission-denied'));
  });
  it('sends an unauthenticated user to sign in with the target path remembered', () => {
    expect(applicationsGuard(users.anonymous, '/profile/my-applications')).toEqual(to('/', 'targetPath'));
  });
});

describe('access requests (section 2.7)', () => {
  it('are for admins and VIEW_ACCESS_REQUESTS holders', () => {
    expect(accessRequestsGuard(users.auditor, '/access-requests')).toEqual(allow);
    expect(accessRequestsGuard(users.admin, '/access-requests/42/history')).toEqual(allow);
  });
  it('deny other signed-in users', () => {
    expect(accessRequestsGuard(users.customer, '/access-requests')).toEqual(to('/permission-denied'));
  });
  it('send anyone else to sign in with the target path remembered', () => {
    expect(accessRequestsGuard(users.anonymous, '/access-requests/7')).toEqual(to('/', 'targetPath'));
  });
});

describe('forced actions (sections 2.6 and 6)', () => {
  it('are only for AUTHENTICATION_PENDING users', () => {
    expect(forcedActionsGuard(users.pending, '/forced-actions/change-expired-password')).toEqual(allow);
    expect(
      forcedActionsGuard(users.pendingFlaggedAuthenticated, '/forced-actions/mfa/sms-verification'),
    ).toEqual(allow);
  });
  it("keep a pending sign-in at its step's pages: Back into a step already passed goes to the current one", () => {
    const at = '/forced-actions/change-expired-password';
    expect(forcedActionsGuard(users.pending, at, at)).toEqual(allow);
    expect(
      forcedActionsGuard(users.pending, '/forced-actions/factor-enrolment/select-sms-factor', at),
    ).toEqual(to(at));
    // The MFA screens and the enrolment wizard's pages are one step each.
    const mfa = '/forced-actions/mfa/sms-verification';
    expect(forcedActionsGuard(users.pending, '/forced-actions/mfa/email-verification', mfa)).toEqual(allow);
    expect(forcedActionsGuard(users.pending, '/forced-actions/select-facility', mfa)).toEqual(to(mfa));
    // The merge wizard's pages are the duplicate-accounts step's (a reload on one of them stays).
    const duplicates = '/forced-actions/duplicate-accounts';
    expect(
      forcedActionsGuard(
        users.pending,
        '/forced-actions/merge-accounts/choose-preferred-username',
        duplicates,
      ),
    ).toEqual(allow);
    expect(forcedActionsGuard(users.pending, '/forced-actions/mfa/sms-verification', duplicates)).toEqual(
      to(duplicates),
    );
    // Not known (a tab that did not see the sign-in's last step): the server decides.
    expect(forcedActionsGuard(users.pending, '/forced-actions/select-facility', null)).toEqual(allow);
  });
  it('send everyone else to /', () => {
    expect(forcedActionsGuard(users.anonymous, '/forced-actions/select-facility')).toEqual(to('/'));
    expect(forcedActionsGuard(users.customer, '/forced-actions/select-facility')).toEqual(to('/'));
  });
});

describe('admin routes (section 2.7)', () => {
  it('load only for signed-in admins', () => {
    expect(adminGuard(users.admin, '/admin/apps')).toEqual(allow);
  });
  it('store the admin target path and go to / for anyone not signed in', () => {
    expect(adminGuard(users.anonymous, '/admin/apps')).toEqual(to('/', 'adminTargetPath'));
    expect(adminGuard(users.pending, '/admin')).toEqual(to('/', 'adminTargetPath'));
  });
  it('store the admin target path and go to / for signed-in users who are not admins too', () => {
    expect(adminGuard(users.customer, '/admin')).toEqual(to('/', 'adminTargetPath'));
    expect(adminGuard(users.customer, '/admin/identities/42')).toEqual(to('/', 'adminTargetPath'));
    expect(adminGuard(users.auditor, '/admin/invitations')).toEqual(to('/', 'adminTargetPath'));
  });
});

describe('a pending sign-in elsewhere (section 6)', () => {
  it('is sent to / from the user guide, which anyone else may read', () => {
    expect(guardFor('/docs/user-guide')).toBe(notPendingGuard);
    expect(decide(users.pending, '/docs/user-guide')).toEqual(to('/'));
    expect(decide(users.pendingFlaggedAuthenticated, '/docs/user-guide')).toEqual(to('/'));
    expect(decide(users.anonymous, '/docs/user-guide')).toEqual(allow);
    expect(decide(users.customer, '/docs/user-guide')).toEqual(allow);
    expect(decide(users.auditor, '/docs/user-guide')).toEqual(allow);
  });
  it('keeps the pages any call may send it to, the footer pages, registration and reset', () => {
    for (const path of [
      '/error',
      '/not-found',
      '/permission-denied',
      '/session-expired-error',
      '/cookies-disabled',
      '/privacy-statement',
      '/website-terms',
      '/registration',
      '/password-reset',
    ])
      expect(decide(users.pending, path), path).toEqual(allow);
  });
});

describe('decide(user, path)', () => {
  it('picks the guard by path and allows public pages', () => {
    expect(decide(users.anonymous, '/error')).toEqual(allow);
    expect(decide(users.anonymous, '/not-found')).toEqual(allow);
    expect(decide(users.anonymous, '/privacy-statement')).toEqual(allow);
    expect(decide(users.anonymous, '/profile')).toEqual(to('/', 'targetPath'));
    expect(decide(users.customer, '/')).toEqual(to('/profile/my-applications'));
    expect(decide(users.customer, '/administrator')).toEqual(allow);
    expect(guardFor('/profiles')).toBeNull();
  });
});

describe('user kinds', () => {
  it('tells signed-in, pending and landing apart', () => {
    expect(isSignedIn(users.customer)).toBe(true);
    expect(isSignedIn(users.anonymous)).toBe(false);
    expect(isSignedIn(users.pendingFlaggedAuthenticated)).toBe(false);
    expect(isPending(users.pending)).toBe(true);
    expect(landingRoute(users.auditor)).toBe('/access-requests');
    expect(landingRoute(users.customer)).toBe('/profile/my-applications');
  });
});
