// Hand-pinned transitions of duplicate accounts and the merge wizard (sections 2.6, 4.4 and 8),
// with fake actors: routes and progress of every step, the back rules, the preferred-username
// reset, resuming from stored wizard data, invalidation without it, skip, and merge errors.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type SnapshotFrom } from 'xstate';
import type { AuthenticationOutcome } from '../../src/contract/entities';
import type { IdentityCandidate, MergeDetails } from '../../src/contract/merge';
import { mergeAccountsMachine, stepAt } from '../../machines/forced/merge-accounts/merge-accounts.machine';
import {
  selectIdvConflict,
  selectMergeErrors,
  selectProgress,
  selectView,
} from '../../machines/forced/merge-accounts/merge-accounts.select';
import {
  EMPTY_WIZARD,
  type ConfirmResult,
  type DetailsResult,
  type MergeFacts,
  type MergeWizardData,
  type SelectAccountsResult,
  type StepResult,
} from '../../machines/forced/merge-accounts/merge-accounts.types';
import type { OutcomeResult, ResendResult } from '../../machines/forced/continue-sign-in/forced-step';
import type { ContinueSignInOutput } from '../../machines/forced/continue-sign-in/continue-sign-in.types';
import { continuations, outcomes } from './continue-sign-in.fixtures';

const C7: IdentityCandidate = { id: 'id-7', username: 'C10007', name: 'Liam Walsh', isIdvConflict: false };
const C9: IdentityCandidate = { id: 'id-9', username: 'C10009', name: null, isIdvConflict: false };
const DETAILS: MergeDetails = {
  username: 'C10006',
  name: 'Liam Walsh',
  email: 'dup@example.com',
  mobile: null,
  phone: null,
  birthDate: '1983-04-17',
  accessibleFacilities: [{ id: 'f1', appName: 'Loans', name: 'Harbour', code: 'F001' }],
};

interface Script {
  facts?: Partial<MergeFacts>;
  skip?: OutcomeResult;
  select?: SelectAccountsResult[];
  step?: StepResult[];
  details?: DetailsResult;
  confirm?: ConfirmResult[];
  resend?: ResendResult;
  options?: string[];
  finish?: AuthenticationOutcome;
  continuation?: ContinueSignInOutput;
}

function start(path: string, script: Script = {}) {
  const selects = [...(script.select ?? [])];
  const steps = [...(script.step ?? [])];
  const confirms = [...(script.confirm ?? [])];
  const calls = { selected: [] as unknown[], logouts: 0, reloads: 0, finished: 0, skipped: 0 };
  const machine = mergeAccountsMachine.provide({
    actors: {
      loadMerge: fromPromise<MergeFacts>(async () => ({
        candidates: [C7],
        canSkip: true,
        stored: null,
        ...script.facts,
      })),
      skipMerge: fromPromise<OutcomeResult>(async () => {
        calls.skipped += 1;
        return script.skip ?? { type: 'outcome', outcome: outcomes.directLogin };
      }),
      selectAccounts: fromPromise(async ({ input }) => {
        calls.selected.push(input);
        const next = selects.shift();
        if (!next) throw new Error('No select result scripted');
        return next;
      }),
      changeEmail: fromPromise<StepResult, { email: string }>(async () => steps.shift() ?? { type: 'done' }),
      verifyEmail: fromPromise<StepResult, { code: string }>(async () => steps.shift() ?? { type: 'done' }),
      resendEmail: fromPromise<ResendResult>(async () => script.resend ?? { type: 'sent' }),
      loadPreferredUsernames: fromPromise<string[]>(async () => script.options ?? ['C10006', 'C10007']),
      choosePreferredUsername: fromPromise<StepResult, { username: string }>(
        async () => steps.shift() ?? { type: 'done' },
      ),
      generateMergeDetails: fromPromise<DetailsResult>(
        async () => script.details ?? { type: 'details', details: DETAILS },
      ),
      confirmMerge: fromPromise<ConfirmResult>(async () => {
        const next = confirms.shift();
        if (!next) throw new Error('No confirm result scripted');
        return next;
      }),
      finishMerge: fromPromise<AuthenticationOutcome>(async () => {
        calls.finished += 1;
        return script.finish ?? outcomes.directLogin;
      }),
      continueSignIn: fromPromise<ContinueSignInOutput>(
        async () => script.continuation ?? continuations.signedIn,
      ) as never,
      logout: fromPromise<void>(async () => {
        calls.logouts += 1;
      }),
    },
    actions: {
      reloadCurrentUser: () => {
        calls.reloads += 1;
      },
    },
  });
  const actor = createActor(machine, {
    input: { path, username: 'C10006', targetPath: null, adminTargetPath: null },
  }).start();
  return { actor, calls };
}

