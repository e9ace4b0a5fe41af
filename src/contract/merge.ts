// Merge-identities calls of section 7 (forced step DUPLICATE_ACCOUNTS) and the merge entities of section 3.
import * as v from 'valibot';
import { defineCall } from './call';
import { AuthenticationOutcome } from './entities';
import { FieldError } from './errors';
import { email, isoDate, limits, requestBody, requiredSecret, requiredString } from './fields';
import { sendCodeCall, verifyCodeCall, VerifyCodeBody } from './forced';

const ID_MAX = 100;
const identityId = requiredString(ID_MAX);

/** An account that shares the email address, as the server lists it. */
export const IdentityCandidate = v.object({
  id: v.string(),
  username: v.string(),
  name: v.nullable(v.string()),
  /** An identity-verification conflict: the account cannot be ticked; the user must call the helpdesk. */
  isIdvConflict: v.boolean(),
});
export type IdentityCandidate = v.InferOutput<typeof IdentityCandidate>;
/** The candidate as the select-accounts form holds it (section 3's `checked` and `password`). */
export const IdentityCandidateSelection = v.object({
  ...IdentityCandidate.entries,
  checked: v.boolean(),
  password: v.string(),
});
export type IdentityCandidateSelection = v.InferOutput<typeof IdentityCandidateSelection>;

export const PreferredUsernameOption = v.object({ username: v.string() });
export type PreferredUsernameOption = v.InferOutput<typeof PreferredUsernameOption>;

export const MergeDetailFacility = v.object({
  id: v.string(),
  appName: v.string(),
  name: v.string(),
  code: v.string(),
});
export type MergeDetailFacility = v.InferOutput<typeof MergeDetailFacility>;

/** What the merged account will look like, shown on the confirmation step. */
export const MergeDetails = v.object({
  username: v.string(),
  name: v.nullable(v.string()),
  email: v.nullable(v.string()),
  mobile: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  birthDate: v.nullable(isoDate),
  accessibleFacilities: v.array(MergeDetailFacility),
});
export type MergeDetails = v.InferOutput<typeof MergeDetails>;

/** Selected accounts, each with its password; an empty list is the None option. */
export const SelectAccountsRequest = requestBody({
  identities: v.array(requestBody({ id: identityId, password: requiredSecret() })),
});
export type SelectAccountsRequest = v.InferInput<typeof SelectAccountsRequest>;

/**
 * Not shown: the shape of the select-accounts result beyond section 4.4's "if the result says
 * changeEmail": true when some accounts sharing the email were not selected.
 */
export const SelectAccountsResult = v.object({ changeEmail: v.boolean() });

/** Not shown: the confirm answer. It names what the completed page shows. */
export const MergeResult = v.object({ preferredUsername: v.string(), mergedUsernames: v.array(v.string()) });
export type MergeResult = v.InferOutput<typeof MergeResult>;

/**
 * 422 of a merge call: `errors` lists `{ fieldName, message }`. Field names (not shown, chosen here):
 * `idvConflict` (banner, message shown as is), `identities` or `identities.<id>.password`
 * (Select accounts), `email` (Change email), `preferredUsername` (Choose preferred username).
 */
export const MergeValidationError = v.object({ message: v.string(), errors: v.array(FieldError) });
export type MergeValidationError = v.InferOutput<typeof MergeValidationError>;
export const MERGE_ERROR_FIELDS = {
  idvConflict: 'idvConflict',
  identities: 'identities',
  identityPassword: (id: string) => `identities.${id}.password`,
  email: 'email',
  preferredUsername: 'preferredUsername',
} as const;

const MERGE = 'forced-actions/merge-identities';
// Not shown: the code check answers 204; the wizard knows the next step from its own data.
const mergeVerify = { body: VerifyCodeBody, response: v.null() };

export const mergeCalls = {
  getMergeIdentities: defineCall({
    id: 'getMergeIdentities',
    method: 'GET',
    path: MERGE,
    response: v.array(IdentityCandidate),
  }),
  getPreferredUsernames: defineCall({
    id: 'getPreferredUsernames',
    method: 'GET',
    path: `${MERGE}/preferred-usernames`,
    response: v.array(PreferredUsernameOption),
  }),
  // Skip and continue-sign-in resume sign-in, so they answer like sign-in does.
  skipMerge: defineCall({
    id: 'skipMerge',
    method: 'GET',
    path: `${MERGE}/skip`,
    response: AuthenticationOutcome,
  }),
  mergeContinueSignIn: defineCall({
    id: 'mergeContinueSignIn',
    method: 'GET',
    path: `${MERGE}/continue-sign-in`,
    response: AuthenticationOutcome,
  }),
  mergeSelectAccounts: defineCall({
    id: 'mergeSelectAccounts',
    method: 'POST',
    path: `${MERGE}/select-accounts`,
    body: SelectAccountsRequest,
    response: SelectAccountsResult,
  }),
  // Sends a code to the new email; merge-identities/verify-email checks it.
  mergeChangeEmail: defineCall({
    id: 'mergeChangeEmail',
    method: 'POST',
    path: `${MERGE}/change-email`,
    body: requestBody({ email }),
    response: v.null(),
  }),
  mergePreferredUsername: defineCall({
    id: 'mergePreferredUsername',
    method: 'POST',
    path: `${MERGE}/preferred-username`,
    body: requestBody({ username: requiredString(limits.registrationUsernameMax) }),
    response: v.null(),
  }),
  generateMergeDetails: defineCall({
    id: 'generateMergeDetails',
    method: 'POST',
    path: `${MERGE}/generate-merge-details`,
    response: MergeDetails,
  }),
  confirmMerge: defineCall({
    id: 'confirmMerge',
    method: 'POST',
    path: `${MERGE}/confirm`,
    response: MergeResult,
  }),
  // Section 7 lists every code call under this prefix. The wizard verifies only the new email (the
  // other accounts are proven by their passwords): the SMS, mobile and authenticator-app calls are
  // answered with a 422 that says so.
  mergeSendEmail: sendCodeCall('merge', MERGE, 'email'),
  mergeSendSms: sendCodeCall('merge', MERGE, 'sms'),
  mergeVerifyEmail: verifyCodeCall('merge', MERGE, 'email', mergeVerify),
  mergeVerifyMobile: verifyCodeCall('merge', MERGE, 'mobile', mergeVerify),
  mergeVerifyAuthenticatorApp: verifyCodeCall('merge', MERGE, 'authenticator-app', mergeVerify),
} as const;
