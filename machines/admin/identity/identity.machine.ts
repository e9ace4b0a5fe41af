/**
 * The admin's identity page (/admin/identities/{id}): details, enrolled factors, live sessions,
 * trusted devices (the history beside them pages in the history machine), and 'Sign out of all
 * devices' for that identity with the Jira ticket it is done for (section 2.2's modal, in its
 * wording for another identity, or for one's own account), and, when repeated failures locked the
 * account, its unlock (not of the admin's own account: another admin unlocks it, the server refuses
 * it with 403).
 *
 *   loading (GET admin/identities/{id}) --done / storeIdentity--> ready
 *     --error / reportFailure--> failed --user.retry--> loading
 *   ready.viewing --user.openSignOut / forgetOutcomes--> ready.confirmingSignOut
 *   ready.confirmingSignOut --user.cancel--> ready.viewing
 *     --user.confirmSignOut {ticketCode} / chooseTicket--> ready.signingOut
 *   ready.signingOut (POST admin/identities/{id}/single-logout {ticketCode})
 *     --done 'signedOut' [isOwnAccount]--> signedOutOwnAccount (final: this session ended with the
 *       others, so the page is not loaded again; the view sends the admin to sign in, section 2.2)
 *     --done 'signedOut' / noteSignedOut--> loading (the page again, with the notice)
 *     --done 'refused' / storeRefusal--> ready.confirmingSignOut (the ticket's refusal at its field)
 *     --error / storeSignOutError--> ready.confirmingSignOut
 *   ready.viewing --user.unlock [mayUnlock: locked, and not the admin's own] / forgetOutcomes
 *     --> ready.unlocking
 *   ready.unlocking (POST admin/identities/{id}/unlock)
 *     --done [foundNoLock] / noteAlreadyUnlocked--> loading (another admin lifted the lock first:
 *       the page again, with a notice that says so)
 *     --done / noteUnlocked--> loading (the page again, with the notice)
 *     --error / storeUnlockError--> ready.viewing (the reason)
 *
 * What an action leaves on the page (its notice, or the reason it failed) belongs to that action:
 * it stays through the action's own reload (and its retries) and goes as the next action starts,
 * whichever it is (forgetOutcomes on opening the sign-out modal and on unlocking). Only viewing
 * takes an action: while the page loads, an unlock runs or the modal is open, the others wait.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { UnlockResult } from '../../../src/contract/admin';
import type { IdentityDetails } from '../../../src/contract/admin-identities';
import type { FlowStateMeta } from '../../shared/flow.types';
import { failureMessageOf } from '../../access-requests/access-requests.types';

export const IDENTITY_LOAD_FAILED = 'The identity could not be loaded.';
export const SIGN_OUT_FAILED = 'The identity could not be signed out.';
export const UNLOCK_FAILED = 'The account could not be unlocked.';

export interface IdentityInput {
  id: string;
  /** The identity is the signed-in admin's own account. */
  ownAccount?: boolean;
}

/** What signing out answers: done, or the server's refusal of the ticket (a 422). */
export type SignOutResult = { type: 'signedOut' } | { type: 'refused'; message: string };

/** What an unlock the server answered did: lifted the lock, or found none left. */
export type UnlockNotice = 'unlocked' | 'alreadyUnlocked';

export interface IdentityContext {
  id: string;
  /** The identity is the signed-in admin's own: signing it out ends this session too. */
  ownAccount: boolean;
  identity: IdentityDetails | null;
  errorMessage: string | null;
  /** The ticket being (or last) submitted. */
  ticketCode: string | null;
  /** Why the last sign-out did not happen; shown in the modal. */
  signOutRefusal: string | null;
  /** Set once signed out: the ticket it was done for (the notice, and the history reloads). */
  signedOutTicket: string | null;
  /** How many sign-outs this page has done (the history is reloaded for each). */
  signOuts: number;
  /** How many unlocks the server has answered here (the history is reloaded for each). */
  unlocks: number;
  /**
   * The last unlock's notice, as the server answered it: the lock lifted ('unlocked'), or none left
   * to lift ('alreadyUnlocked': another admin or the command line unlocked it first).
   */
  unlockNotice: UnlockNotice | null;
  /** Why the last unlock did not happen. */
  unlockError: string | null;
}

export type IdentityEvent =
  | { type: 'user.retry' }
  | { type: 'user.openSignOut' }
  | { type: 'user.cancel' }
  | { type: 'user.confirmSignOut'; ticketCode: string }
  | { type: 'user.unlock' };

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));
const meta = (description: string): FlowStateMeta => ({ description });

