// The duplicate-accounts and merge-wizard machine as a test model: the events the graph explores,
// with fixture payloads for every user event and every actor outcome, and the addresses
// (scenarios) a reload resumes at, each with the wizard data stored for it or none.
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { mergeAccountsMachine } from '../../machines/forced/merge-accounts/merge-accounts.machine';
import {
  EMPTY_WIZARD,
  type ConfirmResult,
  type ContinueSignInOutput,
  type DetailsResult,
  type MergeAccountsEvent,
  type MergeAccountsInput,
  type MergeFacts,
  type MergeWizardData,
  type OutcomeResult,
  type ResendResult,
  type SelectAccountsResult,
  type StepResult,
} from '../../machines/forced/merge-accounts/merge-accounts.types';
import { FORCED_ACTION_ROUTES, MERGE_ACCOUNTS_ROUTE, MERGE_ACCOUNTS_STEPS } from '../../machines/routes';
import type { AuthenticationOutcome } from '../../src/contract/entities';
import type { IdentityCandidate, MergeDetails } from '../../src/contract/merge';
import { continuations, outcomes, resends } from '../machines/continue-sign-in.fixtures';
import { coveringPaths } from './harness/paths';

export type MergeAccountsSnapshot = SnapshotFrom<typeof mergeAccountsMachine>;

type Done<Id extends string, Output> = DoneActorEvent<Output, Id> & { type: `xstate.done.actor.${Id}` };
type Failed<Id extends string> = ErrorActorEvent<Error, Id> & { type: `xstate.error.actor.${Id}` };

export type MergeAccountsModelEvent =
  | MergeAccountsEvent
  | Done<'loadMerge', MergeFacts>
  | Failed<'loadMerge'>
  | Done<'skipMerge', OutcomeResult>
  | Failed<'skipMerge'>
  | Done<'selectAccounts', SelectAccountsResult>
  | Failed<'selectAccounts'>
  | Done<'changeEmail', StepResult>
  | Failed<'changeEmail'>
  | Done<'verifyEmail', StepResult>
  | Failed<'verifyEmail'>
  | Done<'resendEmail', ResendResult>
  | Failed<'resendEmail'>
  | Done<'loadPreferredUsernames', string[]>
  | Failed<'loadPreferredUsernames'>
  | Done<'choosePreferredUsername', StepResult>
  | Failed<'choosePreferredUsername'>
  | Done<'generateMergeDetails', DetailsResult>
  | Failed<'generateMergeDetails'>
  | Done<'confirmMerge', ConfirmResult>
  | Failed<'confirmMerge'>
  | Done<'finishMerge', AuthenticationOutcome>
  | Failed<'finishMerge'>
  | Done<'continueSignIn', ContinueSignInOutput>
  | Failed<'continueSignIn'>
  | Done<'logout', null>
  | Failed<'logout'>;
export type MergeAccountsModelEventType = MergeAccountsModelEvent['type'];
type EventOf<T extends MergeAccountsModelEventType> = Extract<MergeAccountsModelEvent, { type: T }>;

const done = <Id extends string, Output>(id: Id, output: Output) =>
  ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as Done<Id, Output>;
const failed = <Id extends string>(id: Id, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(message), actorId: id }) as Failed<Id>;

export const UNEXPECTED_FAILURE = 'The server could not be reached.';
export const NEW_EMAIL = 'liam.walsh@example.com';
export const CODE = '482913';
export const PASSWORDS: Record<string, string> = {
  'id-7': 'Harbour-Lights-2026',
  'id-9': 'Quiet-Lantern-2027',
};
export const stepPath = (step: string) => `${MERGE_ACCOUNTS_ROUTE}/${step}`;
export const NOTICE = FORCED_ACTION_ROUTES.DUPLICATE_ACCOUNTS;
export const S = MERGE_ACCOUNTS_STEPS;

