// Texts of /profile (section 2.3): personal details, the MFA and trusted-device tables and the
// 'Sign out of all devices' modal (section 2.2). Spec texts are word for word (marked 'spec').
export const profileTexts = {
  heading: 'Profile',
  personalDetails: 'Personal details',
  username: 'Username',
  name: 'Name',
  email: 'Email',
  mobile: 'Mobile',
  phone: 'Phone',
  dateOfBirth: 'Date of birth',
  salaryNumber: 'Salary number',
  password: 'Password',
  maskedPassword: '••••••••••',
  passwordHidden: 'hidden',
  notProvided: 'Not provided',
  securityQuestions: 'Security questions',
  edit: (what: string) => `Change ${what.toLowerCase()}`,
  editShort: 'Change',
  remove: 'Remove',
  add: 'Add',
  removeMobile: 'Remove mobile',

  mfa: 'Multi-factor authentication',
  factor: 'Factor',
  status: 'Status',
  actions: 'Actions',
  enabled: 'Enabled',
  notEnabled: 'Not enabled',
  factorNames: { AUTHENTICATOR_APP: 'Authenticator app', SMS: 'SMS', EMAIL: 'Email' },
  enable: 'Enable',
  disable: 'Disable',
  changeApp: 'Change',
  emailFactorNote: 'Codes go to your email address.',

  trustedDevices: 'Trusted devices',
  /** Section 4.7: 7 means 7 days, 1 means 24 hours; 24 hours by default. */
  period: (days: number) => (days === 7 ? '7 days' : '24 hours'),
  trustedIntro: (period: string) =>
    `A browser you trust when you enter a verification code skips verification codes for ${period}.`,
  browser: 'Browser',
  operatingSystem: 'Operating system',
  location: 'Location',
  lastActive: 'Last active',
  unknown: 'Unknown',
  noTrustedDevices: 'You have no trusted devices.',
  deleteDevice: 'Delete',
  deleteDeviceLabel: (name: string) => `Delete trusted device ${name}`,
  clearAll: 'Clear all trusted devices',
  /** Title of the message a refused delete or clear shows (the server's message under it). */
  trustedDevicesNotChanged: 'Your trusted devices were not changed',
  /** A failure the server gave no message for. */
  changeFailed: 'Something went wrong and nothing was changed. Please try again.',

  signOutAll: 'Sign out of all devices',
  loadFailed: 'This part of your profile could not be loaded.',
} as const;

export const signOutAllTexts = {
  /** Spec, section 2.2. */
  title: 'Sign out of all devices',
  ownIntro:
    'You will be signed out of the portal on every device and browser, including this one, and devices you trusted will ask for a verification code again.',
  otherIntro: (name: string) =>
    `${name} will be signed out of the portal on every device and browser, and devices they trusted will ask for a verification code again.`,
  ownApps: 'You will also be signed out of these applications:',
  otherApps: 'They will also be signed out of these applications:',
  noApps: 'No applications are affected.',
  /** The list of applications could not be loaded: the sign-out still covers every one of them. */
  ownAppsUnavailable:
    'The list of applications could not be loaded. You will still be signed out of all of them.',
  otherAppsUnavailable:
    'The list of applications could not be loaded. They will still be signed out of all of them.',
  loadingApps: 'Loading applications…',
  ticket: 'Jira ticket code',
  ticketPlaceholder: 'SUP-999999',
  ticketHint: 'The support ticket this is done for.',
  confirm: 'Sign out of all devices',
  cancel: 'Cancel',
  required: 'Required field',
} as const;
