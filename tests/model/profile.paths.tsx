// Generated profile paths executed against the mounted pages: the single-step form (as
// change-name), the code wizards (change-email, change-mobile, enrol-sms) and the authenticator-app
// wizards (enrol and change). Testing Library types and clicks as a user would, the scripted fake
// API answers as each step says, and each state is checked by what the user sees, where the page
// went when it finished, and the toast it announced.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import type { AppWizardMachine } from '../../machines/profile/app-wizard/app-wizard.machine';
import { changeAuthenticatorAppMachine } from '../../machines/profile/change-authenticator-app/change-authenticator-app.machine';
import { changeEmailMachine } from '../../machines/profile/change-email/change-email.machine';
import { changeMobileMachine } from '../../machines/profile/change-mobile/change-mobile.machine';
import type { CodeWizardMachine } from '../../machines/profile/code-wizard/code-wizard.machine';
import { enrolAuthenticatorAppMachine } from '../../machines/profile/enrol-authenticator-app/enrol-authenticator-app.machine';
import { enrolSmsMachine } from '../../machines/profile/enrol-sms/enrol-sms.machine';
import { profileFormMachine } from '../../machines/profile/profile-form/profile-form.machine';
import type { ProfileOutput } from '../../machines/profile/profile.types';
import { PROFILE_ROUTE, PROFILE_ROUTES } from '../../machines/routes';
import { onNotice, type Notice } from '../../src/client/app/notices';
import { forcedTexts } from '../../src/client/flows/forced/shared/forced.texts';
import ChangeAuthenticatorAppPage from '../../src/client/flows/profile/ChangeAuthenticatorAppPage';
import ChangeEmailPage from '../../src/client/flows/profile/ChangeEmailPage';
import ChangeMobilePage from '../../src/client/flows/profile/ChangeMobilePage';
import ChangeNamePage from '../../src/client/flows/profile/ChangeNamePage';
import EnrolAuthenticatorAppPage from '../../src/client/flows/profile/EnrolAuthenticatorAppPage';
import EnrolSmsPage from '../../src/client/flows/profile/EnrolSmsPage';
import {
  IDENTITY_VERIFIED_WARNING,
  profileFormTexts,
  profileToasts,
  resentToast,
  screenTexts,
  wizardTexts,
} from '../../src/client/flows/profile/profile.texts';
import { users } from '../machines/continue-sign-in.fixtures';
import type { MachineCoverage } from './harness/coverage';
import { leafStates, runPath } from './harness/forced-checks';
import { mountForcedPage, type MountedForcedPage } from './harness/forced-pages';
import {
  appSetup,
  appWizardPaths,
  CODE,
  codeWizardModels,
  codeWizardPaths,
  CURRENT_PASSWORD,
  NEW_NAME,
  profileFormPaths,
  updatedUser,
  type CodeWizardModel,
  type ModelEvent,
} from './profile.model';
import { enter } from './harness/user';

const PATH_TIMEOUT_MS = 30_000;
type S = {
  value: unknown;
  context: Record<string, unknown>;
  output?: unknown;
  matches: (v: never) => boolean;
};
type Mounted = MountedForcedPage & { notices: Notice[] };

const field = (label: RegExp | string) => screen.getByLabelText(label, { selector: 'input' });
const button = (name: string | RegExp) => screen.getByRole('button', { name });

function mount(
  machine: AnyStateMachine,
  sources: readonly string[],
  route: string,
  page: React.ReactNode,
  inspect: MachineCoverage['inspect'],
): Mounted {
  const notices: Notice[] = [];
  const stop = onNotice((notice) => notices.push(notice));
  afterEach(stop);
  const m = mountForcedPage({
    machine,
    sources,
    route,
    entry: route.replace(/\/\*$/, ''),
    page,
    user: users.customer,
    inspect,
  });
  return Object.assign(m, { notices });
}

/** Finished: back at /profile, with what the output hands over. */
async function expectLanded(m: Mounted, output: ProfileOutput, toast: string) {
  expect(await screen.findByTestId('landed-path')).toHaveTextContent(PROFILE_ROUTE);
  const state = JSON.parse(screen.getByTestId('landed-state').textContent ?? 'null') as unknown;
  switch (output.kind) {
    case 'saved':
      expect(m.notices).toContainEqual({ message: toast, tone: 'success' });
      if (output.user) expect(m.store.getState().currentUser).toEqual(output.user);
      expect(state).toBeNull();
      break;
    case 'unavailable':
      expect(state).toEqual({ smsUnavailableMessage: output.message });
      expect(m.notices.filter((n) => n.tone === 'success')).toEqual([]);
      break;
    case 'cancelled':
      expect(state).toBeNull();
      expect(m.notices.filter((n) => n.tone === 'success')).toEqual([]);
  }
}