export const identityMachine = setup({
  types: {
    context: {} as IdentityContext,
    events: {} as IdentityEvent,
    input: {} as IdentityInput,
  },
  actors: {
    loadIdentity: fromPromise<IdentityDetails, { id: string }>(provided('loadIdentity')),
    signOutIdentity: fromPromise<SignOutResult, { id: string; ticketCode: string }>(
      provided('signOutIdentity'),
    ),
    /** Answers contract/admin.ts's UnlockResult: whether the account was still locked. */
    unlockIdentity: fromPromise<UnlockResult, { id: string }>(provided('unlockIdentity')),
  },
  guards: {
    isSignedOut: (_, output: SignOutResult) => output.type === 'signedOut',
    /** Signed out, and the account was the admin's own: this session has ended with the others. */
    isOwnAccountSignedOut: ({ context }, output: SignOutResult) =>
      context.ownAccount && output.type === 'signedOut',
    /** The unlock found no lock to lift: another admin (or npm run unlock) lifted it first. */
    foundNoLock: (_, output: UnlockResult) => !output.wasLocked,
    /** Locked, and not the admin's own account (another admin unlocks that; the server refuses it). */
    mayUnlock: ({ context }) => context.identity?.lockedDate != null && !context.ownAccount,
  },
  actions: {
    storeIdentity: assign((_, identity: IdentityDetails) => ({ identity, errorMessage: null })),
    reportFailure: assign((_, failure: { error: unknown }) => ({
      errorMessage: failureMessageOf(failure.error, IDENTITY_LOAD_FAILED),
    })),
    /** A new action starts: the notices and reasons of the last one go. */
    forgetOutcomes: assign({
      signOutRefusal: null,
      signedOutTicket: null,
      unlockNotice: null,
      unlockError: null,
    }),
    chooseTicket: assign(({ event }) => {
      assertEvent(event, 'user.confirmSignOut');
      return { ticketCode: event.ticketCode.trim(), signOutRefusal: null };
    }),
    noteSignedOut: assign(({ context }) => ({
      signedOutTicket: context.ticketCode,
      signOuts: context.signOuts + 1,
    })),
    storeRefusal: assign((_, output: SignOutResult) => ({
      signOutRefusal: output.type === 'refused' ? output.message : null,
    })),
    storeSignOutError: assign((_, failure: { error: unknown }) => ({
      signOutRefusal: failureMessageOf(failure.error, SIGN_OUT_FAILED),
    })),
    noteUnlocked: assign(({ context }) => ({
      unlockNotice: 'unlocked' as const,
      unlocks: context.unlocks + 1,
    })),
    noteAlreadyUnlocked: assign(({ context }) => ({
      unlockNotice: 'alreadyUnlocked' as const,
      unlocks: context.unlocks + 1,
    })),
    storeUnlockError: assign((_, failure: { error: unknown }) => ({
      unlockError: failureMessageOf(failure.error, UNLOCK_FAILED),
    })),
  },
}).createMachine({
  id: 'adminIdentity',
  context: ({ input }) => ({
    id: input.id,
    ownAccount: input.ownAccount ?? false,
    identity: null,
    errorMessage: null,
    ticketCode: null,
    signOutRefusal: null,
    signedOutTicket: null,
    signOuts: 0,
    unlocks: 0,
    unlockNotice: null,
    unlockError: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      meta: meta('Loads the identity with its factors, sessions and trusted devices.'),
      invoke: {
        id: 'loadIdentity',
        src: 'loadIdentity',
        input: ({ context }) => ({ id: context.id }),
        onDone: {
          target: 'ready',
          actions: { type: 'storeIdentity', params: ({ event }) => event.output },
        },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    ready: {
      initial: 'viewing',
      states: {
        viewing: {
          meta: meta('Details, enrolled factors, sessions, trusted devices and the history.'),
          on: {
            'user.openSignOut': { target: 'confirmingSignOut', actions: 'forgetOutcomes' },
            'user.unlock': { guard: 'mayUnlock', target: 'unlocking', actions: 'forgetOutcomes' },
          },
        },
        unlocking: {
          meta: meta('Lifts the lock that repeated failed passwords or codes put on the account.'),
          invoke: {
            id: 'unlockIdentity',
            src: 'unlockIdentity',
            input: ({ context }) => ({ id: context.id }),
            // Reloaded either way: the lock is gone, and the history has its unlock.
            onDone: [
              {
                guard: { type: 'foundNoLock', params: ({ event }) => event.output },
                target: '#adminIdentity.loading',
                actions: 'noteAlreadyUnlocked',
              },
              { target: '#adminIdentity.loading', actions: 'noteUnlocked' },
            ],
            onError: {
              target: 'viewing',
              actions: { type: 'storeUnlockError', params: ({ event }) => event },
            },
          },
        },
        confirmingSignOut: {
          meta: meta(
            "The 'Sign out of all devices' modal for this identity: its applications and the Jira ticket code.",
          ),
          on: {
            'user.cancel': { target: 'viewing' },
            'user.confirmSignOut': { target: 'signingOut', actions: 'chooseTicket' },
          },
        },
        signingOut: {
          meta: meta('Ends every session and trusted device of the identity, recorded with the ticket.'),
          invoke: {
            id: 'signOutIdentity',
            src: 'signOutIdentity',
            input: ({ context }) => ({ id: context.id, ticketCode: context.ticketCode ?? '' }),
            onDone: [
              {
                guard: { type: 'isOwnAccountSignedOut', params: ({ event }) => event.output },
                target: '#adminIdentity.signedOutOwnAccount',
              },
              {
                guard: { type: 'isSignedOut', params: ({ event }) => event.output },
                target: '#adminIdentity.loading',
                actions: 'noteSignedOut',
              },
              {
                target: 'confirmingSignOut',
                actions: { type: 'storeRefusal', params: ({ event }) => event.output },
              },
            ],
            onError: {
              target: 'confirmingSignOut',
              actions: { type: 'storeSignOutError', params: ({ event }) => event },
            },
          },
        },
      },
    },
    failed: {
      meta: meta('The identity could not be loaded.'),
      on: { 'user.retry': { target: 'loading' } },
    },
    signedOutOwnAccount: {
      meta: meta(
        'The admin signed out their own account: this session ended with the others; they go to sign in.',
      ),
      type: 'final',
    },
  },
});
