/**
 * The admin's invitation list: searchable, paged, each open invitation revocable.
 *
 *   loading (GET admin/invitations {page, query})
 *     --done [createdMeanwhile] / storeResult, firstPage--> loading (again: the new one is on top)
 *     --done / storeResult--> ready
 *     --error / reportFailure--> failed --user.retry--> loading
 *     --invitation.created / noteCreated--> (stays: reloads the first page once this load ends)
 *   ready --user.search / applySearch (first page)--> loading
 *         --user.page [isOtherPage] / choosePage--> loading
 *         --user.revoke [isOpen] / chooseRevoke--> revoking
 *         --invitation.created / firstPage (newest first: it is on top)--> loading
 *   revoking (POST admin/invitations/{id}/revoke)
 *     --done / storeRevoked (and, createdMeanwhile, showNewest)--> loading (the list again, with
 *       its new status)
 *     --error [createdMeanwhile] / storeRevokeError, showNewest--> loading (the reason stays)
 *     --error / storeRevokeError--> ready (the reason above the list)
 *     --invitation.created / noteCreated--> (stays: the first page loads once the revoke ends)
 *   failed --user.search / applySearch--> loading (the search form stays offered after a failure)
 *
 * An invitation sent while the list loads or a revoke runs is not lost: the first page (where it
 * is, newest first) is loaded as soon as that load or revoke has ended. A load that fails meanwhile
 * shows its failure: Try again loads the list again.
 *
 * The pages are those the server serves: LIST_PAGE_LIMIT at most, however many invitations match
 * (reachablePageCount).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { InvitationSummary } from '../../../src/contract/admin';
import type { FlowStateMeta } from '../../shared/flow.types';
import {
  failureMessageOf,
  reachablePageCount,
  type Paged,
} from '../../access-requests/access-requests.types';
import type { InvitationListQuery, InvitationsContext, InvitationsEvent } from './invitations.types';

export const INVITATIONS_LOAD_FAILED = 'The invitations could not be loaded.';
export const REVOKE_FAILED = 'The invitation could not be revoked.';

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));
const meta = (description: string): FlowStateMeta => ({ description });

export const invitationsMachine = setup({
  types: { context: {} as InvitationsContext, events: {} as InvitationsEvent },
  actors: {
    loadInvitations: fromPromise<Paged<InvitationSummary>, InvitationListQuery>(provided('loadInvitations')),
    revokeInvitation: fromPromise<InvitationSummary, { id: string }>(provided('revokeInvitation')),
  },
  guards: {
    isOtherPage: ({ context, event }) => {
      assertEvent(event, 'user.page');
      // Within the pages the server serves (LIST_PAGE_LIMIT at most), however many match.
      const last = context.result ? reachablePageCount(context.result.page) - 1 : 0;
      return event.page !== context.page && event.page >= 0 && event.page <= last;
    },
    /** An invitation was sent while the list loaded or a revoke ran. */
    createdMeanwhile: ({ context }) => context.createdMeanwhile,
    isOpen: ({ context, event }) => {
      assertEvent(event, 'user.revoke');
      return context.result?.data.some((i) => i.id === event.id && i.status === 'OPEN') ?? false;
    },
  },
  actions: {
    forgetFailure: assign({ errorMessage: null }),
    storeResult: assign((_, result: Paged<InvitationSummary>) => ({ result })),
    reportFailure: assign((_, failure: { error: unknown }) => ({
      errorMessage: failureMessageOf(failure.error, INVITATIONS_LOAD_FAILED),
      createdMeanwhile: false,
    })),
    applySearch: assign(({ event }) => {
      assertEvent(event, 'user.search');
      return { query: event.query.trim(), page: 0, revoked: null, revokeError: null };
    }),
    choosePage: assign(({ event }) => {
      assertEvent(event, 'user.page');
      return { page: event.page, revoked: null, revokeError: null };
    }),
    firstPage: assign({ page: 0, revoked: null, revokeError: null, createdMeanwhile: false }),
    noteCreated: assign({ createdMeanwhile: true }),
    /** The first page, where the invitation sent meanwhile is; the revoke's outcome stays shown. */
    showNewest: assign({ page: 0, createdMeanwhile: false }),
    chooseRevoke: assign(({ event }) => {
      assertEvent(event, 'user.revoke');
      return { revokeId: event.id, revoked: null, revokeError: null };
    }),
    storeRevoked: assign((_, revoked: InvitationSummary) => ({ revoked, revokeId: null })),
    storeRevokeError: assign((_, failure: { error: unknown }) => ({
      revokeError: failureMessageOf(failure.error, REVOKE_FAILED),
      revokeId: null,
    })),
  },
}).createMachine({
  id: 'adminInvitations',
  context: {
    query: '',
    page: 0,
    result: null,
    revoked: null,
    revokeId: null,
    revokeError: null,
    errorMessage: null,
    createdMeanwhile: false,
  },
  initial: 'loading',
  states: {
    loading: {
      meta: meta('Loads one page of invitations matching the search.'),
      entry: 'forgetFailure',
      invoke: {
        id: 'loadInvitations',
        src: 'loadInvitations',
        input: ({ context }) => ({ query: context.query, page: context.page }),
        onDone: [
          {
            guard: 'createdMeanwhile',
            target: 'loading',
            reenter: true,
            actions: [{ type: 'storeResult', params: ({ event }) => event.output }, 'firstPage'],
          },
          { target: 'ready', actions: { type: 'storeResult', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
      on: { 'invitation.created': { actions: 'noteCreated' } },
    },
    ready: {
      meta: meta('The invitations of the page, each open one with a Revoke button.'),
      on: {
        'user.search': { target: 'loading', actions: 'applySearch' },
        'user.page': { guard: 'isOtherPage', target: 'loading', actions: 'choosePage' },
        'user.revoke': { guard: 'isOpen', target: 'revoking', actions: 'chooseRevoke' },
        'invitation.created': { target: 'loading', actions: 'firstPage' },
      },
    },
    revoking: {
      meta: meta('Revokes the chosen invitation.'),
      invoke: {
        id: 'revokeInvitation',
        src: 'revokeInvitation',
        input: ({ context }) => ({ id: context.revokeId ?? '' }),
        onDone: [
          {
            guard: 'createdMeanwhile',
            target: 'loading',
            actions: [{ type: 'storeRevoked', params: ({ event }) => event.output }, 'showNewest'],
          },
          { target: 'loading', actions: { type: 'storeRevoked', params: ({ event }) => event.output } },
        ],
        onError: [
          {
            guard: 'createdMeanwhile',
            target: 'loading',
            actions: [{ type: 'storeRevokeError', params: ({ event }) => event }, 'showNewest'],
          },
          { target: 'ready', actions: { type: 'storeRevokeError', params: ({ event }) => event } },
        ],
      },
      on: { 'invitation.created': { actions: 'noteCreated' } },
    },
    failed: {
      meta: meta('The invitations could not be loaded.'),
      on: {
        'user.retry': { target: 'loading' },
        'user.search': { target: 'loading', actions: 'applySearch' },
      },
    },
  },
});
