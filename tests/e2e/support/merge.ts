// Setup of the merge journeys over HTTP: a new customer account registered from an invitation
// admin1 sends to an address another account already uses, so that the new account is asked the
// duplicate-accounts step at its first sign-in (the demo data has one such pair only).
import { expect, inject } from 'vitest';
import { codeFromOutbox, DEMO_PASSWORD, latestOutboxId, PortalClient } from './reset';

/** The password the accounts registered here sign in with. */
export const REGISTERED_PASSWORD = 'Quiet-Harbour-Morning-4821';

const QUESTIONS = {
  question1: 'DRIVERS_LICENCE',
  answer1: 'NSW 55501',
  question2: 'MEDICARE',
  answer2: '2123 45670 9',
};

/**
 * admin1 invites `email` to PAYROLL (a new account, no customer number); the invitee registers with
 * `username`, `name` and REGISTERED_PASSWORD, the email factor and two security questions. The call answers
 * once the account exists (submit-new signed it in; that session is left unused).
 */
export async function registerOverHttp(
  baseUrl: string,
  { email, username, name = 'Erin Example' }: { email: string; username: string; name?: string },
): Promise<void> {
  const options = {
    email,
    username,
    name,
    password: REGISTERED_PASSWORD,
    captchaAnswer: inject('captchaAnswer'),
  };
  const admin = new PortalClient(baseUrl);
  expect((await admin.post('anonymous/login', { username: 'admin1', password: DEMO_PASSWORD })).status).toBe(
    200,
  );
  const afterId = await latestOutboxId(baseUrl);
  const invited = await admin.post('admin/invitations', {
    email: options.email,
    appCode: 'PAYROLL',
    isStaff: false,
  });
  expect(invited.status, JSON.stringify(invited.body)).toBe(200);
  const { code: inviteCode } = await codeFromOutbox(baseUrl, options.email, 'EMAIL', afterId);

  const invitee = new PortalClient(baseUrl);
  expect((await invitee.call('GET', `/captcha.jpg?${Date.now()}`)).status).toBe(200);
  const steps: Array<[string, unknown, number]> = [
    ['start', { email: options.email, inviteCode, captchaCode: options.captchaAnswer }, 200],
    ['collect-details', { username: options.username, name: options.name }, 200],
    ['enrol-email', undefined, 204],
    ['enrol-security-questions', QUESTIONS, 204],
    ['submit-new', { password: options.password, confirmPassword: options.password }, 200],
  ];
  for (const [step, body, status] of steps) {
    const answer = await invitee.post(`anonymous/registration/${step}`, body);
    expect(answer.status, `${step}: ${JSON.stringify(answer.body)}`).toBe(status);
  }
}
