// The merge wizard while one of its calls is under way (sections 2.6 and 4.4): the address cannot
// leave the step meanwhile (the merge cannot be undone, and its answer must be seen), so a
// route.changed is accepted only from a step's form; and from select-accounts' form the address can
// go back to the duplicate-accounts notice, where Start merge and Skip can be chosen again.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AuthenticationOutcome } from '../../src/contract/entities';
import type { IdentityCandidate, MergeDetails } from '../../src/contract/merge';
import { mergeAccountsMachine } from '../../machines/forced/merge-accounts/merge-accounts.machine';
import { selectBusy, selectView } from '../../machines/forced/merge-accounts/merge-accounts.select';
import {
  EMPTY_WIZARD,
  type DetailsResult,
  type MergeFacts,
  type MergeWizardData,
} from '../../machines/forced/merge-accounts/merge-accounts.types';
import type { ContinueSignInOutput } from '../../machines/forced/continue-sign-in/continue-sign-in.types';
import type { OutcomeResult } from '../../machines/forced/continue-sign-in/forced-step';
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
  accessibleFacilities: [],
};
const step = (name: string) => `/forced-actions/merge-accounts/${name}`;
const NOTICE = '/forced-actions/duplicate-accounts';

/** Every call waits until the test answers it, as a slow server would. */
function start(path: string, facts: Partial<MergeFacts> = {}) {
  const pending = new Map<string, { resolve: (output: unknown) => void; aborted: boolean }>();
  const calls = { reloads: 0, skipped: 0, started: [] as string[] };
  const held = (src: string) =>
    fromPromise<unknown, unknown>(
      ({ signal }) =>
        new Promise((resolve) => {
          const call = { resolve, aborted: false };
          calls.started.push(src);
          pending.set(src, call);
          signal.addEventListener('abort', () => {
            call.aborted = true;
          });
        }),
    );
  const machine = mergeAccountsMachine.provide({
    actors: {
      loadMerge: fromPromise<MergeFacts>(async () => ({
        candidates: [C7, C9],
        canSkip: true,
        stored: null,
        ...facts,
      })),
      skipMerge: fromPromise<OutcomeResult>(async () => {
        calls.skipped += 1;
        return { type: 'outcome', outcome: outcomes.directLogin };
      }),
      selectAccounts: held('selectAccounts') as never,
      changeEmail: held('changeEmail') as never,
      verifyEmail: held('verifyEmail') as never,
      resendEmail: held('resendEmail') as never,
      loadPreferredUsernames: fromPromise<string[]>(async () => ['C10006', 'C10007']),
      choosePreferredUsername: held('choosePreferredUsername') as never,
      generateMergeDetails: fromPromise<DetailsResult>(async () => ({ type: 'details', details: DETAILS })),
      confirmMerge: held('confirmMerge') as never,
      finishMerge: fromPromise<AuthenticationOutcome>(async () => outcomes.directLogin),
      continueSignIn: fromPromise<ContinueSignInOutput>(async () => continuations.signedIn) as never,
      logout: fromPromise<void>(async () => {}),
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
  /** The waiting call of `src`, answered with `output`; whether the machine had abandoned it. */
  const answer = async (src: string, output: unknown) => {
    await waitFor(actor, () => pending.has(src), { timeout: 1000 });
    const call = pending.get(src)!;
    pending.delete(src);
    call.resolve(output);
    return call;
  };
  return { actor, calls, answer, pending };
}

type Actor = ReturnType<typeof start>['actor'];
const inForm = (actor: Actor, view: string) =>
  waitFor(actor, (s) => selectView(s) === view && JSON.stringify(s.value).includes('"form"'), {
    timeout: 1000,
  });
const stateOf = (actor: Actor) => JSON.stringify(actor.getSnapshot().value);

const partial: MergeWizardData = {
  ...EMPTY_WIZARD,
  selectedIdentities: [{ id: C7.id, username: C7.username }],
  notSelectedIdentities: [{ username: C9.username, name: C9.name }],
};
const confirmable: MergeWizardData = {
  ...partial,
  newEmail: 'liam@example.com',
  preferredUsername: 'C10006',
};

describe('merge wizard: a call under way cannot be left by the address', () => {
  it('Merge: Back meanwhile is ignored; the merge ends at completed and the user is reloaded', async () => {
    const { actor, calls, answer } = start(step('confirmation'), { stored: confirmable });
    await inForm(actor, 'confirmation');
    actor.send({ type: 'user.merge' });
    expect(actor.getSnapshot().matches({ wizard: { confirmation: 'merging' } })).toBe(true);
    for (const path of [step('choose-preferred-username'), step('change-email'), step('select-accounts')]) {
      actor.send({ type: 'route.changed', path });
      expect(actor.getSnapshot().matches({ wizard: { confirmation: 'merging' } }), path).toBe(true);
      expect(selectBusy(actor.getSnapshot())).toBe(true);
    }
    const call = await answer('confirmMerge', {
      type: 'merged',
      result: { preferredUsername: 'C10006', mergedUsernames: ['C10007'] },
    });
    expect(call.aborted).toBe(false);
    await waitFor(actor, (s) => selectView(s) === 'completed', { timeout: 1000 });
    expect(calls.reloads).toBe(1);
    expect(actor.getSnapshot().context.wizard.mergedUsernames).toEqual(['C10007']);
  });

  it('once the confirmation is back at its form, Back is accepted again', async () => {
    const { actor } = start(step('confirmation'), { stored: confirmable });
    await inForm(actor, 'confirmation');
    actor.send({ type: 'route.changed', path: step('choose-preferred-username') });
    expect(selectView(actor.getSnapshot())).toBe('choosePreferredUsername');
  });

  it('checking a code: Back to change-email is ignored until the answer', async () => {
    const { actor, answer } = start(step('email-verification'), {
      stored: { ...partial, newEmail: 'liam@example.com' },
    });
    await inForm(actor, 'emailVerification');
    actor.send({ type: 'user.verify', code: '123456' });
    const before = stateOf(actor);
    actor.send({ type: 'route.changed', path: step('change-email') });
    expect(stateOf(actor)).toBe(before);
    expect(before).toContain('verifying');
    const call = await answer('verifyEmail', { type: 'done' });
    expect(call.aborted).toBe(false);
    await inForm(actor, 'choosePreferredUsername');
  });

  it('resending a code: Back to change-email is ignored until the answer', async () => {
    const { actor, answer } = start(step('email-verification'), {
      stored: { ...partial, newEmail: 'liam@example.com' },
    });
    await inForm(actor, 'emailVerification');
    actor.send({ type: 'user.resend' });
    actor.send({ type: 'route.changed', path: step('change-email') });
    expect(stateOf(actor)).toContain('resending');
    await answer('resendEmail', { type: 'sent' });
    await inForm(actor, 'emailVerification');
    actor.send({ type: 'route.changed', path: step('change-email') });
    expect(selectView(actor.getSnapshot())).toBe('changeEmail');
  });

  it('sending a new email: Back to select-accounts is ignored until the answer', async () => {
    const { actor, answer } = start(step('change-email'), { stored: partial });
    await inForm(actor, 'changeEmail');
    actor.send({ type: 'user.changeEmail', email: 'liam@example.com' });
    actor.send({ type: 'route.changed', path: step('select-accounts') });
    expect(stateOf(actor)).toContain('sending');
    const call = await answer('changeEmail', { type: 'done' });
    expect(call.aborted).toBe(false);
    await inForm(actor, 'emailVerification');
    expect(actor.getSnapshot().context.wizard.newEmail).toBe('liam@example.com');
  });

  it('storing the preferred username: Back is ignored until the answer', async () => {
    const { actor, answer } = start(step('choose-preferred-username'), {
      stored: { ...partial, newEmail: 'liam@example.com' },
    });
    await inForm(actor, 'choosePreferredUsername');
    actor.send({ type: 'user.chooseUsername', username: 'C10007' });
    actor.send({ type: 'route.changed', path: step('change-email') });
    expect(stateOf(actor)).toContain('choosing');
    const call = await answer('choosePreferredUsername', { type: 'done' });
    expect(call.aborted).toBe(false);
    await inForm(actor, 'confirmation');
    expect(actor.getSnapshot().context.wizard.preferredUsername).toBe('C10007');
  });

  it('checking the passwords: the notice address is ignored until the answer', async () => {
    const { actor, answer } = start(NOTICE);
    await waitFor(actor, (s) => selectView(s) === 'notice', { timeout: 1000 });
    actor.send({ type: 'user.startMerge' });
    actor.send({ type: 'user.selectAccounts', identities: [{ id: C7.id, password: 'pw-7' }] });
    actor.send({ type: 'route.changed', path: NOTICE });
    expect(stateOf(actor)).toContain('selecting');
    await answer('selectAccounts', { type: 'selected', changeEmail: true });
    await inForm(actor, 'changeEmail');
  });
});

describe('merge wizard: back from select-accounts to the notice', () => {
  it('returns to the notice with the wizard data cleared; Skip works before the cutoff', async () => {
    const { actor, calls } = start(NOTICE);
    await waitFor(actor, (s) => selectView(s) === 'notice', { timeout: 1000 });
    actor.send({ type: 'user.startMerge' });
    await inForm(actor, 'selectAccounts');
    actor.send({ type: 'route.changed', path: NOTICE });
    expect(actor.getSnapshot().matches({ notice: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.wizard).toEqual(EMPTY_WIZARD);
    actor.send({ type: 'user.skip' });
    await waitFor(actor, (s) => s.status === 'done', { timeout: 1000 });
    expect(calls.skipped).toBe(1);
  });

  it('clears a selection stored earlier and any refusal; Start merge begins again', async () => {
    const { actor, answer } = start(step('select-accounts'), { stored: confirmable });
    await inForm(actor, 'selectAccounts');
    actor.send({ type: 'user.selectAccounts', identities: [{ id: C7.id, password: 'wrong' }] });
    await answer('selectAccounts', {
      type: 'refused',
      message: 'The accounts cannot be merged as they are.',
      fieldErrors: [{ fieldName: 'identities.id-7.password', message: 'The password is incorrect.' }],
    });
    await waitFor(actor, (s) => s.context.refusal !== null, { timeout: 1000 });
    actor.send({ type: 'route.changed', path: `${NOTICE}/` });
    expect(actor.getSnapshot().matches({ notice: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.wizard).toEqual(EMPTY_WIZARD);
    expect(actor.getSnapshot().context.refusal).toBeNull();
    actor.send({ type: 'user.startMerge' });
    await inForm(actor, 'selectAccounts');
  });

  it('past the cutoff the notice offers Start merge only', async () => {
    const { actor, calls } = start(NOTICE, { canSkip: false });
    await waitFor(actor, (s) => selectView(s) === 'notice', { timeout: 1000 });
    actor.send({ type: 'user.startMerge' });
    await inForm(actor, 'selectAccounts');
    actor.send({ type: 'route.changed', path: NOTICE });
    expect(selectView(actor.getSnapshot())).toBe('notice');
    actor.send({ type: 'user.skip' });
    expect(selectView(actor.getSnapshot())).toBe('notice');
    expect(calls.skipped).toBe(0);
  });

  it('a later step does not jump to the notice by the address', async () => {
    const { actor } = start(step('change-email'), { stored: partial });
    await inForm(actor, 'changeEmail');
    actor.send({ type: 'route.changed', path: NOTICE });
    expect(selectView(actor.getSnapshot())).toBe('changeEmail');
    expect(actor.getSnapshot().context.wizard).toEqual(partial);
  });
});
