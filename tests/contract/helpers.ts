// Test helpers: parse with a schema and read the messages of its issues.
import * as v from 'valibot';
import type { AnySchema } from '../../src/contract';

/** Messages of every issue, or [] when the value parses. */
export function issuesOf(schema: AnySchema | undefined, value: unknown): string[] {
  if (!schema) throw new Error('no schema');
  const result = v.safeParse(schema, value);
  return result.success ? [] : result.issues.map((issue) => issue.message);
}

/** The first issue's message: what a form shows under the field. */
export function firstIssue(schema: AnySchema | undefined, value: unknown): string | undefined {
  return issuesOf(schema, value)[0];
}

/** Messages of the issues at one top-level key of an object body. */
export function issuesAt(schema: AnySchema | undefined, value: unknown, key: string): string[] {
  if (!schema) throw new Error('no schema');
  const result = v.safeParse(schema, value);
  if (result.success) return [];
  return result.issues.filter((issue) => v.getDotPath(issue) === key).map((issue) => issue.message);
}

export const VALID_PASSWORD = 'Harbour-Lights-2026';
export const PASSWORD_HINT = 'At least 14 characters with at least 1 letter and 1 number';
