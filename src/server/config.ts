// Server configuration: read once from the environment, validated, then passed in. This is the
// only server module that looks at environment variables (and only through `loadConfig(env)`).
//
// | Variable                 | Default                          | Meaning                                                                                                                                  |
// |--------------------------|----------------------------------|------------------------------------------------------------------------------------------------------------------------------------------|
// | PORT                     | 8080                             | TCP port the server listens on (0 picks a free port).                                                                                    |
// | HOST                     | 0.0.0.0                          | Interface the server binds to.                                                                                                           |
// | DATA_DIR                 | ./.data                          | Folder for local state: the embedded PGlite database (DATA_DIR/pglite) and the generated data key (DATA_DIR/keys).                       |
// | DATABASE_URL             | (unset)                          | PostgreSQL connection string (postgres://user:pass@host:5432/db). Unset: embedded PGlite in DATA_DIR/pglite.                             |
// | DATABASE_POOL_SIZE       | 10                               | With DATABASE_URL: most PostgreSQL connections this instance holds (instances x pool size must stay under the server's max_connections). |
// | DATABASE_STATEMENT_TIMEOUT_MS | 15000                       | With DATABASE_URL: longest a statement runs before PostgreSQL cancels it (the request answers 500); 0 keeps the server's setting.        |
// | PUBLIC_URL               | http://localhost:8080            | External base URL of the portal. An https URL makes every portal cookie Secure and __Host- prefixed.                                     |
// | NODE_ENV                 | development                      | development, test or production. Production enables HSTS and ignores CAPTCHA_FIXED_ANSWER. Must be set when PUBLIC_URL is not localhost. |
// | CAPTCHA_FIXED_ANSWER     | (unset)                          | Outside production only: every captcha's answer is this text, so automated journeys can pass it. Ignored in production.                 |
// | SESSION_IDLE_MINUTES     | 30                               | A session ends after this many minutes unused (the portal's background checks do not count).                                                                                |
// | SESSION_ABSOLUTE_HOURS   | 12                               | A session ends this many hours after sign-in, active or not.                                                                            |
// | LOG_LEVEL                | info (silent when NODE_ENV=test) | fatal, error, warn, info, debug, trace or silent.                                                                                        |
// | METRICS_TOKEN            | (unset)                          | Serves Prometheus metrics at /metrics to `Authorization: Bearer <token>` (16 characters or more). Unset: no /metrics (404).             |
// | SHUTDOWN_DELAY_SECONDS   | 0                                | On SIGTERM/SIGINT, seconds /ready answers 503 while still serving, before the listener closes (lets a load balancer notice).             |
// | SHUTDOWN_GRACE_SECONDS   | 10                               | After the listener closes, seconds in-flight requests get to finish before the process exits anyway (code 1).                           |
// | TRUST_PROXY              | false                            | Whether to trust X-Forwarded-* headers: true, false, a hop count, or a comma-separated list of proxy addresses/CIDRs.                    |
// | PORTAL_DIST              | dist/portal                      | Folder of the built portal (npm run build). Missing: pages answer 503 asking for a build; the API still works.                           |
// | SEED_DEMO                | true; false with NODE_ENV=production | Seed the demo data set (DESIGN.md) into an empty database at start. Never reseeds a database that has identities.                   |
// | APP_VERSION              | package.json version             | Version reported in the x-application-version header and anonymous/environment.                                                          |
// | DATA_ENCRYPTION_KEY      | (unset)                          | Base64 of 32 bytes: key that encrypts secrets at rest (TOTP secrets) and keys the failure counts' usernames. Unset: generated once in DATA_DIR/keys/data.key. Set it when several instances share one PostgreSQL. |
// | RATE_LIMIT_PER_MINUTE    | 600                              | Requests per minute per client IP to /rest/ui/ calls and /captcha.jpg.                                                                  |
// | LOGIN_RATE_LIMIT_PER_MINUTE | 60                            | Sign-in requests per minute per client IP (on top of the captcha from the 3rd failure per username).                                    |
// | LOCK_AFTER_FAILURES      | 10                               | Failed password and code checks in a row (per username, all flows together) after which the account is locked until support unlocks it; 0 never locks. |
// | FAILURE_DELAY_SECONDS    | 1                                | Wait imposed after the first failure past the captcha's 3; it doubles with each further failure; 0 turns the waits off.                |
// | FAILURE_DELAY_MAX_SECONDS | 300                             | Longest wait between attempts, however many failures.                                                                                   |
// | SMTP_URL                 | (unset)                          | smtp:// or smtps:// URL (user and password in it) of the server that sends email codes. Unset: the dev outbox (/dev/outbox) outside production; in production email codes are unavailable (503). |
// | MAIL_FROM                | Identity Portal <no-reply@PUBLIC_URL's host> | Sender address of email codes.                                                                                             |
// | SMS_GATEWAY_URL          | (unset)                          | http(s) URL the SMS gateway takes a JSON POST {to, message} at. Unset: the dev outbox outside production; in production SMS is unavailable (503). |
// | SMS_GATEWAY_TOKEN        | (unset)                          | Sent as `Authorization: Bearer <token>` to SMS_GATEWAY_URL.                                                                             |
// | REENTER_PASSWORD_MINUTES | 15                               | Minutes after the password was last entered (sign-in or re-enter password) before an authenticated session must re-enter it.          |
// | TOTP_ISSUER              | Identity Portal                  | Issuer name authenticator apps show above the code (otpauth:// URI).                                                                   |
// | PASSWORD_BLOCKED_TERMS   | (unset)                          | Comma-separated words new passwords must not contain (the bank's trading names), on top of realm and app names and the common-password list. |
// | SAML_SIGNING_KEY         | (unset)                          | PEM text or file path: the SAML IdP's RSA key (2048 bits or more). Unset: created once in DATA_DIR/keys/saml-signing.pem with a certificate. |
// | SAML_SIGNING_CERTIFICATE | (unset)                          | PEM text or file path: the X.509 certificate of SAML_SIGNING_KEY, published in /saml/metadata. Required with SAML_SIGNING_KEY.          |
// | JWT_SIGNING_KEY          | (unset)                          | PEM text or file path: the EC P-256 key that signs JWT handoffs (ES256). Unset: created once in DATA_DIR/keys/jwt-signing.pem.        |
// | DEMO_SP_PORT             | PORT + 1 (0 when PORT is 0)      | Port of the second listener that serves the framed TREASURY demo page on an origin of its own (only with SEED_DEMO).                   |
// | DEMO_SP_URL              | PUBLIC_URL, other host, DEMO_SP_PORT | Base URL browsers reach the TREASURY demo page at; localhost and 127.0.0.1 swap so the frame is cross-site. Registered as TREASURY's frame origin. |
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';

