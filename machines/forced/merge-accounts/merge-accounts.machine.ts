/**
 * Duplicate accounts and the merge wizard (sections 2.6, 4.4 and 8), at
 * /forced-actions/duplicate-accounts and /forced-actions/merge-accounts/*.
 *
 *   loading (accounts, skip cutoff, stored wizard data) --done--> resuming
 *   resuming: the address's step if the wizard data allows it; a merge step without its data
 *     --> invalidating (logout) --> invalidated (final, '/'); otherwise --> notice
 *   notice (duplicate-accounts): --user.startMerge / clearWizard--> selectAccounts
 *     --user.skip[canSkip]--> skipping --done[isRefused]--> notice --done / clearWizard--> continuing
 *   wizard: only from a step's form (never while a call of the step is under way; the address is
 *   then put back) --route.changed--> select-accounts; change-email when some accounts are not
 *   selected; choose-preferred-username when accounts are selected:
 *     selectAccounts (16): --user.selectAccounts--> selecting
 *       form --route.changed[notice] / clearWizard--> notice (Start merge, or Skip, again)
 *       selecting --done[isRefused]--> form (field errors on the checkboxes / passwords; conflict banner)
 *       --done[changeEmail, none selected] / storeSelection--> changeEmailOnly
 *       --done[changeEmail] / storeSelection--> changeEmail
 *       --done / storeSelection--> choosePreferredUsername
 *     changeEmail (32) | changeEmailOnly (64): --user.changeEmail--> sending
 *       --done[isRefused]--> form   --done / storeNewEmail--> emailVerification | emailVerificationOnly
 *     emailVerification (48) | emailVerificationOnly (80): --user.verify--> verifying
 *       --done[refusesNewEmail] / returnWithRefusal--> changeEmail | changeEmailOnly (shows it)
 *       --done[isRefused]--> form   --done--> choosePreferredUsername | emailChanged
 *       --user.resend[mayResend]--> resending --done[isSent] / announceResent--> form
 *     choosePreferredUsername (64): loading options --> form --user.chooseUsername--> choosing
 *       --done[isRefused]--> form   --done / storePreferredUsername--> confirmation
 *     confirmation (80): generating details --done / storeDetails--> form (the details, or the
 *       refusal listed as merge errors; Merge disabled) --user.merge[noMergeErrors]--> merging
 *       --done[isRefused] / storeMergeErrors--> form (listed; Merge disabled)
 *       --done / storeMerged, reloadCurrentUser--> completed
 *       (both list a refusal naming no field, e.g. a merge already done, as an identities error)
 *   emailChanged, completed: --user.continue--> finishing (continue-sign-in) / clearWizard
 *     --> continuing (invokes continue-sign-in) --done[continuationFailed]--> failed --done--> done
 *   any unexpected failure --> failed
 */
import { assign, assertEvent, fromPromise, setup } from 'xstate';
import type { AuthenticationOutcome } from '../../../src/contract/entities';
import type { FieldError } from '../../../src/contract/errors';
import { MERGE_ERROR_FIELDS } from '../../../src/contract/merge';
import {
  FORCED_ACTION_ROUTES,
  MERGE_ACCOUNTS_ROUTE,
  MERGE_ACCOUNTS_STEPS,
  SIGN_IN_ROUTE,
} from '../../routes';
import type { FlowStateMeta } from '../../shared/flow.types';
import { continuingState } from '../../shared/continuation-steps';
import { failTo, outputOf } from '../../shared/invoke-basics';
import { resendingCodeState, submittingState } from '../../shared/invoke-steps';
import { continueSignInMachine } from '../continue-sign-in/continue-sign-in.machine';
import { messageOf, provided, required } from '../continue-sign-in/forced-step';
import {
  EMPTY_WIZARD,
  type ConfirmResult,
  type ContinueSignInOutput,
  type DetailsResult,
  type MergeAccountsContext,
  type MergeAccountsEvent,
  type MergeAccountsInput,
  type MergeAccountsOutput,
  type MergeFacts,
  type MergeWizardData,
  type OutcomeResult,
  type ResendResult,
  type SelectAccountsInput,
  type SelectAccountsResult,
  type StepResult,
} from './merge-accounts.types';

const S = MERGE_ACCOUNTS_STEPS;
const at = (step: string) => `${MERGE_ACCOUNTS_ROUTE}/${step}`;
const step = (route: string, progress: number | undefined, description: string): FlowStateMeta =>
  progress === undefined ? { route, description } : { route, progress, description };

