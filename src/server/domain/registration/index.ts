// The registration service, assembled once per server (http/services.ts) from the shared factor
// parts: one code store, one TOTP, one failure count with the other flows.
import type { Kysely } from 'kysely';
import type { Clock } from '../../adapters/clock';
import type { GeoIpLookup } from '../../adapters/geo-ip';
import type { Random } from '../../adapters/random';
import type { SecretBox } from '../../adapters/secret-box';
import type { Database } from '../../db/schema';
import type { CaptchaService } from '../captcha';
import type { FactorServices } from '../factors';
import { CodeVerifier } from '../factors/verification';
import type { PasswordHasher } from '../passwords';
import type { ReferenceService } from '../reference';
import type { SessionService } from '../sessions';
import type { SignInFlow } from '../sign-in-flow';
import { RegistrationService } from './service';

export { RegistrationService } from './service';

export function createRegistrationService(deps: {
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  hasher: PasswordHasher;
  secretBox: SecretBox;
  captcha: CaptchaService;
  factors: FactorServices;
  reference: ReferenceService;
  sessions: SessionService;
  signInFlow: SignInFlow;
  geoIp: GeoIpLookup;
  totpIssuer: string;
}): RegistrationService {
  const failures = deps.factors.failures;
  return new RegistrationService({
    db: deps.db,
    clock: deps.clock,
    random: deps.random,
    hasher: deps.hasher,
    secretBox: deps.secretBox,
    captcha: deps.captcha,
    codes: deps.factors.codes,
    factors: deps.factors.factors,
    verifier: new CodeVerifier(deps.factors.codes, deps.factors.factors, failures),
    failures,
    smsGateway: deps.factors.smsGateway,
    reference: deps.reference,
    passwordPolicy: deps.factors.passwordPolicy,
    sessions: deps.sessions,
    signInFlow: deps.signInFlow,
    geoIp: deps.geoIp,
    totpIssuer: deps.totpIssuer,
  });
}
