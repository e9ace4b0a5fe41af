// Every user-visible string of the MFA screens (sections 2.6, 4.7 and 8). Strings quoted from the
// spec are word for word; tests import them from here.
import type { FactorType } from '../../../../contract/entities';
import type { TrustedDevicePeriod } from '../../../../../machines/forced/mfa/mfa.types';
import { forcedTexts } from '../shared/forced.texts';

export const mfaTexts = {
  heading: {
    AUTHENTICATOR_APP: 'Authenticator app verification',
    SMS: 'SMS verification',
    EMAIL: 'Email verification',
  } satisfies Record<FactorType, string>,
  instructions: {
    AUTHENTICATOR_APP: 'Enter the 6-digit code your authenticator app shows for this account.',
    SMS: 'Enter the code we sent by SMS to your mobile.',
    EMAIL: 'Enter the code we sent to your email address.',
  } satisfies Record<FactorType, string>,
  verify: 'Verify',
  /** Section 2.6: the skip link of the authenticator app and SMS screens. */
  noAccess: "I don't have access",
  /** Section 4.7: 7 means 7 days, 1 means 24 hours; the default shown is 24 hours. */
  period: (days: TrustedDevicePeriod | null) => (days === 7 ? '7 days' : '24 hours'),
  trustDevice: (period: string) => `Trust this device for ${period}`,
  trustDeviceHint: 'Sign-ins from this browser skip this step until then. Do not tick it on a shared device.',
  skipping: 'Finding another way to verify',
  /** Not in the spec: skip found no factor after this one. */
  noOtherFactorTitle: 'No other way to verify',
  noOtherFactor:
    'Your account has no other way to confirm it is you. Use this one, or contact support if you cannot.',
  ...forcedTexts,
} as const;
