// Section 7: POST anonymous/password-reset/start carries the email, the captcha code and the
// context fields except realmCode and showInHeader: the page gives the machine the session's
// context, and start sends its app code and type (nothing more without a context).
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { passwordResetMachine } from '../../machines/password-reset/password-reset.machine';
import { PASSWORD_RESET_ROUTE } from '../../machines/routes';
import PasswordResetPage from '../../src/client/flows/password-reset/PasswordResetPage';
import { passwordResetTexts as t } from '../../src/client/flows/password-reset/password-reset.texts';
import type { Context } from '../../src/contract/entities';
import { users } from '../machines/continue-sign-in.fixtures';
import { QUESTIONS } from '../machines/password-reset.fixtures';
import { mountForcedPage } from '../model/harness/forced-pages';
import { enter } from '../model/harness/user';
import { PASSWORD_RESET_SOURCES } from '../model/password-reset.paths';

const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });

async function startWith(context: Context | null) {
  const m = mountForcedPage({
    machine: passwordResetMachine,
    sources: PASSWORD_RESET_SOURCES,
    route: `${PASSWORD_RESET_ROUTE}/*`,
    entry: PASSWORD_RESET_ROUTE,
    page: <PasswordResetPage />,
    user: users.customer,
    context,
  });
  // The page waits for the session's first load, which brings the context.
  await act(() => m.store.ready());
  await act(() =>
    m.api.answer({
      type: 'xstate.done.actor.loadAvailability',
      output: { authEnabled: true, questions: QUESTIONS },
    }),
  );
  await enter(m.user, await screen.findByLabelText(/^Email/, { selector: 'input' }), 'c10001@example.com');
  await enter(m.user, input(/^Security code/), 'E2E42');
  await m.user.click(screen.getByRole('button', { name: t.start.submit }));
  return (await m.api.waiting('startReset')).input;
}

describe('/password-reset start', { timeout: 30_000 }, () => {
  it("sends the session context's app code and type, not its realm code or showInHeader", async () => {
    expect(
      await startWith({ appCode: 'LOANS', realmCode: 'RETAIL', showInHeader: true, type: 'SAML' }),
    ).toEqual({ email: 'c10001@example.com', captchaCode: 'E2E42', appCode: 'LOANS', type: 'SAML' });
  });

  it('sends only the email and code without a context', async () => {
    expect(await startWith(null)).toEqual({ email: 'c10001@example.com', captchaCode: 'E2E42' });
  });
});
