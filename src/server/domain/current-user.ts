// The current-user answer (section 3) for anonymous visitors and for identities.
import {
  ANONYMOUS_USER,
  type CurrentUser,
  type ForcedAction,
  type HandoffTarget,
} from '../../contract/entities';
import type { Identity, SessionType } from '../db/schema';

export { ANONYMOUS_USER };

/**
 * Forced steps at which a pending sign-in has proven the password only: the second factor is
 * still owed (enrolment proves the factors MFA would ask for, and comes first).
 */
const BEFORE_SECOND_FACTOR: ReadonlySet<ForcedAction> = new Set(['FACTOR_ENROLMENT', 'MFA']);

/**
 * The current user of a session of `type` whose forced step (pending sessions) is `forcedAction`.
 * Until the second factor is proven the contact details and date of birth are withheld (null):
 * a stolen password alone must not reveal a customer's email, mobile, phone or birth date, and
 * none of those steps shows them. They are answered from the next step on.
 */
export function toCurrentUser(
  identity: Identity,
  roles: readonly string[],
  type: SessionType,
  forcedAction: ForcedAction | null | undefined,
): CurrentUser {
  const withheld =
    type === 'AUTHENTICATION_PENDING' && (!forcedAction || BEFORE_SECOND_FACTOR.has(forcedAction));
  return {
    id: identity.id,
    username: identity.username,
    name: identity.name,
    email: withheld ? null : identity.email,
    mobile: withheld ? null : identity.mobile,
    phone: withheld ? null : identity.phone,
    birthDate: withheld ? null : identity.birth_date,
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
