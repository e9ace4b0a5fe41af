// Apps, grants, AuthnRequest ids and session contexts as the handoff needs them.
import type { Kysely } from 'kysely';
import type { Database, SessionContext } from '../schema';

export async function findAppByCode(db: Kysely<Database>, code: string) {
  return db.selectFrom('apps').selectAll().where('code', '=', code).executeTakeFirst();
}

/** The SAML app whose SP entity id this is. */
export async function findSamlAppByEntityId(db: Kysely<Database>, entityId: string) {
  return db
    .selectFrom('apps')
    .selectAll()
    .where('entity_id', '=', entityId)
    .where('context_type', '=', 'SAML')
    .executeTakeFirst();
}

export interface AppGrantRow {
  facilityCode: string | null;
  facilityName: string | null;
  facilityAlias: string | null;
}

/** The identity's grants for one app (one row per facility; a grant without facility has nulls). */
export async function grantsForApp(
  db: Kysely<Database>,
  identityId: string,
  appCode: string,
): Promise<AppGrantRow[]> {
  return db
    .selectFrom('access_grants as g')
    .leftJoin('facilities as f', 'f.id', 'g.facility_id')
    .select(['f.code as facilityCode', 'f.name as facilityName', 'f.alias as facilityAlias'])
    .where('g.identity_id', '=', identityId)
    .where('g.app_code', '=', appCode)
    .orderBy('f.code')
    .execute();
}

/** How many facilities of the app the identity may be handed off to. */
export async function countFacilityGrants(
  db: Kysely<Database>,
  identityId: string,
  appCode: string,
): Promise<number> {
  const row = await db
    .selectFrom('access_grants')
    .select((eb) => eb.fn.count<string>('facility_id').distinct().as('n'))
    .where('identity_id', '=', identityId)
    .where('app_code', '=', appCode)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Takes an AuthnRequest id for the app: true the first time, false when it was taken before (a
 * replay). Ids whose freshness has run out are swept on the way, so the table stays small.
 */
export async function takeSamlRequestId(
  db: Kysely<Database>,
  row: { appCode: string; requestId: string; expiresAt: Date; now: Date },
): Promise<boolean> {
  await db.deleteFrom('saml_request_ids').where('expires_at', '<=', row.now).execute();
  const inserted = await db
    .insertInto('saml_request_ids')
    .values({ app_code: row.appCode, request_id: row.requestId, expires_at: row.expiresAt })
    .onConflict((oc) => oc.columns(['app_code', 'request_id']).doNothing())
    .returning('request_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Replaces the session's context; answers false when the session is gone. */
export async function updateSessionContext(
  db: Kysely<Database>,
  idHash: string,
  context: SessionContext,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ context: JSON.stringify(context) })
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
