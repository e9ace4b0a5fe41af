// A JWT application's sign-in (section 4.1: the token is posted to the parent frame) opened in a tab
// of its own: the parent is the page itself, so nothing would take the token and 'Handing off' would
// spin for ever. The page posts nothing then, says what happened and offers the way back.
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APPLICATIONS_ROUTE } from '../../machines/routes';
import { outsideFrameTexts } from '../../src/client/flows/sign-in/outside-frame.texts';
import { signInTexts as t } from '../../src/client/flows/sign-in/sign-in.texts';
import { counts, credentials, input, loginResults } from '../machines/fixtures/sign-in.fixtures';
import { mountSignIn } from '../model/harness/sign-in-page';

afterEach(() => vi.restoreAllMocks());

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });

async function signInToJwtApp(insideFrame: boolean) {
  const postMessage = vi.spyOn(window, 'postMessage').mockImplementation(() => {});
  const m = mountSignIn({ ...input, context: { ...input.context!, type: 'JWT' }, insideFrame });
  await act(() => m.api.answer({ type: 'xstate.done.actor.getFailedAuthCount', output: counts.none }));
  await m.user.type(await screen.findByLabelText(/^Username/, { selector: 'input' }), credentials.username);
  await m.user.type(field(/^Password/), credentials.password);
  await m.user.click(screen.getByRole('button', { name: t.submit }));
  await m.api.waiting('login');
  await act(() => m.api.answer({ type: 'xstate.done.actor.login', output: loginResults.jwtHandoff }));
  return { m, postMessage };
}

describe('a JWT outcome', () => {
  it('in a tab of its own: nothing is posted; an error with the way back, not an endless spinner', async () => {
    const { m, postMessage } = await signInToJwtApp(false);
    const heading = await screen.findByRole('heading', { level: 1, name: outsideFrameTexts.heading });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByRole('alert')).toHaveTextContent(outsideFrameTexts.message);
    // A full load of the applications page: the session is read again (signed in: the
    // applications; otherwise sign-in).
    expect(screen.getByRole('link', { name: outsideFrameTexts.link })).toHaveAttribute(
      'href',
      APPLICATIONS_ROUTE,
    );
    expect(screen.queryByText(t.handingOff)).toBeNull();
    expect(postMessage).not.toHaveBeenCalled();
    expect(m.running()?.value).toBe('jwtOutsideFrame');
  });

  it("in a tab of its own: the header's Sign in link (an address change to /) shows the form again", async () => {
    const { m } = await signInToJwtApp(false);
    await screen.findByRole('heading', { level: 1, name: outsideFrameTexts.heading });
    await act(() => m.router.navigate('/'));
    await act(() => m.api.answer({ type: 'xstate.done.actor.getFailedAuthCount', output: counts.none }));
    expect(await screen.findByRole('heading', { level: 1, name: t.heading })).toBeInTheDocument();
  });

  it("inside the application's frame: posted to the parent at the exact origin, 'Handing off'", async () => {
    const { postMessage } = await signInToJwtApp(true);
    expect(await screen.findByText(t.handingOff)).toHaveAttribute('role', 'status');
    expect(postMessage).toHaveBeenCalledWith(
      { type: 'jwt', jwt: 'header.payload.signature' },
      'https://treasury.example.com',
    );
    expect(screen.queryByRole('heading', { level: 1, name: outsideFrameTexts.heading })).toBeNull();
  });
});
