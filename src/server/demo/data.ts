// The demo data set of DESIGN.md: who can sign in, with which situation after password sign-in.
// Every demo password is DEMO_PASSWORD. Customer emails are the username in lower case at
// example.com (C10006 and C10007 share dup@example.com); mobiles are +61 400 000 0NN for C100NN.

export const DEMO_PASSWORD = 'Harbour-Lights-2026';
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';

export interface DemoAccount {
  username: string;
  name: string;
  email: string;
  mobile: string | null;
  phone: string | null;
  birthDate: string | null;
  customerNumber: string | null;
  isStaff: boolean;
  isAdmin: boolean;
  salaryNumber: string | null;
  identityVerified: boolean;
  passwordExpired: boolean;
  mfaRequired: boolean;
  roles: string[];
  /** Grants: app code, with facility code for facility apps. */
  grants: Array<{ app: string; facility?: string }>;
  /** EMAIL is the account's email address, offered last at MFA ('I don't have access'). */
  factors: Array<
    { type: 'AUTHENTICATOR_APP'; secret: string } | { type: 'SMS'; mobile: string } | { type: 'EMAIL' }
  >;
}

const customer = (
  n: number,
  name: string,
  birthDate: string,
  extra: Partial<DemoAccount> & { noMobile?: boolean } = {},
): DemoAccount => {
  const username = `C1000${n}`;
  const { noMobile, ...rest } = extra;
  return {
    username,
    name,
    email: `${username.toLowerCase()}@example.com`,
    mobile: noMobile ? null : `+61 400 000 00${n}`,
    phone: null,
    birthDate,
    customerNumber: username,
    isStaff: false,
    isAdmin: false,
    salaryNumber: null,
    identityVerified: false,
    passwordExpired: false,
    mfaRequired: false,
    roles: [],
    grants: [],
    factors: [],
    ...rest,
  };
};

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  // No forced steps; LOANS at F001 and F002, and PAYROLL.
  customer(1, 'Olivia Bennett', '1985-03-14', {
    phone: '+61 2 9000 0001',
    grants: [{ app: 'LOANS', facility: 'F001' }, { app: 'LOANS', facility: 'F002' }, { app: 'PAYROLL' }],
  }),
  // Password expired: forced change-expired-password.
  customer(2, 'Noah Fletcher', '1979-11-02', { passwordExpired: true, grants: [{ app: 'PAYROLL' }] }),
  // MFA required, nothing enrolled: forced factor enrolment.
  customer(3, 'Mia Thornton', '1991-06-23', {
    noMobile: true,
    mfaRequired: true,
    grants: [{ app: 'PAYROLL' }],
  }),
  // Authenticator app enrolled: MFA verification by TOTP.
  customer(4, 'Jack Delaney', '1988-01-30', {
    mfaRequired: true,
    grants: [{ app: 'LOANS', facility: 'F001' }],
    factors: [{ type: 'AUTHENTICATOR_APP', secret: DEMO_TOTP_SECRET }, { type: 'EMAIL' }],
  }),
  // SMS factor enrolled: MFA verification by SMS.
  customer(5, 'Chloe Nguyen', '1995-09-08', {
    mfaRequired: true,
    grants: [{ app: 'LOANS', facility: 'F002' }],
    factors: [{ type: 'SMS', mobile: '+61 400 000 005' }, { type: 'EMAIL' }],
  }),
  // C10006 and C10007 share dup@example.com: duplicate-accounts notice and merge.
  customer(6, 'Liam Walsh', '1983-04-17', {
    email: 'dup@example.com',
    grants: [{ app: 'LOANS', facility: 'F001' }],
  }),
  customer(7, 'Liam Walsh', '1983-04-17', {
    email: 'dup@example.com',
    grants: [{ app: 'LOANS', facility: 'F003' }],
  }),
  // LOANS at three facilities: signing in from LOANS's service provider forces select-facility.
  customer(8, 'Ava Kowalski', '1990-12-05', {
    grants: [
      { app: 'LOANS', facility: 'F001' },
      { app: 'LOANS', facility: 'F002' },
      { app: 'LOANS', facility: 'F003' },
    ],
  }),
  // Identity verified (at a branch): name and date of birth are read-only on the profile.
  customer(10, 'Priya Profile', '1992-07-19', {
    identityVerified: true,
    username: 'C10010',
    email: 'c10010@example.com',
    mobile: '+61 400 000 010',
    customerNumber: 'C10010',
    grants: [{ app: 'PAYROLL' }],
  }),
  {
    username: 'admin1',
    name: 'Harriet Admin',
    email: 'admin1@example.com',
    mobile: null,
    phone: null,
    birthDate: null,
    customerNumber: null,
    isStaff: true,
    isAdmin: true,
    salaryNumber: '100001',
    identityVerified: true,
    passwordExpired: false,
    mfaRequired: false,
    roles: ['ADMIN', 'READ_ONLY'],
    grants: [{ app: 'PAYROLL' }, { app: 'TREASURY' }],
    factors: [],
  },
  {
    username: 'auditor1',
    name: 'Sam Auditor',
    email: 'auditor1@example.com',
    mobile: null,
    phone: null,
    birthDate: null,
    customerNumber: null,
    isStaff: false,
    isAdmin: false,
    salaryNumber: null,
    identityVerified: false,
    passwordExpired: false,
    mfaRequired: false,
    roles: ['VIEW_ACCESS_REQUESTS'],
    grants: [],
    factors: [],
  },
];