export const C7: IdentityCandidate = {
  id: 'id-7',
  username: 'C10007',
  name: 'Liam Walsh',
  isIdvConflict: false,
};
export const C9: IdentityCandidate = { id: 'id-9', username: 'C10009', name: null, isIdvConflict: false };
export const CANDIDATES = [C7, C9];
export const DETAILS: MergeDetails = {
  username: 'C10006',
  name: 'Liam Walsh',
  email: 'dup@example.com',
  mobile: '+61 400 000 006',
  phone: null,
  birthDate: '1983-04-17',
  accessibleFacilities: [
    { id: 'f1', appName: 'Loans', name: 'Northside Community Clinic', code: 'F001' },
    { id: 'f3', appName: 'Loans', name: 'Bayview Aged Care', code: 'F003' },
  ],
};
export const PASSWORD_REFUSAL = {
  type: 'refused' as const,
  message: 'The accounts cannot be merged as they are.',
  fieldErrors: [{ fieldName: 'identities.id-7.password', message: 'The password is incorrect.' }],
};
export const EMAIL_REFUSAL = {
  type: 'refused' as const,
  message: 'The accounts cannot be merged as they are.',
  fieldErrors: [{ fieldName: 'email', message: 'This email address is used by another account.' }],
};
export const CODE_REFUSAL = {
  type: 'refused' as const,
  message: 'The code is incorrect. Check it and try again.',
  fieldErrors: [{ fieldName: 'code', message: 'The code is incorrect. Check it and try again.' }],
};
export const USERNAME_REFUSAL = {
  type: 'refused' as const,
  message: 'The accounts cannot be merged as they are.',
  fieldErrors: [{ fieldName: 'preferredUsername', message: 'Choose one of the usernames.' }],
};
export const MERGE_REFUSAL = {
  type: 'refused' as const,
  message: 'The accounts cannot be merged as they are.',
  fieldErrors: [
    { fieldName: 'identities', message: 'The account C10007 has changed since it was selected.' },
    { fieldName: 'email', message: 'This email address is used by another account.' },
  ],
};
/** A merge refusal naming no field: the server's answer to a reload of confirmation after the merge. */
export const MERGED_REFUSAL = {
  type: 'refused' as const,
  message: 'The accounts have already been merged.',
  fieldErrors: [],
};
export const SKIP_REFUSAL = {
  type: 'refused' as const,
  message: 'Skipping the merge is no longer possible.',
  fieldErrors: [],
};

/** Wizard data as a reload finds it in session storage, for the step at `path`. */
export function storedFor(path: string): MergeWizardData[] {
  const all = {
    selectedIdentities: [
      { id: C7.id, username: C7.username },
      { id: C9.id, username: C9.username },
    ],
  };
  const partial = {
    selectedIdentities: [{ id: C7.id, username: C7.username }],
    notSelectedIdentities: [{ username: C9.username, name: C9.name }],
  };
  const none = {
    selectedIdentities: [],
    notSelectedIdentities: CANDIDATES.map((c) => ({ username: c.username, name: c.name })),
  };
  switch (path) {
    case stepPath(S.CHANGE_EMAIL):
      return [
        { ...EMPTY_WIZARD, ...partial },
        { ...EMPTY_WIZARD, ...none },
      ];
    case stepPath(S.EMAIL_VERIFICATION):
      return [
        { ...EMPTY_WIZARD, ...none, newEmail: NEW_EMAIL },
        { ...EMPTY_WIZARD, ...partial, newEmail: NEW_EMAIL },
      ];
    case stepPath(S.CHOOSE_PREFERRED_USERNAME):
      return [{ ...EMPTY_WIZARD, ...all, notSelectedIdentities: [] }];
    case stepPath(S.CONFIRMATION):
      return [{ ...EMPTY_WIZARD, ...partial, newEmail: NEW_EMAIL, preferredUsername: 'C10006' }];
    case stepPath(S.EMAIL_CHANGED):
      return [{ ...EMPTY_WIZARD, ...none, newEmail: NEW_EMAIL }];
    case stepPath(S.COMPLETED):
      return [
        {
          ...EMPTY_WIZARD,
          ...all,
          notSelectedIdentities: [],
          preferredUsername: 'C10006',
          mergedUsernames: ['C10007', 'C10009'],
        },
      ];
    default:
      return [];
  }
}

