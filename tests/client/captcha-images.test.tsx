// Section 7's GET /captcha.jpg?{timestamp} on the three pages with a captcha: the query is the time
// the page asks for the image, nothing added to it, and a new image is a new address even when the
// clock has not moved (a refresh within the same millisecond).
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { passwordResetMachine } from '../../machines/password-reset/password-reset.machine';
import { PASSWORD_RESET_ROUTE } from '../../machines/routes';
import PasswordResetPage from '../../src/client/flows/password-reset/PasswordResetPage';
import { passwordResetTexts } from '../../src/client/flows/password-reset/password-reset.texts';
import { registrationTexts } from '../../src/client/flows/registration/registration.texts';
import { signInTexts } from '../../src/client/flows/sign-in/sign-in.texts';
import { users } from '../machines/continue-sign-in.fixtures';
import { QUESTIONS, refusals } from '../machines/password-reset.fixtures';
import { registrationFacts, startAnswers, typedStart } from '../machines/registration.fixtures';
import { counts, input } from '../machines/fixtures/sign-in.fixtures';
import { mountForcedPage } from '../model/harness/forced-pages';
import { mountRegistration } from './mount-registration';
import { mountSignIn } from '../model/harness/sign-in-page';
import { enter } from '../model/harness/user';
import { PASSWORD_RESET_SOURCES } from '../model/password-reset.paths';

const T = 1_760_000_000_000;
const LATER = T + 60_000;
const clock = () => vi.spyOn(Date, 'now');
const imageSrc = (alt: string) => screen.getByRole('img', { name: alt }).getAttribute('src');
const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('captcha images (section 7: GET /captcha.jpg?{timestamp})', { timeout: 30_000 }, () => {
  it('sign-in: each refresh asks with the time of asking, a new address within the same millisecond', async () => {
    clock().mockReturnValue(T);
    const m = mountSignIn(input);
    await act(() => m.api.answer({ type: 'xstate.done.actor.getFailedAuthCount', output: counts.threshold }));
    const alt = signInTexts.captchaAlt;
    expect(await screen.findByRole('img', { name: alt })).toHaveAttribute(
      'src',
      expect.stringMatching(/^\/captcha\.jpg\?\d+$/),
    );

    clock().mockReturnValue(LATER);
    await m.user.click(screen.getByRole('button', { name: signInTexts.refreshCaptcha }));
    await waitFor(() => expect(imageSrc(alt)).toBe(`/captcha.jpg?${LATER}`));
    // The clock has not moved: one past the last, not the same address again.
    await m.user.click(screen.getByRole('button', { name: signInTexts.refreshCaptcha }));
    await waitFor(() => expect(imageSrc(alt)).toBe(`/captcha.jpg?${LATER + 1}`));
  });

  it('password reset: the image after a refused start asks with the time of the refusal', async () => {
    clock().mockReturnValue(T);
    const m = mountForcedPage({
      machine: passwordResetMachine,
      sources: PASSWORD_RESET_SOURCES,
      route: `${PASSWORD_RESET_ROUTE}/*`,
      entry: PASSWORD_RESET_ROUTE,
      page: <PasswordResetPage />,
      user: users.customer,
      context: null,
    });
    await act(() => m.store.ready());
    await act(() =>
      m.api.answer({
        type: 'xstate.done.actor.loadAvailability',
        output: { authEnabled: true, questions: QUESTIONS },
      }),
    );
    const alt = passwordResetTexts.start.captchaAlt;
    expect(await screen.findByRole('img', { name: alt })).toHaveAttribute('src', `/captcha.jpg?${T}`);

    await enter(m.user, field(/^Email/), 'c10001@example.com');
    await enter(m.user, field(/^Security code/), 'WRONG');
    await m.user.click(screen.getByRole('button', { name: passwordResetTexts.start.submit }));
    await m.api.waiting('startReset');
    clock().mockReturnValue(LATER);
    await act(() => m.api.answer({ type: 'xstate.done.actor.startReset', output: refusals.captcha }));
    await waitFor(() => expect(imageSrc(alt)).toBe(`/captcha.jpg?${LATER}`));

    await m.user.click(screen.getByRole('button', { name: passwordResetTexts.start.refreshCaptcha }));
    await waitFor(() => expect(imageSrc(alt)).toBe(`/captcha.jpg?${LATER + 1}`));
  });

  it('registration: the timestamp alone, and after a refused start the time of the refusal', async () => {
    clock().mockReturnValue(T);
    const { m, answer } = mountRegistration();
    await answer('prepareRegistration', registrationFacts.gatewayUp);
    const alt = registrationTexts.start.captchaAlt;
    expect(await screen.findByRole('img', { name: alt })).toHaveAttribute('src', `/captcha.jpg?${T}`);

    await enter(m.user, field(/^Email/), typedStart.email);
    await enter(m.user, field(/^Invitation code/), typedStart.inviteCode);
    await enter(m.user, field(/^Security code/), typedStart.captchaCode);
    await m.user.click(screen.getByRole('button', { name: registrationTexts.start.submit }));
    await m.api.waiting('startRegistration');
    clock().mockReturnValue(LATER);
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.startRegistration', output: startAnswers.invalidInvitation }),
    );
    await waitFor(() => expect(imageSrc(alt)).toBe(`/captcha.jpg?${LATER}`));

    await m.user.click(screen.getByRole('button', { name: registrationTexts.start.refreshCaptcha }));
    await waitFor(() => expect(imageSrc(alt)).toBe(`/captcha.jpg?${LATER + 1}`));
  });
});