export const NODE_ENVS = ['development', 'test', 'production'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** PostgreSQL connection string; null means the embedded PGlite database in `pgliteDir`. */
  readonly databaseUrl: string | null;
  /** Most connections of the PostgreSQL pool (per instance). */
  readonly databasePoolSize: number;
  /** PostgreSQL statement_timeout in ms (0: the server's own). */
  readonly databaseStatementTimeoutMs: number;
  readonly pgliteDir: string;
  /** Normalised, without a trailing slash. */
  readonly publicUrl: string;
  readonly nodeEnv: NodeEnv;
  readonly isProduction: boolean;
  /** Already null in production, whatever the environment says. */
  readonly captchaFixedAnswer: string | null;
  readonly sessionIdleMinutes: number;
  readonly sessionAbsoluteHours: number;
  readonly logLevel: LogLevel;
  /** Bearer token of /metrics; null: metrics are not served. */
  readonly metricsToken: string | null;
  readonly shutdownDelaySeconds: number;
  readonly shutdownGraceSeconds: number;
  /** Passed to Fastify's trustProxy. */
  readonly trustProxy: boolean | number | string[];
  readonly portalDist: string;
  readonly seedDemo: boolean;
  readonly appVersion: string;
  /** 32-byte key from DATA_ENCRYPTION_KEY, or null to use (or create) DATA_DIR/keys/data.key. */
  readonly dataEncryptionKey: Buffer | null;
  readonly rateLimitPerMinute: number;
  readonly loginRateLimitPerMinute: number;
  /** Failure limit (domain/lockout.ts): lock after this many failures in a row (0: never). */
  readonly lockAfterFailures: number;
  /** First wait after the captcha's failures, doubling per failure, capped; 0: no waits. */
  readonly failureDelaySeconds: number;
  readonly failureDelayMaxSeconds: number;
  /** True when PUBLIC_URL is https: cookies get Secure and the __Host- prefix. */
  readonly secureCookies: boolean;
  /** SMTP server for email codes; null: the dev outbox (outside production) or unavailable. */
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  /** HTTP SMS gateway; null: the dev outbox (outside production) or unavailable. */
  readonly smsGatewayUrl: string | null;
  readonly smsGatewayToken: string | null;
  /** How long a password entry counts as recent for re-enter password. */
  readonly reenterPasswordMinutes: number;
  readonly totpIssuer: string;
  /** Lower-cased extra words new passwords must not contain. */
  readonly passwordBlockedTerms: readonly string[];
  /** SAML IdP signing key and certificate (PEM text or file path); null: DATA_DIR/keys. */
  readonly samlSigningKey: string | null;
  readonly samlSigningCertificate: string | null;
  /** ES256 key for JWT handoffs (PEM text or file path); null: DATA_DIR/keys. */
  readonly jwtSigningKey: string | null;
  /** Port of the TREASURY demo listener (0: any free port). */
  readonly demoSpPort: number;
  /**
   * Base URL of the TREASURY demo listener as browsers reach it, or null when it is only known
   * once the listener has bound a free port (DEMO_SP_PORT 0 without DEMO_SP_URL).
   */
  readonly demoSpUrl: string | null;
}

