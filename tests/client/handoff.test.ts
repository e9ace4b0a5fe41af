// The handoff calls against a fake fetch: request shapes (section 7), and how each answer becomes
// the attempt the handoff machines route (ready, refused, handled), with section 8's global
// handling acting only where it should.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HandoffAttempt } from '../../machines/handoff/handoff.types';
import {
  getHandoffTargets,
  getSelectFacilityFacilities,
  samlHandoff,
  selectFacilitySamlHandoff,
  setApiFetch,
  ssoSamlHandoff,
} from '../../src/client/api';
import { registerNavigator } from '../../src/client/app/navigation';
import { onNotice, type Notice } from '../../src/client/app/notices';
import { handoffAttempt } from '../../src/client/flows/handoff/handoff.actors';
import { postJwtToParent } from '../../src/client/flows/sign-in/sign-in.actions';
import { fakeFetch, json, targets, type FakeAnswer } from './fixtures';

const saml = {
  assertionConsumerServiceUrl: 'https://sp.example.com/loans/acs',
  samlResponse: 'PHNhbWxwOlJlc3BvbnNlPg==',
  relayState: 'relay-F002',
};

const navigate = vi.fn();
let notices: Notice[] = [];
let stopNotices = () => {};

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
  vi.restoreAllMocks();
});

function answerWith(answer: FakeAnswer) {
  const fake = fakeFetch(() => answer);
  setApiFetch(fake.fetch);
  return fake;
}

describe('handoff calls (section 7)', () => {
  it('GET current-user/handoff-targets, with the app code when given', async () => {
    const fake = answerWith(json([targets.loansF001, targets.loansF002]));
    expect(await getHandoffTargets({ appCode: 'LOANS' })).toEqual([targets.loansF001, targets.loansF002]);
    await getHandoffTargets();
    expect(fake.requests.map((r) => [r.method, r.url.pathname, r.url.search])).toEqual([
      ['GET', '/rest/ui/current-user/handoff-targets', '?appCode=LOANS'],
      ['GET', '/rest/ui/current-user/handoff-targets', ''],
    ]);
  });

  it.each([
    ['samlHandoff', samlHandoff, 'current-user/saml-handoff'],
    ['ssoSamlHandoff', ssoSamlHandoff, 'current-user/sso-saml-handoff'],
  ] as const)('%s POSTs appCode and facilityCode to %s', async (_, call, path) => {
    const fake = answerWith(json({ ...targets.loansF002, saml }));
    expect(await call({ appCode: 'LOANS', facilityCode: 'F002' })).toEqual({ ...targets.loansF002, saml });
    expect(fake.requests[0]?.method).toBe('POST');
    expect(fake.requests[0]?.url.pathname).toBe(`/rest/ui/${path}`);
    expect(fake.requests[0]?.json()).toEqual({ appCode: 'LOANS', facilityCode: 'F002' });
  });

  it('the forced facility selection: GET the facilities, POST the chosen one', async () => {
    const facility = {
      code: 'F002',
      name: 'Riverside Family Practice',
      aliasOrCode: 'F002',
      app: { code: 'LOANS' },
    };
    const fake = fakeFetch((request) =>
      request.method === 'GET' ? json([facility]) : json({ ...targets.loansF002, saml }),
    );
    setApiFetch(fake.fetch);
    expect(await getSelectFacilityFacilities()).toEqual([facility]);
    await selectFacilitySamlHandoff({ appCode: 'LOANS', facilityCode: 'F002' });
    expect(fake.requests.map((r) => [r.method, r.url.pathname])).toEqual([
      ['GET', '/rest/ui/forced-actions/select-facility/facilities'],
      ['POST', '/rest/ui/forced-actions/select-facility/saml-handoff'],
    ]);
    expect(fake.requests[1]?.json()).toEqual({ appCode: 'LOANS', facilityCode: 'F002' });
  });
});

describe('handoff attempts: what the machines route', () => {
  const attempt = () => handoffAttempt(() => samlHandoff({ appCode: 'LOANS', facilityCode: 'F002' }));

  it('2xx is ready: the target and what to post', async () => {
    answerWith(json({ ...targets.loansF002, saml }));
    expect(await attempt()).toEqual({
      type: 'ready',
      target: targets.loansF002,
      saml,
    } satisfies HandoffAttempt);
  });

  it("422 is refused with the server's message, and section 8 does nothing", async () => {
    answerWith(json({ message: 'Your access to this facility has been suspended.' }, 422));
    expect(await attempt()).toEqual({
      type: 'refused',
      message: 'Your access to this facility has been suspended.',
    });
    expect(navigate).not.toHaveBeenCalled();
    expect(notices).toEqual([]);
  });

  it('a status section 8 does not name (409) is refused too, with its message', async () => {
    answerWith(json({ message: 'The sign-in request has already been answered.' }, 409));
    expect(await attempt()).toEqual({
      type: 'refused',
      message: 'The sign-in request has already been answered.',
    });
  });

  it('401 was handled by section 8 (sign in again): no refusal of the flow', async () => {
    answerWith(json({ message: 'expired', url: '/' }, 401));
    expect(await attempt()).toEqual({ type: 'handled' });
    expect(navigate).toHaveBeenCalledWith('/', {});
  });

  it('5xx was handled by section 8 (/error)', async () => {
    answerWith(json({ message: 'boom' }, 500));
    expect(await attempt()).toEqual({ type: 'handled' });
    expect(navigate).toHaveBeenCalledWith('/error', {});
  });

  it('a 2xx answer that breaks the contract is handled as an error, not posted', async () => {
    answerWith(json({ ...targets.loansF002, saml: { ...saml, assertionConsumerServiceUrl: 'not a url' } }));
    expect(await attempt()).toEqual({ type: 'handled' });
    expect(navigate).toHaveBeenCalledWith('/error', {});
  });

  it('a failure that is not the api layer\u2019s is thrown for the machine\u2019s onError', async () => {
    await expect(handoffAttempt(() => Promise.reject(new TypeError('bug')))).rejects.toThrow('bug');
  });
});

describe('JWT to the parent frame (sign-in.actions.ts)', () => {
  it('posts the token to the exact origin the server named', () => {
    const post = vi.spyOn(window.parent, 'postMessage').mockImplementation(() => {});
    postJwtToParent(undefined, {
      jwt: 'header.payload.signature',
      frameOrigin: 'https://treasury.example.com',
    });
    expect(post).toHaveBeenCalledWith(
      { type: 'jwt', jwt: 'header.payload.signature' },
      'https://treasury.example.com',
    );
  });

  it.each(['*', ''])("never posts it to '%s'", (frameOrigin) => {
    const post = vi.spyOn(window.parent, 'postMessage').mockImplementation(() => {});
    expect(() => postJwtToParent(undefined, { jwt: 'header.payload.signature', frameOrigin })).toThrow();
    expect(post).not.toHaveBeenCalled();
  });
});
