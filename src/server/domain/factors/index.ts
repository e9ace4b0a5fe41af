// The factor services, assembled once per server (http/services.ts) and reached by the routes as
// `app.services.factors`.
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { Clock } from '../../adapters/clock';
import type { GeoIpLookup } from '../../adapters/geo-ip';
import {
  outboxMailSender,
  smtpMailSender,
  unconfiguredMailSender,
  type MailSender,
} from '../../adapters/mail';
import { Outbox } from '../../adapters/outbox';
import type { Random } from '../../adapters/random';
import type { SecretBox } from '../../adapters/secret-box';
import { httpSmsGateway, outboxSmsSender, unconfiguredSmsSender, type SmsSender } from '../../adapters/sms';
import type { Database } from '../../db/schema';
import { Lockout, lockoutPolicyOf, usernameKeyer } from '../lockout';
import type { PasswordHasher } from '../passwords';
import { PasswordPolicy } from '../password-policy';
import type { ReferenceService } from '../reference';
import type { SessionService } from '../sessions';
import type { ForcedActionRule } from '../sign-in-flow';
import { codeKeyFrom, OneTimeCodes } from './codes';
import { FactorEnrolmentFlow } from './enrolment';
import { Factors } from './factors';
import { FailureCounter } from './failures';
import { MfaFlow } from './mfa';
import { ReenterPassword } from './reenter-password';
import { factorEnrolmentRule, mfaRule } from './rules';
import { SmsGatewayStatus } from './sms-gateway';
import { TrustedDevices } from './trusted-devices';
import { CodeVerifier } from './verification';

export interface FactorServices {
  readonly outbox: Outbox;
  readonly mail: MailSender;
  readonly sms: SmsSender;
  readonly smsGateway: SmsGatewayStatus;
  readonly codes: OneTimeCodes;
  readonly factors: Factors;
  readonly trustedDevices: TrustedDevices;
  readonly enrolment: FactorEnrolmentFlow;
  readonly mfa: MfaFlow;
  readonly reenterPassword: ReenterPassword;
  readonly passwordPolicy: PasswordPolicy;
  /** The one failure limit of every password and code check (domain/lockout.ts). */
  readonly lockout: Lockout;
  /** Counts wrong codes and passwords into the limit and the session's own count. */
  readonly failures: FailureCounter;
  /** FACTOR_ENROLMENT then MFA, asked right after the expired-password rule. */
  readonly rules: readonly ForcedActionRule[];
}

export interface FactorDeps {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  hasher: PasswordHasher;
  secretBox: SecretBox;
  dataKey: Buffer;
  geoIp: GeoIpLookup;
  reference: ReferenceService;
  sessions: SessionService;
  /** Replace the transports (tests); by default they follow the configuration. */
  mail?: MailSender;
  sms?: SmsSender;
}

/** SMTP when configured; else the dev outbox, except in production, where email is unavailable. */
function mailFor(config: Config, outbox: Outbox): MailSender {
  if (config.smtpUrl) return smtpMailSender(config.smtpUrl, config.mailFrom);
  return config.isProduction ? unconfiguredMailSender : outboxMailSender(outbox);
}

function smsFor(config: Config, outbox: Outbox): SmsSender {
  if (config.smsGatewayUrl) return httpSmsGateway(config.smsGatewayUrl, config.smsGatewayToken);
  return config.isProduction ? unconfiguredSmsSender : outboxSmsSender(outbox);
}

export function createFactorServices(deps: FactorDeps): FactorServices {
  const { config, db, clock, random, hasher, secretBox } = deps;
  const outbox = new Outbox(db, clock);
  const mail = deps.mail ?? mailFor(config, outbox);
  const sms = deps.sms ?? smsFor(config, outbox);
  const smsGateway = new SmsGatewayStatus(db, sms);
  const codes = new OneTimeCodes({
    db,
    clock,
    random,
    key: codeKeyFrom(deps.dataKey),
    mail,
    sms,
    smsGateway,
  });
  const factors = new Factors({ db, clock, secretBox, hasher });
  const lockout = new Lockout(db, clock, lockoutPolicyOf(config), usernameKeyer(deps.dataKey));
  const failures = new FailureCounter(db, deps.sessions, lockout);
  const verifier = new CodeVerifier(codes, factors, failures);
  const enrolment = new FactorEnrolmentFlow({
    db,
    clock,
    random,
    secretBox,
    codes,
    verifier,
    factors,
    reference: deps.reference,
    smsGateway,
    totpIssuer: config.totpIssuer,
  });
  return {
    outbox,
    mail,
    sms,
    smsGateway,
    codes,
    factors,
    trustedDevices: new TrustedDevices({ db, clock, random, geoIp: deps.geoIp, reference: deps.reference }),
    enrolment,
    mfa: new MfaFlow({ db, codes, verifier, factors, smsGateway }),
    reenterPassword: new ReenterPassword({
      db,
      clock,
      hasher,
      failures,
      periodMs: config.reenterPasswordMinutes * 60_000,
    }),
    passwordPolicy: new PasswordPolicy(db, config.passwordBlockedTerms),
    lockout,
    failures,
    rules: [factorEnrolmentRule(enrolment), mfaRule],
  };
}
