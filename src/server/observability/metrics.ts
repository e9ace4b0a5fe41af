// Prometheus metrics, one registry per server instance (never prom-client's global one, so tests
// that start many servers in one process do not collide). Served at /metrics (see plugin.ts).
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** How a sign-in (anonymous/login) ended; see README's Operations section. */
export type SignInOutcome =
  | 'direct_login'
  | 'saml_handoff'
  | 'jwt'
  | `forced_${string}`
  | 'incorrect_credentials'
  | 'captcha_required'
  | 'captcha_incorrect'
  | 'unavailable'
  | 'waiting'
  | 'refused'
  | 'locked'
  | 'session_ended';

/** Which check a wrong secret failed. */
export type AuthFailureKind = 'password' | 'code' | 'reenter_password';

export interface Metrics {
  readonly registry: Registry;
  readonly httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  readonly signInOutcomes: Counter<'outcome'>;
  readonly authFailures: Counter<'kind'>;
  readonly accountLocks: Counter;
}

/** Latency buckets in seconds: argon2id sign-ins sit around 0.1-0.5 s. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The server's metrics. Process metrics (CPU, memory, event loop, GC) start timers and observers
 * that live as long as the process, so they are collected only where metrics are served.
 */
export function createMetrics(options: { processMetrics: boolean }): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route pattern, method and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    signInOutcomes: new Counter({
      name: 'identity_sign_in_outcomes_total',
      help: 'Sign-ins by outcome: direct_login, saml_handoff, jwt, forced_<step>, incorrect_credentials, captcha_required, captcha_incorrect, unavailable, waiting (429), refused, locked (the account is locked), session_ended (too many wrong codes).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    authFailures: new Counter({
      name: 'identity_auth_failures_total',
      help: 'Wrong secrets by check: password (sign-in), code (one-time and authenticator codes), reenter_password.',
      labelNames: ['kind'],
      registers: [registry],
    }),
    accountLocks: new Counter({
      name: 'identity_account_locks_total',
      help: 'Accounts locked by the failure limit (LOCK_AFTER_FAILURES).',
      registers: [registry],
    }),
  };
}

/** '2xx', '4xx'... */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}
