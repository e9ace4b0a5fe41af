import type { Facility, SamlHandoffData } from '../../../src/contract/entities';
import type { HandoffRefusal } from '../../handoff/handoff.types';

export interface SelectFacilityContext {
  /** The facilities of the application that asked, one of which the user must choose. */
  facilities: Facility[];
  /** The facility of the handoff under way, or of the last one. */
  facility: Facility | null;
  /** What the hidden form posts (posting only). */
  saml: SamlHandoffData | null;
  /** The last refused handoff, shown until the next attempt. */
  refusal: HandoffRefusal | null;
  /** An unexpected failure loading the facilities. */
  errorMessage: string | null;
}

export type SelectFacilityEvent =
  /** The user clicked a facility of the list. */
  | { type: 'user.choose'; facilityCode: string }
  /** 'Try again' after a failed load. */
  | { type: 'user.retry' }
  /** The page came back from the back-forward cache after the form was posted (see HandoffEvent). */
  | { type: 'page.restored' };