/** Addresses the browser's Back (or a step's Back link) may open: the notice, and the steps it goes back to. */
const wizardPaths = [
  NOTICE,
  stepPath(S.SELECT_ACCOUNTS),
  stepPath(S.CHANGE_EMAIL),
  stepPath(S.CHOOSE_PREFERRED_USERNAME),
];

export const mergeAccountsEventFixtures = {
  'user.startMerge': () => [{ type: 'user.startMerge' }],
  'user.skip': () => [{ type: 'user.skip' }],
  'user.selectionChanged': () => [{ type: 'user.selectionChanged' }],
  'user.selectAccounts': () => [
    { type: 'user.selectAccounts', identities: [] },
    { type: 'user.selectAccounts', identities: [{ id: C7.id, password: PASSWORDS[C7.id]! }] },
    {
      type: 'user.selectAccounts',
      identities: CANDIDATES.map((c) => ({ id: c.id, password: PASSWORDS[c.id]! })),
    },
  ],
  'user.changeEmail': () => [{ type: 'user.changeEmail', email: NEW_EMAIL }],
  'user.verify': () => [{ type: 'user.verify', code: CODE }],
  'user.resend': () => [{ type: 'user.resend' }],
  'user.chooseUsername': () => [{ type: 'user.chooseUsername', username: 'C10006' }],
  'user.merge': () => [{ type: 'user.merge' }],
  'user.continue': () => [{ type: 'user.continue' }],
  'route.changed': () => wizardPaths.map((path) => ({ type: 'route.changed' as const, path })),
  'xstate.done.actor.loadMerge': (s) => {
    const stored = storedFor(s.context.entryPath);
    return s.context.entryPath === NOTICE
      ? [
          done('loadMerge', { candidates: CANDIDATES, canSkip: true, stored: null }),
          done('loadMerge', { candidates: CANDIDATES, canSkip: false, stored: null }),
        ]
      : [
          ...stored.map((data) => done('loadMerge', { candidates: CANDIDATES, canSkip: true, stored: data })),
          done('loadMerge', { candidates: CANDIDATES, canSkip: true, stored: null }),
        ];
  },
  'xstate.error.actor.loadMerge': () => [failed('loadMerge', UNEXPECTED_FAILURE)],
  'xstate.done.actor.skipMerge': () => [
    done('skipMerge', SKIP_REFUSAL),
    done('skipMerge', { type: 'outcome', outcome: outcomes.directLogin }),
  ],
  'xstate.error.actor.skipMerge': () => [failed('skipMerge', UNEXPECTED_FAILURE)],
  'xstate.done.actor.selectAccounts': (s) => [
    done('selectAccounts', PASSWORD_REFUSAL),
    done('selectAccounts', {
      type: 'selected',
      changeEmail: s.context.pendingSelection.length < s.context.candidates.length,
    }),
  ],
  'xstate.error.actor.selectAccounts': () => [failed('selectAccounts', UNEXPECTED_FAILURE)],
  'xstate.done.actor.changeEmail': () => [
    done('changeEmail', EMAIL_REFUSAL),
    done('changeEmail', { type: 'done' }),
  ],
  'xstate.error.actor.changeEmail': () => [failed('changeEmail', UNEXPECTED_FAILURE)],
  'xstate.done.actor.verifyEmail': () => [
    done('verifyEmail', CODE_REFUSAL),
    // The verified address is another account's: back to change email, which shows why.
    done('verifyEmail', EMAIL_REFUSAL),
    done('verifyEmail', { type: 'done' }),
  ],
  'xstate.error.actor.verifyEmail': () => [failed('verifyEmail', UNEXPECTED_FAILURE)],
  'xstate.done.actor.resendEmail': () => [
    done('resendEmail', resends.sent),
    done('resendEmail', resends.refused),
  ],
  'xstate.error.actor.resendEmail': () => [failed('resendEmail', UNEXPECTED_FAILURE)],
  'xstate.done.actor.loadPreferredUsernames': (s) => [
    done('loadPreferredUsernames', [
      'C10006',
      ...(s.context.wizard.selectedIdentities ?? []).map((i) => i.username),
    ]),
  ],
  'xstate.error.actor.loadPreferredUsernames': () => [failed('loadPreferredUsernames', UNEXPECTED_FAILURE)],
  'xstate.done.actor.choosePreferredUsername': () => [
    done('choosePreferredUsername', USERNAME_REFUSAL),
    done('choosePreferredUsername', { type: 'done' }),
  ],
  'xstate.error.actor.choosePreferredUsername': () => [failed('choosePreferredUsername', UNEXPECTED_FAILURE)],
  'xstate.done.actor.generateMergeDetails': () => [
    done('generateMergeDetails', { type: 'details', details: DETAILS }),
    done('generateMergeDetails', MERGE_REFUSAL),
    done('generateMergeDetails', MERGED_REFUSAL),
  ],
  'xstate.error.actor.generateMergeDetails': () => [failed('generateMergeDetails', UNEXPECTED_FAILURE)],
  'xstate.done.actor.confirmMerge': (s) => [
    done('confirmMerge', MERGE_REFUSAL),
    done('confirmMerge', MERGED_REFUSAL),
    done('confirmMerge', {
      type: 'merged',
      result: {
        preferredUsername: 'C10006',
        mergedUsernames: (s.context.wizard.selectedIdentities ?? []).map((i) => i.username),
      },
    }),
  ],
  'xstate.error.actor.confirmMerge': () => [failed('confirmMerge', UNEXPECTED_FAILURE)],
  'xstate.done.actor.finishMerge': () => [done('finishMerge', outcomes.directLogin)],
  'xstate.error.actor.finishMerge': () => [failed('finishMerge', UNEXPECTED_FAILURE)],
  'xstate.done.actor.continueSignIn': () => [
    done('continueSignIn', continuations.signedIn),
    done('continueSignIn', continuations.failed),
  ],
  'xstate.error.actor.continueSignIn': () => [failed('continueSignIn', UNEXPECTED_FAILURE)],
  'xstate.done.actor.logout': () => [done('logout', null)],
  'xstate.error.actor.logout': () => [failed('logout', UNEXPECTED_FAILURE)],
} satisfies { [T in MergeAccountsModelEventType]: (s: MergeAccountsSnapshot) => EventOf<T>[] };

