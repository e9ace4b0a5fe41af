// Field rules of section 5 and the generic messages, shared by forms (client) and requests (server).
import * as v from 'valibot';

export const messages = {
  required: 'Required field',
  invalidEmail: 'Invalid email format',
  maxSize: (n: number) => `Size cannot be greater than ${n}`,
  minSize: (n: number) => `Size cannot be less than ${n}`,
  maxValue: (max: string | number) => `Value must be less than or equal to ${max}`,
  minValue: (min: string | number) => `Value must be greater than or equal to ${min}`,
  numeric: 'Must be numeric. Cannot contain letters or symbols.',
  passwordHint: 'At least 14 characters with at least 1 letter and 1 number',
  /** Not in the spec: a new password and its confirmation differ (the forms and the server alike). */
  passwordMismatch: 'The passwords do not match',
} as const;

export const limits = {
  signInUsername: 50,
  registrationUsernameMin: 2,
  registrationUsernameMax: 50,
  email: 500,
  mobile: 20,
  phone: 20,
  name: 100,
  invitationCode: 100,
  answerMin: 4,
  answerMax: 50,
  passwordMin: 14,
  failedSignInsBeforeCaptcha: 3,
  historyPageSize: 5,
  birthDateMin: '1900-01-01',
  /** Generous upper bound for free text that the spec does not limit (passwords, codes). */
  freeText: 1000,
  captchaCode: 20,
  oneTimeCode: 20,
} as const;

/** A required string: present, not blank, at most `max` characters. */
export const requiredString = (max: number) =>
  v.pipe(
    v.string(messages.required),
    v.trim(),
    v.nonEmpty(messages.required),
    v.maxLength(max, messages.maxSize(max)),
  );

/** A required string that is not trimmed (passwords: spaces are part of the secret). */
export const requiredSecret = (max: number = limits.freeText) =>
  v.pipe(v.string(messages.required), v.nonEmpty(messages.required), v.maxLength(max, messages.maxSize(max)));

export const optionalString = (max: number) =>
  v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(max, messages.maxSize(max)))));

export const email = v.pipe(
  v.string(messages.required),
  v.trim(),
  v.nonEmpty(messages.required),
  // Section 5's order: required, valid email, max 500.
  v.email(messages.invalidEmail),
  v.maxLength(limits.email, messages.maxSize(limits.email)),
);

/** Section 9: at least 14 characters with a letter and a digit (one message, however many fail). */
export const newPassword = v.pipe(
  v.string(messages.required),
  v.nonEmpty(messages.required),
  v.maxLength(limits.freeText, messages.maxSize(limits.freeText)),
  v.check(
    (value) => value.length >= limits.passwordMin && /\p{L}/u.test(value) && /\p{Nd}/u.test(value),
    messages.passwordHint,
  ),
);

/** Whether a YYYY-MM-DD text names a day of the calendar (2023-02-30 and 1990-02-29 do not). */
const isCalendarDate = (value: string): boolean => {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

/**
 * A date as YYYY-MM-DD that exists: valibot's isoDate checks the pattern only (day 01-31 in every
 * month), and PostgreSQL refuses the rest, which would be a 500 instead of the 400 it is.
 */
export const isoDate = v.pipe(
  v.string(),
  v.isoDate(),
  v.check(isCalendarDate, (issue) => `Invalid date: Received "${String(issue.input)}"`),
);
export const isoDateTime = v.pipe(v.string(), v.isoTimestamp());

/** One-time code: required, sent as text. */
export const oneTimeCode = requiredString(limits.oneTimeCode);

/**
 * A request body: `v.strictObject` whose missing fields read 'Required field' (section 5). A bare
 * `v.strictObject` reports a missing key with valibot's "Invalid key: Expected ..." instead, because
 * the object, not the field schema, raises that issue.
 */
export function requestBody<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.strictObject(entries, (issue) => {
    if (issue.expected === 'never') return `Unknown field: ${String(issue.input)}`;
    if (issue.path?.length && issue.input === undefined) return messages.required;
    return `Invalid type: Expected ${issue.expected} but received ${issue.received}`;
  });
}
