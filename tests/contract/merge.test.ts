// Merge-identities calls: selection, email, preferred username, details, 422 field errors.
import { describe, expect, it } from 'vitest';
import { calls, MERGE_ERROR_FIELDS, MergeValidationError } from '../../src/contract';
import { firstIssue, issuesAt, issuesOf, VALID_PASSWORD } from './helpers';

describe('merge identities', () => {
  it('lists candidates and preferred usernames', () => {
    expect(
      issuesOf(calls.getMergeIdentities.response, [
        { id: '6', username: 'C10006', name: 'Dana Dup', isIdvConflict: false },
        { id: '7', username: 'C10007', name: null, isIdvConflict: true },
      ]),
    ).toEqual([]);
    expect(issuesOf(calls.getPreferredUsernames.response, [{ username: 'C10006' }])).toEqual([]);
    expect(calls.getMergeIdentities.path).toBe('forced-actions/merge-identities');
  });

  it('selects accounts with their passwords; an empty list is None', () => {
    const body = calls.mergeSelectAccounts.body;
    expect(issuesOf(body, { identities: [{ id: '7', password: VALID_PASSWORD }] })).toEqual([]);
    expect(issuesOf(body, { identities: [] })).toEqual([]);
    expect(issuesOf(body, { identities: [{ id: '7', password: '' }] })).toEqual(['Required field']);
    expect(issuesOf(body, { identities: [{ id: '7' }] })).toEqual(['Required field']);
    expect(issuesOf(calls.mergeSelectAccounts.response, { changeEmail: true })).toEqual([]);
  });

  it('changes the email: required, valid, max 500', () => {
    const body = calls.mergeChangeEmail.body;
    expect(issuesOf(body, { email: 'dana@example.com' })).toEqual([]);
    expect(firstIssue(body, { email: '' })).toBe('Required field');
    expect(firstIssue(body, {})).toBe('Required field');
    expect(firstIssue(body, { email: 'not-an-email' })).toBe('Invalid email format');
    expect(firstIssue(body, { email: `${'a'.repeat(490)}@example.com` })).toBe(
      'Size cannot be greater than 500',
    );
    // A long address that is not an address at all is told so first.
    expect(firstIssue(body, { email: 'x'.repeat(501) })).toBe('Invalid email format');
  });

  it('chooses a preferred username', () => {
    expect(issuesOf(calls.mergePreferredUsername.body, { username: 'C10006' })).toEqual([]);
    expect(firstIssue(calls.mergePreferredUsername.body, { username: '' })).toBe('Required field');
  });

  it('answers merge details and the merge result', () => {
    expect(
      issuesOf(calls.generateMergeDetails.response, {
        username: 'C10006',
        name: 'Dana Dup',
        email: 'dup@example.com',
        mobile: null,
        phone: null,
        birthDate: '1980-02-29',
        accessibleFacilities: [{ id: '1', appName: 'Loans', name: 'Harbour branch', code: 'F001' }],
      }),
    ).toEqual([]);
    expect(
      issuesOf(calls.confirmMerge.response, { preferredUsername: 'C10006', mergedUsernames: ['C10007'] }),
    ).toEqual([]);
    expect(issuesOf(calls.skipMerge.response, { outcome: 'DIRECT_LOGIN' })).toEqual([]);
    expect(issuesOf(calls.mergeContinueSignIn.response, { outcome: 'SAML_HANDOFF' })).toEqual([]);
  });

  it('verifies the new email with a code and resends it', () => {
    expect(calls.mergeVerifyEmail.path).toBe('forced-actions/merge-identities/verify-email');
    expect(issuesOf(calls.mergeVerifyEmail.body, { code: '123456' })).toEqual([]);
    expect(calls.mergeSendEmail.path).toBe('forced-actions/merge-identities/send-email');
  });

  it('reads a 422 as a list of field names and messages', () => {
    expect(
      issuesOf(MergeValidationError, {
        message: 'Validation failed',
        errors: [
          { fieldName: MERGE_ERROR_FIELDS.identityPassword('7'), message: 'Incorrect password' },
          { fieldName: MERGE_ERROR_FIELDS.email, message: 'Email is in use' },
        ],
      }),
    ).toEqual([]);
    expect(issuesOf(MergeValidationError, { message: 'x', errors: [{ fieldName: 'email' }] }).length).toBe(1);
    expect(issuesAt(MergeValidationError, { message: 'x' }, 'errors').length).toBe(1);
  });
});