export function mergeAccountsEvents(snapshot: MergeAccountsSnapshot): MergeAccountsEvent[] {
  const types = new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));
  return [...types].flatMap((type) => {
    const fixtures = mergeAccountsEventFixtures[type as MergeAccountsModelEventType] as
      ((s: MergeAccountsSnapshot) => MergeAccountsModelEvent[]) | undefined;
    if (!fixtures) throw new Error(`No fixtures for the event '${type}'.`);
    return fixtures(snapshot);
  }) as MergeAccountsEvent[];
}

/** Graph nodes: the state and what of the context decides the screen and the next steps. */
export const projectMergeAccountsContext = (s: MergeAccountsSnapshot) => ({
  // Only the notice shows whether Skip is offered: elsewhere the cutoff date is not part of what a
  // state looks like, so the wizard's steps are not walked once before and once after the cutoff.
  canSkip: s.matches('notice') ? s.context.canSkip : null,
  selected:
    s.context.wizard.selectedIdentities === null ? null : s.context.wizard.selectedIdentities.length > 0,
  notSelected:
    s.context.wizard.notSelectedIdentities === null
      ? null
      : s.context.wizard.notSelectedIdentities.length > 0,
  pending: s.matches({ wizard: { selectAccounts: 'selecting' } }) ? s.context.pendingSelection.length : null,
  newEmail: s.context.wizard.newEmail !== null,
  preferred: s.context.wizard.preferredUsername !== null,
  merged: s.context.wizard.mergedUsernames !== null,
  resendRefused: s.context.resendRefusal !== null,
  mergeErrors: s.context.mergeErrors.length > 0,
  // Only the confirmation step shows the details and lists the errors: there, a refusal naming no
  // field (listed as one of its own) is a screen of its own, before the details and after them.
  confirmation: s.matches({ wizard: 'confirmation' })
    ? { details: s.context.details !== null, listed: s.context.mergeErrors.map((e) => e.fieldName) }
    : null,
  handover: s.context.handover?.kind ?? null,
});

