// The previous sign-in toast's text, from the PreviousSignInAttempt fields.
import { describe, expect, it } from 'vitest';
import { formatDateTime, formatIsoDate } from '../../src/client/app/format';
import { previousSignInMessage, signInPlace } from '../../src/client/app/previous-sign-in';
import { previousSignInTexts as t } from '../../src/client/app/texts';
import { previousAttempt } from './fixtures';

const sydney = { timeZone: 'Australia/Sydney' };
/** ICU versions differ in the space before am/pm (U+202F or U+0020). */
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('previous sign-in message', () => {
  it('says when, where, from which address, and whether it succeeded', () => {
    expect(previousSignInMessage(previousAttempt, sydney).map(plain)).toEqual([
      'Your previous sign-in attempt was on 21 Nov 2025, 8:30 am from Sydney, Australia, Oceania.',
      'IP address 203.0.113.7.',
      t.successful,
    ]);
  });

  it('warns when it came from a different location, and says when it failed', () => {
    const lines = previousSignInMessage(
      { ...previousAttempt, isSuccessful: false, isGeolocationDifferent: true },
      sydney,
    );
    expect(lines).toContain(t.unsuccessful);
    expect(lines.at(-1)).toBe(t.differentLocation);
  });

  it('copes with an unknown place and address', () => {
    const attempt = {
      ...previousAttempt,
      ipAddress: null,
      cityName: null,
      countryName: '',
      continentName: null,
    };
    expect(signInPlace(attempt)).toBe(t.unknownPlace);
    expect(previousSignInMessage(attempt, sydney)).toHaveLength(2);
  });
});

describe('date display', () => {
  it('formats timestamps and ISO dates', () => {
    expect(plain(formatDateTime('2025-11-20T21:30:00.000Z', sydney))).toBe('21 Nov 2025, 8:30 am');
    expect(formatDateTime('not a date')).toBe('not a date');
    expect(formatIsoDate('1980-05-17')).toBe('17 May 1980');
    expect(formatIsoDate('17/05/1980')).toBe('17/05/1980');
  });
});
