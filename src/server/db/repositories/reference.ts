// Reference data: realms, properties, enumerations, apps and facilities.
import type { Kysely } from 'kysely';
import type { Database } from '../schema';

export async function findRealm(db: Kysely<Database>, code: string) {
  return db.selectFrom('realms').selectAll().where('code', '=', code).executeTakeFirst();
}

export async function defaultRealm(db: Kysely<Database>) {
  return db.selectFrom('realms').selectAll().where('is_default', '=', true).executeTakeFirst();
}

export async function findProperty(db: Kysely<Database>, name: string): Promise<string | null | undefined> {
  const row = await db.selectFrom('properties').select('value').where('name', '=', name).executeTakeFirst();
  return row ? row.value : undefined;
}

export async function findEnumeration(db: Kysely<Database>, name: string) {
  return db
    .selectFrom('enumerations')
    .select(['code', 'description'])
    .where('name', '=', name)
    .orderBy('sort_order')
    .orderBy('code')
    .execute();
}

export async function findApp(db: Kysely<Database>, code: string) {
  return db.selectFrom('apps').selectAll().where('code', '=', code).executeTakeFirst();
}

/** Frame origins and ACS URLs of every registered app, for the Content-Security-Policy. */
export async function appEndpoints(db: Kysely<Database>) {
  return db.selectFrom('apps').select(['frame_origin', 'acs_url']).execute();
}

/** The identity's grants with app and facility, ordered by app name then facility code. */
export async function grantsOf(db: Kysely<Database>, identityId: string) {
  return db
    .selectFrom('access_grants as g')
    .innerJoin('apps as a', 'a.code', 'g.app_code')
    .leftJoin('facilities as f', 'f.id', 'g.facility_id')
    .select([
      'a.code as appCode',
      'a.name as appName',
      'a.facility_handoff as facilityHandoff',
      'f.code as facilityCode',
      'f.name as facilityName',
      'f.alias as facilityAlias',
    ])
    .where('g.identity_id', '=', identityId)
    .orderBy('a.name')
    .orderBy('a.code')
    .orderBy('f.code')
    .execute();
}