const serializeState = (s: MergeAccountsSnapshot) =>
  JSON.stringify({ value: s.value, ...projectMergeAccountsContext(s) });

export interface MergeAccountsScenario {
  name: string;
  input: MergeAccountsInput;
  toState?: (s: MergeAccountsSnapshot) => boolean;
}

const base = { username: 'C10006', targetPath: null, adminTargetPath: null };
/** A resumed step: paths end at the first screen after loading. */
const resumed = (s: MergeAccountsSnapshot) =>
  !s.matches('loading') && !s.matches('resuming') && !s.matches('invalidating') && !s.matches('failed');

export const mergeAccountsScenarios: MergeAccountsScenario[] = [
  { name: 'from the notice', input: { path: NOTICE, ...base } },
  ...[
    stepPath(''),
    stepPath(S.CHANGE_EMAIL),
    stepPath(S.EMAIL_VERIFICATION),
    stepPath(S.CHOOSE_PREFERRED_USERNAME),
    stepPath(S.CONFIRMATION),
    stepPath(S.EMAIL_CHANGED),
    stepPath(S.COMPLETED),
  ].map((path) => ({
    name: `reloaded at ${path.replace(MERGE_ACCOUNTS_ROUTE, '') || '/'}`,
    input: { path: path.replace(/\/$/, ''), ...base },
    ...(path.endsWith(S.COMPLETED)
      ? {}
      : {
          toState: (s: MergeAccountsSnapshot) =>
            (resumed(s) &&
              (s.matches('notice') ||
                JSON.stringify(s.value).includes('"form"') ||
                s.matches('emailChanged') ||
                s.matches('completed') ||
                JSON.stringify(s.value).includes('loadingOptions') ||
                JSON.stringify(s.value).includes('generating'))) ||
            s.status === 'done',
        }),
  })),
];

export function describeMergeAccountsEvent(event: MergeAccountsModelEvent): string {
  switch (event.type) {
    case 'route.changed':
      return `address ${event.path === NOTICE ? 'the notice' : event.path.replace(MERGE_ACCOUNTS_ROUTE, '')}`;
    case 'user.selectAccounts':
      return `select ${event.identities.length === 0 ? 'None' : event.identities.map((i) => i.id).join('+')}`;
    case 'xstate.done.actor.loadMerge':
      return `loaded${event.output.canSkip ? '' : ', past the cutoff'}${event.output.stored ? ', stored data' : ''}`;
    case 'xstate.done.actor.continueSignIn':
      return `continued ${event.output.kind}`;
    case 'xstate.done.actor.logout':
      return 'logged out';
    case 'xstate.done.actor.loadPreferredUsernames':
      return 'usernames loaded';
    case 'xstate.done.actor.finishMerge':
      return 'continue-sign-in answered';
    default:
      if (event.type.startsWith('xstate.done.actor.')) {
        const output = (event as { output?: { type?: string; fieldErrors?: unknown[] } }).output;
        const nameless = output?.type === 'refused' && output.fieldErrors?.length === 0;
        return `${event.type.replace('xstate.done.actor.', '')} ${output?.type ?? ''}${nameless ? ' naming no field' : ''}`.trim();
      }
      return event.type.replace(/^xstate\.error\.actor\.(.+)$/, '$1 fails').replace(/^user\./, '');
  }
}

export const mergeAccountsPaths = () => {
  const model = new TestModel(mergeAccountsMachine, {
    events: mergeAccountsEvents,
    serializeState,
    stateMatcher: (s, key) => s.matches(key as never),
  });
  return mergeAccountsScenarios.flatMap((scenario) =>
    coveringPaths(model, mergeAccountsMachine, {
      input: scenario.input,
      events: mergeAccountsEvents,
      serializeState,
      describeEvent: (e) => describeMergeAccountsEvent(e as MergeAccountsModelEvent),
      ...(scenario.toState ? { toState: scenario.toState } : {}),
    }).map((path) => ({ scenario, path })),
  );
};
