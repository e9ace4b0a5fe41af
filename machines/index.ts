// The catalogue of every machine: visualizations and generated path coverage read it.
import type { AnyStateMachine } from 'xstate';
import { historyMachine } from './access-requests/history/history.machine';
import { requestListMachine } from './access-requests/request-list/request-list.machine';
import { requestMachine } from './access-requests/request/request.machine';
import { appsMachine } from './admin/apps/apps.machine';
import { createInvitationMachine } from './admin/create-invitation/create-invitation.machine';
import { invitationsMachine } from './admin/invitations/invitations.machine';
import { identityMachine } from './admin/identity/identity.machine';
import { identityRolesMachine } from './admin/identity-roles/identity-roles.machine';
import { identitySearchMachine } from './admin/identity-search/identity-search.machine';
import { smsGatewayMachine } from './admin/sms-gateway/sms-gateway.machine';
import { changeExpiredPasswordMachine } from './forced/change-expired-password/change-expired-password.machine';
import { continueSignInMachine } from './forced/continue-sign-in/continue-sign-in.machine';
import { factorEnrolmentMachine } from './forced/factor-enrolment/factor-enrolment.machine';
import { mergeAccountsMachine } from './forced/merge-accounts/merge-accounts.machine';
import { mfaMachine } from './forced/mfa/mfa.machine';
import { selectFacilityMachine } from './forced/select-facility/select-facility.machine';
import { guideSearchMachine } from './guide-search/guide-search.machine';
import { handoffMachine } from './handoff/handoff.machine';
import { passwordResetMachine } from './password-reset/password-reset.machine';
import { registrationMachine } from './registration/registration.machine';
import {
  FORCED_ACTION_ROUTES,
  MFA_ROUTE,
  PASSWORD_RESET_ROUTE,
  REGISTRATION_ROUTE,
  SIGN_IN_ROUTE,
  SINGLE_SIGN_ON_ROUTE,
} from './routes';
import { appVersionMachine } from './session/app-version/app-version.machine';
import { idleWarningMachine } from './session/idle-warning/idle-warning.machine';
import { reenterPasswordMachine } from './session/reenter-password/reenter-password.machine';
import { signInMachine } from './sign-in/sign-in.machine';
import { changeAuthenticatorAppMachine } from './profile/change-authenticator-app/change-authenticator-app.machine';
import { changeEmailMachine } from './profile/change-email/change-email.machine';
import { changeMobileMachine } from './profile/change-mobile/change-mobile.machine';
import { enrolAuthenticatorAppMachine } from './profile/enrol-authenticator-app/enrol-authenticator-app.machine';
import { enrolSmsMachine } from './profile/enrol-sms/enrol-sms.machine';
import { profileFormMachine } from './profile/profile-form/profile-form.machine';
import { singleSignOnMachine } from './single-sign-on/single-sign-on.machine';

export interface CatalogueEntry {
  /** Folder under machines/, also the file stem in visualizations/. */
  readonly name: string;
  readonly title: string;
  readonly machine: AnyStateMachine;
  /** Base path of the flow's routes; state meta routes are relative to it. */
  readonly basePath: string | null;
}

