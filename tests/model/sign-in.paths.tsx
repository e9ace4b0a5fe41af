// Generated sign-in paths executed against the mounted sign-in page: Testing Library drives the
// form as a user would, the scripted fake API answers as each step of the path says, and each
// state is checked by what the user sees (and where the page went when the flow finished).
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signInMachine } from '../../machines/sign-in/sign-in.machine';
import type { SignInOutput } from '../../machines/sign-in/sign-in.types';
import { ANONYMOUS_USER } from '../../src/client/app/session';
import { previousSignInTexts } from '../../src/client/app/texts';
import { outsideFrameTexts } from '../../src/client/flows/sign-in/outside-frame.texts';
import { signInTexts } from '../../src/client/flows/sign-in/sign-in.texts';
import type { MachineCoverage } from './harness/coverage';
import { mountSignIn, type MountedSignIn } from './harness/sign-in-page';
import {
  signInPaths,
  type SignInModelEvent,
  type SignInModelEventType,
  type SignInSnapshot,
  withoutCaptchaDraw,
} from './sign-in.model';
import { enter } from './harness/user';

type Mounted = MountedSignIn;

/** A long path types several forms; two workers share the machine. */
const PATH_TIMEOUT_MS = 30_000;

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const signInButton = () => screen.getByRole('button', { name: signInTexts.submit });

async function expectStatus(text: string) {
  expect(await screen.findByText(text)).toHaveAttribute('role', 'status');
}

/** What the user sees on the form, as the model's context says it should be. */
async function expectForm(s: SignInSnapshot, { busy }: { busy: boolean }) {
  expect(await screen.findByRole('heading', { level: 1, name: signInTexts.heading })).toBeInTheDocument();
  expect(field(/^Username/)).toBeInTheDocument();
  expect(field(/^Password/)).toBeInTheDocument();
  expect(screen.getByRole('link', { name: signInTexts.registerLink })).toHaveAttribute(
    'href',
    '/registration',
  );
  expect(screen.getByRole('link', { name: signInTexts.problemsLink })).toHaveAttribute(
    'href',
    '/password-reset',
  );
  expect(screen.getByText(signInTexts.privacyStatement, { exact: false })).toBeInTheDocument();
  await waitFor(() => {
    if (busy) expect(signInButton()).toHaveAttribute('data-loading', 'true');
    else expect(signInButton()).not.toHaveAttribute('data-loading');
  });
  if (s.context.securityCodeRequired) {
    expect(field(/^Security code/)).toBeInTheDocument();
    // Section 7: GET /captcha.jpg?{timestamp}.
    expect(screen.getByRole('img', { name: signInTexts.captchaAlt })).toHaveAttribute(
      'src',
      expect.stringMatching(/^\/captcha\.jpg\?\d+$/),
    );
    expect(screen.getByRole('button', { name: signInTexts.refreshCaptcha })).toBeInTheDocument();
  } else {
    expect(screen.queryByLabelText(/^Security code/)).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: signInTexts.captchaAlt })).not.toBeInTheDocument();
  }
  const alert = screen.queryByRole('alert');
  if (s.context.refusal) {
    expect(alert).toHaveTextContent(s.context.refusal.message);
    for (const { fieldName, message } of s.context.refusal.fieldErrors) {
      // A field error shows on its field while the field is shown.
      if (fieldName === 'captchaCode' && s.context.securityCodeRequired) {
        const code = field(/^Security code/);
        expect(code).toHaveAttribute('aria-invalid', 'true');
        expect(code).toHaveAccessibleDescription(message);
      }
    }
  } else {
    expect(alert).toBeNull();
  }
}

async function expectProblem(heading: string, message: string | null) {
  expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  expect(screen.getByRole('alert')).toHaveTextContent(message ?? '');
  expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
}

async function expectLanded(m: Mounted, s: SignInSnapshot) {
  const output = s.output as SignInOutput;
  expect(await screen.findByTestId('landed-path')).toHaveTextContent(output.route);
  const state = JSON.parse(screen.getByTestId('landed-state').textContent ?? 'null') as Record<
    string,
    unknown
  > | null;
  const session = m.store.getState();
  switch (output.kind) {
    case 'signedIn':
      expect(session.currentUser).toEqual(output.currentUser);
      expect(session.targetPath).toBeNull();
      expect(session.adminTargetPath).toBeNull();
      expect(await screen.findByText(previousSignInTexts.title)).toBeInTheDocument();
      // The single-sign-on error page's app name is kept in the session (it survives a reload).
      expect(state).toBeNull();
      expect(session.singleSignOnAppName).toBe(output.singleSignOnAppName);
      expect(window.sessionStorage.getItem('portal.singleSignOnApp')).toBe(output.singleSignOnAppName);
      break;
    case 'forcedAction':
      expect(session.currentUser).toEqual(output.currentUser);
      expect(session.currentUser?.type).toBe('AUTHENTICATION_PENDING');
      expect(state).toEqual(
        output.smsUnavailableMessage ? { smsUnavailableMessage: output.smsUnavailableMessage } : null,
      );
      break;
    case 'sessionExpired':
      expect(session.currentUser).toEqual(ANONYMOUS_USER);
      break;
  }
}

