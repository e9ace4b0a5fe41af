// The profile page's trusted-device calls over the real api layer and a fake fetch: the page's
// signal reaches the request, so leaving /profile aborts a Delete or Clear all still on its way
// and its late answer (a 500 or a 404 would navigate) is never acted on.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiFetch } from '../../src/client/api';
import { registerNavigator } from '../../src/client/app/navigation';
import { createActor, type AnyActorLogic } from 'xstate';
import {
  appWizardActors,
  changeMobileActors,
  profileCalls,
  profileFormActors,
} from '../../src/client/flows/profile/profile.actors';
import { fakeFetch, json } from './fixtures';

const navigate = vi.fn();
beforeEach(() => {
  navigate.mockReset();
  registerNavigator(navigate);
});
afterEach(() => setApiFetch(null));

describe('profile trusted-device calls', () => {
  it.each([
    ['Delete', (signal: AbortSignal) => profileCalls.deleteTrustedDevice('device-1', signal)],
    ['Clear all', (signal: AbortSignal) => profileCalls.clearTrustedDevices(signal)],
  ] as const)('%s sends the page signal: aborted, its late 500 navigates nowhere', async (_, call) => {
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    // Like a real fetch, an abort while waiting for the answer rejects the request.
    const fake = fakeFetch(async ({ signal }) => {
      await new Promise<void>((resolve, reject) => {
        void answered.then(resolve);
        signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      });
      return json({ message: 'Internal error' }, 500);
    });
    setApiFetch(fake.fetch);
    const page = new AbortController();
    const pending = call(page.signal);
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(fake.requests[0]!.signal.aborted).toBe(false);
    page.abort();
    expect(fake.requests[0]!.signal.aborted).toBe(true);
    release();
    await expect(pending).rejects.toThrow();
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('calls that give the session a new token', () => {
  // The server moves the session to a new token with a new password, a new authenticator app or a
  // verified mobile, and only the answer carries the new cookie: leaving the page must not abort
  // the request, or the change would be made and the session ended unseen.
  it.each([
    [
      'Change password',
      profileFormActors('changePassword').submit,
      { currentPassword: 'old', newPassword: 'New-Password-1', confirmNewPassword: 'New-Password-1' },
      '/rest/ui/profile/change-password',
    ],
    ['a new authenticator app', appWizardActors.verify, { currentPassword: 'pw', code: '123456' }, null],
    ['a verified mobile', changeMobileActors.verify, { code: '123456' }, null],
  ] as const)('%s: the request goes on when the page is left', async (_, logic, input, path) => {
    const fake = fakeFetch(() => new Promise<never>(() => {}));
    setApiFetch(fake.fetch);
    const actor = createActor(logic as AnyActorLogic, { input }).start();
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
    if (path) expect(fake.requests[0]!.url.pathname).toBe(path);
    actor.stop();
    expect(fake.requests[0]!.signal.aborted).toBe(false);
  });
});