type Actor = ReturnType<typeof start>['actor'];
const routeOf = (s: SnapshotFrom<typeof mergeAccountsMachine>) => {
  const meta = s.getMeta() as Record<string, { route?: string } | undefined>;
  for (const node of [...s._nodes].reverse()) if (meta[node.id]?.route) return meta[node.id]!.route;
  return null;
};
const settle = (actor: Actor, view: string) =>
  waitFor(actor, (s) => selectView(s) === view && !s.hasTag?.('never'), { timeout: 1000 });
const at = (actor: Actor) => {
  const s = actor.getSnapshot();
  return { view: selectView(s), route: routeOf(s), progress: selectProgress(s) };
};
const formOf = async (actor: Actor, view: string) => {
  await waitFor(actor, (s) => selectView(s) === view && JSON.stringify(s.value).includes('form'));
  return at(actor);
};

describe('merge accounts', () => {
  it('starts at the notice; Skip continues sign-in', async () => {
    const { actor, calls } = start('/forced-actions/duplicate-accounts');
    await settle(actor, 'notice');
    expect(at(actor)).toEqual({
      view: 'notice',
      route: '/forced-actions/duplicate-accounts',
      progress: null,
    });
    actor.send({ type: 'user.skip' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.skipped).toBe(1);
    expect(actor.getSnapshot().output).toEqual(continuations.signedIn);
  });

  it('offers no skip after the cutoff', async () => {
    const { actor, calls } = start('/forced-actions/duplicate-accounts', { facts: { canSkip: false } });
    await settle(actor, 'notice');
    actor.send({ type: 'user.skip' });
    expect(selectView(actor.getSnapshot())).toBe('notice');
    expect(calls.skipped).toBe(0);
  });

  it('merges all accounts: select (16), choose username (64), confirmation (80), completed', async () => {
    const { actor, calls } = start('/forced-actions/duplicate-accounts', {
      select: [{ type: 'selected', changeEmail: false }],
      confirm: [{ type: 'merged', result: { preferredUsername: 'C10006', mergedUsernames: ['C10007'] } }],
    });
    await settle(actor, 'notice');
    actor.send({ type: 'user.startMerge' });
    expect(await formOf(actor, 'selectAccounts')).toEqual({
      view: 'selectAccounts',
      route: '/forced-actions/merge-accounts/select-accounts',
      progress: 16,
    });
    actor.send({ type: 'user.selectAccounts', identities: [{ id: C7.id, password: 'secret-password' }] });
    expect(await formOf(actor, 'choosePreferredUsername')).toEqual({
      view: 'choosePreferredUsername',
      route: '/forced-actions/merge-accounts/choose-preferred-username',
      progress: 64,
    });
    expect(calls.selected).toEqual([{ identities: [{ id: C7.id, password: 'secret-password' }] }]);
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('secret-password');
    expect(actor.getSnapshot().context.wizard).toMatchObject({
      selectedIdentities: [{ id: C7.id, username: 'C10007' }],
      notSelectedIdentities: [],
    });
    actor.send({ type: 'user.chooseUsername', username: 'C10006' });
    expect(await formOf(actor, 'confirmation')).toEqual({
      view: 'confirmation',
      route: '/forced-actions/merge-accounts/confirmation',
      progress: 80,
    });
    expect(actor.getSnapshot().context.details).toEqual(DETAILS);
    actor.send({ type: 'user.merge' });
    await settle(actor, 'completed');
    expect(at(actor)).toEqual({
      view: 'completed',
      route: '/forced-actions/merge-accounts/completed',
      progress: null,
    });
    expect(calls.reloads).toBe(1);
    expect(actor.getSnapshot().context.wizard).toMatchObject({
      preferredUsername: 'C10006',
      mergedUsernames: ['C10007'],
    });
    actor.send({ type: 'user.continue' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.finished).toBe(1);
    expect(actor.getSnapshot().context.wizard).toEqual(EMPTY_WIZARD);
  });

  it('a partial selection changes the email (32, 48); back from the username goes to change-email', async () => {
    const { actor } = start('/forced-actions/duplicate-accounts', {
      facts: { candidates: [C7, C9] },
      select: [{ type: 'selected', changeEmail: true }],
    });
    await settle(actor, 'notice');
    actor.send({ type: 'user.startMerge' });
    await formOf(actor, 'selectAccounts');
    actor.send({ type: 'user.selectAccounts', identities: [{ id: C7.id, password: 'pw-7-secret' }] });
    expect(await formOf(actor, 'changeEmail')).toMatchObject({
      route: '/forced-actions/merge-accounts/change-email',
      progress: 32,
    });
    actor.send({ type: 'user.changeEmail', email: 'liam@example.com' });
    expect(await formOf(actor, 'emailVerification')).toMatchObject({
      route: '/forced-actions/merge-accounts/email-verification',
      progress: 48,
    });
    expect(actor.getSnapshot().context.wizard.newEmail).toBe('liam@example.com');
    actor.send({ type: 'user.verify', code: '123456' });
    await formOf(actor, 'choosePreferredUsername');
    actor.send({ type: 'route.changed', path: '/forced-actions/merge-accounts/change-email' });
    expect(at(actor)).toMatchObject({ view: 'changeEmail', progress: 32 });
  });

  it('a verified address in use goes back to change-email with the refusal on its field', async () => {
    const inUse = {
      type: 'refused' as const,
      message: 'The accounts cannot be merged as they are.',
      fieldErrors: [
        { fieldName: 'email', message: 'This email address is used by another account. Choose another one.' },
      ],
    };
    const { actor } = start('/forced-actions/duplicate-accounts', {
      facts: { candidates: [C7, C9] },
      select: [{ type: 'selected', changeEmail: true }],
      step: [{ type: 'done' }, inUse],
    });
    await settle(actor, 'notice');
    actor.send({ type: 'user.startMerge' });
    await formOf(actor, 'selectAccounts');
    actor.send({ type: 'user.selectAccounts', identities: [{ id: C7.id, password: 'pw-7-secret' }] });
    await formOf(actor, 'changeEmail');
    actor.send({ type: 'user.changeEmail', email: 'taken@example.com' });
    await formOf(actor, 'emailVerification');
    actor.send({ type: 'user.verify', code: '123456' });
    expect(await formOf(actor, 'changeEmail')).toMatchObject({
      route: '/forced-actions/merge-accounts/change-email',
      progress: 32,
    });
    expect(actor.getSnapshot().context.refusal).toEqual({
      message: inUse.message,
      fieldErrors: inUse.fieldErrors,
    });
    expect(actor.getSnapshot().context.wizard.newEmail).toBeNull();
    // The next address clears it and is verified as usual.
    actor.send({ type: 'user.changeEmail', email: 'liam@example.com' });
    await formOf(actor, 'emailVerification');
    expect(actor.getSnapshot().context.refusal).toBeNull();
    actor.send({ type: 'user.verify', code: '123456' });
    await formOf(actor, 'choosePreferredUsername');
  });

  it('None changes the email only (64, 80) and ends at email-changed', async () => {
    const { actor } = start('/forced-actions/duplicate-accounts', {
      select: [{ type: 'selected', changeEmail: true }],
    });
    await settle(actor, 'notice');
    actor.send({ type: 'user.startMerge' });
    await formOf(actor, 'selectAccounts');
    actor.send({ type: 'user.selectAccounts', identities: [] });
    expect(await formOf(actor, 'changeEmail')).toMatchObject({ progress: 64 });
    actor.send({ type: 'user.changeEmail', email: 'liam@example.com' });
    expect(await formOf(actor, 'emailVerification')).toMatchObject({ progress: 80 });
    actor.send({ type: 'user.verify', code: '123456' });
    await settle(actor, 'emailChanged');
    expect(at(actor).route).toBe('/forced-actions/merge-accounts/email-changed');
    // Back from choose-preferred-username would go to select-accounts: None has no username step.
    actor.send({ type: 'route.changed', path: '/forced-actions/merge-accounts/choose-preferred-username' });
    expect(selectView(actor.getSnapshot())).toBe('emailChanged');
  });

  it('back from choose-preferred-username goes to select-accounts when all were selected', async () => {
    const stored: MergeWizardData = {
      ...EMPTY_WIZARD,
      selectedIdentities: [{ id: C7.id, username: 'C10007' }],
      notSelectedIdentities: [],
      preferredUsername: 'C10007',
    };
    const { actor } = start('/forced-actions/merge-accounts/choose-preferred-username', {
      facts: { stored },
    });
    await formOf(actor, 'choosePreferredUsername');
    actor.send({ type: 'route.changed', path: '/forced-actions/merge-accounts/change-email' });
    expect(selectView(actor.getSnapshot())).toBe('choosePreferredUsername');
    actor.send({ type: 'route.changed', path: '/forced-actions/merge-accounts/select-accounts' });
    expect(selectView(actor.getSnapshot())).toBe('selectAccounts');
  });

  it('resets the preferred username when it is no longer among the selected accounts', async () => {
    const stored: MergeWizardData = {
      ...EMPTY_WIZARD,
      selectedIdentities: [{ id: C7.id, username: 'C10007' }],
      notSelectedIdentities: [{ username: 'C10009', name: null }],
      newEmail: 'liam@example.com',
      preferredUsername: 'C10007',
    };
    const { actor } = start('/forced-actions/merge-accounts/select-accounts', {
      facts: { candidates: [C7, C9], stored },
      select: [{ type: 'selected', changeEmail: true }],
    });
    await formOf(actor, 'selectAccounts');
    actor.send({ type: 'user.selectAccounts', identities: [{ id: C9.id, password: 'pw-9-secret' }] });
    await formOf(actor, 'changeEmail');
    expect(actor.getSnapshot().context.wizard).toMatchObject({
      selectedIdentities: [{ id: C9.id, username: 'C10009' }],
      notSelectedIdentities: [{ username: 'C10007', name: 'Liam Walsh' }],
      preferredUsername: null,
      newEmail: 'liam@example.com',
    });
  });

  it('resumes a step from the stored wizard data', async () => {
    const stored: MergeWizardData = {
      ...EMPTY_WIZARD,
      selectedIdentities: [{ id: C7.id, username: 'C10007' }],
      notSelectedIdentities: [],
      preferredUsername: 'C10006',
    };
    const { actor } = start('/forced-actions/merge-accounts/confirmation', { facts: { stored } });
    expect(await formOf(actor, 'confirmation')).toMatchObject({ progress: 80 });
    const done = start('/forced-actions/merge-accounts/completed', {
      facts: { stored: { ...stored, mergedUsernames: ['C10007'] } },
    });
    await settle(done.actor, 'completed');
  });

  it('a step without its wizard data invalidates the session and goes to /', async () => {
    for (const path of [
      '/forced-actions/merge-accounts/change-email',
      '/forced-actions/merge-accounts/email-verification',
      '/forced-actions/merge-accounts/choose-preferred-username',
      '/forced-actions/merge-accounts/confirmation',
      '/forced-actions/merge-accounts/email-changed',
      '/forced-actions/merge-accounts/completed',
    ]) {
      const { actor, calls } = start(path);
      await waitFor(actor, (s) => s.status === 'done');
      expect(actor.getSnapshot().output, path).toEqual({ kind: 'cancelled', route: '/' });
      expect(calls.logouts).toBe(1);
    }
    expect(stepAt('/forced-actions/merge-accounts', EMPTY_WIZARD)).toBe('selectAccounts');
  });

  it('keeps a select-accounts refusal until a tick changes; an identity conflict disables Next', async () => {
    const conflict = {
      type: 'refused' as const,
      message: 'The accounts cannot be merged as they are.',
      fieldErrors: [{ fieldName: 'idvConflict', message: 'Call the helpdesk.' }],
    };
    const { actor } = start('/forced-actions/merge-accounts', { select: [conflict] });
    await formOf(actor, 'selectAccounts');
    actor.send({ type: 'user.selectAccounts', identities: [{ id: C7.id, password: 'pw' }] });
    await waitFor(actor, (s) => s.context.refusal !== null);
    expect(selectIdvConflict(actor.getSnapshot())).toBe('Call the helpdesk.');
    actor.send({ type: 'user.selectionChanged' });
    expect(selectIdvConflict(actor.getSnapshot())).toBeNull();
  });

  it('lists merge errors and disables Merge while any exist', async () => {
    const stored: MergeWizardData = {
      ...EMPTY_WIZARD,
      selectedIdentities: [{ id: C7.id, username: 'C10007' }],
      notSelectedIdentities: [],
      preferredUsername: 'C10006',
    };
    const errors = [{ fieldName: 'identities', message: 'The account C10007 has changed.' }];
    const { actor } = start('/forced-actions/merge-accounts/confirmation', {
      facts: { stored },
      confirm: [{ type: 'refused', message: 'x', fieldErrors: errors }],
    });
    await formOf(actor, 'confirmation');
    actor.send({ type: 'user.merge' });
    await waitFor(actor, (s) => s.context.mergeErrors.length > 0);
    expect(actor.getSnapshot().context.mergeErrors).toEqual(errors);
    actor.send({ type: 'user.merge' });
    expect(selectView(actor.getSnapshot())).toBe('confirmation');
    expect(JSON.stringify(actor.getSnapshot().value)).toContain('form');
  });

  describe('a refusal naming no field is listed like any merge error', () => {
    const stored: MergeWizardData = {
      ...EMPTY_WIZARD,
      selectedIdentities: [{ id: C7.id, username: 'C10007' }],
      notSelectedIdentities: [],
      preferredUsername: 'C10006',
    };
    const MERGED = 'The accounts have already been merged.';
    const listed = [{ fieldName: 'identities', message: MERGED }];

    it('by generate-merge-details (a reload after the merge): listed, no details, Merge blocked', async () => {
      const { actor } = start('/forced-actions/merge-accounts/confirmation', {
        facts: { stored },
        details: { type: 'refused', message: MERGED, fieldErrors: [] },
        confirm: [{ type: 'merged', result: { preferredUsername: 'C10006', mergedUsernames: ['C10007'] } }],
      });
      await formOf(actor, 'confirmation');
      expect(actor.getSnapshot().context.details).toBeNull();
      expect(selectMergeErrors(actor.getSnapshot())).toEqual(listed);
      actor.send({ type: 'user.merge' });
      expect(actor.getSnapshot().matches({ wizard: { confirmation: 'form' } })).toBe(true);
    });

    it('by generate-merge-details with field errors: those, as they are', async () => {
      const errors = [{ fieldName: 'preferredUsername', message: 'Choose a preferred username first.' }];
      const { actor } = start('/forced-actions/merge-accounts/confirmation', {
        facts: { stored },
        details: {
          type: 'refused',
          message: 'The accounts cannot be merged as they are.',
          fieldErrors: errors,
        },
      });
      await formOf(actor, 'confirmation');
      expect(selectMergeErrors(actor.getSnapshot())).toEqual(errors);
    });

    it('by confirm: the same shape', async () => {
      const { actor } = start('/forced-actions/merge-accounts/confirmation', {
        facts: { stored },
        confirm: [{ type: 'refused', message: MERGED, fieldErrors: [] }],
      });
      await formOf(actor, 'confirmation');
      actor.send({ type: 'user.merge' });
      await waitFor(actor, (s) => s.context.mergeErrors.length > 0);
      expect(selectMergeErrors(actor.getSnapshot())).toEqual(listed);
      expect(actor.getSnapshot().context.details).toEqual(DETAILS);
    });
  });
});
