import type { InvitationSummary } from '../../../src/contract/admin';
import type { Paged } from '../../access-requests/access-requests.types';

export interface InvitationListQuery {
  query: string;
  page: number;
}

export interface InvitationsContext {
  query: string;
  /** Zero-based page being shown or loaded. */
  page: number;
  result: Paged<InvitationSummary> | null;
  /** The invitation being revoked, then the last one revoked (its notice). */
  revoked: InvitationSummary | null;
  revokeId: string | null;
  /** Why the last revoke did not happen (e.g. the invitation was used meanwhile). */
  revokeError: string | null;
  errorMessage: string | null;
  /**
   * An invitation was sent while the list loaded or a revoke ran: the first page (where it is on
   * top) is loaded once that ends.
   */
  createdMeanwhile: boolean;
}

export type InvitationsEvent =
  | { type: 'user.search'; query: string }
  | { type: 'user.page'; page: number }
  | { type: 'user.revoke'; id: string }
  | { type: 'user.retry' }
  /** A new invitation was sent (the create form, beside the list): show it. */
  | { type: 'invitation.created' };
