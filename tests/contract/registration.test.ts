// Registration calls: start, collect details, factors, security questions, submissions.
import { describe, expect, it } from 'vitest';
import { calls } from '../../src/contract';
import { firstIssue, issuesAt, issuesOf, PASSWORD_HINT, VALID_PASSWORD } from './helpers';

const invite = {
  productName: 'Loans',
  facilityName: 'Harbour branch',
  facilityAliasOrCode: 'HB',
  roles: [{ name: 'Loan officer', scopeType: 'FACILITY', scope: 'F001' }, { name: 'Viewer' }],
  customerNumber: null,
  name: null,
  birthDate: null,
  username: null,
  email: 'new.customer@example.com',
  mobile: null,
  existingIdentity: false,
  isStaff: false,
  isPrimaryAffiliateEmailDomain: false,
  isSecondaryAffiliateEmailDomain: false,
};

describe('registration', () => {
  it('starts from the invitation: email, invite code (max 100) and captcha', () => {
    const body = calls.registrationStart.body;
    const valid = { email: 'new.customer@example.com', inviteCode: 'INVITE-NEW-0001', captchaCode: 'X7K2' };
    expect(issuesOf(body, valid)).toEqual([]);
    expect(issuesAt(body, { ...valid, inviteCode: 'I'.repeat(101) }, 'inviteCode')).toEqual([
      'Size cannot be greater than 100',
    ]);
    expect(issuesAt(body, { ...valid, inviteCode: '' }, 'inviteCode')).toEqual(['Required field']);
    expect(issuesAt(body, { ...valid, email: 'new.customer' }, 'email')).toEqual(['Invalid email format']);
    expect(issuesAt(body, { ...valid, captchaCode: undefined }, 'captchaCode')).toEqual(['Required field']);
    expect(issuesOf(calls.registrationStart.response, invite)).toEqual([]);
  });

  it('collects name (max 100) and/or username (2 to 50)', () => {
    const body = calls.registrationCollectDetails.body;
    expect(issuesOf(body, { name: 'New Customer', username: 'newcust' })).toEqual([]);
    expect(issuesOf(body, { username: 'nc' })).toEqual([]);
    expect(issuesOf(body, { name: 'New Customer' })).toEqual([]);
    expect(issuesOf(body, {})).toEqual(['Required field']);
    expect(issuesAt(body, { username: 'n' }, 'username')).toEqual(['Size cannot be less than 2']);
    expect(issuesAt(body, { username: 'n'.repeat(51) }, 'username')).toEqual([
      'Size cannot be greater than 50',
    ]);
    expect(issuesAt(body, { name: 'N'.repeat(101) }, 'name')).toEqual(['Size cannot be greater than 100']);
  });

  it('serves the authenticator QR code as a data URL and the setup key', () => {
    expect(issuesOf(calls.getRegistrationQrCode.response, 'data:image/png;base64,iVBORw0KGgo=')).toEqual([]);
    expect(issuesOf(calls.getRegistrationQrCode.response, 'https://example.com/qr.png').length).toBe(1);
    expect(issuesOf(calls.getRegistrationSetupKey.response, { setupKey: 'JBSWY3DPEHPK3PXP' })).toEqual([]);
  });

  it('enrols SMS with a bare mobile string, answering the invite with the mobile', () => {
    const call = calls.registrationEnrolSms;
    expect(issuesOf(call.body, '+61 400 000 099')).toEqual([]);
    expect(firstIssue(call.body, '1'.repeat(21))).toBe('Size cannot be greater than 20');
    expect(issuesOf(call.response, { ...invite, mobile: '+61 400 000 099' })).toEqual([]);
    expect(issuesOf(call.accepted[503], { message: 'x', customerMessage: 'SMS down' })).toEqual([]);
  });

  it('enrols security questions with answers of 4 to 50', () => {
    const body = calls.registrationEnrolSecurityQuestions.body;
    const valid = { question1: 'DRIVERS_LICENCE', answer1: 'abcd', question2: 'MEDICARE', answer2: 'efgh' };
    expect(issuesOf(body, valid)).toEqual([]);
    expect(issuesAt(body, { ...valid, answer2: 'abc' }, 'answer2')).toEqual(['Size cannot be less than 4']);
  });

  it('verifies the authenticator app and the mobile, answering the updated user', () => {
    expect(calls.registrationVerifyAuthenticatorApp.path).toBe(
      'anonymous/registration/verify-authenticator-app',
    );
    expect(calls.registrationVerifyMobile.path).toBe('anonymous/registration/verify-mobile');
    expect(calls.registrationSendSms.path).toBe('anonymous/registration/send-sms');
    expect(issuesOf(calls.registrationVerifyMobile.body, { code: '123456' })).toEqual([]);
  });

  it('submits a new account with a confirmed password', () => {
    const body = calls.registrationSubmitNew.body;
    expect(issuesOf(body, { password: VALID_PASSWORD, confirmPassword: VALID_PASSWORD })).toEqual([]);
    expect(issuesAt(body, { password: 'short', confirmPassword: 'short' }, 'password')).toContain(
      PASSWORD_HINT,
    );
    expect(issuesOf(calls.registrationSubmitNew.response, { outcome: 'DIRECT_LOGIN' })).toEqual([]);
  });

  it('submits an existing account with username (max 50) and password', () => {
    const body = calls.registrationSubmitExisting.body;
    expect(issuesOf(body, { username: 'C10001', password: 'x' })).toEqual([]);
    expect(issuesAt(body, { username: 'C'.repeat(51), password: 'x' }, 'username')).toEqual([
      'Size cannot be greater than 50',
    ]);
    expect(issuesAt(body, { username: 'C10001', password: '' }, 'password')).toEqual(['Required field']);
  });
});
