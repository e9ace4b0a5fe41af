// Profile calls: edits with the current password, wizards, factors and trusted devices.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { calls, latestTodayIsoDate, todayIsoDate } from '../../src/contract';
import { issuesAt, issuesOf, PASSWORD_HINT, VALID_PASSWORD } from './helpers';

const user = {
  id: '1',
  username: 'C10001',
  name: 'Casey One',
  email: 'c10001@example.com',
  mobile: '+61 400 000 001',
  phone: null,
  birthDate: '1980-01-31',
  isAuthenticated: true,
  isAdmin: false,
  isStaff: false,
  roles: [],
  type: 'AUTHENTICATED',
};
const currentPassword = VALID_PASSWORD;

describe('PATCH profile', () => {
  const body = calls.updateProfile.body;
  afterEach(() => vi.useRealTimers());

  it('takes the current password plus exactly one of name, birthDate, phone', () => {
    expect(issuesOf(body, { currentPassword, name: 'Casey One' })).toEqual([]);
    expect(issuesOf(body, { currentPassword, birthDate: '1980-01-31' })).toEqual([]);
    expect(issuesOf(body, { currentPassword, birthDate: null })).toEqual([]);
    expect(issuesOf(body, { currentPassword, phone: '+64 2 8888 8888' })).toEqual([]);
    expect(issuesOf(body, { currentPassword, phone: '' })).toEqual([]);
    expect(issuesOf(body, { currentPassword })).toEqual(['Required field']);
    expect(issuesOf(body, { currentPassword, name: 'A', phone: '1' })).toEqual(['Required field']);
    expect(issuesAt(body, { name: 'Casey One' }, 'currentPassword')).toEqual(['Required field']);
  });

  it('takes only dates of the calendar: a 30 February or a 29 February of a common year is refused', () => {
    expect(issuesAt(body, { currentPassword, birthDate: '1980-02-29' }, 'birthDate')).toEqual([]);
    expect(issuesAt(body, { currentPassword, birthDate: '2023-02-30' }, 'birthDate')).toEqual([
      'Invalid date: Received "2023-02-30"',
    ]);
    expect(issuesAt(body, { currentPassword, birthDate: '1990-02-29' }, 'birthDate')).toEqual([
      'Invalid date: Received "1990-02-29"',
    ]);
    expect(issuesAt(body, { currentPassword, birthDate: '1990-04-31' }, 'birthDate')).toEqual([
      'Invalid date: Received "1990-04-31"',
    ]);
  });

  it('limits name to 100 and phone to 20', () => {
    expect(issuesAt(body, { currentPassword, name: '' }, 'name')).toEqual(['Required field']);
    expect(issuesAt(body, { currentPassword, name: 'N'.repeat(101) }, 'name')).toEqual([
      'Size cannot be greater than 100',
    ]);
    expect(issuesAt(body, { currentPassword, phone: '1'.repeat(21) }, 'phone')).toEqual([
      'Size cannot be greater than 20',
    ]);
  });

  it('keeps birth dates from 1900-01-01 up to the latest today anywhere, read at validation time', () => {
    expect(issuesOf(body, { currentPassword, birthDate: '1900-01-01' })).toEqual([]);
    expect(issuesAt(body, { currentPassword, birthDate: '1899-12-31' }, 'birthDate')).toEqual([
      'Value must be greater than or equal to 1900-01-01',
    ]);
    vi.useFakeTimers({ toFake: ['Date'] });
    // 22:00 UTC on 16 May: 08:00 on 17 May in Sydney, whose user may pick the 17th as today.
    vi.setSystemTime(new Date(Date.UTC(2030, 4, 16, 22)));
    expect(latestTodayIsoDate()).toBe('2030-05-17');
    expect(issuesOf(body, { currentPassword, birthDate: '2030-05-17' })).toEqual([]);
    expect(issuesAt(body, { currentPassword, birthDate: '2030-05-18' }, 'birthDate')).toEqual([
      'Value must be less than or equal to 2030-05-17',
    ]);
    // 09:59 UTC: nowhere is it the 17th yet (UTC+14 is at 23:59 on the 16th).
    vi.setSystemTime(new Date(Date.UTC(2030, 4, 16, 9, 59)));
    expect(issuesAt(body, { currentPassword, birthDate: '2030-05-17' }, 'birthDate')).toEqual([
      'Value must be less than or equal to 2030-05-16',
    ]);
    vi.setSystemTime(new Date(Date.UTC(2030, 4, 16, 10)));
    expect(issuesOf(body, { currentPassword, birthDate: '2030-05-17' })).toEqual([]);
  });

  it("answers the browser's local today for the portal's form", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2030, 5, 15, 12));
    expect(todayIsoDate()).toBe('2030-06-15');
  });

  it('answers the updated user', () => {
    expect(issuesOf(calls.updateProfile.response, user)).toEqual([]);
  });
});

