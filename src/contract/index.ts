// The contract: every call of section 7, by area. `calls` is the catalogue both halves use.
import { sessionCalls } from './session';

export * from './call';
export * from './entities';
export * from './errors';
export * from './fields';
export * from './session';

export const calls = {
  ...sessionCalls,
} as const;

export type Calls = typeof calls;
export type CallId = keyof Calls;
