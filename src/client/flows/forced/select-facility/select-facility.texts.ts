// Every user-visible string of /forced-actions/select-facility (sections 2.6, 4.3 and 8). The spec
// gives no wording for this page but the handoff error, which is word for word.
import { handoffRefusedMessage } from '../../handoff/handoff.texts';

export const selectFacilityTexts = {
  heading: 'Select facility',
  question: 'Which facility would you like to continue to?',
  noFacilities: 'There is no facility for you to choose. Contact support to be given access.',
  /** Leaves the forced step: the sign-in is abandoned (as on the other forced steps). */
  cancel: 'Cancel',
  loading: 'Loading',
  loadFailed: 'The facilities could not be loaded.',
  retry: 'Try again',
  /** Section 8, word for word: the handoff error, told in the 8 s toast. */
  refused: handoffRefusedMessage,
  handingOff: (facility: string) => `Handing off to ${facility}`,
  continueHandoff: 'Continue',
} as const;
