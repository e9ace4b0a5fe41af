// The demo service providers' record of accepted assertions (table demo_sp_assertions), in the
// database rather than in process memory, so a response is accepted once whichever server
// instance it is posted to. Rows are kept until the assertion expires, then pruned.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { AssertionLedger } from './saml-sp';

export function assertionLedger(db: Kysely<Database>, appCode: string): AssertionLedger {
  return {
    async claim(assertionId, expiresAt) {
      await db.deleteFrom('demo_sp_assertions').where('expires_at', '<=', new Date()).execute();
      const inserted = await db
        .insertInto('demo_sp_assertions')
        .values({ app_code: appCode, assertion_id: assertionId, expires_at: expiresAt })
        .onConflict((oc) => oc.columns(['app_code', 'assertion_id']).doNothing())
        .returning('assertion_id')
        .executeTakeFirst();
      return inserted !== undefined;
    },
  };
}