async function expectFailed(s: S) {
  expect(await screen.findByRole('alert')).toHaveTextContent(String(s.context.errorMessage ?? ''));
  expect(button(profileFormTexts.back)).toBeInTheDocument();
}

async function expectProgress(value: number) {
  await waitFor(() => expect(screen.getByTestId('step-progress')).toHaveTextContent(`${value}`));
}

/**
 * A wizard's failure view shows the step that failed (section 2.3: step 1 at 50, step 2 at 100):
 * the step of the last call made, which is the one that failed.
 */
async function expectFailedWizard(m: Mounted, s: S, stepOneCalls: readonly string[]) {
  await expectFailed(s);
  const failedCall = m.api.calls.at(-1)?.src ?? '';
  const step = stepOneCalls.includes(failedCall) ? 1 : 2;
  await expectProgress(step === 1 ? 50 : 100);
  expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(
    step === 1 ? wizardTexts.stepDetails : wizardTexts.stepVerification,
  );
}

async function clickCancel(m: Mounted) {
  const cancel = screen.queryByRole('button', { name: wizardTexts.cancel }) ?? button(profileFormTexts.back);
  await m.user.click(cancel);
}

async function navigateTo(m: Mounted, path: string) {
  await act(() => m.router.navigate(path));
}

// ---- Single-step form ----------------------------------------------------------------------

export function defineProfileFormPaths(coverage: MachineCoverage): void {
  const paths = profileFormPaths();
  const t = screenTexts.changeName;

  function checks(m: Mounted): Record<string, (s: S) => Promise<void>> {
    const expectForm = async (s: S, busy: boolean) => {
      expect(await screen.findByRole('heading', { level: 1, name: t.heading })).toBeInTheDocument();
      expect(field(/^Name/)).toBeInTheDocument();
      expect(field(/^Current password/)).toBeInTheDocument();
      const submit = button(t.submit);
      await waitFor(() =>
        busy
          ? expect(submit).toHaveAttribute('data-loading', 'true')
          : expect(submit).not.toHaveAttribute('data-loading'),
      );
      const refusal = s.context.refusal as { message: string } | null;
      if (refusal) expect(screen.getByRole('alert')).toHaveTextContent(refusal.message);
      if (refusal)
        await waitFor(() => expect(field(/^Current password/)).toHaveAttribute('aria-invalid', 'true'));
    };
    return {
      checking: async () => {
        await m.api.waiting('isIdentityVerified');
      },
      readOnly: async () => {
        expect(await screen.findByText(IDENTITY_VERIFIED_WARNING)).toBeInTheDocument();
        expect(screen.queryByLabelText(/^Current password/)).toBeNull();
      },
      form: (s) => expectForm(s, false),
      submitting: async (s) => {
        await expectForm(s, true);
        const call = await m.api.waiting('submit');
        expect(call.input).toEqual({ name: NEW_NAME, currentPassword: CURRENT_PASSWORD });
        expect(JSON.stringify(s.context)).not.toContain(CURRENT_PASSWORD);
      },
      failed: (s) => expectFailed(s),
      saved: (s) => expectLanded(m, s.output as ProfileOutput, profileToasts.name),
      cancelled: (s) => expectLanded(m, s.output as ProfileOutput, profileToasts.name),
    };
  }

  function perform(m: Mounted) {
    return async (event: ModelEvent) => {
      switch (event.type) {
        case 'user.submit': {
          await enter(m.user, field(/^Name/), NEW_NAME);
          await enter(m.user, field(/^Current password/), CURRENT_PASSWORD);
          await m.user.click(button(t.submit));
          return;
        }
        case 'user.cancel':
          await m.user.click(
            screen.queryByRole('button', { name: profileFormTexts.cancel }) ?? button(profileFormTexts.back),
          );
          return;
        default:
          await act(() => m.api.answer(event));
      }
    };
  }

  describe(`profile/profile-form: ${paths.length} generated paths against change-name`, () => {
    afterEach(() => notifications.clean());
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(leafStates(profileFormMachine.root).sort());
    });
    it.each(paths.map((path) => [path.description, path] as const))(
      '%s',
      async (_, path) => {
        const m = mount(
          profileFormMachine,
          ['isIdentityVerified', 'submit'],
          PROFILE_ROUTES.CHANGE_NAME,
          <ChangeNamePage />,
          coverage.inspect,
        );
        await runPath(m, path as never, checks(m), Object.keys(profileFormFixturesTypes), perform(m));
      },
      PATH_TIMEOUT_MS,
    );
  });
}

