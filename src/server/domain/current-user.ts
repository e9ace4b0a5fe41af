// The current-user answer (section 3) for anonymous visitors and for identities.
import { ANONYMOUS_USER, type CurrentUser, type HandoffTarget } from '../../contract/entities';
import type { Identity, SessionType } from '../db/schema';

export { ANONYMOUS_USER };

export function toCurrentUser(identity: Identity, roles: readonly string[], type: SessionType): CurrentUser {
  return {
    id: identity.id,
    username: identity.username,
    name: identity.name,
    email: identity.email,
    mobile: identity.mobile,
    phone: identity.phone,
    birthDate: identity.birth_date,
    // A pending session has proven the password but not finished the forced steps.
    isAuthenticated: type === 'AUTHENTICATED',
    isAdmin: identity.is_admin,
    isStaff: identity.is_staff,
    roles: [...roles],
    type,
  };
}

export interface GrantRow {
  appCode: string;
  appName: string;
  facilityHandoff: 'NONE' | 'SELECTED_BEFORE_HANDOFF';
  facilityCode: string | null;
  facilityName: string | null;
  facilityAlias: string | null;
}

/**
 * Handoff targets from grants: one per granted facility for apps that hand off a facility, one
 * without facility otherwise (an app that takes no facility is listed once, however many
 * facility grants it has).
 */
export function handoffTargetsFrom(grants: readonly GrantRow[]): HandoffTarget[] {
  const targets: HandoffTarget[] = [];
  const seen = new Set<string>();
  for (const g of grants) {
    const withFacility = g.facilityHandoff === 'SELECTED_BEFORE_HANDOFF' && g.facilityCode !== null;
    const key = withFacility ? `${g.appCode}\u0000${g.facilityCode}` : g.appCode;
    if (seen.has(key)) continue;
    seen.add(key);
    targets.push({
      appName: g.appName,
      appCode: g.appCode,
      facilityCode: withFacility ? g.facilityCode : null,
      facilityName: withFacility ? g.facilityName : null,
      facilityAliasOrCode: withFacility ? (g.facilityAlias ?? g.facilityCode) : null,
    });
  }
  return targets;
}