/** A step the wizard can be resumed at (or moved back to) when its data allows it. */
export type ResumableStep =
  | 'notice'
  | 'selectAccounts'
  | 'changeEmail'
  | 'changeEmailOnly'
  | 'emailVerification'
  | 'emailVerificationOnly'
  | 'choosePreferredUsername'
  | 'confirmation'
  | 'emailChanged'
  | 'completed'
  | 'invalid';

const trim = (path: string) => path.replace(/\/+$/, '');

const routeOfStep: Record<Exclude<ResumableStep, 'invalid'>, string[]> = {
  notice: [FORCED_ACTION_ROUTES.DUPLICATE_ACCOUNTS],
  selectAccounts: [MERGE_ACCOUNTS_ROUTE, at(S.SELECT_ACCOUNTS)],
  changeEmail: [at(S.CHANGE_EMAIL)],
  changeEmailOnly: [at(S.CHANGE_EMAIL)],
  emailVerification: [at(S.EMAIL_VERIFICATION)],
  emailVerificationOnly: [at(S.EMAIL_VERIFICATION)],
  choosePreferredUsername: [at(S.CHOOSE_PREFERRED_USERNAME)],
  confirmation: [at(S.CONFIRMATION)],
  emailChanged: [at(S.EMAIL_CHANGED)],
  completed: [at(S.COMPLETED)],
};

const hasSelected = (w: MergeWizardData) => (w.selectedIdentities?.length ?? 0) > 0;
const hasNotSelected = (w: MergeWizardData) => (w.notSelectedIdentities?.length ?? 0) > 0;
const selectionMade = (w: MergeWizardData) =>
  w.selectedIdentities !== null && w.notSelectedIdentities !== null;

/** Whether the wizard data holds what `target` needs (section 2.6: earlier wizard data). */
export function wizardAllows(target: ResumableStep, w: MergeWizardData): boolean {
  const emailStep = selectionMade(w) && hasNotSelected(w);
  const usernameStep = hasSelected(w) && (!hasNotSelected(w) || w.newEmail !== null);
  switch (target) {
    case 'notice':
    case 'selectAccounts':
      return true;
    case 'changeEmail':
      return emailStep && hasSelected(w);
    case 'changeEmailOnly':
      return emailStep && !hasSelected(w);
    case 'emailVerification':
      return emailStep && hasSelected(w) && w.newEmail !== null;
    case 'emailVerificationOnly':
      return emailStep && !hasSelected(w) && w.newEmail !== null;
    case 'choosePreferredUsername':
      return usernameStep;
    case 'confirmation':
      return usernameStep && w.preferredUsername !== null;
    case 'emailChanged':
      return selectionMade(w) && !hasSelected(w) && w.newEmail !== null;
    case 'completed':
      return w.preferredUsername !== null && w.mergedUsernames !== null;
    case 'invalid':
      return true;
  }
}

/** The step an address shows, given the wizard data; 'invalid' for a merge step without its data. */
export function stepAt(path: string, w: MergeWizardData): ResumableStep {
  const clean = trim(path);
  const named = (Object.keys(routeOfStep) as Array<keyof typeof routeOfStep>).filter((s) =>
    routeOfStep[s].includes(clean),
  );
  const allowed = named.find((s) => wizardAllows(s, w));
  if (allowed) return allowed;
  return clean.startsWith(`${MERGE_ACCOUNTS_ROUTE}/`) ? 'invalid' : 'notice';
}

/**
 * The address moving to a step (the browser's Back, a step's Back link) when the wizard data allows
 * it. Accepted only from a step's form, never while one of the step's calls is under way (the merge
 * itself cannot be undone, and its answer must be seen): an address ignored meanwhile is put back
 * to the step's own by useFlowRoute.
 */
const moveTo = <
  const T extends 'selectAccounts' | 'changeEmail' | 'changeEmailOnly' | 'choosePreferredUsername',
>(
  target: T,
) =>
  ({
    guard: { type: 'routeLeadsTo', params: { step: target } },
    target: `#mergeAccounts.wizard.${target}`,
  }) as const;
