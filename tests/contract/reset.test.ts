// Password reset calls: start, code checks, user selection, security question, submit.
import { describe, expect, it } from 'vitest';
import { calls } from '../../src/contract';
import { firstIssue, issuesAt, issuesOf, PASSWORD_HINT, VALID_PASSWORD } from './helpers';

const details = {
  email: 'dup@example.com',
  username: null,
  identities: [
    { username: 'C10006', name: 'Dana Dup' },
    { username: 'C10007', name: null },
  ],
  challenges: ['DRIVERS_LICENCE'],
  mobile: '+61 4** *** *05',
  isAuthAppEnrolled: false,
  isSmsFactorEnrolled: true,
  isSmsGatewayAvailable: true,
  isSecurityQuestionsEnrolled: true,
};

describe('password reset', () => {
  it('starts with email, captcha and context fields other than realm and header', () => {
    const body = calls.passwordResetStart.body;
    expect(calls.passwordResetStart.anonymous).toBe(true);
    expect(issuesOf(body, { email: 'c10001@example.com', captchaCode: 'X7K2' })).toEqual([]);
    expect(
      issuesOf(body, { email: 'c10001@example.com', captchaCode: 'X7K2', appCode: 'LOANS', type: 'SAML' }),
    ).toEqual([]);
    expect(issuesAt(body, { email: 'c10001@example.com' }, 'captchaCode')).toEqual(['Required field']);
    expect(issuesOf(body, { email: 'c10001@example.com', captchaCode: 'X', realmCode: 'R' }).length).toBe(1);
    expect(issuesOf(body, { email: 'c10001@example.com', captchaCode: 'X', showInHeader: true }).length).toBe(
      1,
    );
    expect(issuesAt(body, { email: 'nope', captchaCode: 'X' }, 'email')).toEqual(['Invalid email format']);
    expect(issuesOf(calls.passwordResetStart.accepted[503], { message: 'unavailable' })).toEqual([]);
  });

  it('answers the reset details on email verification and on user selection', () => {
    expect(calls.passwordResetVerifyEmail.path).toBe('anonymous/password-reset/verify-email');
    expect(issuesOf(calls.passwordResetVerifyEmail.response, details)).toEqual([]);
    expect(
      issuesOf(calls.passwordResetSelectUser.response, { ...details, username: 'C10006', identities: [] }),
    ).toEqual([]);
  });

  it('selects a user with the bare username string', () => {
    const body = calls.passwordResetSelectUser.body;
    expect(issuesOf(body, 'C10006')).toEqual([]);
    expect(firstIssue(body, '')).toBe('Required field');
    expect(firstIssue(body, 'C'.repeat(51))).toBe('Size cannot be greater than 50');
    expect(issuesOf(body, { username: 'C10006' }).length).toBeGreaterThan(0);
  });

  it('checks a security answer: required, max 50, no minimum', () => {
    const body = calls.passwordResetVerifySecurityQuestion.body;
    expect(issuesOf(body, { question: 'MEDICARE', answer: 'abc' })).toEqual([]);
    expect(issuesAt(body, { question: 'MEDICARE', answer: '' }, 'answer')).toEqual(['Required field']);
    expect(issuesAt(body, { question: 'MEDICARE', answer: 'a'.repeat(51) }, 'answer')).toEqual([
      'Size cannot be greater than 50',
    ]);
  });

  it('submits a new password with the password hint for weak ones', () => {
    const body = calls.passwordResetSubmit.body;
    expect(issuesOf(body, { password: VALID_PASSWORD, confirmPassword: VALID_PASSWORD })).toEqual([]);
    expect(issuesAt(body, { password: 'abcdefghijklmn', confirmPassword: 'x' }, 'password')).toEqual([
      PASSWORD_HINT,
    ]);
    expect(issuesAt(body, { password: VALID_PASSWORD, confirmPassword: '' }, 'confirmPassword')).toEqual([
      'Required field',
    ]);
  });

  it('resends codes, the SMS one with a 503 customer message', () => {
    expect(calls.passwordResetSendSms.path).toBe('anonymous/password-reset/send-sms');
    expect(calls.passwordResetSendSms.anonymous).toBe(true);
    expect(
      issuesOf(calls.passwordResetSendSms.accepted[503], { message: 'x', customerMessage: 'Later' }),
    ).toEqual([]);
  });
});