describe('profile wizards and single-step changes', () => {
  it('changes the password with the hint for weak ones', () => {
    const body = calls.changePassword.body;
    const valid = {
      currentPassword,
      newPassword: 'Another-Pass-2027',
      confirmNewPassword: 'Another-Pass-2027',
    };
    expect(issuesOf(body, valid)).toEqual([]);
    expect(issuesAt(body, { ...valid, newPassword: 'abc1' }, 'newPassword')).toEqual([PASSWORD_HINT]);
    expect(issuesAt(body, { ...valid, confirmNewPassword: '' }, 'confirmNewPassword')).toEqual([
      'Required field',
    ]);
  });

  it('changes security questions with the current password', () => {
    const body = calls.changeSecurityQuestions.body;
    const valid = {
      currentPassword,
      question1: 'DRIVERS_LICENCE',
      answer1: 'abcd',
      question2: 'MEDICARE',
      answer2: 'x'.repeat(50),
    };
    expect(issuesOf(body, valid)).toEqual([]);
    expect(issuesAt(body, { ...valid, answer1: 'abc' }, 'answer1')).toEqual(['Size cannot be less than 4']);
  });

  it('removes the mobile and unenrols factors with the current password only', () => {
    for (const call of [calls.removeMobile, calls.unenrolSms, calls.unenrolAuthenticatorApp]) {
      expect(issuesOf(call.body, { currentPassword }), call.id).toEqual([]);
      expect(issuesOf(call.body, { currentPassword: '' }), call.id).toEqual(['Required field']);
      expect(issuesOf(call.body, { currentPassword, mobile: 'x' }).length, call.id).toBe(1);
    }
    expect(calls.removeMobile.path).toBe('profile/change-mobile/remove');
  });

  it('starts an email change and verifies it under profile/change-email', () => {
    const body = calls.changeEmailStart.body;
    expect(issuesOf(body, { currentPassword, email: 'casey@example.com' })).toEqual([]);
    expect(issuesAt(body, { currentPassword, email: 'casey' }, 'email')).toEqual(['Invalid email format']);
    expect(calls.changeEmailVerifyEmail.path).toBe('profile/change-email/verify-email');
    expect(issuesOf(calls.changeEmailVerifyEmail.response, user)).toEqual([]);
    expect(calls.changeEmailCancel.path).toBe('profile/change-email/cancel');
  });

  it('starts a mobile change: verification needed, the updated user, or 503 with a customer message', () => {
    const call = calls.changeMobileStart;
    expect(issuesOf(call.body, { currentPassword, mobile: '+61 400 000 111' })).toEqual([]);
    expect(issuesOf(call.body, { currentPassword, mobile: '+61 400 000 111', enrolSmsFactor: true })).toEqual(
      [],
    );
    expect(issuesAt(call.body, { currentPassword, mobile: '' }, 'mobile')).toEqual(['Required field']);
    expect(issuesOf(call.response, { isSmsVerificationRequired: true, mobile: '+61 400 000 111' })).toEqual(
      [],
    );
    expect(issuesOf(call.response, user)).toEqual([]);
    expect(issuesOf(call.accepted[503], { message: 'x', customerMessage: 'SMS down' })).toEqual([]);
    expect(calls.changeMobileVerifyMobile.path).toBe('profile/change-mobile/verify-mobile');
  });

  it('changes the authenticator app with code and current password', () => {
    const body = calls.changeAuthenticatorApp.body;
    expect(issuesOf(body, { code: '123456', currentPassword })).toEqual([]);
    expect(issuesAt(body, { code: '', currentPassword }, 'code')).toEqual(['Required field']);
    expect(issuesOf(calls.getAuthenticatorAppQrCode.response, 'data:image/svg+xml;base64,PHN2Zz4=')).toEqual(
      [],
    );
    expect(issuesOf(calls.getAuthenticatorAppSetupKey.response, { setupKey: 'JBSWY3DPEHPK3PXP' })).toEqual(
      [],
    );
  });
});

describe('profile reads and trusted devices', () => {
  it('reads enrolled factors, identity verification and the salary number', () => {
    expect(issuesOf(calls.getEnrolledFactors.response, ['AUTHENTICATOR_APP', 'SMS'])).toEqual([]);
    expect(issuesOf(calls.getEnrolledFactors.response, ['FAX']).length).toBe(1);
    expect(issuesOf(calls.getIdentityVerified.response, false)).toEqual([]);
    expect(issuesOf(calls.getSalaryNumber.response, { salaryNumber: '100001' })).toEqual([]);
  });

  it('lists, deletes and clears trusted devices', () => {
    expect(
      issuesOf(calls.getActiveTrustedDevices.response, [
        {
          id: 'd1',
          browser: { family: 'Firefox', versionMajor: '128', versionMinor: '0' },
          operatingSystem: { family: 'Linux', version: null },
          city: 'Sydney',
          country: 'Australia',
          continent: 'Oceania',
          lastActiveDate: '2026-03-01T10:00:00.000Z',
        },
      ]),
    ).toEqual([]);
    expect(calls.deleteTrustedDevice.method).toBe('DELETE');
    expect(issuesOf(calls.deleteTrustedDevice.params, { id: 'd1' })).toEqual([]);
    expect(issuesOf(calls.clearTrustedDevices.response, null)).toEqual([]);
  });
});