/** From select-accounts: any step its data allows (browser Forward after Back, too). */
const SELECT_ACCOUNTS_MOVES = [
  moveTo('selectAccounts'),
  moveTo('changeEmail'),
  moveTo('changeEmailOnly'),
  moveTo('choosePreferredUsername'),
] as const;
/** From a step after accounts were selected: the steps of that path. */
const MERGE_MOVES = [
  moveTo('selectAccounts'),
  moveTo('changeEmail'),
  moveTo('choosePreferredUsername'),
] as const;
/** From a step after None: the steps of the email-only path. */
const EMAIL_ONLY_MOVES = [moveTo('selectAccounts'), moveTo('changeEmailOnly')] as const;

/**
 * Section 8: a refusal of generate-merge-details or confirm as the confirmation step lists it. Its
 * field errors as they are; one naming no field (e.g. 'The accounts have already been merged.') is
 * listed as an identities error, so the step never shows nothing and a disabled Merge.
 */
function mergeErrorsOf(result: DetailsResult | ConfirmResult): FieldError[] {
  if (result.type !== 'refused') return [];
  return result.fieldErrors.length > 0
    ? result.fieldErrors
    : [{ fieldName: MERGE_ERROR_FIELDS.identities, message: result.message }];
}

/** Section 4.4: the preferred username resets when it is no longer among the merged accounts. */
function selectionFrom(context: MergeAccountsContext): MergeWizardData {
  const chosen = new Set(context.pendingSelection);
  const selected = context.candidates.filter((c) => chosen.has(c.id));
  const notSelected = context.candidates.filter((c) => !chosen.has(c.id));
  const usernames = new Set([context.username, ...selected.map((c) => c.username)]);
  const keep = selected.length > 0 && context.wizard.preferredUsername !== null;
  return {
    ...context.wizard,
    selectedIdentities: selected.map((c) => ({ id: c.id, username: c.username })),
    notSelectedIdentities: notSelected.map((c) => ({ username: c.username, name: c.name })),
    preferredUsername:
      keep && usernames.has(context.wizard.preferredUsername!) ? context.wizard.preferredUsername : null,
    newEmail: notSelected.length > 0 ? context.wizard.newEmail : null,
    mergedUsernames: null,
  };
}

