// Browser Back and Forward in the password reset wizard (sections 2.4, 4.5): the real app, its
// routes and the wizard's actors over a fake fetch (fields filled as the path tests do: clear, paste).
// - Back while the new password is being submitted is not acted on: the request is not aborted,
//   the address comes back to set-password, and the answer ends the reset with its success message.
// - Back and Forward through the SMS step do not send another SMS; Resend still does.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PASSWORD_RESET_ROUTE, PASSWORD_RESET_STEPS } from '../../machines/routes';
import { setApiFetch } from '../../src/client/api';
import { passwordResetTexts as t } from '../../src/client/flows/password-reset/password-reset.texts';
import type { PasswordResetDetails } from '../../src/contract/reset';
import { details, NEW_PASSWORD, QUESTIONS, RESET_EMAIL } from '../machines/password-reset.fixtures';
import { contexts, fakeFetch, json, users, type FakeAnswer } from './fixtures';
import { renderApp } from './render';
import { enter } from '../model/harness/user';

vi.mock('../../src/client/flows/sign-in/SignInPage', () => ({
  default: () => <h1>Sign in page</h1>,
}));

afterEach(() => setApiFetch(null));

const RESET_API = '/rest/ui/anonymous/password-reset';
const R = PASSWORD_RESET_STEPS;
const at = (step: string) => `${PASSWORD_RESET_ROUTE}/${step}`;

/**
 * The server of a reset whose email code answers `resetDetails`; `submit` answers the new password
 * (held by the test when given a promise).
 */
function server(resetDetails: PasswordResetDetails, submit: () => Promise<FakeAnswer> | FakeAnswer) {
  const fake = fakeFetch((r) => {
    const path = r.url.pathname;
    if (path === '/rest/ui/logout') return json(null, 204);
    if (path === '/rest/ui/anonymous/context') return json(contexts.portal);
    if (path.endsWith('/auth-enabled')) return json(true);
    if (path.startsWith('/rest/ui/anonymous/enums/')) return json(QUESTIONS);
    if (path === `${RESET_API}/start`) return json(null, 204);
    if (path === `${RESET_API}/verify-email`) return json(resetDetails);
    if (path === `${RESET_API}/verify-authenticator-app`) return json(null, 204);
    if (path === `${RESET_API}/send-sms`) return json(null, 204);
    if (path === `${RESET_API}/submit`) return submit();
    return json({ message: `not scripted: ${r.method} ${path}` }, 500);
  });
  setApiFetch(fake.fetch);
  return fake.requests;
}

/** The machine's steps may take a while on a busy machine. */
const SOON = { timeout: 10_000 };

/** The step's heading has taken the focus (as each step does on entry): its fields can be typed in. */
async function stepShown(title: string) {
  const heading = await within(screen.getByRole('main')).findByRole(
    'heading',
    { level: 2, name: title },
    SOON,
  );
  await waitFor(() => expect(heading).toHaveFocus(), SOON);
}

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });

/**
 * Fills a field as the path tests do (clear, paste), again if the shell's move of the focus to a new
 * step's heading (for 5 s after a route change) took the paste away from it.
 */
async function fill(user: ReturnType<typeof userEvent.setup>, label: RegExp, text: string) {
  await waitFor(async () => {
    await enter(user, field(label), text);
    expect(field(label)).toHaveValue(text);
  }, SOON);
}

/** Get started and the email code, as the user does them; the wizard then routes on the details. */
async function throughTheEmailCode(
  resetDetails: PasswordResetDetails,
  submit: () => Promise<FakeAnswer> | FakeAnswer = () => json(null, 204),
) {
  const requests = server(resetDetails, submit);
  const user = userEvent.setup();
  const app = renderApp({ user: users.anonymous, path: PASSWORD_RESET_ROUTE });
  await screen.findByLabelText(/^Email/, { selector: 'input' }, SOON);
  await fill(user, /^Email/, RESET_EMAIL);
  await fill(user, /^Security code/, 'E2E42');
  await user.click(screen.getByRole('button', { name: t.start.submit }));
  await stepShown(t.emailVerification.title);
  await fill(user, /^Verification code/, '482913');
  await user.click(screen.getByRole('button', { name: t.emailVerification.submit }));
  const sent = (path: string) => requests.filter((r) => r.url.pathname === `${RESET_API}/${path}`);
  return { ...app, user, requests, sent };
}

