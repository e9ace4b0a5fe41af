import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { calls, LoginRequest, messages, newPassword } from '../../src/contract';

const issues = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? [] : result.issues.map((i) => ({ path: v.getDotPath(i), message: i.message }));
};

describe('session contract', () => {
  it('reports missing login fields as Required field', () => {
    expect(issues(LoginRequest, {})).toEqual([
      { path: 'username', message: messages.required },
      { path: 'password', message: messages.required },
    ]);
  });

  it('refuses an unknown login field and an over-long username', () => {
    expect(issues(LoginRequest, { username: 'C10001', password: 'x', isAdmin: true })).toEqual([
      { path: 'isAdmin', message: 'Unknown field: isAdmin' },
    ]);
    expect(issues(LoginRequest, { username: 'u'.repeat(51), password: 'x' })).toEqual([
      { path: 'username', message: 'Size cannot be greater than 50' },
    ]);
  });

  it('gives the password hint once however many of its rules fail', () => {
    expect(issues(newPassword, 'short')).toEqual([{ path: null, message: messages.passwordHint }]);
    expect(issues(newPassword, 'only-letters-here-long')).toEqual([
      { path: null, message: messages.passwordHint },
    ]);
    expect(issues(newPassword, 'Harbour-Lights-2026')).toEqual([]);
    // A digit is a decimal digit: '½', '²' and 'Ⅻ' are numbers, not digits.
    for (const notADigit of ['½', '²', 'Ⅻ'])
      expect(issues(newPassword, `abcdefghijklm${notADigit}`)).toEqual([
        { path: null, message: messages.passwordHint },
      ]);
    expect(issues(newPassword, 'abcdefghijklm٣')).toEqual([]);
  });

  it('accepts a 503 from login as a result, not a failure', () => {
    expect(Object.keys(calls.login.accepted)).toEqual(['503']);
    expect(calls.login.anonymous).toBe(true);
    expect(calls.logout.anonymous).toBe(false);
  });
});