export const mergeAccountsMachine = setup({
  types: {
    context: {} as MergeAccountsContext,
    events: {} as MergeAccountsEvent,
    input: {} as MergeAccountsInput,
    output: {} as MergeAccountsOutput,
  },
  actors: {
    loadMerge: fromPromise<MergeFacts>(provided('loadMerge')),
    skipMerge: fromPromise<OutcomeResult>(provided('skipMerge')),
    selectAccounts: fromPromise<SelectAccountsResult, SelectAccountsInput>(provided('selectAccounts')),
    changeEmail: fromPromise<StepResult, { email: string }>(provided('changeEmail')),
    verifyEmail: fromPromise<StepResult, { code: string }>(provided('verifyEmail')),
    resendEmail: fromPromise<ResendResult>(provided('resendEmail')),
    loadPreferredUsernames: fromPromise<string[]>(provided('loadPreferredUsernames')),
    choosePreferredUsername: fromPromise<StepResult, { username: string }>(
      provided('choosePreferredUsername'),
    ),
    generateMergeDetails: fromPromise<DetailsResult>(provided('generateMergeDetails')),
    confirmMerge: fromPromise<ConfirmResult>(provided('confirmMerge')),
    finishMerge: fromPromise<AuthenticationOutcome>(provided('finishMerge')),
    continueSignIn: continueSignInMachine,
    logout: fromPromise<void>(provided('logout')),
  },
  guards: {
    resumesAt: ({ context }, params: { step: ResumableStep }) =>
      stepAt(context.entryPath, context.wizard) === params.step,
    routeLeadsTo: ({ context, event }, params: { step: ResumableStep }) => {
      assertEvent(event, 'route.changed');
      return (
        routeOfStep[params.step as keyof typeof routeOfStep].includes(trim(event.path)) &&
        wizardAllows(params.step, context.wizard)
      );
    },
    canSkip: ({ context }) => context.canSkip,
    isRefused: (_, result: { type: string }) => result.type === 'refused',
    /** A refusal of the new email itself (in use, or no longer pending): choose another one. */
    refusesNewEmail: (_, result: StepResult) =>
      result.type === 'refused' && result.fieldErrors.some((e) => e.fieldName === MERGE_ERROR_FIELDS.email),
    changeEmailOnly: ({ context }, result: SelectAccountsResult) =>
      result.type === 'selected' && result.changeEmail && context.pendingSelection.length === 0,
    changeEmail: (_, result: SelectAccountsResult) => result.type === 'selected' && result.changeEmail,
    isSent: (_, result: ResendResult) => result.type === 'sent',
    mayResend: ({ context }) => context.resendRefusal === null,
    noMergeErrors: ({ context }) => context.mergeErrors.length === 0,
    continuationFailed: (_, output: ContinueSignInOutput) => output.kind === 'failed',
  },
  actions: {
    storeFacts: assign((_, facts: MergeFacts) => ({
      candidates: facts.candidates,
      canSkip: facts.canSkip,
      wizard: facts.stored ?? EMPTY_WIZARD,
    })),
    clearWizard: assign({ wizard: EMPTY_WIZARD, mergeErrors: [] }),
    forgetRefusals: assign({ refusal: null, resendRefusal: null }),
    forgetRefusal: assign({ refusal: null }),
    returnWithRefusal: assign(({ context }, result: StepResult) => ({
      returnedRefusal:
        result.type === 'refused' ? { message: result.message, fieldErrors: result.fieldErrors } : null,
      wizard: { ...context.wizard, newEmail: null },
    })),
    restoreReturnedRefusal: assign(({ context }) => ({
      refusal: context.returnedRefusal,
      returnedRefusal: null,
    })),
    storeRefusal: assign((_, result: { type: string; message?: string; fieldErrors?: unknown }) => ({
      refusal:
        result.type === 'refused'
          ? {
              message: result.message ?? '',
              fieldErrors: (result.fieldErrors ?? []) as MergeAccountsContext['mergeErrors'],
            }
          : null,
    })),
    holdSelection: assign(({ event }) => {
      assertEvent(event, 'user.selectAccounts');
      return { pendingSelection: event.identities.map((i) => i.id) };
    }),
    storeSelection: assign(({ context }) => ({ wizard: selectionFrom(context), mergeErrors: [] })),
    holdEmail: assign(({ event }) => {
      assertEvent(event, 'user.changeEmail');
      return { pendingEmail: event.email };
    }),
    storeNewEmail: assign(({ context }) => ({
      wizard: { ...context.wizard, newEmail: context.pendingEmail },
      mergeErrors: [],
    })),
    announceResent: () => {},
    storeResendRefusal: assign((_, result: ResendResult) => ({
      resendRefusal: result.type === 'sent' ? null : result.message,
    })),
    storeUsernameOptions: assign((_, options: string[]) => ({ usernameOptions: options })),
    holdUsername: assign(({ event }) => {
      assertEvent(event, 'user.chooseUsername');
      return { pendingUsername: event.username };
    }),
    storePreferredUsername: assign(({ context }) => ({
      wizard: { ...context.wizard, preferredUsername: context.pendingUsername },
      mergeErrors: [],
    })),
    storeDetails: assign((_, result: DetailsResult) => ({
      details: result.type === 'details' ? result.details : null,
      mergeErrors: mergeErrorsOf(result),
    })),
    storeMergeErrors: assign((_, result: ConfirmResult) => ({ mergeErrors: mergeErrorsOf(result) })),
    storeMerged: assign(({ context }, result: ConfirmResult) => ({
      wizard:
        result.type === 'merged'
          ? {
              ...context.wizard,
              preferredUsername: result.result.preferredUsername,
              mergedUsernames: result.result.mergedUsernames,
            }
          : context.wizard,
    })),
    /** Provided by the app: after the merge the current user is reloaded (section 4.4). */
    reloadCurrentUser: () => {},
    storeOutcome: assign((_, outcome: AuthenticationOutcome | OutcomeResult) => ({
      outcome: 'type' in outcome ? (outcome.type === 'outcome' ? outcome.outcome : null) : outcome,
    })),
    storeHandover: assign((_, output: ContinueSignInOutput) => ({
      handover: output.kind === 'failed' ? null : output,
    })),
    reportContinuationFailure: assign((_, output: ContinueSignInOutput) => ({
      errorMessage: output.kind === 'failed' ? output.message : null,
    })),
    reportFailure: assign((_, failure: { error: unknown }) => ({ errorMessage: messageOf(failure.error) })),
  },
}).createMachine({
  id: 'mergeAccounts',
  context: ({ input }) => ({
    targetPath: input.targetPath,
    adminTargetPath: input.adminTargetPath,
    entryPath: input.path,
    username: input.username,
    candidates: [],
    canSkip: false,
    wizard: EMPTY_WIZARD,
    pendingSelection: [],
    pendingEmail: null,
    pendingUsername: null,
    usernameOptions: [],
    details: null,
    refusal: null,
    returnedRefusal: null,
    mergeErrors: [],
    resendRefusal: null,
    outcome: null,
    handover: null,
    errorMessage: null,
  }),
  initial: 'loading',
  output: ({ event }) => event.output as MergeAccountsOutput,
  states: {
    loading: {
      meta: {
        description: 'Reads the accounts sharing the email, the skip cutoff and the stored wizard data.',
      },
      invoke: {
        id: 'loadMerge',
        src: 'loadMerge',
        onDone: { target: 'resuming', actions: { type: 'storeFacts', params: ({ event }) => event.output } },
        onError: failTo('failed'),
      },
    },
    resuming: {
      meta: { description: "Starts at the address's step when the wizard data allows it." },
      always: [
        { guard: { type: 'resumesAt', params: { step: 'invalid' } }, target: 'invalidating' },
        {
          guard: { type: 'resumesAt', params: { step: 'selectAccounts' } },
          target: '#mergeAccounts.wizard.selectAccounts',
        },
        {
          guard: { type: 'resumesAt', params: { step: 'changeEmail' } },
          target: '#mergeAccounts.wizard.changeEmail',
        },
        {
          guard: { type: 'resumesAt', params: { step: 'changeEmailOnly' } },
          target: '#mergeAccounts.wizard.changeEmailOnly',
        },
        {
          guard: { type: 'resumesAt', params: { step: 'emailVerification' } },
          target: '#mergeAccounts.wizard.emailVerification',
        },
        {
          guard: { type: 'resumesAt', params: { step: 'emailVerificationOnly' } },
          target: '#mergeAccounts.wizard.emailVerificationOnly',
        },
        {
          guard: { type: 'resumesAt', params: { step: 'choosePreferredUsername' } },
          target: '#mergeAccounts.wizard.choosePreferredUsername',
        },
        {
          guard: { type: 'resumesAt', params: { step: 'confirmation' } },
          target: '#mergeAccounts.wizard.confirmation',
        },
        { guard: { type: 'resumesAt', params: { step: 'emailChanged' } }, target: 'emailChanged' },
        { guard: { type: 'resumesAt', params: { step: 'completed' } }, target: 'completed' },
        { target: 'notice' },
      ],
    },
    notice: {
      meta: step(
        FORCED_ACTION_ROUTES.DUPLICATE_ACCOUNTS,
        undefined,
        'Several accounts share the email: Start merge, or Skip.',
      ),
      initial: 'idle',
      states: {
        idle: {
          meta: { description: 'The notice; Skip only before the cutoff date.' },
          on: {
            'user.startMerge': { target: '#mergeAccounts.wizard.selectAccounts', actions: 'clearWizard' },
            'user.skip': { guard: 'canSkip', target: 'skipping', actions: 'forgetRefusal' },
          },
        },
        skipping: {
          meta: { description: 'Skipping: sign-in continues; the merge is asked again next time.' },
          invoke: {
            id: 'skipMerge',
            src: 'skipMerge',
            onDone: [
              {
                guard: { type: 'isRefused', params: ({ event }) => event.output },
                target: 'idle',
                actions: { type: 'storeRefusal', params: ({ event }) => event.output },
              },
              {
                target: '#mergeAccounts.continuing',
                actions: ['clearWizard', { type: 'storeOutcome', params: ({ event }) => event.output }],
              },
            ],
            onError: failTo('#mergeAccounts.failed'),
          },
        },
      },
    },
    wizard: {
      initial: 'selectAccounts',
      meta: {
        description:
          "The merge steps; from a step's form the address may move back to a step the wizard data allows.",
      },
      states: {
        selectAccounts: {
          meta: step(at(S.SELECT_ACCOUNTS), 16, 'A checkbox and a password per account, and None.'),
          initial: 'form',
          entry: 'forgetRefusals',
          states: {
            form: {
              meta: {
                description: 'The accounts; the last refusal on its fields or as the conflict banner.',
              },
              on: {
                'user.selectionChanged': { actions: 'forgetRefusal' },
                'user.selectAccounts': { target: 'selecting', actions: ['forgetRefusal', 'holdSelection'] },
                'route.changed': [
                  // Back to the notice: Start merge (and Skip before the cutoff) can be chosen again.
                  {
                    guard: { type: 'routeLeadsTo', params: { step: 'notice' } },
                    target: '#mergeAccounts.notice',
                    actions: ['clearWizard', 'forgetRefusals'],
                  },
                  ...SELECT_ACCOUNTS_MOVES,
                ],
              },
            },
            selecting: submittingState({
              description: 'Checking the passwords of the ticked accounts.',
              actor: 'selectAccounts',
              input: ({ event }: { event: MergeAccountsEvent }) => {
                assertEvent(event, 'user.selectAccounts');
                return { identities: event.identities };
              },
              done: [
                {
                  guard: { type: 'changeEmailOnly', params: outputOf },
                  target: '#mergeAccounts.wizard.changeEmailOnly',
                  actions: 'storeSelection',
                },
                {
                  guard: { type: 'changeEmail', params: outputOf },
                  target: '#mergeAccounts.wizard.changeEmail',
                  actions: 'storeSelection',
                },
                { target: '#mergeAccounts.wizard.choosePreferredUsername', actions: 'storeSelection' },
              ],
              failed: '#mergeAccounts.failed',
            }),
          },
        },
        changeEmail: changeEmailStep(32, '#mergeAccounts.wizard.emailVerification', MERGE_MOVES),
        changeEmailOnly: changeEmailStep(64, '#mergeAccounts.wizard.emailVerificationOnly', EMAIL_ONLY_MOVES),
        emailVerification: emailVerificationStep(
          48,
          '#mergeAccounts.wizard.choosePreferredUsername',
          '#mergeAccounts.wizard.changeEmail',
          MERGE_MOVES,
        ),
        emailVerificationOnly: emailVerificationStep(
          80,
          '#mergeAccounts.emailChanged',
          '#mergeAccounts.wizard.changeEmailOnly',
          EMAIL_ONLY_MOVES,
        ),
        choosePreferredUsername: {
          meta: step(at(S.CHOOSE_PREFERRED_USERNAME), 64, 'The username the merged account keeps.'),
          initial: 'loadingOptions',
          entry: 'forgetRefusals',
          states: {
            loadingOptions: {
              meta: { description: 'Reading the usernames on offer.' },
              invoke: {
                id: 'loadPreferredUsernames',
                src: 'loadPreferredUsernames',
                onDone: {
                  target: 'form',
                  actions: { type: 'storeUsernameOptions', params: ({ event }) => event.output },
                },
                onError: failTo('#mergeAccounts.failed'),
              },
            },
            form: {
              meta: { description: 'One username must be chosen.' },
              on: {
                'user.chooseUsername': { target: 'choosing', actions: ['forgetRefusal', 'holdUsername'] },
                'route.changed': MERGE_MOVES,
              },
            },
            choosing: submittingState({
              description: 'Storing the choice.',
              actor: 'choosePreferredUsername',
              input: ({ event }: { event: MergeAccountsEvent }) => {
                assertEvent(event, 'user.chooseUsername');
                return { username: event.username };
              },
              done: [{ target: '#mergeAccounts.wizard.confirmation', actions: 'storePreferredUsername' }],
              failed: '#mergeAccounts.failed',
            }),
          },
        },
        confirmation: {
          meta: step(at(S.CONFIRMATION), 80, 'What the merged account will look like; Merge.'),
          initial: 'generating',
          states: {
            generating: {
              meta: { description: 'Generating the merge details.' },
              invoke: {
                id: 'generateMergeDetails',
                src: 'generateMergeDetails',
                onDone: {
                  target: 'form',
                  actions: { type: 'storeDetails', params: ({ event }) => event.output },
                },
                onError: failTo('#mergeAccounts.failed'),
              },
            },
            form: {
              meta: {
                description: 'The details and any merge errors; Merge is disabled while errors exist.',
              },
              on: {
                'user.merge': { guard: 'noMergeErrors', target: 'merging' },
                'route.changed': MERGE_MOVES,
              },
            },
            merging: {
              meta: { description: 'Merging: final once done; the address cannot leave it meanwhile.' },
              invoke: {
                id: 'confirmMerge',
                src: 'confirmMerge',
                onDone: [
                  {
                    guard: { type: 'isRefused', params: ({ event }) => event.output },
                    target: 'form',
                    actions: { type: 'storeMergeErrors', params: ({ event }) => event.output },
                  },
                  {
                    target: '#mergeAccounts.completed',
                    actions: [
                      { type: 'storeMerged', params: ({ event }) => event.output },
                      'reloadCurrentUser',
                    ],
                  },
                ],
                onError: failTo('#mergeAccounts.failed'),
              },
            },
          },
        },
      },
    },
    emailChanged: {
      meta: step(at(S.EMAIL_CHANGED), undefined, 'The new email is the account’s; Continue.'),
      on: { 'user.continue': { target: 'finishing' } },
    },
    completed: {
      meta: step(at(S.COMPLETED), undefined, 'The accounts were merged; Continue.'),
      on: { 'user.continue': { target: 'finishing' } },
    },
    finishing: {
      meta: { description: 'Continue: the wizard data is cleared and sign-in continues.' },
      entry: 'clearWizard',
      invoke: {
        id: 'finishMerge',
        src: 'finishMerge',
        onDone: {
          target: 'continuing',
          actions: { type: 'storeOutcome', params: ({ event }) => event.output },
        },
        onError: failTo('failed'),
      },
    },
    continuing: continuingState({ description: 'Sign-in continues as the outcome says.' }),
    failed: {
      meta: { description: "An unexpected failure or 'Unknown authentication outcome'." },
    },
    invalidating: {
      meta: { description: 'A merge step without its wizard data: the session is invalidated.' },
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: { target: 'invalidated' },
        onError: { target: 'invalidated' },
      },
    },
    done: {
      type: 'final',
      meta: { description: 'Sign-in continued: the landing page or the next forced step (output.route).' },
      output: ({ context }) => required(context.handover, 'a hand-over'),
    },
    invalidated: {
      type: 'final',
      meta: { description: 'The session is invalidated; sign-in at /.' },
      output: { kind: 'cancelled', route: SIGN_IN_ROUTE },
    },
  },
});

