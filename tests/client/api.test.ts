// The api layer against a fake fetch: request shape, response validation, the version header, and
// every branch of section 8's global handling, plus the pass-through of accepted statuses.
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  acceptedAnswer,
  getAccessibleApps,
  getContext,
  getCurrentUser,
  getFailedAuthCount,
  getRealmAuthEnabled,
  HTTP_TIMEOUT_MS,
  isApiError,
  login,
  logout,
  onApplicationVersion,
  request,
  setApiFetch,
} from '../../src/client/api';
import { deleteTrustedDevice } from '../../src/client/api/profile';
import { onSessionExpiry } from '../../src/client/api/session-expiry';
import { readErrorDetails } from '../../src/client/app/error-details';
import { registerReenterPrompt, WATCHER_WAIT_MS } from '../../src/client/app/reenter-password/gate';
import { registerNavigator } from '../../src/client/app/navigation';
import { onNotice, type Notice } from '../../src/client/app/notices';
import { ANONYMOUS_USER, sessionStore } from '../../src/client/app/session/session-store';
import { apiTexts } from '../../src/client/app/texts';
import { defineCall } from '../../src/contract/call';
import { NO_RESPONSE_MESSAGE, SESSION_EXPIRED_MESSAGE } from '../../src/contract/errors';
import { REENTER_PASSWORD_REQUIRED_MESSAGE, sessionCalls } from '../../src/contract/session';
import { contexts, fakeFetch, json, targets, users, type FakeAnswer } from './fixtures';

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
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Answers every call with `answer`. */
function answerWith(answer: FakeAnswer) {
  const fake = fakeFetch(() => answer);
  setApiFetch(fake.fetch);
  return fake;
}