describe('password reset: browser Back and Forward', { timeout: 30_000 }, () => {
  it('Back while the new password is submitted: not aborted, the address comes back, the reset ends', async () => {
    let answerSubmit: (answer: FakeAnswer) => void = () => {};
    const held = new Promise<FakeAnswer>((resolve) => (answerSubmit = resolve));
    const { user, router, sent } = await throughTheEmailCode(details.appAndQuestions, () => held);
    const main = () => within(screen.getByRole('main'));

    // The authenticator app code, then the new password.
    await stepShown(t.authenticatorApp.title);
    expect(router.state.location.pathname).toBe(at(R.AUTHENTICATOR_APP_VERIFICATION));
    await fill(user, /^Verification code/, '774411');
    await user.click(main().getByRole('button', { name: t.authenticatorApp.submit }));
    await stepShown(t.setPassword.title);
    await fill(user, /^New password/, NEW_PASSWORD);
    await fill(user, /^Confirm new password/, NEW_PASSWORD);
    await user.click(main().getByRole('button', { name: t.setPassword.submit }));
    await waitFor(() => expect(sent('submit')).toHaveLength(1), SOON);

    // Back, to the factor step, while the server works on it.
    await act(() => router.navigate(-1));
    await waitFor(() => expect(router.state.location.pathname).toBe(at(R.SET_PASSWORD)), SOON);
    expect(main().getByRole('heading', { level: 2, name: t.setPassword.title })).toBeInTheDocument();
    expect(main().queryByRole('heading', { level: 2, name: t.authenticatorApp.title })).toBeNull();
    expect(sent('submit')[0]!.signal.aborted).toBe(false);

    // The password was reset: the user is told so, and signs in.
    answerSubmit(json(null, 204));
    expect(await screen.findByText(t.done, {}, SOON)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in page' }, SOON)).toBeInTheDocument();
    expect(sent('submit')).toHaveLength(1);
  });

  it('Back and Forward through the SMS step send no other SMS; Resend still sends one', async () => {
    const { user, router, sent } = await throughTheEmailCode(details.all);
    const main = () => within(screen.getByRole('main'));

    await waitFor(
      () => expect(router.state.location.pathname).toBe(at(R.AUTHENTICATOR_APP_VERIFICATION)),
      SOON,
    );
    await user.click(await main().findByRole('button', { name: t.skip }, SOON));
    await waitFor(() => expect(router.state.location.pathname).toBe(at(R.SMS_VERIFICATION)), SOON);
    await waitFor(() => expect(main().getByRole('button', { name: t.resendCode })).toBeEnabled(), SOON);
    expect(sent('send-sms')).toHaveLength(1);

    for (let pass = 0; pass < 3; pass++) {
      await act(() => router.navigate(-1));
      expect(
        await main().findByRole('heading', { level: 2, name: t.authenticatorApp.title }, SOON),
      ).toBeInTheDocument();
      await act(() => router.navigate(1));
      expect(await main().findByRole('heading', { level: 2, name: t.sms.title }, SOON)).toBeInTheDocument();
      expect(router.state.location.pathname).toBe(at(R.SMS_VERIFICATION));
    }
    expect(sent('send-sms')).toHaveLength(1);

    // The code is still the one sent: the link to send another is there and works.
    const resend = main().getByRole('button', { name: t.resendCode });
    expect(resend).toBeEnabled();
    await user.click(resend);
    expect(await screen.findByText(t.resent('sms'), {}, SOON)).toBeInTheDocument();
    expect(sent('send-sms')).toHaveLength(2);
  });
});