const profileFormFixturesTypes = {
  'user.submit': 1,
  'user.cancel': 1,
  'xstate.done.actor.isIdentityVerified': 1,
  'xstate.error.actor.isIdentityVerified': 1,
  'xstate.done.actor.submit': 1,
  'xstate.error.actor.submit': 1,
};

// ---- Code wizards --------------------------------------------------------------------------

const CODE_EVENT_TYPES = [
  'user.start',
  'user.verify',
  'user.resend',
  'user.cancel',
  'route.changed',
  'xstate.done.actor.start',
  'xstate.error.actor.start',
  'xstate.done.actor.verify',
  'xstate.error.actor.verify',
  'xstate.done.actor.resend',
  'xstate.error.actor.resend',
  'xstate.done.actor.cancelChange',
  'xstate.error.actor.cancelChange',
];

function defineCodeWizardPaths(
  coverage: MachineCoverage,
  options: {
    name: string;
    machine: CodeWizardMachine;
    model: CodeWizardModel;
    page: React.ReactNode;
    heading: string;
    kind: 'email' | 'mobile';
    toast: string;
  },
) {
  const { machine, model, heading, kind } = options;
  const paths = codeWizardPaths(machine, model);
  const valueLabel = kind === 'email' ? wizardTexts.newEmail : wizardTexts.mobile;
  const channel = kind === 'email' ? 'email' : 'sms';

  function checks(m: Mounted): Record<string, (s: S) => Promise<void>> {
    const expectDetails = async (s: S, busy: boolean) => {
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
      await expectProgress(50);
      expect(field(new RegExp(`^${valueLabel}`))).toBeInTheDocument();
      const next = button(wizardTexts.next);
      await waitFor(() =>
        busy
          ? expect(next).toHaveAttribute('data-loading', 'true')
          : expect(next).not.toHaveAttribute('data-loading'),
      );
      const refusal = s.context.refusal as { message: string } | null;
      if (refusal) expect(screen.getByRole('alert')).toHaveTextContent(refusal.message);
      expect(m.router.state.location.pathname).toBe(model.route);
    };
    const expectVerification = async (s: S) => {
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
      await expectProgress(100);
      await waitFor(() => expect(m.router.state.location.pathname).toBe(`${model.route}/${model.step}`));
      expect(
        screen.getByText(new RegExp(String(s.context.destination).replace(/[+]/g, '\\+'))),
      ).toBeInTheDocument();
      const codeRefusal = s.context.codeRefusal as { message: string } | null;
      if (codeRefusal)
        await waitFor(() =>
          expect(field(new RegExp(`^${forcedTexts.code}`))).toHaveAttribute('aria-invalid', 'true'),
        );
      const resendRefusal = s.context.resendRefusal as string | null;
      if (resendRefusal) expect(screen.getByText(resendRefusal)).toBeInTheDocument();
    };
    return {
      details: (s) => expectDetails(s, false),
      starting: async (s) => {
        await expectDetails(s, true);
        expect((await m.api.waiting('start')).input).toEqual({
          currentPassword: CURRENT_PASSWORD,
          value: model.value,
        });
      },
      verification: async (s) => {
        await expectVerification(s);
        if (m.api.calls.some((c) => c.src === 'resend') && !s.context.resendRefusal) {
          // A resend that went out was announced.
          expect(m.notices).toContainEqual({ message: resentToast(channel), tone: 'success' });
        }
      },
      verifying: async (s) => {
        await expectVerification(s);
        expect((await m.api.waiting('verify')).input).toEqual({ code: CODE });
      },
      resending: async () => {
        expect(await screen.findByText(forcedTexts.resending)).toHaveAttribute('role', 'status');
        await m.api.waiting('resend');
      },
      cancelling: async () => {
        expect(await screen.findByText(wizardTexts.cancelling)).toHaveAttribute('role', 'status');
        await m.api.waiting('cancelChange');
      },
      failed: (s) => expectFailedWizard(m, s, ['start']),
      saved: (s) => expectLanded(m, s.output as ProfileOutput, options.toast),
      unavailable: (s) => expectLanded(m, s.output as ProfileOutput, options.toast),
      cancelled: async (s) => {
        await expectLanded(m, s.output as ProfileOutput, options.toast);
        // Cancelling step 2 called the cancel endpoint; step 1 called nothing.
        const cancelled = m.api.calls.some((c) => c.src === 'cancelChange');
        const fromStep2 = m.api.calls.some((c) => c.src === 'start');
        if (!fromStep2) expect(cancelled).toBe(false);
      },
    };
  }

  function perform(m: Mounted) {
    return async (event: ModelEvent) => {
      switch (event.type) {
        case 'user.start':
          await enter(m.user, field(new RegExp(`^${valueLabel}`)), String(event.value));
          await enter(m.user, field(/^Current password/), String(event.currentPassword));
          await m.user.click(button(wizardTexts.next));
          return;
        case 'user.verify':
          await enter(m.user, field(new RegExp(`^${forcedTexts.code}`)), String(event.code));
          await m.user.click(button(wizardTexts.verify));
          return;
        case 'user.resend':
          await m.user.click(button(forcedTexts.resendCode));
          return;
        case 'user.cancel':
          await clickCancel(m);
          return;
        case 'route.changed':
          await navigateTo(m, String(event.path));
          return;
        default:
          await act(() => m.api.answer(event));
      }
    };
  }

  describe(`${options.name}: ${paths.length} generated paths against the mounted page`, () => {
    afterEach(() => notifications.clean());
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(leafStates(machine.root).sort());
    });
    it.each(paths.map((path) => [path.description, path] as const))(
      '%s',
      async (_, path) => {
        const m = mount(
          machine,
          ['start', 'verify', 'resend', 'cancelChange'],
          `${model.route}/*`,
          options.page,
          coverage.inspect,
        );
        await runPath(m, path as never, checks(m), CODE_EVENT_TYPES, perform(m));
      },
      PATH_TIMEOUT_MS,
    );
  });
}

