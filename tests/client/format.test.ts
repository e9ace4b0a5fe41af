// Section 9's date helper: 'DD Mon YYYY' into YYYY-MM-DD, strictly (real calendar dates only, the
// month abbreviations formatIsoDate writes), and the strict reader of a typed YYYY-MM-DD.
import { describe, expect, it } from 'vitest';
import { formatIsoDate } from '../../src/client/app/format';
import { parseDisplayDate, parseIsoDate, parseTypedDate } from '../../src/client/app/parse-date';

describe("parseDisplayDate ('DD Mon YYYY' into YYYY-MM-DD)", () => {
  it('reads what formatIsoDate writes, for every month', () => {
    for (let month = 1; month <= 12; month += 1) {
      const iso = `1985-${String(month).padStart(2, '0')}-07`;
      expect(parseDisplayDate(formatIsoDate(iso))).toBe(iso);
    }
    expect(parseDisplayDate('17 May 1990')).toBe('1990-05-17');
    expect(parseDisplayDate('01 Jan 1900')).toBe('1900-01-01');
  });

  it('takes a one-digit day, surrounding spaces and the month in any letter case', () => {
    expect(parseDisplayDate('7 Mar 1985')).toBe('1985-03-07');
    expect(parseDisplayDate('  07 Mar 1985 ')).toBe('1985-03-07');
    expect(parseDisplayDate('07 mar 1985')).toBe('1985-03-07');
    expect(parseDisplayDate('07 MAR 1985')).toBe('1985-03-07');
  });

  it('takes real calendar dates only', () => {
    expect(parseDisplayDate('29 Feb 2000')).toBe('2000-02-29');
    expect(parseDisplayDate('29 Feb 2024')).toBe('2024-02-29');
    expect(parseDisplayDate('29 Feb 1900')).toBeNull();
    expect(parseDisplayDate('29 Feb 2023')).toBeNull();
    expect(parseDisplayDate('31 Apr 2020')).toBeNull();
    expect(parseDisplayDate('31 Dec 2020')).toBe('2020-12-31');
    expect(parseDisplayDate('32 Jan 2020')).toBeNull();
    expect(parseDisplayDate('00 Jan 2020')).toBeNull();
  });

  it('refuses other month names and other shapes', () => {
    for (const text of [
      '07 Sept 1985',
      '07 March 1985',
      '07 Mar. 1985',
      '07 Xyz 1985',
      '07 Mar 85',
      '07 Mar 19850',
      '007 Mar 1985',
      '07  Mar 1985',
      '07-Mar-1985',
      'Mar 07 1985',
      '1985-03-07',
      '',
    ]) {
      expect(parseDisplayDate(text), text).toBeNull();
    }
  });
});

describe('parseIsoDate and parseTypedDate', () => {
  it('read a typed YYYY-MM-DD only when it is a real calendar date', () => {
    expect(parseIsoDate('1990-05-17')).toBe('1990-05-17');
    expect(parseIsoDate('2000-02-29')).toBe('2000-02-29');
    expect(parseIsoDate('2001-02-29')).toBeNull();
    expect(parseIsoDate('1990-13-01')).toBeNull();
    expect(parseIsoDate('1990-5-17')).toBeNull();
    expect(parseIsoDate('17 May 1990')).toBeNull();
  });

  it('parseTypedDate takes either form', () => {
    expect(parseTypedDate('1990-05-17')).toBe('1990-05-17');
    expect(parseTypedDate('17 May 1990')).toBe('1990-05-17');
    expect(parseTypedDate('17/05/1990')).toBeNull();
    expect(parseTypedDate('yesterday')).toBeNull();
  });
});