/** Per state: what the user sees. Keys are the machine's atomic states. */
function stateChecks(m: Mounted, spies: Spies) {
  return {
    loadingFailedCount: async () => {
      await expectStatus(signInTexts.loading);
      expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
      const call = await m.api.waiting('getFailedAuthCount');
      expect(call.input).toEqual({});
    },
    form: (s: SignInSnapshot) => expectForm(s, { busy: false }),
    submitting: async (s: SignInSnapshot) => {
      await expectForm(s, { busy: true });
      const call = await m.api.waiting('login');
      const submitted = m.api.lastCall('login')?.input as Record<string, unknown>;
      expect(call.input).toBe(submitted);
      expect(JSON.stringify(s.context)).not.toContain(String(submitted.password));
    },
    recheckingFailedCount: async (s: SignInSnapshot) => {
      await expectForm(s, { busy: true });
      const call = await m.api.waiting('getFailedAuthCount');
      expect(call.input).toEqual({ username: s.context.refusal?.username });
    },
    unavailable: (s: SignInSnapshot) =>
      expectProblem(signInTexts.unavailableHeading, s.context.unavailableMessage),
    postingSaml: async (s: SignInSnapshot) => {
      const handoff = s.context.samlHandoff;
      await expectStatus(signInTexts.handingOff);
      const form = screen.getByTestId('saml-post-form');
      expect(form).toHaveAttribute('method', 'post');
      expect(form).toHaveAttribute('action', handoff?.assertionConsumerServiceUrl);
      const hidden = Object.fromEntries(
        [...form.querySelectorAll('input[type=hidden]')].map((i) => [
          i.getAttribute('name'),
          i.getAttribute('value'),
        ]),
      );
      expect(hidden).toEqual({ SAMLResponse: handoff?.samlResponse, RelayState: handoff?.relayState });
      await waitFor(() => expect(spies.formSubmit).toHaveBeenCalledTimes(1));
    },
    handingOffToParent: async () => {
      await expectStatus(signInTexts.handingOff);
      const done = [...m.api.calls].reverse().find((c) => c.src === 'login');
      expect(done).toBeDefined();
      await waitFor(() =>
        expect(spies.postMessage).toHaveBeenCalledWith(
          { type: 'jwt', jwt: 'header.payload.signature' },
          'https://treasury.example.com',
        ),
      );
    },
    jwtOutsideFrame: async () => {
      await expectProblem(outsideFrameTexts.heading, outsideFrameTexts.message);
      // The way back loads the page anew, so the session is read again.
      expect(screen.getByRole('link', { name: outsideFrameTexts.link })).toHaveAttribute(
        'href',
        '/profile/my-applications',
      );
      expect(spies.postMessage).not.toHaveBeenCalled();
    },
    'forcedAction.loadingUser': async () => {
      await expectStatus(signInTexts.signingIn);
      await m.api.waiting('getCurrentUser');
    },
    'forcedAction.startingMfa': async () => {
      await expectStatus(signInTexts.signingIn);
      await m.api.waiting('startMfa');
    },
    'directLogin.loadingUser': async () => {
      await expectStatus(signInTexts.signingIn);
      await m.api.waiting('getCurrentUser');
    },
    failed: (s: SignInSnapshot) => expectProblem(signInTexts.errorHeading, s.context.errorMessage),
    signedIn: (s: SignInSnapshot) => expectLanded(m, s),
    forwarded: (s: SignInSnapshot) => expectLanded(m, s),
    sessionExpired: (s: SignInSnapshot) => expectLanded(m, s),
  };
}

/** The transient state (left at once by its eventless transitions) has no view of its own. */
export const SIGN_IN_TRANSIENT_STATES = ['directLogin.choosingLanding'];