async function rejectionOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('requests', () => {
  it('sends GETs under /rest/ui/ with X-Requested-With, JSON accept and same-origin credentials', async () => {
    const fake = answerWith(json(contexts.portal));
    await expect(getContext()).resolves.toEqual(contexts.portal);
    const [sent] = fake.requests;
    expect(sent!.url.pathname).toBe('/rest/ui/anonymous/context');
    expect(sent!.method).toBe('GET');
    expect(sent!.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(sent!.headers.get('Accept')).toContain('application/json');
    expect(sent!.credentials).toBe('same-origin');
  });

  it('sends a JSON body and the login payload as given', async () => {
    const outcome = { outcome: 'DIRECT_LOGIN', currentUser: users.customer };
    const fake = answerWith(json(outcome));
    const body = { username: 'C10001', password: 'Harbour-Lights-2026', captchaCode: null, appCode: 'SAM' };
    await expect(login(body)).resolves.toMatchObject({ outcome: 'DIRECT_LOGIN' });
    const [sent] = fake.requests;
    expect(sent!.method).toBe('POST');
    expect(sent!.url.pathname).toBe('/rest/ui/anonymous/login');
    expect(sent!.headers.get('content-type')).toContain('application/json');
    expect(sent!.json()).toEqual(body);
  });

  it('puts query values in the search string and leaves out undefined ones', async () => {
    const fake = answerWith(json(2));
    await expect(getFailedAuthCount({ username: 'C10001' })).resolves.toBe(2);
    await expect(getFailedAuthCount({})).resolves.toBe(2);
    expect(fake.requests[0]!.url.search).toBe('?username=C10001');
    expect(fake.requests[1]!.url.search).toBe('');
  });

  it('fills and encodes path parameters', async () => {
    const fake = answerWith(json(true));
    await expect(getRealmAuthEnabled({ realm: 'RETAIL BANK' })).resolves.toBe(true);
    expect(fake.requests[0]!.url.pathname).toBe('/rest/ui/anonymous/realms/RETAIL%20BANK/auth-enabled');
  });

  it('answers null for 204 No Content', async () => {
    answerWith({ status: 204 });
    await expect(logout()).resolves.toBeNull();
  });

  it('works for any CallDef, including groups added later', async () => {
    const call = defineCall({
      id: 'testWidget',
      method: 'PATCH',
      path: 'widgets/:id',
      params: v.object({ id: v.string() }),
      query: v.object({ dryRun: v.optional(v.boolean()) }),
      body: v.object({ name: v.string() }),
      response: v.object({ id: v.string(), name: v.string() }),
    });
    const fake = answerWith(json({ id: 'w/1', name: 'Bolt' }));
    await expect(
      request(call, { params: { id: 'w/1' }, query: { dryRun: true }, body: { name: 'Bolt' } }),
    ).resolves.toEqual({ id: 'w/1', name: 'Bolt' });
    const [sent] = fake.requests;
    expect(sent!.method).toBe('PATCH');
    expect(sent!.url.href).toMatch(/\/rest\/ui\/widgets\/w%2F1\?dryRun=true$/);
    expect(sent!.json()).toEqual({ name: 'Bolt' });
  });

  it('passes the caller signal: an aborted call rejects without global handling', async () => {
    const fake = fakeFetch(
      (req) =>
        new Promise<never>((_, reject) => {
          req.signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    setApiFetch(fake.fetch);
    const controller = new AbortController();
    const call = getCurrentUser({ signal: controller.signal });
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
    controller.abort();
    const error = await call.catch((e: unknown) => e);
    expect(isApiError(error)).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('response validation', () => {
  it('treats a 2xx answer that breaks the contract like a 5xx: /error', async () => {
    answerWith(json({ appCode: 'SAM' }));
    const error = await rejectionOf(getContext());
    expect(error).toMatchObject({
      kind: 'invalid-response',
      status: 200,
      handled: true,
      callId: 'getContext',
    });
    expect(navigate).toHaveBeenCalledWith('/error', {});
    expect(readErrorDetails()).toMatchObject({ message: apiTexts.invalidResponse });
  });

  it('treats a 2xx answer that is not JSON like a 5xx', async () => {
    answerWith({ status: 200, text: '<html>proxy page</html>' });
    const error = await rejectionOf(getAccessibleApps());
    expect(error.kind).toBe('invalid-response');
    expect(navigate).toHaveBeenCalledWith('/error', {});
  });

  it('returns the parsed answer when it matches', async () => {
    answerWith(json([targets.loansF001, targets.payroll]));
    await expect(getAccessibleApps()).resolves.toEqual([targets.loansF001, targets.payroll]);
  });
});

describe('x-session-expires-in', () => {
  it("passes each answer's time left to the idle warning, in milliseconds; none without the header", async () => {
    const seen: number[] = [];
    const stop = onSessionExpiry((ms) => seen.push(ms));
    answerWith(json(contexts.portal, 200, { 'x-session-expires-in': '1799' }));
    await getContext();
    answerWith(json({ message: 'Nope' }, 422, { 'x-session-expires-in': '1680' }));
    await getContext().catch(() => {});
    answerWith(json(contexts.portal));
    await getContext();
    stop();
    expect(seen).toEqual([1_799_000, 1_680_000]);
  });
});

describe('x-application-version', () => {
  it('notifies subscribers of the version on every answer, failures included', async () => {
    const seen: string[] = [];
    const stop = onApplicationVersion((version) => seen.push(version));
    let n = 0;
    setApiFetch(
      fakeFetch(() => {
        n += 1;
        return n === 1
          ? json(contexts.portal, 200, { 'x-application-version': '1.4.0' })
          : json({ message: 'Nope' }, 422, { 'x-application-version': '1.5.0' });
      }).fetch,
    );
    await getContext();
    await getContext().catch(() => {});
    stop();
    expect(seen).toEqual(['1.4.0', '1.5.0']);
  });

  it('does not notify when the header is absent', async () => {
    const listener = vi.fn();
    const stop = onApplicationVersion(listener);
    answerWith(json(contexts.portal));
    await getContext();
    stop();
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('section 8 global handling', () => {
  it.each([400, 500, 502, 503])(
    '%i: stores message, trace id and timestamp, goes to /error',
    async (status) => {
      const body = {
        message: 'Database unavailable',
        stackTraceHash: 'a1b2c3',
        timestamp: '2025-11-21T08:00:00Z',
      };
      answerWith(json(body, status));
      const error = await rejectionOf(getCurrentUser());
      expect(error).toMatchObject({ kind: 'http', status, handled: true, callId: 'getCurrentUser' });
      expect(error.body).toMatchObject(body);
      expect(navigate).toHaveBeenCalledWith('/error', {});
      expect(readErrorDetails()).toEqual({
        message: 'Database unavailable',
        stackTraceHash: 'a1b2c3',
        timestamp: '2025-11-21T08:00:00Z',
      });
    },
  );

  it('5xx without an error body: a synthetic message and the time of failure', async () => {
    answerWith({ status: 502, text: 'Bad gateway' });
    const error = await rejectionOf(getCurrentUser());
    expect(error.body.message).toBe(apiTexts.httpStatus(502));
    const details = readErrorDetails();
    expect(details?.message).toBe(apiTexts.httpStatus(502));
    expect(details?.stackTraceHash).toBeNull();
    expect(details?.timestamp).toEqual(expect.any(String));
  });

  it('401: session-expired notice, local session invalidated, goes to the url given', async () => {
    sessionStore.setCurrentUser(users.customer);
    answerWith(json({ message: 'Unauthorised', url: '/?expired' }, 401));
    const error = await rejectionOf(getAccessibleApps());
    expect(error).toMatchObject({ status: 401, handled: true });
    expect(notices).toEqual([{ message: SESSION_EXPIRED_MESSAGE, tone: 'warning' }]);
    expect(sessionStore.getState().currentUser).toBe(ANONYMOUS_USER);
    expect(navigate).toHaveBeenCalledWith('/?expired', {});
  });

  it('401 on a profile or access-requests page remembers it, so signing in again comes back to it', async () => {
    sessionStore.clear();
    registerNavigator(navigate, () => '/profile/change-phone?from=menu');
    answerWith(json({ message: 'Unauthorised', url: '/' }, 401));
    await rejectionOf(getAccessibleApps());
    expect(sessionStore.getState().targetPath).toBe('/profile/change-phone?from=menu');

    // Elsewhere (here a forced step) nothing is remembered: section 4.1 names only those pages.
    sessionStore.clear();
    registerNavigator(navigate, () => '/forced-actions/mfa/email');
    await rejectionOf(getAccessibleApps());
    expect(sessionStore.getState()).toMatchObject({ targetPath: null, adminTargetPath: null });
    sessionStore.clear();
  });

  it('401 with an absolute same-origin url navigates in the app; without one, to /', async () => {
    answerWith(json({ message: 'Unauthorised', url: `${window.location.origin}/` }, 401));
    await rejectionOf(getAccessibleApps());
    expect(navigate).toHaveBeenLastCalledWith('/', {});
    answerWith(json({ message: 'Unauthorised' }, 401));
    await rejectionOf(getAccessibleApps());
    expect(navigate).toHaveBeenLastCalledWith('/', {});
  });

  it('404 on removing a trusted device that is already gone: removed, not /not-found', async () => {
    answerWith(json({ message: 'The trusted device was not found.' }, 404));
    await expect(deleteTrustedDevice('d1')).resolves.toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    expect(notices).toEqual([]);
    // Any other failure is still section 8's.
    answerWith(json({ message: 'Forbidden' }, 403));
    await expect(deleteTrustedDevice('d1')).rejects.toMatchObject({ status: 403, handled: true });
  });

  it('401 asking for the password again: the modal, then the call once more; the user stays signed in', async () => {
    sessionStore.setCurrentUser(users.customer);
    const prompt = vi.fn(async () => {});
    registerReenterPrompt(prompt);
    try {
      let calls = 0;
      const fake = fakeFetch(() =>
        ++calls === 1 ? json({ message: REENTER_PASSWORD_REQUIRED_MESSAGE, url: '/' }, 401) : json([]),
      );
      setApiFetch(fake.fetch);
      await expect(getAccessibleApps()).resolves.toEqual([]);
      expect(prompt).toHaveBeenCalledTimes(1);
      expect(fake.requests).toHaveLength(2);
      expect(navigate).not.toHaveBeenCalled();
      expect(notices).toEqual([]);
      expect(sessionStore.getState().currentUser).toEqual(users.customer);

      // Refused again after the modal: section 8's 401, without asking a second time.
      answerWith(json({ message: REENTER_PASSWORD_REQUIRED_MESSAGE, url: '/' }, 401));
      await rejectionOf(getAccessibleApps());
      expect(prompt).toHaveBeenCalledTimes(2);
      expect(sessionStore.getState().currentUser).toBe(ANONYMOUS_USER);
    } finally {
      registerReenterPrompt(null);
    }
  });

  it('401 asking for the password again with no watcher to ask (not signed in here): section 8 after a wait', async () => {
    vi.useFakeTimers();
    answerWith(json({ message: REENTER_PASSWORD_REQUIRED_MESSAGE, url: '/' }, 401));
    const refused = rejectionOf(getAccessibleApps());
    await vi.advanceTimersByTimeAsync(WATCHER_WAIT_MS);
    expect(await refused).toMatchObject({ status: 401, handled: true });
    expect(navigate).toHaveBeenCalledWith('/', {});
  });

  it('403: /permission-denied', async () => {
    answerWith(json({ message: 'Forbidden' }, 403));
    await expect(rejectionOf(getAccessibleApps())).resolves.toMatchObject({ status: 403, handled: true });
    expect(navigate).toHaveBeenCalledWith('/permission-denied', {});
  });

  it('404: /not-found', async () => {
    answerWith(json({ message: 'Not found' }, 404));
    await expect(rejectionOf(getAccessibleApps())).resolves.toMatchObject({ status: 404, handled: true });
    expect(navigate).toHaveBeenCalledWith('/not-found', {});
  });

  it('422 with a reroute: shows the message, invalidates the session, clears target paths, reroutes', async () => {
    sessionStore.setCurrentUser(users.pending);
    sessionStore.remember('targetPath', '/profile/change-name');
    sessionStore.remember('adminTargetPath', '/admin/apps');
    answerWith(json({ message: 'Your sign-in took too long. Start again.', reroute: '/' }, 422));
    const error = await rejectionOf(getCurrentUser());
    expect(error).toMatchObject({ status: 422, handled: true });
    expect(notices).toEqual([{ message: 'Your sign-in took too long. Start again.', tone: 'warning' }]);
    expect(sessionStore.getState()).toMatchObject({
      currentUser: ANONYMOUS_USER,
      targetPath: null,
      adminTargetPath: null,
    });
    expect(window.sessionStorage.getItem('portal.targetPath')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/', {});
  });

  it('422 without a reroute is the flow’s: handled = false, body with field errors, no navigation', async () => {
    const body = {
      message: 'Incorrect username or password',
      errors: [{ fieldName: 'password', message: 'Wrong' }],
    };
    answerWith(json(body, 422));
    const error = await rejectionOf(login({ username: 'C10001', password: 'nope' }));
    expect(error).toMatchObject({ status: 422, handled: false, callId: 'login', body });
    expect(navigate).not.toHaveBeenCalled();
    expect(notices).toEqual([]);
  });

  it('an accepted status (login 503) passes through to the flow, typed by the call', async () => {
    answerWith(json({ message: 'Sign-in is unavailable', customerMessage: 'Try again later.' }, 503));
    const error = await rejectionOf(login({ username: 'C10001', password: 'x' }));
    expect(error).toMatchObject({ status: 503, handled: false });
    expect(acceptedAnswer(error, sessionCalls.login)).toEqual({
      status: 503,
      body: { message: 'Sign-in is unavailable', customerMessage: 'Try again later.' },
    });
    expect(acceptedAnswer(error, sessionCalls.getContext)).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('an accepted status whose body breaks its schema is treated like a 5xx', async () => {
    answerWith(json({ customerMessage: 42 }, 503));
    const error = await rejectionOf(login({ username: 'C10001', password: 'x' }));
    expect(error).toMatchObject({ kind: 'invalid-response', handled: true });
    expect(navigate).toHaveBeenCalledWith('/error', {});
  });

  it('a status section 8 does not name (409) is left to the flow', async () => {
    answerWith(json({ message: 'Conflict' }, 409));
    await expect(rejectionOf(getCurrentUser())).resolves.toMatchObject({ status: 409, handled: false });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('no response: /error with a message noting "no response received"', async () => {
    setApiFetch(fakeFetch(() => Promise.reject(new TypeError('Failed to fetch'))).fetch);
    const error = await rejectionOf(getCurrentUser());
    expect(error).toMatchObject({ kind: 'no-response', status: 0, handled: true });
    expect(error.body.message).toContain(NO_RESPONSE_MESSAGE);
    expect(navigate).toHaveBeenCalledWith('/error', {});
    expect(readErrorDetails()?.message).toContain(NO_RESPONSE_MESSAGE);
  });

  it('no answer within 30 s counts as no response', async () => {
    vi.useFakeTimers();
    setApiFetch(fakeFetch(() => new Promise<never>(() => {})).fetch);
    const pending = getCurrentUser().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(HTTP_TIMEOUT_MS - 1);
    expect(navigate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error).toMatchObject({ kind: 'no-response', handled: true });
    expect(HTTP_TIMEOUT_MS).toBe(30_000);
    expect(navigate).toHaveBeenCalledWith('/error', {});
  });

  it('cookies disabled: /cookies-disabled, and nothing is sent', async () => {
    vi.spyOn(window.navigator, 'cookieEnabled', 'get').mockReturnValue(false);
    const fake = answerWith(json(contexts.portal));
    const error = await rejectionOf(getContext());
    expect(error).toMatchObject({ kind: 'cookies-disabled', handled: true });
    expect(fake.requests).toHaveLength(0);
    expect(navigate).toHaveBeenCalledWith('/cookies-disabled', { replace: true });
  });

  it('withoutGlobalHandling only returns the failure', async () => {
    answerWith(json({ message: 'Boom' }, 500));
    const error = await rejectionOf(
      request(sessionCalls.getProperty, { params: { name: 'support-email' }, withoutGlobalHandling: true }),
    );
    expect(error).toMatchObject({ status: 500, handled: false });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('keeps the message of an error body whose other fields break the schema', async () => {
    answerWith(json({ message: 'Kept', timestamp: 'yesterday' }, 500));
    const error = await rejectionOf(getCurrentUser());
    expect(error.body.message).toBe('Kept');
    expect(readErrorDetails()?.message).toBe('Kept');
  });
});
