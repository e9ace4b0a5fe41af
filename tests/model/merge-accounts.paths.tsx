// Generated duplicate-accounts and merge-wizard paths executed against the mounted page: Testing
// Library ticks accounts, types passwords, the new email and codes, picks the username and merges
// as a user would; the scripted fake API answers as each step says; each state is checked by what
// the user sees: heading, step title, progress, the step's address, field errors, the merge error
// list and the disabled Merge button, and where the page went at the end.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeAccountsMachine } from '../../machines/forced/merge-accounts/merge-accounts.machine';
import type { MergeAccountsOutput } from '../../machines/forced/merge-accounts/merge-accounts.types';
import { FORCED_ACTIONS_ROUTE } from '../../machines/routes';
import MergeAccountsPage from '../../src/client/flows/forced/merge-accounts/MergeAccountsPage';
import { MERGE_WIZARD_STORAGE_KEY } from '../../src/client/flows/forced/merge-accounts/merge-accounts.storage';
import {
  mergeAccountsTexts as t,
  mergeErrorText,
} from '../../src/client/flows/forced/merge-accounts/merge-accounts.texts';
import { users } from '../machines/continue-sign-in.fixtures';
import type { MachineCoverage } from './harness/coverage';
import { enter } from './harness/user';
import { expectLanded, expectStatus, leafStates, runPath } from './harness/forced-checks';
import { mountForcedPage, type MountedForcedPage } from './harness/forced-pages';
import {
  CANDIDATES,
  CODE,
  mergeAccountsPaths,
  NEW_EMAIL,
  NOTICE,
  PASSWORDS,
  projectMergeAccountsContext,
  S,
  stepPath,
  type MergeAccountsModelEvent,
  type MergeAccountsModelEventType,
  type MergeAccountsSnapshot,
} from './merge-accounts.model';

type Sn = MergeAccountsSnapshot;
const PATH_TIMEOUT_MS = 30_000;
const TRANSIENT = ['resuming'];
const SOURCES = [
  'loadMerge',
  'skipMerge',
  'selectAccounts',
  'changeEmail',
  'verifyEmail',
  'resendEmail',
  'loadPreferredUsernames',
  'choosePreferredUsername',
  'generateMergeDetails',
  'confirmMerge',
  'finishMerge',
  'continueSignIn',
  'logout',
] as const;

const pendingUser = { ...users.pending, username: 'C10006', email: 'dup@example.com' };

function mountMerge(entry: string, inspect: MachineCoverage['inspect']) {
  return mountForcedPage({
    machine: mergeAccountsMachine,
    sources: SOURCES,
    // One mounted page for the notice and every step, as the app's layout route keeps it.
    route: `${FORCED_ACTIONS_ROUTE}/*`,
    entry,
    page: <MergeAccountsPage />,
    user: pendingUser,
    inspect,
  });
}

const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const button = (name: string) => screen.getByRole('button', { name });
const accountBox = (username: string) => screen.getByRole('checkbox', { name: new RegExp(`^${username}`) });
const noneBox = () => screen.getByRole('checkbox', { name: t.selectAccounts.none });

async function expectBusy(name: string, busy: boolean) {
  await waitFor(() => {
    if (busy) expect(button(name)).toHaveAttribute('data-loading', 'true');
    else expect(button(name)).not.toHaveAttribute('data-loading');
  });
}

/** A step's Back link: where it goes, and aria-disabled while a call of the step is under way. */
function expectBack(label: string, path: string, busy: boolean) {
  const link = screen.getByRole('link', { name: label });
  expect(link).toHaveAttribute('href', path);
  if (busy) expect(link).toHaveAttribute('aria-disabled', 'true');
  else expect(link).not.toHaveAttribute('aria-disabled');
}

