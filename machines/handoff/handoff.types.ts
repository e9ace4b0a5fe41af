import type { HandoffTarget, SamlHandoffData } from '../../src/contract/entities';

/** What a handoff call is asked: the app, and the facility for apps that hand off one. */
export interface HandoffCallInput {
  appCode: string;
  facilityCode: string | null;
}

/**
 * What a handoff call answers (current-user/saml-handoff, current-user/sso-saml-handoff and
 * forced-actions/select-facility/saml-handoff alike). Expected refusals are results, not errors:
 * the machines route them with guards on onDone; onError is left for the unexpected.
 */
export type HandoffAttempt =
  /** 2xx: the target handed off to and what the hidden form posts to its consumer URL. */
  | { type: 'ready'; target: HandoffTarget; saml: SamlHandoffData }
  /** The server refused the handoff (422, or another answer section 8 leaves to the flow). */
  | { type: 'refused'; message: string }
  /** Section 8's global handling has already acted (it navigated or told the user). */
  | { type: 'handled' };

/** A refused handoff, as the toast and the inline alert show it. */
export interface HandoffRefusal {
  /** The application the user tried to hand off to. */
  appName: string;
  /** The server's message. */
  message: string;
}

export interface HandoffContext {
  /** The target of the handoff under way, or of the last one. */
  target: HandoffTarget | null;
  /** What the hidden form posts (posting only). */
  saml: SamlHandoffData | null;
  /** The last refusal, until the next handoff starts. */
  refusal: HandoffRefusal | null;
}

export type HandoffEvent =
  /** The user clicked an application (card, header grid, or the address of a new window named it). */
  | { type: 'user.handoff'; target: HandoffTarget }
  /**
   * The browser showed the page again from its back-forward cache after the form was posted (the
   * user came back from the application): the posted response is spent, so the page is usable again.
   */
  | { type: 'page.restored' };
