// Server configuration: read once from the environment, validated, then passed in. This is the
// only server module that looks at environment variables (and only through `loadConfig(env)`).
//
// | Variable                 | Default                          | Meaning                                                                                                                                  |
// |--------------------------|----------------------------------|------------------------------------------------------------------------------------------------------------------------------------------|
// | PORT                     | 8080                             | TCP port the server listens on (0 picks a free port).                                                                                    |
// | HOST                     | 0.0.0.0                          | Interface the server binds to.                                                                                                           |
// | DATA_DIR                 | ./.data                          | Folder for local state: the embedded PGlite database (DATA_DIR/pglite) and the generated data key (DATA_DIR/keys).                       |
// | DATABASE_URL             | (unset)                          | PostgreSQL connection string (postgres://user:pass@host:5432/db). Unset: embedded PGlite in DATA_DIR/pglite.                             |
// | PUBLIC_URL               | http://localhost:8080            | External base URL of the portal. An https URL makes the session cookie Secure (and __Host- prefixed).                                    |
// | NODE_ENV                 | development                      | development, test or production. Production enables HSTS and ignores CAPTCHA_FIXED_ANSWER.                                               |
// | CAPTCHA_FIXED_ANSWER     | (unset)                          | Outside production only: every captcha's answer is this text, so automated journeys can pass it. Ignored in production.                 |
// | SESSION_IDLE_MINUTES     | 30                               | A session ends after this many minutes without a request.                                                                                |
// | SESSION_ABSOLUTE_HOURS   | 12                               | A session ends this many hours after sign-in, active or not.                                                                            |
// | LOG_LEVEL                | info (silent when NODE_ENV=test) | fatal, error, warn, info, debug, trace or silent.                                                                                        |
// | TRUST_PROXY              | false                            | Whether to trust X-Forwarded-* headers: true, false, a hop count, or a comma-separated list of proxy addresses/CIDRs.                    |
// | PORTAL_DIST              | dist/portal                      | Folder of the built portal (npm run build). Missing: pages answer 503 asking for a build; the API still works.                           |
// | SEED_DEMO                | true                             | Seed the demo data set (DESIGN.md) into an empty database at start. Never reseeds a database that has identities.                       |
// | APP_VERSION              | package.json version             | Version reported in the x-application-version header and anonymous/environment.                                                          |
// | DATA_ENCRYPTION_KEY      | (unset)                          | Base64 of 32 bytes: key that encrypts secrets at rest (TOTP secrets). Unset: generated once in DATA_DIR/keys/data.key. Set it when several instances share one PostgreSQL. |
// | RATE_LIMIT_PER_MINUTE    | 600                              | Requests per minute per client IP to /rest/ui/ calls and /captcha.jpg.                                                                  |
// | LOGIN_RATE_LIMIT_PER_MINUTE | 60                            | Sign-in requests per minute per client IP (on top of the captcha from the 3rd failure per username).                                    |
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
  /** Passed to Fastify's trustProxy. */
  readonly trustProxy: boolean | number | string[];
  readonly portalDist: string;
  readonly seedDemo: boolean;
  readonly appVersion: string;
  /** 32-byte key from DATA_ENCRYPTION_KEY, or null to use (or create) DATA_DIR/keys/data.key. */
  readonly dataEncryptionKey: Buffer | null;
  readonly rateLimitPerMinute: number;
  readonly loginRateLimitPerMinute: number;
  /** True when PUBLIC_URL is https: cookies get Secure and the __Host- prefix. */
  readonly secureCookies: boolean;
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
  TRUST_PROXY: v.optional(v.pipe(v.string(), v.trim())),
  PORTAL_DIST: nonEmpty('dist/portal'),
  SEED_DEMO: booleanText('SEED_DEMO', true),
  APP_VERSION: v.optional(v.pipe(v.string(), v.trim())),
  DATA_ENCRYPTION_KEY: v.optional(v.pipe(v.string(), v.trim())),
  RATE_LIMIT_PER_MINUTE: positiveInt('RATE_LIMIT_PER_MINUTE', 600),
  LOGIN_RATE_LIMIT_PER_MINUTE: positiveInt('LOGIN_RATE_LIMIT_PER_MINUTE', 60),
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
  if (problems.length > 0) throw new ConfigError(problems);

  const isProduction = e.NODE_ENV === 'production';
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = e.PUBLIC_URL.replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ? e.DATABASE_URL : null,
    pgliteDir: path.join(dataDir, 'pglite'),
    publicUrl,
    nodeEnv: e.NODE_ENV,
    isProduction,
    captchaFixedAnswer: !isProduction && e.CAPTCHA_FIXED_ANSWER ? e.CAPTCHA_FIXED_ANSWER : null,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionAbsoluteHours: e.SESSION_ABSOLUTE_HOURS,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    portalDist: path.resolve(e.PORTAL_DIST),
    seedDemo: e.SEED_DEMO,
    appVersion: e.APP_VERSION || readPackageVersion(),
    dataEncryptionKey,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    secureCookies: publicUrl.startsWith('https://'),
  };
}
