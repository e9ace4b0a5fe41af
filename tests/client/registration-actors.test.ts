// The registration machine's actors over the real api layer and a fake fetch: each call's method,
// path and body, and the expected refusals (422, an accepted 503) as the results the machine routes by.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import { setApiFetch } from '../../src/client/api';
import { registerNavigator } from '../../src/client/app/navigation';
import { registrationActors } from '../../src/client/flows/registration/registration.actors';
import { newInvite } from '../machines/registration.fixtures';
import { fakeFetch, json, users, type FakeAnswer, type SentRequest } from './fixtures';

const navigate = vi.fn();
beforeEach(() => {
  navigate.mockReset();
  registerNavigator(navigate);
});
afterEach(() => setApiFetch(null));

function answering(handler: (request: SentRequest) => FakeAnswer) {
  const fake = fakeFetch(handler);
  setApiFetch(fake.fetch);
  return fake.requests;
}

const run = <T>(logic: AnyActorLogic, input?: unknown) =>
  toPromise(createActor(logic, { input }).start()) as Promise<T>;

const BASE = '/rest/ui/anonymous/registration';
const INVALID = 'This invitation cannot be used.';

describe('registration actors', () => {
  it('prepare signs out first, then reads the SMS gateway status and the questions', async () => {
    const requests = answering((r) => {
      if (r.url.pathname.endsWith('/logout')) return json(null, 204);
      if (r.url.pathname.includes('/properties/')) return json({ isSmsGatewayAvailable: false });
      return json([{ code: 'DRIVERS_LICENCE', description: "Driver's licence number" }]);
    });
    expect(await run(registrationActors.prepareRegistration)).toEqual({
      isSmsGatewayAvailable: false,
      questions: [{ code: 'DRIVERS_LICENCE', description: "Driver's licence number" }],
    });
    expect(requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      'POST /rest/ui/logout',
      'GET /rest/ui/anonymous/properties/sms-gateway-status',
      'GET /rest/ui/anonymous/enums/security-questions',
    ]);
  });

  it('start posts email, code and security code; the neutral 422 is a refusal', async () => {
    const answers = [json(newInvite), json({ message: INVALID }, 422)];
    const requests = answering(() => answers.shift() as FakeAnswer);
    const body = { email: 'new.customer@example.com', inviteCode: 'INVITE-NEW-0001', captchaCode: 'E2E42' };
    expect(await run(registrationActors.startRegistration, body)).toEqual({
      type: 'invite',
      invite: newInvite,
    });
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.url.pathname).toBe(`${BASE}/start`);
    expect(requests[0]?.json()).toEqual(body);
    expect(await run(registrationActors.startRegistration, body)).toEqual({
      type: 'refused',
      message: INVALID,
      fieldErrors: [],
    });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('the setup key is read before the QR code (the first call creates the secret)', async () => {
    const requests = answering((r) =>
      r.url.pathname.endsWith('/setup-key')
        ? json({ setupKey: 'JBSW Y3DP EHPK 3PXP' })
        : json('data:image/png;base64,iVBORw0KGgo='),
    );
    expect(await run(registrationActors.loadAuthenticatorSetup)).toEqual({
      setupKey: 'JBSW Y3DP EHPK 3PXP',
      qrCode: 'data:image/png;base64,iVBORw0KGgo=',
    });
    expect(requests.map((r) => r.url.pathname)).toEqual([`${BASE}/setup-key`, `${BASE}/qr-code`]);
  });

  it('codes go to verify-authenticator-app or verify-mobile', async () => {
    const requests = answering(() => json(newInvite));
    await run(registrationActors.verifyCode, { channel: 'authenticator-app', code: '123456' });
    await run(registrationActors.verifyCode, { channel: 'sms', code: '654321' });
    expect(requests.map((r) => [r.url.pathname, r.json()])).toEqual([
      [`${BASE}/verify-authenticator-app`, { code: '123456' }],
      [`${BASE}/verify-mobile`, { code: '654321' }],
    ]);
  });

  it('enrol-sms sends the mobile as a bare JSON string; 503 is unavailable with the customer message', async () => {
    const answers = [
      json({ ...newInvite, mobile: '+61 400 111 222' }),
      json({ message: 'SMS unavailable', customerMessage: 'SMS is down.' }, 503),
    ];
    const requests = answering(() => answers.shift() as FakeAnswer);
    expect(await run(registrationActors.enrolSms, { mobile: '+61 400 111 222' })).toEqual({
      type: 'enrolled',
      mobile: '+61 400 111 222',
    });
    expect(requests[0]?.body).toBe('"+61 400 111 222"');
    expect(await run(registrationActors.enrolSms, { mobile: '+61 400 111 222' })).toEqual({
      type: 'unavailable',
      message: 'SMS is down.',
    });
  });

  it('submissions answer the authentication outcome; 422 is a refusal (the help text of verify-identity)', async () => {
    const outcome = { outcome: 'DIRECT_LOGIN', currentUser: users.customer };
    const answers = [json(outcome), json({ message: 'Incorrect username or password.' }, 422)];
    const requests = answering(() => answers.shift() as FakeAnswer);
    const password = {
      password: 'Quiet-Harbour-Morning-4821',
      confirmPassword: 'Quiet-Harbour-Morning-4821',
    };
    expect(await run(registrationActors.submitNew, password)).toEqual({ type: 'outcome', outcome });
    expect(requests[0]?.url.pathname).toBe(`${BASE}/submit-new`);
    expect(await run(registrationActors.submitExisting, { username: 'C10001', password: 'x' })).toEqual({
      type: 'refused',
      message: 'Incorrect username or password.',
      fieldErrors: [],
    });
    expect(requests[1]?.url.pathname).toBe(`${BASE}/submit-existing`);
  });
});
