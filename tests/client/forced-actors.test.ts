// The forced steps' actors over the real api layer and a fake fetch: each call's method, path and
// body, and the expected refusals (422, an accepted 503) as the results the machines route by.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import { setApiFetch } from '../../src/client/api';
import { registerNavigator } from '../../src/client/app/navigation';
import { changeExpiredPasswordActors } from '../../src/client/flows/forced/change-expired-password/change-expired-password.actors';
import { factorEnrolmentActors } from '../../src/client/flows/forced/factor-enrolment/factor-enrolment.actors';
import { mfaActors } from '../../src/client/flows/forced/mfa/mfa.actors';
import { reenterPasswordActors } from '../../src/client/app/reenter-password/reenter-password.actors';
import { signInActors } from '../../src/client/flows/sign-in/sign-in.actors';
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

const outcome = { outcome: 'DIRECT_LOGIN', currentUser: users.customer };
const refusal = (message: string, errors: { fieldName: string; message: string }[] = []) =>
  json({ message, errors }, 422);
const unavailable = json({ message: 'Service Unavailable', customerMessage: 'SMS is down.' }, 503);

describe('forced-step actors', () => {
  it('change expired password: POST with both passwords; 422 is a refusal with its field errors', async () => {
    const requests = answering((r) =>
      r.json() && (r.json() as { password: string }).password === 'Quiet-Harbour-2027'
        ? json(outcome)
        : refusal('Choose another password.', [{ fieldName: 'password', message: 'Too common.' }]),
    );
    const body = { password: 'Quiet-Harbour-2027', confirmPassword: 'Quiet-Harbour-2027' };
    expect(await run(changeExpiredPasswordActors.changeExpiredPassword, body)).toEqual({
      type: 'outcome',
      outcome,
    });
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.url.pathname).toBe('/rest/ui/forced-actions/change-expired-password');
    expect(requests[0]?.json()).toEqual(body);
    expect(
      await run(changeExpiredPasswordActors.changeExpiredPassword, {
        password: 'password123456',
        confirmPassword: 'x',
      }),
    ).toEqual({
      type: 'refused',
      message: 'Choose another password.',
      fieldErrors: [{ fieldName: 'password', message: 'Too common.' }],
    });
  });

  it('MFA verify: the factor picks the path, trustDevice goes along', async () => {
    const requests = answering(() => json(outcome));
    for (const [factor, path] of [
      ['AUTHENTICATOR_APP', 'verify-authenticator-app'],
      ['SMS', 'verify-mobile'],
      ['EMAIL', 'verify-email'],
    ] as const) {
      await run(mfaActors.verifyCode, { factor, code: '123456', trustDevice: true });
      expect(requests.at(-1)?.url.pathname).toBe(`/rest/ui/forced-actions/mfa/${path}`);
      expect(requests.at(-1)?.json()).toEqual({ code: '123456', trustDevice: true });
    }
  });

  it('resends: sent, 422 refused with its message, 503 unavailable with the customer message', async () => {
    const answers = [json(null, 204), refusal('Wait a minute before asking again.'), unavailable];
    const requests = answering(() => answers.shift() as FakeAnswer);
    expect(await run(mfaActors.resendCode, { channel: 'sms' })).toEqual({ type: 'sent' });
    expect(requests[0]?.url.pathname).toBe('/rest/ui/forced-actions/mfa/send-sms');
    expect(await run(factorEnrolmentActors.resendCode, { channel: 'email' })).toEqual({
      type: 'refused',
      message: 'Wait a minute before asking again.',
    });
    expect(requests[1]?.url.pathname).toBe('/rest/ui/forced-actions/factor-enrolment/send-email');
    expect(await run(factorEnrolmentActors.resendCode, { channel: 'sms' })).toEqual({
      type: 'unavailable',
      message: 'SMS is down.',
    });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('enrol SMS: the mobile as a bare JSON string; the stored mobile back; 503 and 422 as results', async () => {
    const answers = [
      json('+61 400 000 003'),
      unavailable,
      refusal('Invalid mobile.', [{ fieldName: 'mobile', message: 'Not a mobile.' }]),
    ];
    const requests = answering(() => answers.shift() as FakeAnswer);
    expect(await run(factorEnrolmentActors.enrolSms, { mobile: '0400 000 003' })).toEqual({
      type: 'enrolled',
      mobile: '+61 400 000 003',
    });
    expect(requests[0]?.body).toBe('"0400 000 003"');
    expect(requests[0]?.url.pathname).toBe('/rest/ui/forced-actions/factor-enrolment/enrol-sms');
    expect(await run(factorEnrolmentActors.enrolSms, { mobile: 'x' })).toEqual({
      type: 'unavailable',
      message: 'SMS is down.',
    });
    expect(await run(factorEnrolmentActors.enrolSms, { mobile: 'x' })).toEqual({
      type: 'refused',
      message: 'Invalid mobile.',
      fieldErrors: [{ fieldName: 'mobile', message: 'Not a mobile.' }],
    });
  });

  it('loads the enrolment facts from three calls', async () => {
    const requests = answering((r) => {
      if (r.url.pathname.endsWith('/mfa-required')) return json(true);
      if (r.url.pathname.endsWith('/properties/sms-gateway-status'))
        return json({ isSmsGatewayAvailable: false });
      return json([{ code: 'DRIVERS_LICENCE', description: "Driver's licence number" }]);
    });
    expect(await run(factorEnrolmentActors.loadEnrolment)).toEqual({
      mfaRequired: true,
      isSmsGatewayAvailable: false,
      questions: [{ code: 'DRIVERS_LICENCE', description: "Driver's licence number" }],
    });
    expect(requests.map((r) => r.url.pathname).sort()).toEqual([
      '/rest/ui/anonymous/enums/security-questions',
      '/rest/ui/anonymous/properties/sms-gateway-status',
      '/rest/ui/forced-actions/factor-enrolment/mfa-required',
    ]);
  });

  it('a 5xx is not a refusal: section 8 shows /error and the actor fails', async () => {
    answering(() => json({ message: 'Boom', stackTraceHash: 'abc' }, 500));
    await expect(run(mfaActors.skipMfa)).rejects.toMatchObject({ status: 500, handled: true });
    expect(navigate.mock.calls[0]?.[0]).toBe('/error');
  });

  it('re-enter password: POST currentPassword; 422 is a refusal', async () => {
    const answers = [json(null, 204), refusal('The password you entered is incorrect.')];
    const requests = answering(() => answers.shift() as FakeAnswer);
    expect(await run(reenterPasswordActors.reenterPassword, { password: 'Harbour-Lights-2026' })).toEqual({
      type: 'accepted',
    });
    expect(requests[0]?.url.pathname).toBe('/rest/ui/reenter-password');
    expect(requests[0]?.json()).toEqual({ currentPassword: 'Harbour-Lights-2026' });
    expect(await run(reenterPasswordActors.reenterPassword, { password: 'x' })).toEqual({
      type: 'refused',
      message: 'The password you entered is incorrect.',
    });
  });

  // A 429 (the server's growing wait after repeated failures, or a check of the same account already
  // in flight) changed nothing: the flow shows its message at the form and the user tries again
  // later. Before, it was an unexpected error that ended the flow on its failure view.
  describe('429, too many attempts: a refusal with its message, not a failure', () => {
    const tooMany = (message: string) => json({ message }, 429, { 'retry-after': '4' });
    const wait = 'Too many incorrect attempts. Wait 4 seconds and try again.';

    it('sign-in: refused, so the count is fetched again and the captcha redrawn', async () => {
      const requests = answering(() => tooMany(wait));
      const input = { username: 'C10001', password: 'wrong-password-1', captchaCode: 'A1B2' };
      expect(await run(signInActors.login, input)).toEqual({
        type: 'refused',
        username: 'C10001',
        message: wait,
        fieldErrors: [],
      });
      expect(requests[0]?.url.pathname).toBe('/rest/ui/anonymous/login');
      expect(navigate).not.toHaveBeenCalled();
    });

    it('MFA code, code resend and re-enter password: refused with the message', async () => {
      answering(() => tooMany(wait));
      expect(await run(mfaActors.verifyCode, { factor: 'SMS', code: '123456', trustDevice: false })).toEqual({
        type: 'refused',
        message: wait,
        fieldErrors: [],
      });
      expect(await run(mfaActors.resendCode, { channel: 'sms' })).toEqual({ type: 'refused', message: wait });
      expect(await run(reenterPasswordActors.reenterPassword, { password: 'x' })).toEqual({
        type: 'refused',
        message: wait,
      });
      expect(navigate).not.toHaveBeenCalled();
    });

    it('other statuses section 8 leaves to the flow are still failures', async () => {
      answering(() => json({ message: 'I am a teapot' }, 418));
      await expect(
        run(mfaActors.verifyCode, { factor: 'SMS', code: '123456', trustDevice: false }),
      ).rejects.toMatchObject({ status: 418, handled: false });
    });
  });
});
