// The application services tier: built once per server from the configuration and the injected
// dependencies, then reached by routes through `app.services`.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import { createCaptchaRenderer, type CaptchaRenderer } from '../adapters/captcha-image';
import { systemClock, type Clock } from '../adapters/clock';
import { unknownGeoIp, type GeoIpLookup } from '../adapters/geo-ip';
import { cryptoRandom, type Random } from '../adapters/random';
import { createSecretBox, loadDataKey, type SecretBox } from '../adapters/secret-box';
import type { SigningKeys } from '../adapters/signing-keys';
import type { AppDatabase } from '../db/database';
import { appEndpoints } from '../db/repositories/reference';
import type { Database } from '../db/schema';
import { CaptchaService } from '../domain/captcha';
import { createFactorServices, type FactorServices } from '../domain/factors';
import type { MailSender } from '../adapters/mail';
import type { SmsSender } from '../adapters/sms';
import type { LogStream } from '../observability/logging';
import { HandoffService } from '../domain/handoff/service';
import { PasswordResetService } from '../domain/password-reset/service';
import { createMergeService, type MergeService, type MergeStatementObserver } from '../domain/merge';
import { ProfileService } from '../domain/profile/service';
import { createRegistrationService, type RegistrationService } from '../domain/registration';
import { argon2idHasher, type PasswordHasher } from '../domain/passwords';
import { ReferenceService } from '../domain/reference';
import { SessionService } from '../domain/sessions';
import { SignInService } from '../domain/sign-in';
import {
  expiredPasswordRule,
  SignInFlow,
  type ForcedActionRule,
  type Handoffs,
} from '../domain/sign-in-flow';

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
  /** Replaces the handoffs the server builds (SAML, JWT) for sign-in completion. */
  handoffs?: Handoffs;
  /** The SAML and JWT signing keys; without them the configured or generated ones are used. */
  signingKeys?: SigningKeys;
  /** Replace the email and SMS transports (by default SMTP_URL / SMS_GATEWAY_URL or the dev outbox). */
  mail?: MailSender;
  sms?: SmsSender;
  /** Sees each statement of the merge transaction (tests inject failures with it). */
  mergeObserver?: MergeStatementObserver;
  /** Where the JSON log lines go instead of stdout (tests capture them). */
  logStream?: LogStream;
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
  /** Forced steps after the password, and completion: forced-step routes continue sign-in here. */
  readonly signInFlow: SignInFlow;
  readonly appOrigins: AppOriginsCache;
  /** SAML and JWT handoffs, the IdP's endpoints and keys. */
  readonly handoff: HandoffService;
  /** Factors, one-time codes, trusted devices, MFA and enrolment flows, re-enter password. */
  readonly factors: FactorServices;
  /** The anonymous password reset (domain/password-reset). */
  readonly passwordReset: PasswordResetService;
  /** The DUPLICATE_ACCOUNTS step: the merge wizard and the merge itself. */
  readonly merge: MergeService;
  /** Profile self-service and signing an identity out of all devices. */
  readonly profile: ProfileService;
  /** Registration from an invitation (domain/registration). */
  readonly registration: RegistrationService;
  readonly geoIp: GeoIpLookup;
}

export function createServices(
  config: Config,
  database: AppDatabase,
  deps: ServerDeps & { signingKeys: SigningKeys },
): Services {
  const db = database.db;
  const clock = deps.clock ?? systemClock;
  const random = deps.random ?? cryptoRandom;
  const hasher = deps.hasher ?? argon2idHasher;
  const dataKey = deps.dataKey ?? loadDataKey(config.dataEncryptionKey, config.dataDir);
  const secretBox = createSecretBox(dataKey);
  const sessions = new SessionService(
    db,
    clock,
    random,
    {
      idleMs: config.sessionIdleMinutes * 60_000,
      absoluteMs: config.sessionAbsoluteHours * 3_600_000,
    },
    database.readCache,
  );
  const captcha = new CaptchaService(
    db,
    clock,
    random,
    deps.captchaRenderer ?? createCaptchaRenderer(random),
    config.captchaFixedAnswer,
  );
  const reference = new ReferenceService(db);
  const handoff = new HandoffService({
    db,
    clock,
    random,
    keys: deps.signingKeys,
    sessions,
    publicUrl: config.publicUrl,
    defaultContext: () => reference.defaultContext(),
  });
  const geoIp = deps.geoIp ?? unknownGeoIp;
  const factors = createFactorServices({
    config,
    db,
    clock,
    random,
    hasher,
    secretBox,
    dataKey,
    geoIp,
    reference,
    sessions,
    ...(deps.mail ? { mail: deps.mail } : {}),
    ...(deps.sms ? { sms: deps.sms } : {}),
  });
  // The forced steps in the order they are asked (see domain/sign-in-flow.ts): factor enrolment,
  // then MFA, then the expired password, so that the old password alone never sets a new one (and
  // ends the holder's sessions) on an account that has a second factor.
  const rules: ForcedActionRule[] = [...factors.rules, expiredPasswordRule];
  // Duplicate accounts are merged before the facility is chosen (grants may change).
  const merge = createMergeService({
    db,
    clock,
    hasher,
    factors,
    reference,
    sessions,
    observe: deps.mergeObserver,
  });
  rules.push(merge.rule);
  // Facility selection is always the last step: it leads straight to the handoff.
  rules.push(handoff.selectFacilityRule);
  const handoffs: Handoffs = { SAML: handoff.completeSaml, JWT: handoff.completeJwt, ...deps.handoffs };
  const signInFlow = new SignInFlow({
    db,
    rules,
    handoffs,
    now: () => clock.now(),
    newSessionToken: () => sessions.newToken(),
    forgetFailures: (username) => factors.lockout.succeeded(username),
  });
  const signIn = new SignInService({
    db,
    clock,
    random,
    hasher,
    captcha,
    sessions,
    geoIp,
    flow: signInFlow,
    lockout: factors.lockout,
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
    signInFlow,
    appOrigins: new AppOriginsCache(db),
    handoff,
    factors,
    passwordReset: new PasswordResetService({
      db,
      clock,
      random,
      hasher,
      captcha,
      sessions,
      reference,
      factors,
    }),
    merge,
    profile: new ProfileService({
      db,
      clock,
      random,
      hasher,
      secretBox,
      factors,
      reference,
      mail: factors.mail,
      sessions,
      totpIssuer: config.totpIssuer,
    }),
    registration: createRegistrationService({
      db,
      clock,
      random,
      hasher,
      secretBox,
      captcha,
      factors,
      reference,
      sessions,
      signInFlow,
      geoIp,
      totpIssuer: config.totpIssuer,
    }),
    geoIp,
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

  /** Whether the origins were loaded less than the TTL ago (ensureFresh has nothing to do). */
  get fresh(): boolean {
    return performance.now() - this.#loadedAt < this.ttlMs;
  }

  /** Reloads when stale; concurrent callers share one query. */
  async ensureFresh(): Promise<void> {
    if (this.fresh) return;
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
