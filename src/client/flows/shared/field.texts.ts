// Field texts the spec gives no wording for but that several flows show: each is defined once here,
// so the same refusal or hint reads the same on every screen (profile, registration, password reset,
// forced steps). Like the contract's field messages, they carry no closing full stop.
import { messages } from '../../../contract/fields';

export const fieldTexts = {
  /** A new password and its confirmation differ (reset, expired change, profile, registration). */
  passwordMismatch: messages.passwordMismatch,
  /** Section 5: the mobile's international-format hint (forced enrolment, registration, profile). */
  mobileHint: 'International format, e.g. +61 400 000 000',
} as const;
