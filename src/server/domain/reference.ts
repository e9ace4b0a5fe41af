// Read-only answers about the portal: default context, realms, enumerations, properties, apps.
import type { Kysely } from 'kysely';
import { PORTAL_APP_CODE, type App } from '../../contract/entities';
import {
  defaultRealm,
  findApp,
  findEnumeration,
  findProperty,
  findRealm,
} from '../db/repositories/reference';
import type { Database, SessionContext } from '../db/schema';

export const SMS_GATEWAY_STATUS = 'sms-gateway-status';
export const TRUSTED_DEVICE_PERIOD = 'trusted-device-period';

export type PropertyAnswer = { name: string; value: string | null } | { isSmsGatewayAvailable: boolean };

export class ReferenceService {
  constructor(private readonly db: Kysely<Database>) {}

  /** The context of a visitor no other application sent: the portal itself, default realm. */
  async defaultContext(): Promise<SessionContext> {
    const realm = await defaultRealm(this.db);
    if (!realm) throw new Error('No default realm: the reference-data migration has not run');
    return { appCode: PORTAL_APP_CODE, realmCode: realm.code, showInHeader: false, type: 'DIRECT' };
  }

  /** Unknown realms answer false: nothing can sign in to them. */
  async realmAuthEnabled(code: string): Promise<boolean> {
    return (await findRealm(this.db, code))?.auth_enabled ?? false;
  }

  /** Null when no enumeration has that name. */
  async enumeration(name: string): Promise<Array<{ code: string; description: string }> | null> {
    const values = await findEnumeration(this.db, name);
    return values.length > 0 ? values : null;
  }

  async property(name: string): Promise<PropertyAnswer> {
    const value = (await findProperty(this.db, name)) ?? null;
    if (name === SMS_GATEWAY_STATUS) return { isSmsGatewayAvailable: value === 'AVAILABLE' };
    return { name, value };
  }

  /** 7 (days) when configured so, else 1 (24 hours), the spec's default. */
  async trustedDevicePeriod(): Promise<1 | 7> {
    return (await findProperty(this.db, TRUSTED_DEVICE_PERIOD)) === '7' ? 7 : 1;
  }

  async app(code: string): Promise<App | null> {
    const row = await findApp(this.db, code);
    if (!row) return null;
    return {
      code: row.code,
      name: row.name,
      contextType: row.context_type,
      facilityHandoff: row.facility_handoff,
      accessRequestHandling: row.access_request_handling,
      frameOrigin: row.frame_origin,
    };
  }

  /** The parent-frame origin registered for the context's app, if any. */
  async frameOrigin(context: SessionContext): Promise<string | null> {
    if (context.appCode === PORTAL_APP_CODE) return null;
    return (await findApp(this.db, context.appCode))?.frame_origin ?? null;
  }
}