export const defineChangeEmailPaths = (coverage: MachineCoverage) =>
  defineCodeWizardPaths(coverage, {
    name: 'profile/change-email',
    machine: changeEmailMachine,
    model: codeWizardModels.changeEmail,
    page: <ChangeEmailPage />,
    heading: wizardTexts.headings.changeEmail,
    kind: 'email',
    toast: profileToasts.email,
  });

export const defineChangeMobilePaths = (coverage: MachineCoverage) =>
  defineCodeWizardPaths(coverage, {
    name: 'profile/change-mobile',
    machine: changeMobileMachine,
    model: codeWizardModels.changeMobile,
    page: <ChangeMobilePage />,
    heading: wizardTexts.headings.changeMobile,
    kind: 'mobile',
    toast: profileToasts.mobile,
  });

export const defineEnrolSmsPaths = (coverage: MachineCoverage) =>
  defineCodeWizardPaths(coverage, {
    name: 'profile/enrol-sms',
    machine: enrolSmsMachine,
    model: codeWizardModels.enrolSms,
    page: <EnrolSmsPage />,
    heading: wizardTexts.headings.enrolSms,
    kind: 'mobile',
    toast: profileToasts.enabledSms,
  });

// ---- Authenticator-app wizards -------------------------------------------------------------

const APP_EVENT_TYPES = [
  'user.next',
  'user.verify',
  'user.cancel',
  'route.changed',
  'xstate.done.actor.loadSetup',
  'xstate.error.actor.loadSetup',
  'xstate.done.actor.verify',
  'xstate.error.actor.verify',
];

