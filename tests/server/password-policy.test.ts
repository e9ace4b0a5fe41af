// The new-password rules beyond section 9: the shipped common-password list, personal words, the
// bank's and products' names, repetitions and sequences, each with its reason.
import { describe, expect, it } from 'vitest';
import {
  loadCommonPasswords,
  PASSWORD_BRAND_MESSAGE,
  PASSWORD_COMMON_MESSAGE,
  PASSWORD_PERSONAL_MESSAGE,
  PASSWORD_PREDICTABLE_MESSAGE,
  passwordRefusal,
} from '../../src/server/domain/password-policy';

const noah = { username: 'C10002', name: 'Noah Fletcher', email: 'c10002@example.com' };
const terms = ['BANK', 'Bank', 'LOANS', 'Loans', 'PAYROLL', 'Payroll', 'TREASURY', 'Treasury', 'Harbourside'];
const refusal = (password: string) => passwordRefusal(password, noah, terms);

describe('the common-password list', () => {
  it('ships thousands of passwords, lower case', () => {
    const list = loadCommonPasswords();
    expect(list.size).toBeGreaterThanOrEqual(10_000);
    for (const known of ['password', '123456', 'qwerty', 'letmein', 'trustno1'])
      expect(list.has(known)).toBe(true);
    expect([...list].every((p) => p === p.toLowerCase())).toBe(true);
  });
});

describe('passwordRefusal', () => {
  it('accepts strong passwords', () => {
    for (const good of [
      'Harbour-Lights-2026',
      'Quiet-Meadow-Lantern-77',
      'violet9 umbrella cactus',
      'Tz4#pLq9!wXr2m',
    ])
      expect(refusal(good), good).toBeNull();
  });

  it('refuses common passwords however they are decorated', () => {
    for (const weak of [
      'password12345678',
      'Password123456!!',
      'P@ssw0rd20262026',
      '!!!Qwerty1234567',
      'football12345678',
      'passwordpassword1',
      'iloveyou20252025',
      'trustno1trustno1',
    ])
      expect(refusal(weak), weak).toBe(PASSWORD_COMMON_MESSAGE);
  });

  it("refuses the user's username, name and email", () => {
    for (const personal of [
      'C10002-secret-2026',
      'mysecretc10002!!',
      'Noah-is-great-2026',
      'Fl3tch3r-rules-99',
    ])
      expect(refusal(personal), personal).toBe(PASSWORD_PERSONAL_MESSAGE);
  });

  it("refuses the bank's and products' names, and the portal's", () => {
    for (const brand of [
      'MyLoans-account-2026',
      'Payr0ll-access-123',
      'treasury-desk-9981',
      'Identity-Portal-2026',
      'Harbourside-2026x',
    ])
      expect(refusal(brand), brand).toBe(PASSWORD_BRAND_MESSAGE);
    // Short codes are not matched inside other words.
    expect(passwordRefusal('Samuel-Hollow-2026', noah, ['SAM'])).toBeNull();
  });

  it('refuses repetitions and sequences', () => {
    for (const predictable of [
      'aaaaaaaaaaaaa1',
      'ab1ab1ab1ab1ab1',
      'abcdefghijklmn1',
      'abcdefgh123456',
      'zyxwvutsrq9876',
    ])
      expect(refusal(predictable), predictable).toBe(PASSWORD_PREDICTABLE_MESSAGE);
  });
});
