// Section 8's server-given addresses (a 401's `url`, a 422's `reroute`) are followed only to this
// origin's pages: anything else (another origin, javascript:, data:, blob:, a path the browser reads
// as another host) goes to the sign-in page, where a 401 without a url goes, and never reaches the
// browser as it is.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  getAccessibleApps,
  getCurrentUser,
  globalActionFor,
  setApiFetch,
} from '../../src/client/api';
import { navigateTo, registerNavigator, toAppPath } from '../../src/client/app/navigation';
import { onNotice, type Notice } from '../../src/client/app/notices';
import { ANONYMOUS_USER, sessionStore } from '../../src/client/app/session/session-store';
import { SESSION_EXPIRED_MESSAGE } from '../../src/contract/errors';
import { sessionCalls } from '../../src/contract/session';
import { fakeFetch, json, users } from './fixtures';

const navigate = vi.fn();
let notices: Notice[] = [];
let stopNotices: () => void = () => {};

beforeEach(() => {
  navigate.mockReset();
  registerNavigator(navigate);
  notices = [];
  stopNotices = onNotice((notice) => notices.push(notice));
});

afterEach(() => {
  stopNotices();
  setApiFetch(null);
  registerNavigator(null);
  sessionStore.clear();
});

const origin = window.location.origin;

/** Addresses a compromised or misconfigured server could give, none of them a page of the portal. */
const UNSAFE = [
  'javascript:alert(document.cookie)',
  ' JavaScript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  `blob:${origin}/4b1b4a43-2b55-4bd5-8f3b-0a9a7d1e4c11`,
  'https://phishing.example.com/sign-in',
  'http://phishing.example.com',
  '//phishing.example.com/sign-in',
  '/\\phishing.example.com/sign-in',
  '\\\\phishing.example.com',
  'http://[::1',
];

function answerWith(status: number, body: Record<string, unknown>) {
  setApiFetch(fakeFetch(() => json(body, status)).fetch);
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("a 401's url", () => {
  it.each(UNSAFE)('%s: goes to the sign-in page instead, after the usual notice', async (url) => {
    sessionStore.setCurrentUser(users.customer);
    answerWith(401, { message: 'Unauthorised', url });
    const error = await failureOf(getAccessibleApps());
    expect(error).toMatchObject({ status: 401, handled: true });
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/', {});
    expect(notices).toEqual([{ message: SESSION_EXPIRED_MESSAGE, tone: 'warning' }]);
    expect(sessionStore.getState().currentUser).toBe(ANONYMOUS_USER);
  });

  it('a page of this origin, as a path or an absolute URL, is followed in the app', async () => {
    answerWith(401, { message: 'Unauthorised', url: '/?expired=1#top' });
    await failureOf(getAccessibleApps());
    expect(navigate).toHaveBeenLastCalledWith('/?expired=1#top', {});
    answerWith(401, { message: 'Unauthorised', url: `${origin}/profile?from=expiry` });
    await failureOf(getAccessibleApps());
    expect(navigate).toHaveBeenLastCalledWith('/profile?from=expiry', {});
  });
});

describe("a 422's reroute", () => {
  it.each(UNSAFE)(
    '%s: goes to the sign-in page instead, with the message and the session ended',
    async (reroute) => {
      sessionStore.setCurrentUser(users.pending);
      sessionStore.remember('targetPath', '/profile/change-name');
      answerWith(422, { message: 'Your sign-in took too long. Start again.', reroute });
      const error = await failureOf(getCurrentUser());
      expect(error).toMatchObject({ status: 422, handled: true });
      expect(navigate).toHaveBeenCalledTimes(1);
      expect(navigate).toHaveBeenCalledWith('/', {});
      expect(notices).toEqual([{ message: 'Your sign-in took too long. Start again.', tone: 'warning' }]);
      expect(sessionStore.getState()).toMatchObject({ currentUser: ANONYMOUS_USER, targetPath: null });
    },
  );

  it('a route of the portal is followed', async () => {
    answerWith(422, { message: 'Start again.', reroute: '/forced-actions/merge-accounts/select-accounts' });
    await failureOf(getCurrentUser());
    expect(navigate).toHaveBeenCalledWith('/forced-actions/merge-accounts/select-accounts', {});
  });
});

describe('the decision and the navigation themselves', () => {
  it('globalActionFor carries only a safe address', () => {
    for (const unsafe of UNSAFE) {
      expect(globalActionFor(sessionCalls.getCurrentUser, 401, { message: 'm', url: unsafe })).toEqual({
        type: 'sessionExpired',
        url: '/',
      });
      expect(globalActionFor(sessionCalls.getCurrentUser, 422, { message: 'm', reroute: unsafe })).toEqual({
        type: 'reroute',
        route: '/',
        message: 'm',
      });
    }
  });

  it('toAppPath: in-app paths for this origin, null for anything else', () => {
    expect(toAppPath('/profile')).toBe('/profile');
    expect(toAppPath(`${origin}/access-requests?page=2#list`)).toBe('/access-requests?page=2#list');
    for (const unsafe of UNSAFE) expect(toAppPath(unsafe)).toBeNull();
  });

  it('navigateTo never hands another address to the router', () => {
    for (const unsafe of UNSAFE) navigateTo(unsafe, { replace: true });
    expect(navigate.mock.calls).toEqual(UNSAFE.map(() => ['/', { replace: true }]));
  });
});