function defineAppWizardPaths(
  coverage: MachineCoverage,
  options: {
    name: string;
    machine: AppWizardMachine;
    route: string;
    page: React.ReactNode;
    heading: string;
    toast: string;
    editing: boolean;
  },
) {
  const { machine, route, heading } = options;
  const paths = appWizardPaths(machine, route);

  function checks(m: Mounted): Record<string, (s: S) => Promise<void>> {
    const expectHeading = async () => {
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
      if (options.editing) expect(screen.getByText(wizardTexts.changeAppNotice)).toBeInTheDocument();
      else expect(screen.queryByText(wizardTexts.changeAppNotice)).toBeNull();
    };
    const expectVerification = async (s: S, busy: boolean) => {
      await expectHeading();
      await expectProgress(100);
      await waitFor(() => expect(m.router.state.location.pathname).toBe(`${route}/code-verification`));
      const submit = button(wizardTexts.verify);
      await waitFor(() =>
        busy
          ? expect(submit).toHaveAttribute('data-loading', 'true')
          : expect(submit).not.toHaveAttribute('data-loading'),
      );
      if (s.context.refusal)
        await waitFor(() =>
          expect(field(new RegExp(`^${forcedTexts.code}`))).toHaveAttribute('aria-invalid', 'true'),
        );
    };
    return {
      loading: async () => {
        await expectHeading();
        await m.api.waiting('loadSetup');
      },
      setup: async () => {
        await expectHeading();
        await expectProgress(50);
        expect(screen.getByTestId('setup-key')).toHaveTextContent(appSetup.setupKey);
        expect(screen.getByRole('img', { name: wizardTexts.qrCodeAlt })).toHaveAttribute(
          'src',
          appSetup.qrCode,
        );
        await waitFor(() => expect(m.router.state.location.pathname).toBe(route));
      },
      verification: (s) => expectVerification(s, false),
      verifying: async (s) => {
        await expectVerification(s, true);
        expect((await m.api.waiting('verify')).input).toEqual({
          code: CODE,
          currentPassword: CURRENT_PASSWORD,
        });
      },
      failed: (s) => expectFailedWizard(m, s, ['loadSetup']),
      saved: (s) => expectLanded(m, s.output as ProfileOutput, options.toast),
      cancelled: (s) => expectLanded(m, s.output as ProfileOutput, options.toast),
    };
  }

  function perform(m: Mounted) {
    return async (event: ModelEvent) => {
      switch (event.type) {
        case 'user.next':
          await m.user.click(button(wizardTexts.next));
          return;
        case 'user.verify':
          await enter(m.user, field(new RegExp(`^${forcedTexts.code}`)), String(event.code));
          await enter(m.user, field(/^Current password/), String(event.currentPassword));
          await m.user.click(button(wizardTexts.verify));
          return;
        case 'user.cancel':
          await clickCancel(m);
          return;
        case 'route.changed':
          await navigateTo(m, String(event.path));
          return;
        default:
          await act(() => m.api.answer(event));
      }
    };
  }

  describe(`${options.name}: ${paths.length} generated paths against the mounted page`, () => {
    afterEach(() => notifications.clean());
    it('has a check for every state', () => {
      expect(Object.keys(checks({} as Mounted)).sort()).toEqual(leafStates(machine.root).sort());
    });
    it.each(paths.map((path) => [path.description, path] as const))(
      '%s',
      async (_, path) => {
        const m = mount(machine, ['loadSetup', 'verify'], `${route}/*`, options.page, coverage.inspect);
        await runPath(m, path as never, checks(m), APP_EVENT_TYPES, perform(m));
      },
      PATH_TIMEOUT_MS,
    );
  });
}

export const defineEnrolAuthenticatorAppPaths = (coverage: MachineCoverage) =>
  defineAppWizardPaths(coverage, {
    name: 'profile/enrol-authenticator-app',
    machine: enrolAuthenticatorAppMachine,
    route: PROFILE_ROUTES.ENROL_AUTHENTICATOR_APP,
    page: <EnrolAuthenticatorAppPage />,
    heading: wizardTexts.headings.enrolAuthenticatorApp,
    toast: profileToasts.enabledApp,
    editing: false,
  });

export const defineChangeAuthenticatorAppPaths = (coverage: MachineCoverage) =>
  defineAppWizardPaths(coverage, {
    name: 'profile/change-authenticator-app',
    machine: changeAuthenticatorAppMachine,
    route: PROFILE_ROUTES.CHANGE_AUTHENTICATOR_APP,
    page: <ChangeAuthenticatorAppPage />,
    heading: wizardTexts.headings.changeAuthenticatorApp,
    toast: profileToasts.changedApp,
    editing: true,
  });

export { updatedUser };
