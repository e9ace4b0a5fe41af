// Forced sign-in steps: change expired password, factor enrolment, MFA.
import { describe, expect, it } from 'vitest';
import { calls, oneTimeCode, requestBody } from '../../src/contract';
import { firstIssue, issuesAt, issuesOf, PASSWORD_HINT, VALID_PASSWORD } from './helpers';

const questions = {
  question1: 'DRIVERS_LICENCE',
  answer1: 'NSW1234',
  question2: 'MEDICARE',
  answer2: '2123 45670 1',
};

describe('change expired password', () => {
  const body = calls.changeExpiredPassword.body;
  it('takes a strong password and its confirmation', () => {
    expect(issuesOf(body, { password: VALID_PASSWORD, confirmPassword: VALID_PASSWORD })).toEqual([]);
  });
  it('gives the password hint for weak passwords', () => {
    for (const weak of ['short1', 'onlylettersxxxxxxx', '123456789012345678'])
      expect(issuesAt(body, { password: weak, confirmPassword: weak }, 'password'), weak).toContain(
        PASSWORD_HINT,
      );
  });
  it('requires both fields', () => {
    expect(issuesAt(body, { password: '', confirmPassword: '' }, 'password')[0]).toBe('Required field');
    expect(issuesAt(body, { password: VALID_PASSWORD }, 'confirmPassword')).toEqual(['Required field']);
  });
});

describe('factor enrolment', () => {
  it('enrols SMS with the mobile as a bare string, answering the mobile', () => {
    const call = calls.factorEnrolmentEnrolSms;
    expect(issuesOf(call.body, '+61 400 000 003')).toEqual([]);
    expect(firstIssue(call.body, '')).toBe('Required field');
    expect(firstIssue(call.body, '+61 400 000 003 0000000')).toBe('Size cannot be greater than 20');
    expect(issuesOf(call.body, { mobile: '+61 400 000 003' }).length).toBeGreaterThan(0);
    expect(issuesOf(call.response, '+61 400 000 003')).toEqual([]);
    expect(issuesOf(call.accepted[503], { message: 'x', customerMessage: 'SMS is down' })).toEqual([]);
  });

  it('submits two questions with answers of 4 to 50 characters', () => {
    const body = calls.factorEnrolmentSubmit.body;
    expect(issuesOf(body, questions)).toEqual([]);
    expect(issuesAt(body, { ...questions, answer1: 'abc' }, 'answer1')).toEqual([
      'Size cannot be less than 4',
    ]);
    expect(issuesAt(body, { ...questions, answer2: 'a'.repeat(51) }, 'answer2')).toEqual([
      'Size cannot be greater than 50',
    ]);
    expect(issuesAt(body, { ...questions, answer1: '   ' }, 'answer1')[0]).toBe('Required field');
    expect(issuesAt(body, { ...questions, question2: undefined }, 'question2')).toEqual(['Required field']);
  });

  it('answers whether MFA is required', () => {
    expect(issuesOf(calls.getMfaRequired.response, true)).toEqual([]);
  });
});

describe('MFA', () => {
  it('starts and skips to the next factor', () => {
    for (const call of [calls.mfaStart, calls.mfaSkip]) {
      expect(issuesOf(call.response, { nextFactor: 'SMS', smsUnavailableMessage: null })).toEqual([]);
      expect(
        issuesOf(call.response, {
          nextFactor: null,
          smsUnavailableMessage: 'SMS verification codes are currently unavailable.',
        }),
      ).toEqual([]);
      expect(issuesOf(call.response, { nextFactor: 'PIGEON', smsUnavailableMessage: null }).length).toBe(1);
    }
  });

  it('verifies a code with the trust-this-device choice and answers an authentication outcome', () => {
    const call = calls.mfaVerifyAuthenticatorApp;
    expect(call.path).toBe('forced-actions/mfa/verify-authenticator-app');
    expect(issuesOf(call.body, { code: '123456', trustDevice: true })).toEqual([]);
    expect(issuesOf(call.body, { code: '123456' })).toEqual([]);
    expect(firstIssue(call.body, { trustDevice: false })).toBe('Required field');
    expect(issuesOf(call.response, { outcome: 'DIRECT_LOGIN' })).toEqual([]);
  });

  it('resends codes: 204, or 503 with the customer message', () => {
    expect(calls.mfaSendSms.path).toBe('forced-actions/mfa/send-sms');
    expect(issuesOf(calls.mfaSendSms.response, null)).toEqual([]);
    expect(issuesOf(calls.mfaSendSms.accepted[503], { message: 'x', customerMessage: 'Try later' })).toEqual(
      [],
    );
  });
});

describe('request bodies', () => {
  const body = requestBody({ code: oneTimeCode });
  it('reads a missing field as Required field', () => {
    expect(issuesOf(body, {})).toEqual(['Required field']);
  });
  it('refuses unknown fields and non-objects', () => {
    expect(issuesOf(body, { code: '1', admin: true })).toEqual(['Unknown field: admin']);
    expect(issuesOf(body, 'code')).toEqual(['Invalid type: Expected Object but received "code"']);
  });
});
