// Handoff calls of section 7: handing an authenticated user off to another application (SAML).
// The apps calls (apps/{appCode}, current-user/accessible-apps) live in session.ts.
import * as v from 'valibot';
import { defineCall } from './call';
import { Facility, HandoffTarget, SamlHandoffData } from './entities';
import { requestBody, requiredString } from './fields';

const APP_CODE_MAX = 50;
const appCode = requiredString(APP_CODE_MAX);
const facilityCode = requiredString(APP_CODE_MAX);

/** Which app (and, for apps that hand off a facility, which facility) to hand off to. */
export const HandoffRequest = requestBody({ appCode, facilityCode: v.nullable(facilityCode) });
export type HandoffRequest = v.InferInput<typeof HandoffRequest>;

/** The target handed off to, plus what the portal posts to the app's consumer URL. */
export const HandoffResult = v.object({ ...HandoffTarget.entries, saml: SamlHandoffData });
export type HandoffResult = v.InferOutput<typeof HandoffResult>;

export const handoffCalls = {
  getHandoffTargets: defineCall({
    id: 'getHandoffTargets',
    method: 'GET',
    path: 'current-user/handoff-targets',
    query: v.strictObject({ appCode: v.optional(v.pipe(v.string(), v.maxLength(APP_CODE_MAX))) }),
    response: v.array(HandoffTarget),
  }),
  samlHandoff: defineCall({
    id: 'samlHandoff',
    method: 'POST',
    path: 'current-user/saml-handoff',
    body: HandoffRequest,
    response: HandoffResult,
  }),
  ssoSamlHandoff: defineCall({
    id: 'ssoSamlHandoff',
    method: 'POST',
    path: 'current-user/sso-saml-handoff',
    body: HandoffRequest,
    response: HandoffResult,
  }),
  getSelectFacilityFacilities: defineCall({
    id: 'getSelectFacilityFacilities',
    method: 'GET',
    path: 'forced-actions/select-facility/facilities',
    response: v.array(Facility),
  }),
  selectFacilitySamlHandoff: defineCall({
    id: 'selectFacilitySamlHandoff',
    method: 'POST',
    path: 'forced-actions/select-facility/saml-handoff',
    // The user clicked a facility of the list, so here the facility is not optional.
    body: requestBody({ appCode, facilityCode }),
    response: HandoffResult,
  }),
} as const;
