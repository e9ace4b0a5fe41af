import type { AdminApp, CreateInvitationBody, InvitationSummary } from '../../../src/contract/admin';
import type { FieldError } from '../../../src/contract/errors';

/** What the create call answers: the invitation sent, or the server's refusal (422). */
export type CreateInvitationResult =
  | { type: 'created'; invitation: InvitationSummary }
  | { type: 'refused'; message: string; fieldErrors: FieldError[] };

export interface CreateInvitationContext {
  /** The apps (with facilities) an invitation can be for. */
  apps: AdminApp[];
  loadError: string | null;
  form: CreateInvitationBody | null;
  created: InvitationSummary | null;
  refusal: { message: string; fieldErrors: FieldError[] } | null;
}

export type CreateInvitationEvent =
  /** The form was submitted with its valid values. */
  | { type: 'user.submit'; form: CreateInvitationBody }
  /** 'Invite someone else' after a sent invitation. */
  | { type: 'user.again' }
  /** 'Try again' after the apps failed to load. */
  | { type: 'user.retry' };
