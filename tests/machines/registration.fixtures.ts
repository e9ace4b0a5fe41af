// Fixtures of the registration wizard, shared by its transition tests and generated path suite.
import type {
  AuthenticatorSetup,
  InviteDetails,
  InviteResult,
  OutcomeResult,
  RegistrationFacts,
} from '../../machines/registration/registration.types';
import { SECURITY_QUESTIONS } from './continue-sign-in.fixtures';

export const newInvite: InviteDetails = {
  productName: 'Loans',
  facilityName: 'Harbour Branch',
  facilityAliasOrCode: 'HARB',
  roles: [{ name: 'Borrower', scopeType: 'FACILITY', scope: 'F001' }],
  customerNumber: 'C10009',
  name: 'Nora Newman',
  birthDate: '1993-02-11',
  username: null,
  email: 'new.customer@example.com',
  mobile: null,
  existingIdentity: false,
  isStaff: false,
  isPrimaryAffiliateEmailDomain: false,
  isSecondaryAffiliateEmailDomain: false,
};

export const existingInvite: InviteDetails = {
  ...newInvite,
  facilityName: 'Quay Branch',
  facilityAliasOrCode: 'F003',
  customerNumber: 'C10001',
  name: null,
  birthDate: null,
  email: 'c10001@example.com',
  existingIdentity: true,
};

export const staffInvite: InviteDetails = {
  ...newInvite,
  customerNumber: null,
  name: null,
  email: 'sam.staff@bank.example',
  isStaff: true,
  isSecondaryAffiliateEmailDomain: true,
};

export const registrationFacts = {
  gatewayUp: { isSmsGatewayAvailable: true, questions: SECURITY_QUESTIONS },
  gatewayDown: { isSmsGatewayAvailable: false, questions: SECURITY_QUESTIONS },
} satisfies Record<string, RegistrationFacts>;

export const startAnswers = {
  invalidInvitation: {
    type: 'refused',
    message:
      'This invitation cannot be used. Check the email address and invitation code in your invitation email, or ask for a new invitation.',
    fieldErrors: [],
  },
  newAccount: { type: 'invite', invite: newInvite },
  existingAccount: { type: 'invite', invite: existingInvite },
} satisfies Record<string, InviteResult>;

export const detailsAnswers = {
  usernameTaken: {
    type: 'refused',
    message: 'This username is already taken. Choose another.',
    fieldErrors: [{ fieldName: 'username', message: 'This username is already taken. Choose another.' }],
  },
  collected: { type: 'invite', invite: { ...newInvite, username: 'C10009' } },
} satisfies Record<string, InviteResult>;

export const authenticatorSetup: AuthenticatorSetup = {
  qrCode: 'data:image/png;base64,iVBORw0KGgo=',
  setupKey: 'JBSW Y3DP EHPK 3PXP',
};

export const typedStart = {
  email: 'new.customer@example.com',
  inviteCode: 'INVITE-NEW-0001',
  captchaCode: 'E2E42',
};

export const NEW_PASSWORD = 'Quiet-Harbour-Morning-4821';
export const EXISTING_HELP_REFUSAL: OutcomeResult = {
  type: 'refused',
  message: 'Incorrect username or password.',
  fieldErrors: [],
};