/** Heading, the step's title, progress and address: what every wizard step shows. */
async function expectStep(m: MountedForcedPage, title: string, path: string, progress: number | null) {
  expect(await screen.findByRole('heading', { level: 1, name: t.heading })).toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 2, name: title })).toBeInTheDocument();
  if (progress === null) expect(screen.queryByRole('progressbar')).toBeNull();
  else {
    expect(screen.getByRole('progressbar', { name: t.progress })).toHaveAttribute(
      'aria-valuenow',
      String(progress),
    );
    expect(screen.getByTestId('step-progress')).toHaveTextContent(t.percent(progress));
  }
  await waitFor(() => expect(m.router.state.location.pathname).toBe(path));
}

function stateChecks(m: MountedForcedPage): Record<string, (s: Sn) => Promise<void>> {
  const notice = async (s: Sn, busy: boolean) => {
    expect(await screen.findByRole('heading', { level: 1, name: t.notice.heading })).toBeInTheDocument();
    await waitFor(() => expect(m.router.state.location.pathname).toBe(NOTICE));
    expect(button(t.notice.startMerge)).toBeInTheDocument();
    if (s.context.canSkip) await expectBusy(t.notice.skip, busy);
    else expect(screen.queryByRole('button', { name: t.notice.skip })).toBeNull();
    if (s.context.refusal) expect(screen.getByRole('alert')).toHaveTextContent(s.context.refusal.message);
  };
  const selectAccounts = async (s: Sn, busy: boolean) => {
    await expectStep(m, t.selectAccounts.title, stepPath(S.SELECT_ACCOUNTS), 16);
    for (const c of CANDIDATES) expect(accountBox(c.username)).toBeInTheDocument();
    expect(noneBox()).toBeInTheDocument();
    await expectBusy(t.selectAccounts.next, busy);
    const passwordError = s.context.refusal?.fieldErrors[0];
    if (passwordError && !busy) expect(await screen.findByText(passwordError.message)).toBeInTheDocument();
  };
  const changeEmail = async (s: Sn, progress: number, busy: boolean) => {
    await expectStep(m, t.changeEmail.title, stepPath(S.CHANGE_EMAIL), progress);
    expect(input(/^New email/)).toBeInTheDocument();
    await expectBusy(t.changeEmail.next, busy);
    expectBack(t.changeEmail.back, stepPath(S.SELECT_ACCOUNTS), busy);
    if (s.context.refusal && !busy)
      await waitFor(() =>
        expect(input(/^New email/)).toHaveAccessibleDescription(s.context.refusal!.fieldErrors[0]!.message),
      );
  };
  const emailVerification = async (s: Sn, progress: number, busy: boolean, resending = false) => {
    await expectStep(m, t.emailVerification.title, stepPath(S.EMAIL_VERIFICATION), progress);
    expect(screen.getByText(t.emailVerification.instructions(s.context.wizard.newEmail))).toBeInTheDocument();
    expect(input(/^Verification code/)).toBeInTheDocument();
    await expectBusy(t.emailVerification.submit, busy);
    expectBack(t.emailVerification.back, stepPath(S.CHANGE_EMAIL), busy || resending);
    const resend = button(t.resendCode);
    if (s.context.resendRefusal !== null) {
      expect(resend).toBeDisabled();
      expect(screen.getByText(s.context.resendRefusal)).toHaveAttribute('role', 'alert');
    } else if (resending) expect(resend).toBeDisabled();
    else await waitFor(() => expect(button(t.resendCode)).toBeEnabled());
    if (s.context.refusal && !busy)
      await waitFor(() => expect(input(/^Verification code/)).toHaveAttribute('aria-invalid', 'true'));
  };
  const usernameStep = async (s: Sn) => {
    const back =
      (s.context.wizard.notSelectedIdentities?.length ?? 0) > 0 ? S.CHANGE_EMAIL : S.SELECT_ACCOUNTS;
    await expectStep(m, t.choosePreferredUsername.title, stepPath(S.CHOOSE_PREFERRED_USERNAME), 64);
    return back;
  };
  const confirmation = async (s: Sn, busy: boolean) => {
    await expectStep(m, t.confirmation.title, stepPath(S.CONFIRMATION), 80);
    await expectBusy(t.confirmation.merge, busy);
    expectBack(t.confirmation.back, stepPath(S.CHOOSE_PREFERRED_USERNAME), busy);
    if (s.context.details)
      expect(screen.getByRole('rowheader', { name: t.confirmation.username })).toBeInTheDocument();
    if (s.context.mergeErrors.length > 0) {
      const alert = screen.getByRole('alert');
      for (const error of s.context.mergeErrors)
        expect(within(alert).getByText(mergeErrorText(error))).toBeInTheDocument();
      expect(button(t.confirmation.merge)).toBeDisabled();
    } else if (s.context.details && !busy) expect(button(t.confirmation.merge)).toBeEnabled();
    // Never a blank step: the details, or the listed refusal that says why there are none.
    if (!busy)
      expect(
        screen.queryByRole('rowheader', { name: t.confirmation.username }) ?? screen.queryByRole('alert'),
      ).not.toBeNull();
  };
  return {
    loading: async () => {
      await expectStatus(t.loading);
      await m.api.waiting('loadMerge');
    },
    'notice.idle': (s) => notice(s, false),
    'notice.skipping': async (s) => {
      await notice(s, true);
      await m.api.waiting('skipMerge');
    },
    'wizard.selectAccounts.form': (s) => selectAccounts(s, false),
    'wizard.selectAccounts.selecting': async (s) => {
      await selectAccounts(s, true);
      const call = await m.api.waiting('selectAccounts');
      const ids = (call.input as { identities: Array<{ id: string; password: string }> }).identities;
      expect(ids.map((i) => i.id)).toEqual(s.context.pendingSelection);
      for (const i of ids) expect(i.password).toBe(PASSWORDS[i.id]);
      expect(JSON.stringify(s.context)).not.toContain(PASSWORDS['id-7']);
    },
    'wizard.changeEmail.form': (s) => changeEmail(s, 32, false),
    'wizard.changeEmail.sending': async (s) => {
      await changeEmail(s, 32, true);
      expect((await m.api.waiting('changeEmail')).input).toEqual({ email: NEW_EMAIL });
    },
    'wizard.changeEmailOnly.form': (s) => changeEmail(s, 64, false),
    'wizard.changeEmailOnly.sending': async (s) => {
      await changeEmail(s, 64, true);
      expect((await m.api.waiting('changeEmail')).input).toEqual({ email: NEW_EMAIL });
    },
    'wizard.emailVerification.form': (s) => emailVerification(s, 48, false),
    'wizard.emailVerification.verifying': async (s) => {
      await emailVerification(s, 48, true);
      expect((await m.api.waiting('verifyEmail')).input).toEqual({ code: CODE });
    },
    'wizard.emailVerification.resending': async (s) => {
      await emailVerification(s, 48, false, true);
      await m.api.waiting('resendEmail');
    },
    'wizard.emailVerificationOnly.form': (s) => emailVerification(s, 80, false),
    'wizard.emailVerificationOnly.verifying': async (s) => {
      await emailVerification(s, 80, true);
      expect((await m.api.waiting('verifyEmail')).input).toEqual({ code: CODE });
    },
    'wizard.emailVerificationOnly.resending': async (s) => {
      await emailVerification(s, 80, false, true);
      await m.api.waiting('resendEmail');
    },
    'wizard.choosePreferredUsername.loadingOptions': async (s) => {
      await usernameStep(s);
      await m.api.waiting('loadPreferredUsernames');
    },
    'wizard.choosePreferredUsername.form': async (s) => {
      const back = await usernameStep(s);
      for (const option of s.context.usernameOptions)
        expect(screen.getByRole('radio', { name: option })).toBeInTheDocument();
      expectBack(t.choosePreferredUsername.back, stepPath(back), false);
      if (s.context.refusal)
        expect(await screen.findByText(s.context.refusal.fieldErrors[0]!.message)).toBeInTheDocument();
    },
    'wizard.choosePreferredUsername.choosing': async (s) => {
      const back = await usernameStep(s);
      await expectBusy(t.choosePreferredUsername.next, true);
      expectBack(t.choosePreferredUsername.back, stepPath(back), true);
      expect((await m.api.waiting('choosePreferredUsername')).input).toEqual({ username: 'C10006' });
    },
    'wizard.confirmation.generating': async (s) => {
      await expectStep(m, t.confirmation.title, stepPath(S.CONFIRMATION), 80);
      expect(button(t.confirmation.merge)).toBeDisabled();
      expectBack(t.confirmation.back, stepPath(S.CHOOSE_PREFERRED_USERNAME), true);
      await m.api.waiting('generateMergeDetails');
      void s;
    },
    'wizard.confirmation.form': (s) => confirmation(s, false),
    'wizard.confirmation.merging': async (s) => {
      await confirmation(s, true);
      await m.api.waiting('confirmMerge');
    },
    emailChanged: async (s) => {
      await expectStep(m, t.emailChanged.title, stepPath(S.EMAIL_CHANGED), null);
      expect(screen.getByText(t.emailChanged.body(s.context.wizard.newEmail))).toBeInTheDocument();
      expect(button(t.emailChanged.continue)).toBeEnabled();
    },
    completed: async (s) => {
      await expectStep(m, t.completed.title, stepPath(S.COMPLETED), null);
      expect(
        screen.getByText(
          t.completed.body(s.context.wizard.preferredUsername, s.context.wizard.mergedUsernames ?? []),
        ),
      ).toBeInTheDocument();
      const stored = JSON.parse(sessionStorage.getItem(MERGE_WIZARD_STORAGE_KEY) ?? 'null') as unknown;
      expect(stored).toEqual(s.context.wizard);
    },
    finishing: async () => {
      await expectStatus(t.signingIn);
      await m.api.waiting('finishMerge');
    },
    continuing: async (s) => {
      await expectStatus(t.signingIn);
      const call = await m.api.waiting('continueSignIn');
      expect(call.input).toEqual({ outcome: s.context.outcome, targetPath: null, adminTargetPath: null });
    },
    failed: async (s) => {
      expect(await screen.findByRole('heading', { level: 1, name: t.failedHeading })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(s.context.errorMessage ?? '');
    },
    invalidating: async () => {
      await expectStatus(t.cancelling);
      await m.api.waiting('logout');
    },
    done: async (s) => {
      await expectLanded(m, s.output as MergeAccountsOutput);
      expect(sessionStorage.getItem(MERGE_WIZARD_STORAGE_KEY)).toBeNull();
    },
    invalidated: async (s) => {
      await expectLanded(m, s.output as MergeAccountsOutput);
      expect(sessionStorage.getItem(MERGE_WIZARD_STORAGE_KEY)).toBeNull();
    },
  };
}

const EVENT_TYPES = Object.keys({
  'user.startMerge': true,
  'user.skip': true,
  'user.selectionChanged': true,
  'user.selectAccounts': true,
  'user.changeEmail': true,
  'user.verify': true,
  'user.resend': true,
  'user.chooseUsername': true,
  'user.merge': true,
  'user.continue': true,
  'route.changed': true,
  'xstate.done.actor.loadMerge': true,
  'xstate.error.actor.loadMerge': true,
  'xstate.done.actor.skipMerge': true,
  'xstate.error.actor.skipMerge': true,
  'xstate.done.actor.selectAccounts': true,
  'xstate.error.actor.selectAccounts': true,
  'xstate.done.actor.changeEmail': true,
  'xstate.error.actor.changeEmail': true,
  'xstate.done.actor.verifyEmail': true,
  'xstate.error.actor.verifyEmail': true,
  'xstate.done.actor.resendEmail': true,
  'xstate.error.actor.resendEmail': true,
  'xstate.done.actor.loadPreferredUsernames': true,
  'xstate.error.actor.loadPreferredUsernames': true,
  'xstate.done.actor.choosePreferredUsername': true,
  'xstate.error.actor.choosePreferredUsername': true,
  'xstate.done.actor.generateMergeDetails': true,
  'xstate.error.actor.generateMergeDetails': true,
  'xstate.done.actor.confirmMerge': true,
  'xstate.error.actor.confirmMerge': true,
  'xstate.done.actor.finishMerge': true,
  'xstate.error.actor.finishMerge': true,
  'xstate.done.actor.continueSignIn': true,
  'xstate.error.actor.continueSignIn': true,
  'xstate.done.actor.logout': true,
  'xstate.error.actor.logout': true,
} satisfies Record<MergeAccountsModelEventType, true>);

function performer(m: MountedForcedPage) {
  return async (event: MergeAccountsModelEvent) => {
    switch (event.type) {
      case 'user.startMerge':
        await m.user.click(button(t.notice.startMerge));
        return;
      case 'user.skip':
        await m.user.click(button(t.notice.skip));
        return;
      case 'user.selectionChanged':
        // Any tick clears the last refusal; ticking None twice leaves the ticks as they were.
        await m.user.click(noneBox());
        await m.user.click(noneBox());
        return;
      case 'user.selectAccounts': {
        const wanted = new Set(event.identities.map((i) => i.id));
        if (wanted.size === 0) {
          if (!(noneBox() as HTMLInputElement).checked) await m.user.click(noneBox());
        } else {
          for (const c of CANDIDATES) {
            const box = accountBox(c.username) as HTMLInputElement;
            if (box.checked !== wanted.has(c.id)) await m.user.click(box);
          }
          for (const i of event.identities) {
            const username = CANDIDATES.find((c) => c.id === i.id)!.username;
            const field = input(new RegExp(`^Password for ${username}`));
            await enter(m.user, field, i.password);
          }
        }
        await m.user.click(button(t.selectAccounts.next));
        await waitFor(() =>
          expect(m.api.lastCall('selectAccounts')?.input).toEqual({ identities: event.identities }),
        );
        return;
      }
      case 'user.changeEmail':
        await enter(m.user, input(/^New email/), event.email);
        await m.user.click(button(t.changeEmail.next));
        return;
      case 'user.verify':
        await enter(m.user, input(/^Verification code/), event.code);
        await m.user.click(button(t.emailVerification.submit));
        return;
      case 'user.resend':
        await m.user.click(button(t.resendCode));
        return;
      case 'user.chooseUsername':
        await m.user.click(screen.getByRole('radio', { name: event.username }));
        await m.user.click(button(t.choosePreferredUsername.next));
        return;
      case 'user.merge':
        await m.user.click(button(t.confirmation.merge));
        return;
      case 'user.continue':
        await m.user.click(button(t.completed.continue));
        return;
      case 'route.changed':
        // An address the machine did not ask for: the back button or a 'Go back to' link.
        await act(() => m.router.navigate(event.path));
        return;
      case 'xstate.done.actor.resendEmail':
        await act(() => m.api.answer(event));
        if (event.output.type === 'sent')
          expect(await screen.findByText(t.resent('email'))).toBeInTheDocument();
        return;
      default:
        await act(() => m.api.answer(event));
    }
  };
}

export function defineMergeAccountsPaths(coverage: MachineCoverage): void {
  const paths = mergeAccountsPaths();

  describe(`forced/merge-accounts: ${paths.length} generated paths against the mounted page`, () => {
    afterEach(() => {
      notifications.clean();
      sessionStorage.clear();
    });

    it('has a check for every state the user can see', () => {
      const checked = Object.keys(stateChecks({} as MountedForcedPage));
      expect([...checked, ...TRANSIENT].sort()).toEqual(leafStates(mergeAccountsMachine.root).sort());
    });

    it.each(
      paths.map(({ scenario, path }) => [`${scenario.name}: ${path.description}`, scenario, path] as const),
    )(
      '%s',
      async (_, scenario, path) => {
        const m = mountMerge(scenario.input.path, coverage.inspect);
        await runPath(
          m,
          path as never,
          stateChecks(m),
          EVENT_TYPES,
          performer(m),
          projectMergeAccountsContext as never,
        );
      },
      PATH_TIMEOUT_MS,
    );
  });
}
