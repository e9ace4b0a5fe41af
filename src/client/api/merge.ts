// Merge-identities calls of src/contract/merge.ts (the DUPLICATE_ACCOUNTS step), each taking
// `{ signal }` last. 422s reject with handled = false: the merge machine routes them.
import { mergeCalls } from '../../contract/merge';
import { request, type CallOptions } from './request';

export const getMergeIdentities = ({ signal }: CallOptions = {}) =>
  request(mergeCalls.getMergeIdentities, { signal });

export const skipMerge = ({ signal }: CallOptions = {}) => request(mergeCalls.skipMerge, { signal });

export const mergeContinueSignIn = ({ signal }: CallOptions = {}) =>
  request(mergeCalls.mergeContinueSignIn, { signal });

export const mergeSelectAccounts = (
  identities: Array<{ id: string; password: string }>,
  { signal }: CallOptions = {},
) => request(mergeCalls.mergeSelectAccounts, { body: { identities }, signal });

export const mergeChangeEmail = (email: string, { signal }: CallOptions = {}) =>
  request(mergeCalls.mergeChangeEmail, { body: { email }, signal });

export const mergeSendEmail = ({ signal }: CallOptions = {}) =>
  request(mergeCalls.mergeSendEmail, { signal });

export const mergeVerifyEmail = (code: string, { signal }: CallOptions = {}) =>
  request(mergeCalls.mergeVerifyEmail, { body: { code }, signal });

export const getPreferredUsernames = ({ signal }: CallOptions = {}) =>
  request(mergeCalls.getPreferredUsernames, { signal });

export const mergePreferredUsername = (username: string, { signal }: CallOptions = {}) =>
  request(mergeCalls.mergePreferredUsername, { body: { username }, signal });

export const generateMergeDetails = ({ signal }: CallOptions = {}) =>
  request(mergeCalls.generateMergeDetails, { signal });

export const confirmMerge = ({ signal }: CallOptions = {}) => request(mergeCalls.confirmMerge, { signal });
