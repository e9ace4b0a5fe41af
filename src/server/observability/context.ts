// The request being handled, as the audit log and the metrics see it, reachable from domain code
// without threading a logger through every service: an AsyncLocalStorage entered for each request
// (plugin.ts) before its handler runs. Outside a request (start-up, background sweeps) the
// functions here do nothing: the database history stays the authoritative record.
//
// The audit log is a child logger ({ audit: true }) with one line per authentication event:
//   { audit: true, event, identityId, username?, actorIdentityId?, ip, sessionHash?, reqId, ... }
// It never carries a password, code, answer, token or session id; sessionHash is the first 16 hex
// characters of the session id's SHA-256 (what the sessions table keys on), enough to correlate.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { AuthFailureKind, Metrics, SignInOutcome } from './metrics';

export interface AuditFields {
  identityId?: string | null;
  username?: string | null;
  actorIdentityId?: string | null;
  actorAppCode?: string | null;
  /** The session's id hash (full or shortened); by default the request's own session. */
  sessionIdHash?: string | null;
  [field: string]: string | number | boolean | null | undefined;
}

/** An identity history event written in a transaction: logged once it proves committed. */
export interface PendingIdentityEvent {
  id: string;
  type: string;
  identityId: string;
  actorIdentityId: string | null;
  actorAppCode: string | null;
  ticketCode: string | null;
}

/** A change written (possibly in a transaction): logged after the response if `committed` says so. */
export interface PendingChange {
  event: string;
  fields: AuditFields;
  committed: (db: Kysely<Database>) => Promise<boolean>;
}

export interface RequestObservation {
  readonly request: FastifyRequest;
  readonly metrics: Metrics;
  /** SHA-256 (hex) of the session cookie the request came with, or null. */
  readonly sessionIdHash: () => string | null;
  readonly pending: PendingIdentityEvent[];
  readonly changes: PendingChange[];
  audit?: FastifyBaseLogger;
  /** The identity the sign-in's username named, once sign-in looked it up. */
  signInSubject?: string | null;
}

const storage = new AsyncLocalStorage<RequestObservation>();

/** Runs `next` (the rest of the request) inside the observation. */
export function observeRequest(observation: RequestObservation, next: () => void): void {
  storage.run(observation, next);
}

function current(): RequestObservation | undefined {
  return storage.getStore();
}

/** Shortened session hash for log lines. */
export function shortHash(hash: string | null | undefined): string | null {
  return hash ? hash.slice(0, 16) : null;
}

/** Writes one audit line on the request's audit logger. */
export function writeAudit(observation: RequestObservation, event: string, fields: AuditFields): void {
  observation.audit ??= observation.request.log.child({ audit: true });
  const { sessionIdHash, ...rest } = fields;
  const line: Record<string, unknown> = { event, ip: observation.request.ip ?? null };
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) line[key] = value;
  line.sessionHash = shortHash(sessionIdHash === undefined ? observation.sessionIdHash() : sessionIdHash);
  observation.audit.info(line, `audit ${event}`);
}

/** Logs an authentication event now (it is not tied to a transaction). */
export function auditEvent(event: string, fields: AuditFields = {}): void {
  const observation = current();
  if (observation) writeAudit(observation, event, fields);
}

/** Notes a history event written (possibly in a transaction): logged after the response if committed. */
export function noteIdentityEvent(event: PendingIdentityEvent): void {
  current()?.pending.push(event);
}

/** The identity a sign-in's username named (null: none), for the audit line of a refusal. */
export function noteSignInSubject(identityId: string | null): void {
  const observation = current();
  if (observation) observation.signInSubject = identityId;
}

/**
 * Notes a change that has no history event of its own (a factor enrolled during sign-in...):
 * its audit line is written after the response, once `committed` finds the change in the database.
 */
export function noteChange(change: PendingChange): void {
  current()?.changes.push(change);
}

/** Counts a sign-in's outcome and writes its audit line (SIGN_IN_SUCCEEDED or SIGN_IN_FAILED). */
export function recordSignIn(
  outcome: SignInOutcome,
  fields: AuditFields & { identityId?: string | null; username: string },
): void {
  const observation = current();
  if (!observation) return;
  observation.metrics.signInOutcomes.inc({ outcome });
  if (outcome === 'incorrect_credentials') observation.metrics.authFailures.inc({ kind: 'password' });
  const forced = outcome.startsWith('forced_');
  const success = forced || outcome === 'direct_login' || outcome === 'saml_handoff' || outcome === 'jwt';
  const identityId =
    fields.identityId === undefined ? (observation.signInSubject ?? null) : fields.identityId;
  writeAudit(observation, success ? 'SIGN_IN_SUCCEEDED' : 'SIGN_IN_FAILED', {
    ...fields,
    // What was typed as a username that names no account is often a password in the wrong box.
    username: identityId ? fields.username : null,
    identityId,
    outcome,
    ...(forced ? { forcedAction: outcome.slice('forced_'.length).toUpperCase() } : {}),
  });
}

/**
 * Counts a wrong code or re-entered password. When it used up the session's allowance (or locked
 * the account) the session was ended: the audit log says so, and during a sign-in (a pending
 * session) the sign-in counts as session_ended.
 */
export function recordAuthFailure(
  kind: AuthFailureKind,
  fields: AuditFields & { ended: boolean; signingIn: boolean },
): void {
  const observation = current();
  if (!observation) return;
  observation.metrics.authFailures.inc({ kind });
  const { ended, signingIn, ...rest } = fields;
  if (ended && signingIn) observation.metrics.signInOutcomes.inc({ outcome: 'session_ended' });
  writeAudit(observation, ended ? 'SESSION_ENDED_AFTER_FAILURES' : 'AUTH_CHECK_FAILED', {
    ...rest,
    check: kind,
  });
}

/** The failure limit locked an account (domain/lockout.ts): counted, and an ACCOUNT_LOCKED line. */
export function recordAccountLocked(fields: AuditFields & { username: string; failures: number }): void {
  const observation = current();
  if (!observation) return;
  observation.metrics.accountLocks.inc();
  // As for SIGN_IN_FAILED: a username that names no account is not logged.
  writeAudit(observation, 'ACCOUNT_LOCKED', {
    ...fields,
    username: fields.identityId ? fields.username : null,
  });
}
