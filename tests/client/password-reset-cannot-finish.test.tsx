// Password reset of an account whose only second factor is SMS while the SMS gateway is down: the
// server refuses the new password (422, SMS_ONLY_UNAVAILABLE_MESSAGE), so the set-password step
// says so at once instead of a form. The real app, its routes and the wizard's actors, over a fake
// fetch: the step's heading takes the focus and titles the document, the message is an alert, no
// password field is drawn, nothing is submitted, and the link goes back to the sign-in page.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PASSWORD_RESET_ROUTE, PASSWORD_RESET_STEPS, SIGN_IN_ROUTE } from '../../machines/routes';
import { setApiFetch } from '../../src/client/api';
import { shellTexts } from '../../src/client/app/texts';
import { passwordResetTexts as t } from '../../src/client/flows/password-reset/password-reset.texts';
import { SMS_ONLY_UNAVAILABLE_MESSAGE, type PasswordResetDetails } from '../../src/contract/reset';
import { details, QUESTIONS, RESET_EMAIL } from '../machines/password-reset.fixtures';
import { contexts, fakeFetch, json, users } from './fixtures';
import { renderApp } from './render';

vi.mock('../../src/client/flows/sign-in/SignInPage', () => ({
  default: () => <h1>Sign in page</h1>,
}));

afterEach(() => setApiFetch(null));

const RESET_API = '/rest/ui/anonymous/password-reset';
const SET_PASSWORD_PATH = `${PASSWORD_RESET_ROUTE}/${PASSWORD_RESET_STEPS.SET_PASSWORD}`;

/** The server as far as the email code: it answers the code with these details. */
function serverAnswering(resetDetails: PasswordResetDetails) {
  const fake = fakeFetch((r) => {
    const path = r.url.pathname;
    if (path === '/rest/ui/logout') return json(null, 204);
    if (path === '/rest/ui/anonymous/context') return json(contexts.portal);
    if (path.endsWith('/auth-enabled')) return json(true);
    if (path.startsWith('/rest/ui/anonymous/enums/')) return json(QUESTIONS);
    if (path === `${RESET_API}/start`) return json(null, 204);
    if (path === `${RESET_API}/verify-email`) return json(resetDetails);
    return json({ message: `not scripted: ${r.method} ${path}` }, 500);
  });
  setApiFetch(fake.fetch);
  return fake.requests;
}

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });

/** Get started and the email code, as the user does them; the wizard then routes on the details. */
async function throughTheEmailCode(resetDetails: PasswordResetDetails) {
  const requests = serverAnswering(resetDetails);
  const user = userEvent.setup();
  const app = renderApp({ user: users.anonymous, path: PASSWORD_RESET_ROUTE });
  await user.type(
    await screen.findByLabelText(/^Email/, { selector: 'input' }, { timeout: 5000 }),
    RESET_EMAIL,
  );
  await user.type(field(/^Security code/), 'E2E42');
  await user.click(screen.getByRole('button', { name: t.start.submit }));
  await user.type(await screen.findByLabelText(/^Verification code/, { selector: 'input' }), '482913');
  await user.click(screen.getByRole('button', { name: t.emailVerification.submit }));
  await waitFor(() => expect(app.router.state.location.pathname).toBe(SET_PASSWORD_PATH));
  return { ...app, user, requests };
}

describe(
  'set-password when SMS is the only second factor and the gateway is down',
  { timeout: 30_000 },
  () => {
    it('says at once that the reset cannot be finished: no password fields, nothing submitted', async () => {
      const { requests } = await throughTheEmailCode(details.smsOnlyDown);
      const main = within(screen.getByRole('main'));

      // The step's heading, with the focus and in the document title, as on any step.
      const heading = await main.findByRole('heading', { level: 2, name: t.cannotFinish.title });
      await waitFor(() => expect(heading).toHaveFocus());
      expect(main.getByRole('heading', { level: 1, name: t.heading })).toBeInTheDocument();
      await waitFor(() =>
        expect(document.title).toBe(shellTexts.documentTitle(`${t.cannotFinish.title} - ${t.heading}`)),
      );

      // The server's own words, announced; the SMS banner does not say it twice.
      expect(main.getByRole('alert')).toHaveTextContent(SMS_ONLY_UNAVAILABLE_MESSAGE);
      expect(t.cannotFinish.message).toBe(SMS_ONLY_UNAVAILABLE_MESSAGE);
      expect(main.queryByText(t.smsUnavailableTitle)).toBeNull();

      // No form to fill in for nothing.
      expect(main.queryByLabelText(/^New password/)).toBeNull();
      expect(main.queryByLabelText(/^Confirm new password/)).toBeNull();
      expect(main.queryByRole('button', { name: t.setPassword.submit })).toBeNull();
      expect(main.queryByRole('progressbar')).toBeNull();
      expect(requests.map((r) => r.url.pathname)).not.toContain(`${RESET_API}/submit`);
      expect(requests.map((r) => r.url.pathname)).not.toContain(`${RESET_API}/send-sms`);
    });

    it('its link goes back to the sign-in page', async () => {
      const { user, router } = await throughTheEmailCode(details.smsOnlyDown);
      const main = within(screen.getByRole('main'));
      const link = await main.findByRole('link', { name: t.cannotFinish.signIn });
      expect(link).toHaveAttribute('href', SIGN_IN_ROUTE);
      await user.click(link);
      await waitFor(() => expect(router.state.location.pathname).toBe(SIGN_IN_ROUTE));
      expect(await screen.findByRole('heading', { level: 1, name: 'Sign in page' })).toBeInTheDocument();
    });
  },
);