export const catalogue: readonly CatalogueEntry[] = [
  { name: 'sign-in', title: 'Sign-in', machine: signInMachine, basePath: SIGN_IN_ROUTE },
  { name: 'session/app-version', title: 'App-version watcher', machine: appVersionMachine, basePath: null },
  { name: 'handoff', title: 'Handoff to an application', machine: handoffMachine, basePath: null },
  {
    name: 'single-sign-on',
    title: 'Single sign-on',
    machine: singleSignOnMachine,
    basePath: SINGLE_SIGN_ON_ROUTE,
  },
  {
    name: 'forced/select-facility',
    title: 'Forced facility selection',
    machine: selectFacilityMachine,
    basePath: FORCED_ACTION_ROUTES.SELECT_FACILITY,
  },
  {
    name: 'forced/continue-sign-in',
    title: 'Continue sign-in after a forced step',
    machine: continueSignInMachine,
    basePath: null,
  },
  {
    name: 'forced/change-expired-password',
    title: 'Forced change of an expired password',
    machine: changeExpiredPasswordMachine,
    basePath: FORCED_ACTION_ROUTES.CHANGE_EXPIRED_PASSWORD,
  },
  {
    name: 'forced/factor-enrolment',
    title: 'Forced factor enrolment',
    machine: factorEnrolmentMachine,
    basePath: FORCED_ACTION_ROUTES.FACTOR_ENROLMENT,
  },
  { name: 'forced/mfa', title: 'Forced MFA verification', machine: mfaMachine, basePath: MFA_ROUTE },
  {
    name: 'forced/merge-accounts',
    title: 'Duplicate accounts and the merge wizard',
    machine: mergeAccountsMachine,
    basePath: null,
  },
  {
    name: 'session/reenter-password',
    title: 'Re-enter-password watcher',
    machine: reenterPasswordMachine,
    basePath: null,
  },
  {
    name: 'session/idle-warning',
    title: 'Session idle warning',
    machine: idleWarningMachine,
    basePath: null,
  },
  {
    name: 'registration',
    title: 'Registration from an invitation',
    machine: registrationMachine,
    basePath: REGISTRATION_ROUTE,
  },
  {
    name: 'password-reset',
    title: 'Password reset',
    machine: passwordResetMachine,
    basePath: PASSWORD_RESET_ROUTE,
  },
  // Access requests (section 2.7): the list, one request, and its history pages (history and
  // api-calls tabs). Their addresses carry ids, so the pages route, not state meta.
  {
    name: 'access-requests/request-list',
    title: 'Access-request list',
    machine: requestListMachine,
    basePath: null,
  },
  { name: 'access-requests/request', title: 'One access request', machine: requestMachine, basePath: null },
  {
    name: 'access-requests/history',
    title: 'Access-request history pages',
    machine: historyMachine,
    basePath: null,
  },
  // Admin screens (section 2.7: not shown); under /admin, routed by the admin page.
  { name: 'admin/invitations', title: 'Admin invitation list', machine: invitationsMachine, basePath: null },
  {
    name: 'admin/create-invitation',
    title: 'Admin: invite someone',
    machine: createInvitationMachine,
    basePath: null,
  },
  { name: 'admin/apps', title: 'Admin apps and facilities', machine: appsMachine, basePath: null },
  {
    name: 'admin/sms-gateway',
    title: 'Admin SMS gateway switch',
    machine: smsGatewayMachine,
    basePath: null,
  },
  {
    name: 'admin/identity-search',
    title: 'Admin identity search',
    machine: identitySearchMachine,
    basePath: null,
  },
  { name: 'admin/identity', title: 'Admin identity page', machine: identityMachine, basePath: null },
  { name: 'admin/identity-roles', title: 'Admin roles lists', machine: identityRolesMachine, basePath: null },
  // Profile self-service (section 2.3): the single-step form and the two-step wizards. Their
  // meta routes are absolute.
  {
    name: 'profile/profile-form',
    title: 'Profile single-step form',
    machine: profileFormMachine,
    basePath: null,
  },
  { name: 'profile/change-email', title: 'Change email', machine: changeEmailMachine, basePath: null },
  { name: 'profile/change-mobile', title: 'Change mobile', machine: changeMobileMachine, basePath: null },
  { name: 'profile/enrol-sms', title: 'Enable SMS factor', machine: enrolSmsMachine, basePath: null },
  {
    name: 'profile/enrol-authenticator-app',
    title: 'Enable authenticator app factor',
    machine: enrolAuthenticatorAppMachine,
    basePath: null,
  },
  {
    name: 'profile/change-authenticator-app',
    title: 'Change authenticator app',
    machine: changeAuthenticatorAppMachine,
    basePath: null,
  },
  { name: 'guide-search', title: 'User guide search', machine: guideSearchMachine, basePath: null },
];
