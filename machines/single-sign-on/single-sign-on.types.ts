import type { HandoffTarget, SamlHandoffData } from '../../src/contract/entities';
import type { HandoffRefusal } from '../handoff/handoff.types';

/** What the page knows when it opens: the application that asked (the session's SAML context). */
export interface SingleSignOnInput {
  appCode: string;
}

/** Input of the handoff-targets and app actors. */
export interface AppCodeInput {
  appCode: string;
}

/** The part of GET apps/{appCode} the page needs: the name it calls the application by. */
export interface AppName {
  name: string;
}

export interface SingleSignOnContext {
  appCode: string;
  /** The application's name: from its targets, or from the app itself when there are none. */
  appName: string | null;
  /** The user's handoff targets of the application (one per facility for facility apps). */
  targets: HandoffTarget[];
  /** The target of the handoff under way, or of the last one. */
  target: HandoffTarget | null;
  /** What the hidden form posts (posting only). */
  saml: SamlHandoffData | null;
  /** The last refused handoff, shown inline until the next attempt. */
  refusal: HandoffRefusal | null;
  /** An unexpected failure loading the targets or the app. */
  errorMessage: string | null;
}

export type SingleSignOnEvent =
  /** 'Yes' to 'Would you like to handoff to {app}?'. */
  | { type: 'user.confirm' }
  /** The user picked a facility of the list. */
  | { type: 'user.choose'; facilityCode: string | null }
  /** 'Cancel': the user stays in the portal. */
  | { type: 'user.cancel' }
  /** 'Try again' after a failed load. */
  | { type: 'user.retry' }
  /** The page came back from the back-forward cache after the form was posted (see HandoffEvent). */
  | { type: 'page.restored' };

/** The user cancelled: the page takes them to their landing page in the portal. */
export interface SingleSignOnOutput {
  kind: 'cancelled';
}
