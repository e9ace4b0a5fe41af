// Section 9's date helper, 'DD Mon YYYY' into YYYY-MM-DD, and the strict reader of typed dates the
// date-of-birth field uses. Apart from format.ts, which the sign-in page loads.
import { MONTHS } from './format';

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in a month (1 to 12) of a year, by the Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** YYYY-MM-DD of a day, or null when the day, month and year are not a real calendar date. */
function isoOf(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/**
 * Section 9's date helper: 'DD Mon YYYY' (as formatIsoDate writes it, e.g. '07 Mar 1985') into
 * YYYY-MM-DD. Strict: one or two digits of day, one of the twelve English three-letter month
 * abbreviations (in any letter case: 'mar' is read as typed), four digits of year, single spaces,
 * and a real calendar date ('31 Feb 2000' is not). Anything else gives null.
 */
export function parseDisplayDate(text: string): string | null {
  const match = /^(\d{1,2}) ([A-Za-z]{3}) (\d{4})$/.exec(text.trim());
  if (!match) return null;
  const month = MONTHS.findIndex((name) => name.toLowerCase() === match[2]!.toLowerCase()) + 1;
  if (month === 0) return null;
  return isoOf(Number(match[3]), month, Number(match[1]));
}

/** A typed YYYY-MM-DD, strictly: the same text back when it is a real calendar date, else null. */
export function parseIsoDate(text: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  return isoOf(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** A date typed as 'DD Mon YYYY' or YYYY-MM-DD, as YYYY-MM-DD; null when it is neither. */
export const parseTypedDate = (text: string): string | null => parseIsoDate(text) ?? parseDisplayDate(text);
