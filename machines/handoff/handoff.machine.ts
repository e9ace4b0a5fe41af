/**
 * Handoff to an application (spec sections 2.2, 2.3, 4.1 and 8), used by the applications page's
 * cards and the header's application grid. Not a page of its own: it runs beside the view that
 * offers the applications.
 *
 *   idle --user.handoff / rememberTarget--> handingOff (POST current-user/saml-handoff)
 *   handingOff --done, by the result:
 *     [isReady]    / storeSaml --> posting (the view posts SAMLResponse and RelayState to the ACS URL)
 *     [isRefused]  / storeRefusal, announceRefusal --> idle (the 8 s toast of section 8)
 *     otherwise    (section 8's global handling already acted) --> idle
 *   handingOff --error / storeFailure, announceRefusal--> idle (unexpected: the same toast)
 *   posting --page.restored / forgetSaml--> idle (back from the application: the response is spent)
 *
 * A click while a handoff is under way or being posted is ignored: one handoff at a time.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { HandoffTarget } from '../../src/contract/entities';
import { failureMessage, isReadyAttempt, isRefusedAttempt, refusalOf } from './handoff.attempt';
import type {
  HandoffAttempt,
  HandoffCallInput,
  HandoffContext,
  HandoffEvent,
  HandoffRefusal,
} from './handoff.types';

/** The app provides every actor (machine.provide); a machine never calls the network itself. */
const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));

const appNameOf = (target: HandoffTarget | null): string => target?.appName ?? '';

export const handoffMachine = setup({
  types: {
    context: {} as HandoffContext,
    events: {} as HandoffEvent,
  },
  actors: {
    samlHandoff: fromPromise<HandoffAttempt, HandoffCallInput>(provided('samlHandoff')),
  },
  guards: {
    isReady: (_, attempt: HandoffAttempt) => isReadyAttempt(attempt),
    isRefused: (_, attempt: HandoffAttempt) => isRefusedAttempt(attempt),
  },
  actions: {
    /** A new handoff starts clean: nothing of the last one's refusal stays. */
    rememberTarget: assign(({ event }) => {
      assertEvent(event, 'user.handoff');
      return { target: event.target, saml: null, refusal: null };
    }),
    storeSaml: assign((_, attempt: HandoffAttempt) => ({
      saml: isReadyAttempt(attempt) ? attempt.saml : null,
    })),
    storeRefusal: assign(({ context }, attempt: HandoffAttempt) => ({
      refusal: isRefusedAttempt(attempt) ? refusalOf(appNameOf(context.target), attempt.message) : null,
    })),
    storeFailure: assign(({ context }, failure: { error: unknown }) => ({
      refusal: refusalOf(appNameOf(context.target), failureMessage(failure.error)),
    })),
    forgetSaml: assign({ saml: null }),
    /** Provided by the app: the 8 s toast 'The following error occurred and you cannot handoff to ...'. */
    announceRefusal: (_, _refusal: HandoffRefusal | null) => {},
  },
}).createMachine({
  id: 'handoff',
  context: { target: null, saml: null, refusal: null },
  initial: 'idle',
  states: {
    idle: {
      meta: { description: 'The applications are offered; a click hands off.' },
      on: {
        'user.handoff': { target: 'handingOff', actions: 'rememberTarget' },
      },
    },
    handingOff: {
      meta: { description: 'Asks the server for the signed response to post to the application.' },
      invoke: {
        id: 'samlHandoff',
        src: 'samlHandoff',
        input: ({ context }) => ({
          appCode: context.target?.appCode ?? '',
          facilityCode: context.target?.facilityCode ?? null,
        }),
        onDone: [
          {
            guard: { type: 'isReady', params: ({ event }) => event.output },
            target: 'posting',
            actions: { type: 'storeSaml', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isRefused', params: ({ event }) => event.output },
            target: 'idle',
            actions: [
              { type: 'storeRefusal', params: ({ event }) => event.output },
              { type: 'announceRefusal', params: ({ context }) => context.refusal },
            ],
          },
          { target: 'idle' },
        ],
        onError: {
          target: 'idle',
          actions: [
            { type: 'storeFailure', params: ({ event }) => event },
            { type: 'announceRefusal', params: ({ context }) => context.refusal },
          ],
        },
      },
    },
    posting: {
      meta: { description: 'A hidden form posts SAMLResponse and RelayState to the consumer URL.' },
      on: {
        'page.restored': { target: 'idle', actions: 'forgetSaml' },
      },
    },
  },
});
