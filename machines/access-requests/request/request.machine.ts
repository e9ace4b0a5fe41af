/**
 * One access request (section 2.7): /access-requests/{appCode}/{code} resolves the id and redirects
 * to /access-requests/{id}; there the request is loaded for its tabs (organisations by default),
 * and an admin decides a PENDING one (approve, or reject with a reason, each for a Jira ticket).
 *
 *   start --[byCode]--> resolving (GET access-requests/{appCode}/{code}/id)
 *                         --done / storeId--> resolved (the view redirects to /access-requests/{id})
 *                         --error / reportFailure--> failed
 *         --otherwise--> loading (GET access-requests/{id})
 *                         --done / storeDetails--> ready (the tabs)
 *                         --error / reportFailure--> failed
 *   failed --user.retry--> start
 *   ready.viewing --user.approve | user.reject [canDecide] / chooseDecision--> ready.confirming
 *   ready.confirming --user.cancel / forgetDecision--> ready.viewing
 *     --user.confirm {ticketCode, reason}--> ready.deciding
 *   ready.deciding (POST access-requests/{id}/approve {ticketCode} | reject {ticketCode, reason})
 *     --done 'decided' / storeDecided--> ready.viewing (the decided request; the history reloads)
 *     --done 'refused' / storeRefusal--> ready.confirming (the refusal at its fields)
 *     --done 'alreadyDecided' / storeAlreadyDecided--> loading (decided meanwhile: load it again)
 *     --error / storeDecideError--> ready.confirming
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { AccessRequestDetails } from '../../../src/contract/admin';
import type { FlowStateMeta } from '../../shared/flow.types';
import { failureMessageOf, LOAD_FAILED_MESSAGE } from '../access-requests.types';
import {
  pendingDecision,
  type DecideInput,
  type DecideResult,
  type Decision,
  type RequestContext,
  type RequestEvent,
  type RequestInput,
} from './request.types';

export const DECIDE_FAILED_MESSAGE = 'The decision could not be saved.';

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));
const meta = (description: string): FlowStateMeta => ({ description });

export const requestMachine = setup({
  types: {
    context: {} as RequestContext,
    events: {} as RequestEvent,
    input: {} as RequestInput,
  },
  actors: {
    resolveAccessRequestId: fromPromise<{ id: string }, { appCode: string; code: string }>(
      provided('resolveAccessRequestId'),
    ),
    loadAccessRequest: fromPromise<AccessRequestDetails, { id: string }>(provided('loadAccessRequest')),
    decideAccessRequest: fromPromise<DecideResult, DecideInput>(provided('decideAccessRequest')),
  },
  guards: {
    byCode: ({ context }) => context.id === null,
    canDecide: ({ context }) => pendingDecision(context) === 'decide',
    isDecided: (_, result: DecideResult) => result.type === 'decided',
    isRefused: (_, result: DecideResult) => result.type === 'refused',
  },
  actions: {
    forgetFailure: assign({ errorMessage: null }),
    storeId: assign((_, resolved: { id: string }) => ({ id: resolved.id })),
    storeDetails: assign((_, details: AccessRequestDetails) => ({ details })),
    reportFailure: assign((_, failure: { error: unknown }) => ({
      errorMessage: failureMessageOf(failure.error, LOAD_FAILED_MESSAGE),
    })),
    chooseDecision: assign(({ event }) => {
      assertEvent(event, ['user.approve', 'user.reject']);
      const decision: Decision = event.type === 'user.approve' ? 'approve' : 'reject';
      return { decision, refusal: null, outcome: null };
    }),
    forgetDecision: assign({ decision: null, refusal: null }),
    storeDecided: assign(({ context }, result: DecideResult) =>
      result.type === 'decided'
        ? {
            details: result.details,
            decision: null,
            refusal: null,
            outcome: { type: 'decided' as const, status: result.details.status },
            decisions: context.decisions + 1,
          }
        : {},
    ),
    storeRefusal: assign((_, result: DecideResult) =>
      result.type === 'refused'
        ? { refusal: { message: result.message, fieldErrors: result.fieldErrors } }
        : {},
    ),
    storeAlreadyDecided: assign(({ context }, result: DecideResult) =>
      result.type === 'alreadyDecided'
        ? {
            decision: null,
            refusal: null,
            outcome: { type: 'alreadyDecided' as const, message: result.message },
            decisions: context.decisions + 1,
          }
        : {},
    ),
    storeDecideError: assign((_, failure: { error: unknown }) => ({
      refusal: { message: failureMessageOf(failure.error, DECIDE_FAILED_MESSAGE), fieldErrors: {} },
    })),
  },
}).createMachine({
  id: 'accessRequest',
  context: ({ input }) => ({
    input,
    id: 'id' in input ? input.id : null,
    details: null,
    errorMessage: null,
    mayDecide: input.mayDecide ?? false,
    selfId: input.selfId ?? null,
    decision: null,
    refusal: null,
    outcome: null,
    decisions: 0,
  }),
  initial: 'start',
  states: {
    start: {
      meta: meta('Decides whether the id must be resolved from the app code and code first.'),
      always: [{ guard: 'byCode', target: 'resolving' }, { target: 'loading' }],
    },
    resolving: {
      meta: meta('Resolves the app code and request code to the request id.'),
      entry: 'forgetFailure',
      invoke: {
        id: 'resolveAccessRequestId',
        src: 'resolveAccessRequestId',
        input: ({ context }) =>
          'appCode' in context.input
            ? { appCode: context.input.appCode, code: context.input.code }
            : { appCode: '', code: '' },
        onDone: { target: 'resolved', actions: { type: 'storeId', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    resolved: {
      meta: meta('The id is known: the view redirects to /access-requests/{id}.'),
    },
    loading: {
      meta: meta('Loads the access request.'),
      entry: 'forgetFailure',
      invoke: {
        id: 'loadAccessRequest',
        src: 'loadAccessRequest',
        input: ({ context }) => ({ id: context.id ?? '' }),
        onDone: { target: 'ready', actions: { type: 'storeDetails', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    ready: {
      initial: 'viewing',
      states: {
        viewing: {
          meta: meta(
            'The request with its tabs: organisations (default), history and api-calls; for an admin and a pending request, Approve and Reject.',
          ),
          on: {
            'user.approve': { guard: 'canDecide', target: 'confirming', actions: 'chooseDecision' },
            'user.reject': { guard: 'canDecide', target: 'confirming', actions: 'chooseDecision' },
          },
        },
        confirming: {
          meta: meta(
            'The confirmation of the decision: the Jira ticket code, and for a rejection the reason.',
          ),
          on: {
            'user.cancel': { target: 'viewing', actions: 'forgetDecision' },
            'user.confirm': { target: 'deciding' },
          },
        },
        deciding: {
          meta: meta('Sends the decision; the confirmation is busy meanwhile.'),
          invoke: {
            id: 'decideAccessRequest',
            src: 'decideAccessRequest',
            input: ({ context, event }) => {
              assertEvent(event, 'user.confirm');
              return {
                id: context.id ?? '',
                decision: context.decision ?? 'approve',
                ticketCode: event.ticketCode.trim(),
                reason: context.decision === 'reject' ? event.reason.trim() : null,
              };
            },
            onDone: [
              {
                guard: { type: 'isDecided', params: ({ event }) => event.output },
                target: 'viewing',
                actions: { type: 'storeDecided', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'isRefused', params: ({ event }) => event.output },
                target: 'confirming',
                actions: { type: 'storeRefusal', params: ({ event }) => event.output },
              },
              {
                target: '#accessRequest.loading',
                actions: { type: 'storeAlreadyDecided', params: ({ event }) => event.output },
              },
            ],
            onError: {
              target: 'confirming',
              actions: { type: 'storeDecideError', params: ({ event }) => event },
            },
          },
        },
      },
    },
    failed: {
      meta: meta('The access request could not be loaded.'),
      on: { 'user.retry': { target: 'start' } },
    },
  },
});