const positiveInt = (name: string, fallback: number, min = 1) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.trim(),
    v.regex(/^\d+$/, `${name} must be a whole number`),
    v.transform(Number),
    v.number(),
    v.minValue(min, `${name} must be at least ${min}`),
  );

const booleanText = (name: string, fallback: boolean) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.trim(),
    v.toLowerCase(),
    v.picklist(['true', 'false', '1', '0', 'yes', 'no'], `${name} must be true or false`),
    v.transform((s) => s === 'true' || s === '1' || s === 'yes'),
  );

const nonEmpty = (fallback: string) => v.pipe(v.optional(v.string(), fallback), v.trim(), v.nonEmpty());

const EnvSchema = v.object({
  PORT: v.pipe(positiveInt('PORT', 8080, 0), v.maxValue(65535, 'PORT must be at most 65535')),
  HOST: nonEmpty('0.0.0.0'),
  DATA_DIR: nonEmpty('./.data'),
  DATABASE_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check(
        (s) => s === '' || /^postgres(ql)?:\/\//.test(s),
        'DATABASE_URL must be a postgres:// or postgresql:// URL',
      ),
    ),
  ),
  DATABASE_POOL_SIZE: v.pipe(
    positiveInt('DATABASE_POOL_SIZE', 10),
    v.maxValue(1000, 'DATABASE_POOL_SIZE must be at most 1000'),
  ),
  DATABASE_STATEMENT_TIMEOUT_MS: v.pipe(
    positiveInt('DATABASE_STATEMENT_TIMEOUT_MS', 15_000, 0),
    v.maxValue(3_600_000, 'DATABASE_STATEMENT_TIMEOUT_MS must be at most 3600000 (an hour)'),
  ),
  PUBLIC_URL: v.pipe(
    nonEmpty('http://localhost:8080'),
    v.url('PUBLIC_URL must be an absolute URL'),
    v.check((s) => /^https?:\/\//.test(s), 'PUBLIC_URL must be http or https'),
  ),
  NODE_ENV: v.optional(
    v.picklist(NODE_ENVS, 'NODE_ENV must be development, test or production'),
    'development',
  ),
  CAPTCHA_FIXED_ANSWER: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(20, 'CAPTCHA_FIXED_ANSWER must be at most 20 characters')),
  ),
  SESSION_IDLE_MINUTES: positiveInt('SESSION_IDLE_MINUTES', 30),
  SESSION_ABSOLUTE_HOURS: positiveInt('SESSION_ABSOLUTE_HOURS', 12),
  LOG_LEVEL: v.optional(v.picklist(LOG_LEVELS, `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`)),
  METRICS_TOKEN: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^[\x21-\x7e]{16,}$/, 'METRICS_TOKEN must be at least 16 printable characters without spaces'),
    ),
  ),
  SHUTDOWN_DELAY_SECONDS: positiveInt('SHUTDOWN_DELAY_SECONDS', 0, 0),
  SHUTDOWN_GRACE_SECONDS: positiveInt('SHUTDOWN_GRACE_SECONDS', 10),
  TRUST_PROXY: v.optional(v.pipe(v.string(), v.trim())),
  PORTAL_DIST: nonEmpty('dist/portal'),
  // Unset: seeded outside production only (below).
  SEED_DEMO: v.optional(booleanText('SEED_DEMO', false)),
  APP_VERSION: v.optional(v.pipe(v.string(), v.trim())),
  DATA_ENCRYPTION_KEY: v.optional(v.pipe(v.string(), v.trim())),
  RATE_LIMIT_PER_MINUTE: positiveInt('RATE_LIMIT_PER_MINUTE', 600),
  LOGIN_RATE_LIMIT_PER_MINUTE: positiveInt('LOGIN_RATE_LIMIT_PER_MINUTE', 60),
  LOCK_AFTER_FAILURES: positiveInt('LOCK_AFTER_FAILURES', 10, 0),
  FAILURE_DELAY_SECONDS: positiveInt('FAILURE_DELAY_SECONDS', 1, 0),
  FAILURE_DELAY_MAX_SECONDS: positiveInt('FAILURE_DELAY_MAX_SECONDS', 300, 0),
  SMTP_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check((s) => /^smtps?:\/\/[^\s]+$/i.test(s), 'SMTP_URL must be an smtp:// or smtps:// URL'),
    ),
  ),
  MAIL_FROM: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(200, 'MAIL_FROM must be at most 200 characters')),
  ),
  SMS_GATEWAY_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.url('SMS_GATEWAY_URL must be an absolute URL'),
      v.check((s) => /^https?:\/\//.test(s), 'SMS_GATEWAY_URL must be http or https'),
    ),
  ),
  SMS_GATEWAY_TOKEN: v.optional(v.pipe(v.string(), v.trim())),
  REENTER_PASSWORD_MINUTES: positiveInt('REENTER_PASSWORD_MINUTES', 15),
  TOTP_ISSUER: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(60, 'TOTP_ISSUER must be at most 60 characters')),
  ),
  PASSWORD_BLOCKED_TERMS: v.optional(v.pipe(v.string(), v.trim())),
  SAML_SIGNING_KEY: v.optional(v.pipe(v.string(), v.trim())),
  SAML_SIGNING_CERTIFICATE: v.optional(v.pipe(v.string(), v.trim())),
  JWT_SIGNING_KEY: v.optional(v.pipe(v.string(), v.trim())),
  DEMO_SP_PORT: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+$/, 'DEMO_SP_PORT must be a whole number'),
      v.transform(Number),
      v.maxValue(65535, 'DEMO_SP_PORT must be at most 65535'),
    ),
  ),
  DEMO_SP_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.url('DEMO_SP_URL must be an absolute URL'),
      v.check((s) => /^https?:\/\//.test(s), 'DEMO_SP_URL must be http or https'),
    ),
  ),
});

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

