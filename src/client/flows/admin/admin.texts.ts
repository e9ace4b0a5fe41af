// Every user-visible string of /admin. The admin screens are "not shown" in the spec; the constant
// option texts of section 3 come word for word from the contract.
import {
  ACCESS_REQUEST_HANDLING_TEXT,
  FACILITY_HANDOFF_TEXT,
  type InvitationStatus,
} from '../../../contract/admin';

export const adminTexts = {
  heading: 'Administration',
  navLabel: 'Administration',
  nav: { invitations: 'Invitations', apps: 'Apps', smsGateway: 'SMS gateway' },
  landing: 'Choose what to administer.',
  invitations: {
    heading: 'Invitations',
    searchLabel: 'Search invitations',
    searchPlaceholder: 'Email, name, customer number or app',
    search: 'Search',
    empty: 'No invitations match the search.',
    loadFailed: 'The invitations could not be loaded.',
    retry: 'Try again',
    loading: 'Loading',
    columns: {
      email: 'Email',
      app: 'App',
      facility: 'Facility',
      invitee: 'Invitee',
      status: 'Status',
      expires: 'Expires',
      actions: 'Actions',
    },
    status: {
      OPEN: 'Open',
      USED: 'Used',
      EXPIRED: 'Expired',
      REVOKED: 'Revoked',
    } satisfies Record<InvitationStatus, string> as Record<string, string>,
    /** Under a Revoked badge: when, and by which admin (unnamed once that identity is gone). */
    revokedDetail: (when: string, by: string | null) => (by ? `by ${by}, ${when}` : when),
    /** Under the email: the admin who sent the invitation (none for the invite command's). */
    sentBy: (username: string) => `Sent by ${username}`,
    revoke: 'Revoke',
    revokeLabel: (email: string) => `Revoke the invitation for ${email}`,
    revoked: (email: string) => `The invitation for ${email} was revoked.`,
    revokeFailed: 'The invitation could not be revoked.',
  },
  apps: {
    heading: 'Apps',
    contextType: 'Handoff by',
    facilityHandoff: 'Facility handoff',
    accessRequestHandling: 'Access requests',
    facilities: 'Facilities',
    noFacilities: 'None',
    loadFailed: 'The apps could not be loaded.',
    retry: 'Try again',
  },
  smsGateway: {
    heading: 'SMS gateway',
    explanation:
      'While SMS codes are off, nobody is sent one: sign-in offers email instead, and password reset uses security questions.',
    switchLabel: 'Send SMS verification codes',
    on: 'SMS verification codes are being sent.',
    off: 'SMS verification codes are switched off.',
    saved: (on: boolean) =>
      on ? 'SMS verification codes are switched on.' : 'SMS verification codes are switched off.',
    loadFailed: 'The SMS gateway status could not be loaded.',
    saveFailed: 'The SMS gateway status could not be changed.',
    retry: 'Try again',
  },
  create: {
    heading: 'Invite someone',
    email: 'Email',
    app: 'App',
    facility: 'Facility',
    name: 'Name',
    customerNumber: 'Customer number',
    customerNumberHint: 'In the form C99999, for customers',
    isStaff: 'Staff member',
    validityDays: 'Valid for (days)',
    submit: 'Send invitation',
    again: 'Invite someone else',
    sent: (email: string) => `The invitation was sent to ${email}.`,
    sentDetail: (app: string, expires: string) => `For ${app}; it can be used until ${expires}.`,
    loadFailed: 'The apps could not be loaded.',
    retry: 'Try again',
    required: 'Required field',
    /** The validity is a number of whole days (1 to 365). */
    wholeDays: 'Enter a whole number of days',
    handoff: FACILITY_HANDOFF_TEXT,
    handling: ACCESS_REQUEST_HANDLING_TEXT,
  },
} as const;
