// The password reset machine's actors over the real api layer and a fake fetch: each call's method,
// path and body, and the expected refusals (422, the start's 503, an SMS 503) as the results the
// machine routes by. Nothing here is left to section 8's global handling.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import { setApiFetch } from '../../src/client/api';
import { registerNavigator } from '../../src/client/app/navigation';
import { passwordResetActors } from '../../src/client/flows/password-reset/password-reset.actors';
import { details, GATEWAY_DOWN, QUESTIONS } from '../machines/password-reset.fixtures';
import { fakeFetch, json, type FakeAnswer, type SentRequest } from './fixtures';

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

const BASE = '/rest/ui/anonymous/password-reset';
const context = { appCode: 'SAM', realmCode: 'BANK', showInHeader: false, type: 'DIRECT' };

describe('password reset actors', () => {
  it("signs out, then reads the realm's auth-enabled flag and the security questions", async () => {
    const requests = answering((r) => {
      if (r.url.pathname.endsWith('/logout')) return json(null, 204);
      if (r.url.pathname.endsWith('/context')) return json(context);
      if (r.url.pathname.includes('/auth-enabled')) return json(false);
      return json(QUESTIONS);
    });
    expect(await run(passwordResetActors.loadAvailability)).toEqual({
      authEnabled: false,
      questions: QUESTIONS,
    });
    expect(requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      'POST /rest/ui/logout',
      'GET /rest/ui/anonymous/context',
      'GET /rest/ui/anonymous/realms/BANK/auth-enabled',
      'GET /rest/ui/anonymous/enums/security-questions',
    ]);
  });

  it('start posts email and security code; 204 starts, 422 is a refusal, 503 is unavailable', async () => {
    const answers = [
      json(null, 204),
      json(
        {
          message: 'The security code is incorrect. Enter the code in the new image.',
          errors: [{ fieldName: 'captchaCode', message: 'Incorrect security code' }],
        },
        422,
      ),
      json({ message: 'Reset password is currently unavailable.' }, 503),
    ];
    const requests = answering(() => answers.shift() as FakeAnswer);
    const body = { email: 'c10004@example.com', captchaCode: 'E2E42' };
    expect(await run(passwordResetActors.startReset, body)).toEqual({ type: 'started', email: body.email });
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.url.pathname).toBe(`${BASE}/start`);
    expect(requests[0]?.json()).toEqual(body);
    expect(await run(passwordResetActors.startReset, body)).toEqual({
      type: 'refused',
      message: 'The security code is incorrect. Enter the code in the new image.',
      fieldErrors: [{ fieldName: 'captchaCode', message: 'Incorrect security code' }],
    });
    expect(await run(passwordResetActors.startReset, body)).toEqual({
      type: 'unavailable',
      message: 'Reset password is currently unavailable.',
    });
    expect(navigate).not.toHaveBeenCalled();
  });

  it("start also posts the context's app code and type when the session has a context (section 7)", async () => {
    const requests = answering(() => json(null, 204));
    const body = {
      email: 'c10004@example.com',
      captchaCode: 'E2E42',
      appCode: 'LOANS',
      type: 'SAML' as const,
    };
    expect(await run(passwordResetActors.startReset, body)).toEqual({ type: 'started', email: body.email });
    expect(requests[0]?.json()).toEqual(body);
  });

  it('verify-email and select-user answer the details; the username goes as a bare JSON string', async () => {
    const requests = answering(() => json(details.sharedChosen));
    expect(await run(passwordResetActors.verifyEmail, { code: '123456' })).toEqual({
      type: 'details',
      details: details.sharedChosen,
    });
    expect(await run(passwordResetActors.selectUser, { username: 'C10007' })).toEqual({
      type: 'details',
      details: details.sharedChosen,
    });
    expect(requests.map((r) => [r.url.pathname, r.body])).toEqual([
      [`${BASE}/verify-email`, '{"code":"123456"}'],
      [`${BASE}/select-user`, '"C10007"'],
    ]);
  });

  it('SMS sends: 204 sent, 422 refused, 503 unavailable with the customer message', async () => {
    const answers = [
      json(null, 204),
      json({ message: 'A code was sent less than 30 seconds ago.' }, 422),
      json(
        { message: 'SMS verification codes are currently unavailable.', customerMessage: GATEWAY_DOWN },
        503,
      ),
    ];
    const requests = answering(() => answers.shift() as FakeAnswer);
    expect(await run(passwordResetActors.sendSms)).toEqual({ type: 'sent' });
    expect(await run(passwordResetActors.sendSms)).toEqual({
      type: 'refused',
      message: 'A code was sent less than 30 seconds ago.',
    });
    expect(await run(passwordResetActors.sendSms)).toEqual({ type: 'unavailable', message: GATEWAY_DOWN });
    expect(requests.every((r) => r.url.pathname === `${BASE}/send-sms`)).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('answers each question in turn and stops at the first wrong one, naming it', async () => {
    const answers = [
      json(null, 204),
      json(
        {
          message: 'The answer is incorrect.',
          errors: [{ fieldName: 'answer', message: 'The answer is incorrect.' }],
        },
        422,
      ),
    ];
    const requests = answering(() => answers.shift() as FakeAnswer);
    const input = {
      answers: [
        { question: 'DRIVERS_LICENCE', answer: 'DL10005' },
        { question: 'MEDICARE', answer: 'wrong' },
        { question: 'PASSPORT', answer: 'never sent' },
      ],
    };
    expect(await run(passwordResetActors.verifySecurityQuestions, input)).toEqual({
      type: 'refused',
      message: 'The answer is incorrect.',
      fieldErrors: [{ fieldName: 'answer.MEDICARE', message: 'The answer is incorrect.' }],
    });
    expect(requests.map((r) => r.json())).toEqual([input.answers[0], input.answers[1]]);
  });

  it('submit posts the password and its confirmation; 204 is reset, 422 a refusal', async () => {
    const answers = [
      json(
        {
          message: 'The passwords do not match',
          errors: [{ fieldName: 'confirmPassword', message: 'The passwords do not match' }],
        },
        422,
      ),
      json(null, 204),
    ];
    const requests = answering(() => answers.shift() as FakeAnswer);
    const body = { password: 'Quiet-Meadow-Lantern-77', confirmPassword: 'Quiet-Meadow-Lantern-78' };
    expect(await run(passwordResetActors.submitPassword, body)).toMatchObject({ type: 'refused' });
    expect(await run(passwordResetActors.submitPassword, body)).toEqual({ type: 'reset' });
    expect(requests[1]?.url.pathname).toBe(`${BASE}/submit`);
    expect(requests[1]?.json()).toEqual(body);
  });
});
