// The contract: every call of section 7, by area. `calls` is the catalogue both halves use.
import { accessRequestDecisionCalls } from './access-requests';
import { adminCalls } from './admin';
import { adminIdentityCalls } from './admin-identities';
import { adminSmsGatewayCalls } from './admin-sms-gateway';
import { forcedCalls } from './forced';
import { handoffCalls } from './handoff';
import { mergeCalls } from './merge';
import { profileCalls } from './profile';
import { registrationCalls } from './registration';
import { resetCalls } from './reset';
import { sessionCalls } from './session';

export * from './call';
export * from './entities';
export * from './errors';
export * from './fields';
export * from './session';
export * from './handoff';
export * from './forced';
export * from './merge';
export * from './reset';
export * from './registration';
export * from './profile';
export * from './admin';
export * from './admin-sms-gateway';
export * from './admin-identities';
export * from './access-requests';

export const calls = {
  ...sessionCalls,
  ...handoffCalls,
  ...forcedCalls,
  ...mergeCalls,
  ...resetCalls,
  ...registrationCalls,
  ...profileCalls,
  ...adminCalls,
  ...adminSmsGatewayCalls,
  ...adminIdentityCalls,
  ...accessRequestDecisionCalls,
} as const;

export type Calls = typeof calls;
export type CallId = keyof Calls;