/** Change email (section 5: required, valid, max 500, not the current email). */
function changeEmailStep<const TMoves extends readonly object[]>(
  progress: number,
  verification: string,
  moves: TMoves,
) {
  return {
    meta: step(at(S.CHANGE_EMAIL), progress, 'A new email address for the account.'),
    initial: 'form',
    entry: ['forgetRefusals', 'restoreReturnedRefusal'],
    states: {
      form: {
        meta: { description: 'The new email.' },
        on: {
          'user.changeEmail': { target: 'sending', actions: ['forgetRefusal', 'holdEmail'] },
          'route.changed': moves,
        },
      },
      sending: submittingState({
        description: 'Sending a code to the new email.',
        actor: 'changeEmail',
        input: ({ event }: { event: MergeAccountsEvent }) => {
          assertEvent(event, 'user.changeEmail');
          return { email: event.email };
        },
        done: [{ target: verification, actions: 'storeNewEmail' }],
        failed: '#mergeAccounts.failed',
      }),
    },
  } as const;
}

/**
 * The code sent to the new email. The address's owner learns only here whether another account
 * uses it: that refusal goes back to `changeEmail`, which shows it.
 */
function emailVerificationStep<const TMoves extends readonly object[]>(
  progress: number,
  next: string,
  changeEmail: string,
  moves: TMoves,
) {
  return {
    meta: step(at(S.EMAIL_VERIFICATION), progress, 'The code sent to the new email.'),
    initial: 'form',
    entry: 'forgetRefusals',
    states: {
      form: {
        meta: { description: 'Code and resend.' },
        on: {
          'user.verify': { target: 'verifying', actions: 'forgetRefusal' },
          'user.resend': { guard: 'mayResend', target: 'resending' },
          'route.changed': moves,
        },
      },
      verifying: submittingState({
        description: 'Checking the code.',
        actor: 'verifyEmail',
        input: ({ event }: { event: MergeAccountsEvent }) => {
          assertEvent(event, 'user.verify');
          return { code: event.code };
        },
        refused: [
          {
            guard: { type: 'refusesNewEmail', params: outputOf },
            target: changeEmail,
            actions: { type: 'returnWithRefusal', params: outputOf },
          },
        ],
        done: [{ target: next }],
        failed: '#mergeAccounts.failed',
      }),
      resending: resendingCodeState({
        description: 'Sending another code.',
        actor: 'resendEmail',
        announce: 'announceResent',
        failed: '#mergeAccounts.failed',
      }),
    },
  } as const;
}
