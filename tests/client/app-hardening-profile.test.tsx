// /profile's own calls against the real api layer (a fake fetch behind it): a refused trusted-device
// change (422 with field errors, 429) is shown as an alert with the server's words and takes the
// focus; leaving the page cancels a change or the 'Sign out of all devices' list under way, and a
// late answer then neither navigates (section 8's /error, /not-found) nor reports anything.
import { act, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { profileFormMachine } from '../../machines/profile/profile-form/profile-form.machine';
import { PROFILE_ROUTE } from '../../machines/routes';
import { getAccessibleApps, setApiFetch } from '../../src/client/api';
import { clearTrustedDevices, deleteTrustedDevice } from '../../src/client/api/profile';
import { registerNavigator } from '../../src/client/app/navigation';
import { onNotice, type Notice } from '../../src/client/app/notices';
import { ProfileCallsContext, type ProfileCalls } from '../../src/client/flows/profile/profile-calls-context';
import { profileToasts } from '../../src/client/flows/profile/profile.texts';
import ProfilePage from '../../src/client/pages/ProfilePage';
import { profileTexts as t, signOutAllTexts } from '../../src/client/pages/profile.texts';
import type { TrustedDevice } from '../../src/contract/profile';
import { users } from '../machines/continue-sign-in.fixtures';
import { mountForcedPage } from '../model/harness/forced-pages';
import { fakeFetch, json, type FakeAnswer, type SentRequest } from './fixtures';

const chrome: TrustedDevice = {
  id: 'd1',
  browser: { family: 'Chrome', versionMajor: '126', versionMinor: '0' },
  operatingSystem: { family: 'Windows', version: '10' },
  city: 'Sydney',
  country: 'Australia',
  continent: 'Oceania',
  lastActiveDate: '2026-03-02T09:00:00Z',
};

/** The server, one answer per request as the test gives it; an aborted request rejects as fetch's does. */
function scriptedServer() {
  const pending: Array<{ request: SentRequest; answer: (a: FakeAnswer) => void }> = [];
  const fake = fakeFetch(
    (request) =>
      new Promise<FakeAnswer>((resolve, reject) => {
        pending.push({ request, answer: resolve });
        request.signal.addEventListener('abort', () =>
          reject(new DOMException('The operation was aborted.', 'AbortError')),
        );
      }),
  );
  setApiFetch(fake.fetch);
  return {
    requests: fake.requests,
    /** Waits for a request to `path`, then answers it. */
    async answer(path: string, answer: FakeAnswer) {
      await waitFor(() => expect(pending.map((p) => p.request.url.pathname)).toContain(path));
      const index = pending.findIndex((p) => p.request.url.pathname === path);
      const [call] = pending.splice(index, 1);
      await act(async () => call!.answer(answer));
    },
    waiting: (path: string) =>
      waitFor(() => expect(pending.map((p) => p.request.url.pathname)).toContain(path)),
    signalOf: (path: string) => pending.find((p) => p.request.url.pathname === path)!.request.signal,
  };
}

/** The page's calls: the facts from here, the changes and the list through the real api with its signal. */
const calls: Partial<ProfileCalls> = {
  loadFacts: async () => ({ factors: [], devices: [chrome], period: 7 }),
  deleteTrustedDevice: (id: string, signal?: AbortSignal) => deleteTrustedDevice(id, { signal }),
  clearTrustedDevices: (signal?: AbortSignal) => clearTrustedDevices({ signal }),
  accessibleApps: (signal: AbortSignal) => getAccessibleApps({ signal }),
  signOutOfAllDevices: async () => null,
};

function mount() {
  return mountForcedPage({
    machine: profileFormMachine,
    sources: [],
    route: PROFILE_ROUTE,
    entry: PROFILE_ROUTE,
    page: (
      <ProfileCallsContext.Provider value={calls as ProfileCalls}>
        <ProfilePage />
      </ProfileCallsContext.Provider>
    ),
    user: users.customer,
  });
}

const navigate = vi.fn();
let notices: Notice[] = [];
let stopNotices = () => {};
beforeEach(() => {
  navigate.mockReset();
  registerNavigator(navigate);
  notices = [];
  stopNotices = onNotice((n) => notices.push(n));
});
afterEach(() => {
  // A toast left from the last test (role alert) must not pass for this one's alert.
  act(() => notifications.clean());
  stopNotices();
  setApiFetch(null);
  registerNavigator(null);
});

const deleteButton = () =>
  screen.findByRole('button', { name: t.deleteDeviceLabel('Chrome 126.0, Windows 10') });
const DELETE_PATH = '/rest/ui/profile/trusted-devices/d1';
const CLEAR_PATH = '/rest/ui/profile/trusted-devices/clear';

describe('a refused trusted-device change', () => {
  it('422 on Delete: the message and its field errors in an alert that has the focus; nothing else', async () => {
    const server = scriptedServer();
    const m = mount();
    await m.user.click(await deleteButton());
    await server.answer(
      DELETE_PATH,
      json(
        {
          message: 'This device could not be removed.',
          errors: [{ fieldName: 'id', message: 'This device is the one you are using now.' }],
        },
        422,
      ),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(t.trustedDevicesNotChanged);
    expect(alert).toHaveTextContent('This device could not be removed.');
    expect(alert).toHaveTextContent('This device is the one you are using now.');
    await waitFor(() => expect(alert).toHaveFocus());
    expect(await deleteButton()).toBeEnabled();
    expect(notices).toEqual([]);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('429 on Clear all: the server’s message; trying again clears the alert', async () => {
    const server = scriptedServer();
    const m = mount();
    await m.user.click(await screen.findByRole('button', { name: t.clearAll }));
    await server.answer(CLEAR_PATH, json({ message: 'Too many requests. Try again in a minute.' }, 429));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Try again in a minute.');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
    await m.user.click(screen.getByRole('button', { name: t.clearAll }));
    expect(screen.queryByRole('alert')).toBeNull();
    await server.answer(CLEAR_PATH, json(null));
    await waitFor(() =>
      expect(notices).toContainEqual({ message: profileToasts.clearedTrustedDevices, tone: 'success' }),
    );
  });

  it('an answer section 8 handles (500) goes to /error and shows no alert of its own', async () => {
    const server = scriptedServer();
    const m = mount();
    await m.user.click(await deleteButton());
    await server.answer(DELETE_PATH, json({ message: 'Internal error' }, 500));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/error', {}));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(await deleteButton()).toBeEnabled();
  });
});

describe('leaving /profile', () => {
  /** A second for a late answer to be acted on, were it not cancelled. */
  const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

  it.each([
    ['Delete', DELETE_PATH, 500, 'would go to /error'],
    ['Delete', DELETE_PATH, 404, 'would tell of a device deleted'],
    ['Clear all', CLEAR_PATH, 404, 'would go to /not-found'],
    ['Clear all', CLEAR_PATH, 422, 'would be a refusal'],
  ])('with %s under way: cancelled; a late %s (%s) changes nothing', async (_, path, status) => {
    const server = scriptedServer();
    const m = mount();
    if (path === DELETE_PATH) await m.user.click(await deleteButton());
    else await m.user.click(await screen.findByRole('button', { name: t.clearAll }));
    await server.waiting(path);
    const signal = server.signalOf(path);
    await act(() => m.router.navigate('/profile/change-name'));
    expect(await screen.findByTestId('landed-path')).toHaveTextContent('/profile/change-name');
    expect(signal.aborted).toBe(true);
    await server.answer(path, json({ message: 'Late answer' }, status));
    await settle();
    expect(navigate).not.toHaveBeenCalled();
    expect(notices).toEqual([]);
  });

  it('with the applications of Sign out of all devices loading: cancelled; a late 500 changes nothing', async () => {
    const server = scriptedServer();
    const m = mount();
    await m.user.click(await screen.findByRole('button', { name: t.signOutAll }));
    const dialog = await screen.findByRole('dialog', { name: signOutAllTexts.title });
    expect(within(dialog).getByText(signOutAllTexts.loadingApps)).toBeInTheDocument();
    const APPS_PATH = '/rest/ui/current-user/accessible-apps';
    await server.waiting(APPS_PATH);
    const signal = server.signalOf(APPS_PATH);
    await act(() => m.router.navigate('/profile/change-name'));
    expect(await screen.findByTestId('landed-path')).toHaveTextContent('/profile/change-name');
    expect(signal.aborted).toBe(true);
    await server.answer(APPS_PATH, json({ message: 'Late answer' }, 500));
    await settle();
    expect(navigate).not.toHaveBeenCalled();
  });
});
