// The text of the previous sign-in toast, built from a PreviousSignInAttempt (section 3).
import type { PreviousSignInAttempt } from '../../contract/entities';
import { formatDateTime, type DateTimeFormatOptions } from './format';
import { previousSignInTexts as t } from './texts';

export function signInPlace(attempt: PreviousSignInAttempt): string {
  const parts = [attempt.cityName, attempt.countryName, attempt.continentName].filter(
    (part): part is string => typeof part === 'string' && part.trim() !== '',
  );
  return parts.length ? parts.join(', ') : t.unknownPlace;
}

/** The toast's sentences, in reading order. */
export function previousSignInMessage(
  attempt: PreviousSignInAttempt,
  options: DateTimeFormatOptions = {},
): string[] {
  const lines = [t.when(formatDateTime(attempt.date, options), signInPlace(attempt))];
  if (attempt.ipAddress) lines.push(t.ipAddress(attempt.ipAddress));
  lines.push(attempt.isSuccessful ? t.successful : t.unsuccessful);
  if (attempt.isGeolocationDifferent) lines.push(t.differentLocation);
  return lines;
}