export interface DemoApp {
  code: string;
  name: string;
  contextType: 'SAML' | 'JWT';
  facilityHandoff: 'NONE' | 'SELECTED_BEFORE_HANDOFF';
  accessRequestHandling: 'IMMEDIATE' | 'MANUAL';
  /**
   * Path of the demo service provider under PUBLIC_URL (SAML apps; the JWT app's page lives on the
   * demo listener, DEMO_SP_URL, under the same path).
   */
  spPath: string;
  facilities: Array<{ code: string; name: string; alias: string | null }>;
}

export const DEMO_APPS: readonly DemoApp[] = [
  {
    code: 'LOANS',
    name: 'Loans',
    contextType: 'SAML',
    facilityHandoff: 'SELECTED_BEFORE_HANDOFF',
    accessRequestHandling: 'MANUAL',
    spPath: '/demo-sp/LOANS',
    facilities: [
      { code: 'F001', name: 'Northside Community Clinic', alias: 'Northside' },
      { code: 'F002', name: 'Riverside Family Practice', alias: null },
      { code: 'F003', name: 'Bayview Aged Care', alias: 'Bayview' },
    ],
  },
  {
    code: 'PAYROLL',
    name: 'Payroll',
    contextType: 'SAML',
    facilityHandoff: 'NONE',
    accessRequestHandling: 'IMMEDIATE',
    spPath: '/demo-sp/PAYROLL',
    facilities: [],
  },
  {
    code: 'TREASURY',
    name: 'Treasury',
    contextType: 'JWT',
    facilityHandoff: 'NONE',
    accessRequestHandling: 'MANUAL',
    spPath: '/demo-sp/TREASURY',
    facilities: [],
  },
];

export interface DemoInvitation {
  code: string;
  email: string;
  app: string;
  facility: string;
  customerNumber: string | null;
  name: string | null;
  birthDate: string | null;
  username: string | null;
  /** Username of the existing identity the invitation attaches a facility to. */
  existingUsername: string | null;
}

export const DEMO_INVITATIONS: readonly DemoInvitation[] = [
  {
    code: 'INVITE-NEW-0001',
    email: 'new.customer@example.com',
    app: 'LOANS',
    facility: 'F001',
    customerNumber: 'C10009',
    name: 'Nora Newman',
    birthDate: '1993-02-11',
    username: null,
    existingUsername: null,
  },
  {
    code: 'INVITE-EXIST-0001',
    email: 'c10001@example.com',
    app: 'LOANS',
    facility: 'F003',
    customerNumber: 'C10001',
    name: null,
    birthDate: null,
    username: null,
    existingUsername: 'C10001',
  },
];

/** Properties; the merge-skip cutoff is computed at seed time (about a year ahead). */
export function demoProperties(now: Date): Record<string, string> {
  const cutoff = new Date(now.getTime() + 365 * 24 * 3600_000).toISOString().slice(0, 10);
  return {
    'skip-merge-accounts-cutoff-date': cutoff,
    'sso-support-email': 'sso.support@example.com',
    'support-email': 'support@example.com',
    // Tickets entered by admins (sign out of all devices, access-request decisions) link here.
    'jira-browse-url': 'https://jira.example.com/browse/',
    'sms-gateway-status': 'AVAILABLE',
    'trusted-device-period': '7',
  };
}

/**
 * Demo answers to security questions, for the password reset's last fallback (README, demo
 * accounts): C10005 answers DRIVERS_LICENCE with DL10005 and MEDICARE with MC10005.
 */
export const DEMO_SECURITY_ANSWERS: Readonly<
  Record<string, ReadonlyArray<{ question: string; answer: string }>>
> = {
  C10005: [
    { question: 'DRIVERS_LICENCE', answer: 'DL10005' },
    { question: 'MEDICARE', answer: 'MC10005' },
  ],
};
