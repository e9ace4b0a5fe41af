// Admin role option lists (section 3): every role an admin could assign, with READ_ONLY and
// VIEW_ACCESS_REQUESTS listed but disabled, because those are granted outside the portal.
import type { Kysely } from 'kysely';
import type { AdminApp, AdminRoles } from '../../../contract/admin';
import type { Database } from '../../db/schema';

export const DISABLED_ROLES: readonly string[] = ['READ_ONLY', 'VIEW_ACCESS_REQUESTS'];

export async function adminRoles(db: Kysely<Database>): Promise<AdminRoles> {
  const roles = await db.selectFrom('roles').select('code').orderBy('code').execute();
  const options = roles.map((r) => ({ value: r.code, disabled: DISABLED_ROLES.includes(r.code) }));
  return { samAdmin: options, accessRequestUser: options.map((o) => ({ ...o })) };
}

/** Every app with its settings and facilities, by name. */
export async function adminApps(db: Kysely<Database>): Promise<AdminApp[]> {
  const [apps, facilities] = await Promise.all([
    db
      .selectFrom('apps')
      .select(['code', 'name', 'context_type', 'facility_handoff', 'access_request_handling'])
      .orderBy('name')
      .execute(),
    db.selectFrom('facilities').select(['app_code', 'code', 'name', 'alias']).orderBy('code').execute(),
  ]);
  return apps.map((app) => ({
    code: app.code,
    name: app.name,
    contextType: app.context_type,
    facilityHandoff: app.facility_handoff,
    accessRequestHandling: app.access_request_handling,
    facilities: facilities
      .filter((f) => f.app_code === app.code)
      .map((f) => ({ code: f.code, name: f.name, alias: f.alias })),
  }));
}
