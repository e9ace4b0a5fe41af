// Handoff calls: request and response shapes.
import { describe, expect, it } from 'vitest';
import { calls } from '../../src/contract';
import { firstIssue, issuesOf } from './helpers';

const target = {
  appName: 'Loans',
  appCode: 'LOANS',
  facilityCode: 'F001',
  facilityName: 'Harbour branch',
  facilityAliasOrCode: 'HB',
};
const saml = {
  assertionConsumerServiceUrl: 'https://loans.example.com/saml/acs',
  samlResponse: 'PHNhbWxwOlJlc3BvbnNlIC8+',
  relayState: null,
};

describe('handoff calls', () => {
  it('takes appCode and a nullable facilityCode', () => {
    const body = calls.samlHandoff.body;
    expect(issuesOf(body, { appCode: 'LOANS', facilityCode: 'F001' })).toEqual([]);
    expect(issuesOf(body, { appCode: 'PAYROLL', facilityCode: null })).toEqual([]);
    expect(issuesOf(calls.ssoSamlHandoff.body, { appCode: 'PAYROLL', facilityCode: null })).toEqual([]);
    expect(firstIssue(body, { appCode: '', facilityCode: null })).toBe('Required field');
    expect(firstIssue(body, { appCode: 'A'.repeat(51), facilityCode: null })).toBe(
      'Size cannot be greater than 50',
    );
    expect(issuesOf(body, { appCode: 'LOANS', facilityCode: null, extra: 1 }).length).toBe(1);
  });

  it('answers the target with its SAML handoff data', () => {
    expect(issuesOf(calls.samlHandoff.response, { ...target, saml })).toEqual([]);
    expect(issuesOf(calls.samlHandoff.response, target).length).toBeGreaterThan(0);
    expect(
      issuesOf(calls.selectFacilitySamlHandoff.response, {
        ...target,
        saml: { ...saml, assertionConsumerServiceUrl: 'not a url' },
      }).length,
    ).toBeGreaterThan(0);
  });

  it('needs a facility when handing off from select-facility', () => {
    const body = calls.selectFacilitySamlHandoff.body;
    expect(issuesOf(body, { appCode: 'LOANS', facilityCode: 'F003' })).toEqual([]);
    expect(firstIssue(body, { appCode: 'LOANS', facilityCode: null })).toBe('Required field');
  });

  it('lists handoff targets, optionally for one app, and facilities', () => {
    expect(issuesOf(calls.getHandoffTargets.query, {})).toEqual([]);
    expect(issuesOf(calls.getHandoffTargets.query, { appCode: 'LOANS' })).toEqual([]);
    expect(issuesOf(calls.getHandoffTargets.response, [target])).toEqual([]);
    expect(
      issuesOf(calls.getSelectFacilityFacilities.response, [
        { code: 'F001', name: 'Harbour branch', aliasOrCode: 'HB', app: { code: 'LOANS' } },
      ]),
    ).toEqual([]);
  });
});
