import type { Facility, SamlHandoffData } from '../../../src/contract/entities';
import type { HandoffRefusal } from '../../handoff/handoff.types';

/** Input of the app lookup: the code the facilities name their application by (section 3). */
export interface SelectFacilityAppInput {
  appCode: string;
}

/** The part of GET apps/{appCode} the step needs: the name section 8's handoff toast calls the app by. */
export interface SelectFacilityAppName {
  name: string;
}

export interface SelectFacilityContext {
  /** The facilities of the application that asked, one of which the user must choose. */
  facilities: Facility[];
  /** That application's name, once looked up; null until then or when the lookup failed (the code is used). */
  appName: string | null;
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
