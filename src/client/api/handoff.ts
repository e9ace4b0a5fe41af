// One function per handoff call of src/contract/handoff.ts, each taking `{ signal }` last.
import type { HandoffRequest } from '../../contract/handoff';
import { handoffCalls } from '../../contract/handoff';
import { request, type CallOptions } from './request';

/** The user's handoff targets, of one application when `appCode` is given. */
export const getHandoffTargets = ({ appCode }: { appCode?: string } = {}, { signal }: CallOptions = {}) =>
  request(handoffCalls.getHandoffTargets, { query: { appCode }, signal });

/** IdP-initiated handoff (applications page, header grid): the target and what to post to its ACS URL. */
export const samlHandoff = (body: HandoffRequest, { signal }: CallOptions = {}) =>
  request(handoffCalls.samlHandoff, { body, signal });

/** Handoff answering the sign-in request an application sent (/single-sign-on). */
export const ssoSamlHandoff = (body: HandoffRequest, { signal }: CallOptions = {}) =>
  request(handoffCalls.ssoSamlHandoff, { body, signal });

/** The facilities of the forced facility selection. */
export const getSelectFacilityFacilities = ({ signal }: CallOptions = {}) =>
  request(handoffCalls.getSelectFacilityFacilities, { signal });

/** Handoff to the facility chosen in the forced facility selection. */
export const selectFacilitySamlHandoff = (
  body: { appCode: string; facilityCode: string },
  { signal }: CallOptions = {},
) => request(handoffCalls.selectFacilitySamlHandoff, { body, signal });
