// Every catalogue machine's generated path suite, in groups of about equal running time: each group
// is a test file of its own (tests/model/paths/*.test.tsx), so the two test workers share them.
import type { MachineCoverage } from './coverage';
import { defineHistoryPaths, defineRequestListPaths, defineRequestPaths } from '../access-requests.paths';
import {
  defineAppsPaths,
  defineCreateInvitationPaths,
  defineInvitationsPaths,
  defineSmsGatewayPaths,
} from '../admin.paths';
import {
  defineIdentityPaths,
  defineIdentityRolesPaths,
  defineIdentitySearchPaths,
} from '../admin-identities.paths';
import { defineAppVersionPaths } from '../app-version.paths';
import { defineChangeExpiredPasswordPaths } from '../change-expired-password.paths';
import { defineContinueSignInPaths } from '../continue-sign-in.paths';
import { defineFactorEnrolmentPaths } from '../factor-enrolment.paths';
import { defineGuideSearchPaths } from '../guide-search.paths';
import { defineHandoffPaths } from '../handoff.paths';
import { defineMergeAccountsPaths } from '../merge-accounts.paths';
import { defineMfaPaths } from '../mfa.paths';
import { definePasswordResetPaths } from '../password-reset.paths';
import {
  defineChangeAuthenticatorAppPaths,
  defineChangeEmailPaths,
  defineChangeMobilePaths,
  defineEnrolAuthenticatorAppPaths,
  defineEnrolSmsPaths,
  defineProfileFormPaths,
} from '../profile.paths';
import { defineIdleWarningPaths } from '../idle-warning.paths';
import { defineReenterPasswordPaths } from '../reenter-password.paths';
import { defineRegistrationPaths } from '../registration.paths';
import { defineSelectFacilityPaths } from '../select-facility.paths';
import { defineSignInPaths } from '../sign-in.paths';
import { defineSingleSignOnPaths } from '../single-sign-on.paths';

export type PathSuite = (coverage: MachineCoverage) => void;

export const PATH_GROUPS = {
  merge: {
    'forced/merge-accounts': defineMergeAccountsPaths,
  },
  'forced-steps': {
    'forced/continue-sign-in': defineContinueSignInPaths,
    'forced/change-expired-password': defineChangeExpiredPasswordPaths,
    'forced/factor-enrolment': defineFactorEnrolmentPaths,
    'forced/mfa': defineMfaPaths,
    'forced/select-facility': defineSelectFacilityPaths,
  },
  registration: {
    registration: defineRegistrationPaths,
  },
  'password-reset': {
    'password-reset': definePasswordResetPaths,
  },
  'sign-in-and-handoff': {
    'sign-in': defineSignInPaths,
    'session/app-version': defineAppVersionPaths,
    'session/reenter-password': defineReenterPasswordPaths,
    'session/idle-warning': defineIdleWarningPaths,
    handoff: defineHandoffPaths,
    'single-sign-on': defineSingleSignOnPaths,
  },
  profile: {
    'profile/profile-form': defineProfileFormPaths,
    'profile/change-email': defineChangeEmailPaths,
    'profile/change-mobile': defineChangeMobilePaths,
    'profile/enrol-sms': defineEnrolSmsPaths,
    'profile/enrol-authenticator-app': defineEnrolAuthenticatorAppPaths,
    'profile/change-authenticator-app': defineChangeAuthenticatorAppPaths,
  },
  guide: {
    'guide-search': defineGuideSearchPaths,
  },
  'access-requests': {
    'access-requests/request-list': defineRequestListPaths,
    'access-requests/request': defineRequestPaths,
    'access-requests/history': defineHistoryPaths,
  },
  admin: {
    'admin/invitations': defineInvitationsPaths,
    'admin/create-invitation': defineCreateInvitationPaths,
    'admin/apps': defineAppsPaths,
    'admin/sms-gateway': defineSmsGatewayPaths,
  },
  'admin-identities': {
    'admin/identity-search': defineIdentitySearchPaths,
    'admin/identity': defineIdentityPaths,
    'admin/identity-roles': defineIdentityRolesPaths,
  },
} as const satisfies Record<string, Record<string, PathSuite>>;

export type PathGroup = keyof typeof PATH_GROUPS;
