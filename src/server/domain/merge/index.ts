// The merge service, assembled once per server (http/services.ts) and reached by the routes as
// `app.services.merge`. Codes and failure counts are the factor services' own.
import type { Kysely } from 'kysely';
import type { Clock } from '../../adapters/clock';
import type { Database } from '../../db/schema';
import type { FactorServices } from '../factors';
import { CodeVerifier } from '../factors/verification';
import type { PasswordHasher } from '../passwords';
import type { ReferenceService } from '../reference';
import type { SessionService } from '../sessions';
import { MergeService, type MergeStatementObserver } from './service';

export { MergeService, type MergeStatementObserver } from './service';

export function createMergeService(deps: {
  db: Kysely<Database>;
  clock: Clock;
  hasher: PasswordHasher;
  factors: FactorServices;
  reference: ReferenceService;
  sessions: SessionService;
  observe?: MergeStatementObserver | undefined;
}): MergeService {
  const failures = deps.factors.failures;
  return new MergeService({
    db: deps.db,
    clock: deps.clock,
    hasher: deps.hasher,
    codes: deps.factors.codes,
    mail: deps.factors.mail,
    verifier: new CodeVerifier(deps.factors.codes, deps.factors.factors, failures),
    reference: deps.reference,
    endSession: (idHash) => deps.sessions.end(idHash),
    lockout: deps.factors.lockout,
    ...(deps.observe ? { observe: deps.observe } : {}),
  });
}
