// The application services tier: built once per server from the configuration and the injected
// dependencies, then reached by routes through `app.services`.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import { createCaptchaRenderer, type CaptchaRenderer } from '../adapters/captcha-image';
import { systemClock, type Clock } from '../adapters/clock';
import { unknownGeoIp, type GeoIpLookup } from '../adapters/geo-ip';
import { cryptoRandom, type Random } from '../adapters/random';
import { createSecretBox, loadDataKey, type SecretBox } from '../adapters/secret-box';
import type { AppDatabase } from '../db/database';
import { appEndpoints } from '../db/repositories/reference';
import type { Database } from '../db/schema';
import { CaptchaService } from '../domain/captcha';
import { argon2idHasher, type PasswordHasher } from '../domain/passwords';
import { ReferenceService } from '../domain/reference';
import { SessionService } from '../domain/sessions';
import { SignInService, type HandoffCompletion } from '../domain/sign-in';

/** Everything a test (or another deployment) may replace. */
export interface ServerDeps {
  /** An opened and migrated database; without it the server opens the configured one. */
  database?: AppDatabase;
  clock?: Clock;
  random?: Random;
  geoIp?: GeoIpLookup;
  hasher?: PasswordHasher;
  captchaRenderer?: CaptchaRenderer;
  /** The 32-byte data key; without it the configured or generated key is used. */
  dataKey?: Buffer;
  handoffs?: Partial<Record<'SAML' | 'JWT', HandoffCompletion>>;
}

export interface Services {
  readonly config: Config;
  readonly database: AppDatabase;
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly random: Random;
  readonly hasher: PasswordHasher;
  readonly secretBox: SecretBox;
  readonly sessions: SessionService;
  readonly captcha: CaptchaService;
  readonly reference: ReferenceService;
  readonly signIn: SignInService;
  readonly appOrigins: AppOriginsCache;
}

export function createServices(config: Config, database: AppDatabase, deps: ServerDeps): Services {
  const db = database.db;
  const clock = deps.clock ?? systemClock;
  const random = deps.random ?? cryptoRandom;
  const hasher = deps.hasher ?? argon2idHasher;
  const secretBox = createSecretBox(deps.dataKey ?? loadDataKey(config.dataEncryptionKey, config.dataDir));
  const sessions = new SessionService(db, clock, random, {
    idleMs: config.sessionIdleMinutes * 60_000,
    absoluteMs: config.sessionAbsoluteHours * 3_600_000,
  });
  const captcha = new CaptchaService(
    db,
    clock,
    random,
    deps.captchaRenderer ?? createCaptchaRenderer(random),
    config.captchaFixedAnswer,
  );
  const reference = new ReferenceService(db);
  const signIn = new SignInService({
    db,
    clock,
    random,
    hasher,
    captcha,
    sessions,
    geoIp: deps.geoIp ?? unknownGeoIp,
    handoffs: deps.handoffs,
  });
  return {
    config,
    database,
    db,
    clock,
    random,
    hasher,
    secretBox,
    sessions,
    captcha,
    reference,
    signIn,
    appOrigins: new AppOriginsCache(db),
  };
}

/** The exact origin of a URL, or null for anything that is not an absolute http(s) URL. */
export function originOf(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The apps' registered frame origins and ACS origins, for the CSP's frame-ancestors and
 * form-action. Reloaded at most once a minute, so app changes made by any instance show up.
 */
export class AppOriginsCache {
  #frameAncestors: string[] = [];
  #formActions: string[] = [];
  #loadedAt = Number.NEGATIVE_INFINITY;
  #loading: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ttlMs = 60_000,
  ) {}

  get frameAncestors(): readonly string[] {
    return this.#frameAncestors;
  }

  get formActions(): readonly string[] {
    return this.#formActions;
  }

  /** Reloads when stale; concurrent callers share one query. */
  async ensureFresh(): Promise<void> {
    if (performance.now() - this.#loadedAt < this.ttlMs) return;
    this.#loading ??= this.#load().finally(() => {
      this.#loading = undefined;
    });
    await this.#loading;
  }

  invalidate(): void {
    this.#loadedAt = Number.NEGATIVE_INFINITY;
  }

  async #load() {
    const rows = await appEndpoints(this.db);
    const unique = (values: Array<string | null>) =>
      [...new Set(values.filter((v): v is string => v !== null))].sort();
    this.#frameAncestors = unique(rows.map((r) => originOf(r.frame_origin)));
    this.#formActions = unique(rows.map((r) => originOf(r.acs_url)));
    this.#loadedAt = performance.now();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
  interface FastifyRequest {
    /** Per-request CSP nonce for style elements (index.html's csp-nonce meta). */
    cspNonce: string;
  }
}