function parseTrustProxy(raw: string | undefined): boolean | number | string[] {
  if (raw === undefined || raw === '') return false;
  const lower = raw.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function parseKey(raw: string | undefined, problems: string[]): Buffer | null {
  if (raw === undefined || raw === '') return null;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) {
    problems.push('DATA_ENCRYPTION_KEY must be the base64 encoding of exactly 32 bytes');
    return null;
  }
  return key;
}

let packageVersion: string | undefined;
/** The version in package.json (read once). */
export function readPackageVersion(): string {
  if (packageVersion === undefined) {
    const file = new URL('../../package.json', import.meta.url);
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    packageVersion = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  }
  return packageVersion;
}

/** Reads and validates the configuration; throws ConfigError listing every problem. */
/** Whether a URL's host is this machine's loopback interface. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  // Empty strings count as unset, as shells and .env files tend to produce them.
  const input: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.entries)) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const result = v.safeParse(EnvSchema, input);
  if (!result.success) {
    throw new ConfigError(
      result.issues.map((issue) => `${v.getDotPath(issue) ?? 'environment'}: ${issue.message}`),
    );
  }
  const e = result.output;
  const problems: string[] = [];
  const dataEncryptionKey = parseKey(e.DATA_ENCRYPTION_KEY, problems);
  if (Boolean(e.SAML_SIGNING_KEY) !== Boolean(e.SAML_SIGNING_CERTIFICATE)) {
    problems.push('SAML_SIGNING_KEY and SAML_SIGNING_CERTIFICATE must be set together');
  }
  // The default mode serves every one-time code at /dev/outbox when no SMTP or SMS gateway is set,
  // honours CAPTCHA_FIXED_ANSWER and seeds the demo admin: fine on this machine, never by default
  // on an address others can reach. A deployment that forgets NODE_ENV does not start.
  if (input.NODE_ENV === undefined && !isLoopbackUrl(e.PUBLIC_URL)) {
    problems.push(
      'NODE_ENV must be set when PUBLIC_URL is not on this machine (localhost, 127.0.0.1 or ::1): ' +
        'the default, development, serves one-time codes at /dev/outbox and seeds the demo accounts',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const isProduction = e.NODE_ENV === 'production';
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = e.PUBLIC_URL.replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ? e.DATABASE_URL : null,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    pgliteDir: path.join(dataDir, 'pglite'),
    publicUrl,
    nodeEnv: e.NODE_ENV,
    isProduction,
    captchaFixedAnswer: !isProduction && e.CAPTCHA_FIXED_ANSWER ? e.CAPTCHA_FIXED_ANSWER : null,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionAbsoluteHours: e.SESSION_ABSOLUTE_HOURS,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    metricsToken: e.METRICS_TOKEN || null,
    shutdownDelaySeconds: e.SHUTDOWN_DELAY_SECONDS,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    portalDist: path.resolve(e.PORTAL_DIST),
    // The demo data set has an admin with a published password: a production server seeds it only
    // when told to in so many words (the benchmarks do, on throwaway databases).
    seedDemo: e.SEED_DEMO ?? !isProduction,
    appVersion: e.APP_VERSION || readPackageVersion(),
    dataEncryptionKey,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    lockAfterFailures: e.LOCK_AFTER_FAILURES,
    failureDelaySeconds: e.FAILURE_DELAY_SECONDS,
    failureDelayMaxSeconds: e.FAILURE_DELAY_MAX_SECONDS,
    secureCookies: publicUrl.startsWith('https://'),
    smtpUrl: e.SMTP_URL || null,
    mailFrom: e.MAIL_FROM || `Identity Portal <no-reply@${new URL(publicUrl).hostname}>`,
    smsGatewayUrl: e.SMS_GATEWAY_URL || null,
    smsGatewayToken: e.SMS_GATEWAY_TOKEN || null,
    reenterPasswordMinutes: e.REENTER_PASSWORD_MINUTES,
    totpIssuer: e.TOTP_ISSUER || 'Identity Portal',
    passwordBlockedTerms: (e.PASSWORD_BLOCKED_TERMS ?? '')
      .split(',')
      .map((term) => term.trim().toLowerCase())
      .filter(Boolean),
    samlSigningKey: e.SAML_SIGNING_KEY || null,
    samlSigningCertificate: e.SAML_SIGNING_CERTIFICATE || null,
    jwtSigningKey: e.JWT_SIGNING_KEY || null,
    ...demoSp(publicUrl, e.PORT, e.DEMO_SP_PORT, e.DEMO_SP_URL),
  };
}

/**
 * The TREASURY demo page must sit on another site than the portal for its frame to be truly
 * cross-site, so by default the host is swapped between localhost and 127.0.0.1 (two sites to a
 * browser), and other hosts keep their name on the demo port (cross-origin, at least).
 */
function demoSp(
  publicUrl: string,
  port: number,
  configuredPort: number | undefined,
  configuredUrl: string | undefined,
): { demoSpPort: number; demoSpUrl: string | null } {
  const demoSpPort = configuredPort ?? (port === 0 ? 0 : port + 1 > 65535 ? port - 1 : port + 1);
  if (configuredUrl) return { demoSpPort, demoSpUrl: new URL(configuredUrl).origin };
  if (demoSpPort === 0) return { demoSpPort, demoSpUrl: null };
  return { demoSpPort, demoSpUrl: demoSpUrlFor(publicUrl, demoSpPort) };
}

/** The default DEMO_SP_URL for a listener bound to `port`. */
export function demoSpUrlFor(publicUrl: string, port: number): string {
  const url = new URL(publicUrl);
  const host =
    url.hostname === 'localhost' ? '127.0.0.1' : url.hostname === '127.0.0.1' ? 'localhost' : url.hostname;
  return `${url.protocol}//${host}:${port}`;
}