/** Every event type the model sends; typed so that a new one is a compile error until listed. */
const SIGN_IN_EVENT_TYPES = Object.keys({
  'user.submit': true,
  'user.refreshCaptcha': true,
  'route.changed': true,
  'xstate.done.actor.getFailedAuthCount': true,
  'xstate.error.actor.getFailedAuthCount': true,
  'xstate.done.actor.login': true,
  'xstate.error.actor.login': true,
  'xstate.done.actor.getCurrentUser': true,
  'xstate.error.actor.getCurrentUser': true,
  'xstate.done.actor.startMfa': true,
  'xstate.error.actor.startMfa': true,
} satisfies Record<SignInModelEventType, true>) as SignInModelEventType[];

/** Per event: what the user (or the server) does. */
function eventExecutors(m: Mounted) {
  const perform = async (event: SignInModelEvent) => {
    switch (event.type) {
      case 'user.submit': {
        const username = field(/^Username/);
        const password = field(/^Password/);
        await enter(m.user, username, event.username);
        await enter(m.user, password, event.password);
        if (event.captchaCode !== null) {
          const code = field(/^Security code/);
          await enter(m.user, code, event.captchaCode);
        }
        await m.user.click(signInButton());
        const sent = { username: event.username, password: event.password, captchaCode: event.captchaCode };
        await waitFor(() => expect(m.api.lastCall('login')?.input).toMatchObject(sent));
        return;
      }
      case 'user.refreshCaptcha': {
        const image = () => screen.getByRole('img', { name: signInTexts.captchaAlt }).getAttribute('src');
        const before = image();
        await m.user.click(screen.getByRole('button', { name: signInTexts.refreshCaptcha }));
        await waitFor(() => expect(image()).not.toBe(before));
        return;
      }
      case 'route.changed':
        // The header's Sign in link: an address change the machine did not make.
        await act(() => m.router.navigate(event.path));
        return;
      default:
        await act(() => m.api.answer(event));
    }
  };
  return perform;
}

interface Spies {
  formSubmit: ReturnType<typeof vi.fn>;
  postMessage: ReturnType<typeof vi.fn>;
}

export function defineSignInPaths(coverage: MachineCoverage): void {
  const paths = signInPaths();

  describe(`sign-in: ${paths.length} generated paths against the mounted page`, () => {
    let spies: Spies;
    beforeEach(() => {
      const formSubmit = vi.fn();
      const postMessage = vi.fn();
      vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(formSubmit);
      vi.spyOn(window, 'postMessage').mockImplementation(postMessage);
      spies = { formSubmit, postMessage };
    });
    afterEach(() => {
      notifications.clean();
      vi.restoreAllMocks();
    });

    it('has a check for every state the user can see', () => {
      const atomic = signInPaths()
        .flatMap(({ path }) => path.steps.map((step) => step.state))
        .flatMap((s) => s._nodes.filter((n) => n.type === 'atomic' || n.type === 'final'))
        .map((n) => n.path.join('.'));
      const checked = Object.keys(stateChecks({} as Mounted, {} as Spies));
      const all = new Set(
        Object.values(signInMachine.root.states).flatMap((n) =>
          Object.keys(n.states).length ? Object.keys(n.states).map((k) => `${n.key}.${k}`) : [n.key],
        ),
      );
      expect(new Set([...checked, ...SIGN_IN_TRANSIENT_STATES])).toEqual(all);
      for (const state of atomic) expect([...checked, ...SIGN_IN_TRANSIENT_STATES]).toContain(state);
    });

    it.each(
      paths.map(({ scenario, path }) => [`${scenario.name}: ${path.description}`, scenario, path] as const),
    )(
      '%s',
      async (_, scenario, path) => {
        const m = mountSignIn(scenario.input, coverage.inspect);
        const checks = stateChecks(m, spies);
        const perform = eventExecutors(m);
        // Before each state's own check: the page's actor is where the model says, same context
        // (but for the captcha image's number, which graph nodes leave out: see sign-in.model.ts).
        const states = Object.fromEntries(
          Object.entries(checks).map(([key, check]) => [
            key,
            async (s: SignInSnapshot) => {
              await waitFor(() => {
                expect(m.running()?.value).toEqual(s.value);
                expect(withoutCaptchaDraw(m.running()?.context)).toEqual(withoutCaptchaDraw(s.context));
              });
              await check(s);
            },
          ]),
        );
        const events = Object.fromEntries(
          SIGN_IN_EVENT_TYPES.map((type) => [
            type,
            (step: { event: unknown }) => perform(step.event as SignInModelEvent),
          ]),
        );
        await path.test({ states, events });
      },
      PATH_TIMEOUT_MS,
    );
  });
}
