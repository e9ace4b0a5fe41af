// Admin and access-request calls: roles, id lookup, paged history and list.
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { calls, Paged, HistoryItem, invitationFixesName } from '../../src/contract';
import { LIST_PAGE_LIMIT } from '../../src/contract/admin';
import { issuesAt, issuesOf } from './helpers';

const item = {
  eventDate: '2026-03-01T10:00:00.000Z',
  actorApp: { code: 'SAM', name: 'Portal' },
  actor: { id: '1', username: 'admin1' },
  type: { text: 'Approved', variant: 'success' },
  ticket: { code: 'SUP-123456', url: 'https://jira.example.com/browse/SUP-123456' },
  description: 'Approved\nby admin1',
};

describe('admin and access requests', () => {
  it('lists admin roles as option lists', () => {
    expect(
      issuesOf(calls.getAdminRoles.response, {
        samAdmin: [{ value: 'ADMIN', disabled: false }],
        accessRequestUser: [
          { value: 'READ_ONLY', disabled: true },
          { value: 'VIEW_ACCESS_REQUESTS', disabled: true },
        ],
      }),
    ).toEqual([]);
    expect(calls.getAdminRoles.path).toBe('admin/roles');
  });

  it('resolves an app code and code to an access request id', () => {
    expect(issuesOf(calls.getAccessRequestId.params, { appCode: 'LOANS', code: 'AR-1' })).toEqual([]);
    expect(issuesOf(calls.getAccessRequestId.response, { id: '42' })).toEqual([]);
  });

  it('pages history with a zero-based page number, from text or number', () => {
    const query = calls.getAccessRequestHistory.query;
    expect(v.parse(query, { page: '2' })).toEqual({ page: 2 });
    expect(v.parse(query, { page: 0 })).toEqual({ page: 0 });
    expect(v.parse(query, {})).toEqual({});
    expect(issuesOf(query, { page: '-1' }).length).toBeGreaterThan(0);
    expect(issuesOf(query, { page: 'two' }).length).toBeGreaterThan(0);
    expect(issuesOf(query, { size: 50 }).length).toBe(1);
    expect(
      issuesOf(calls.getAccessRequestHistory.response, {
        data: [item, { ...item, actor: undefined, actorApp: null, ticket: null, description: null }],
        page: { number: 0, size: 5, totalElements: 6 },
      }),
    ).toEqual([]);
  });

  it(`pages the admin lists up to page ${LIST_PAGE_LIMIT - 1} (zero-based): a later page is refused at page`, () => {
    const lists = [calls.searchIdentities, calls.listInvitations, calls.getAccessRequests];
    const tooFar = `Value must be less than or equal to ${LIST_PAGE_LIMIT - 1}`;
    for (const { id, query } of lists) {
      expect(v.parse(query, { page: String(LIST_PAGE_LIMIT - 1) }), id).toEqual({
        page: LIST_PAGE_LIMIT - 1,
      });
      expect(v.parse(query, { page: 0, query: 'smith' }), id).toEqual({ page: 0, query: 'smith' });
      for (const page of [LIST_PAGE_LIMIT, String(LIST_PAGE_LIMIT), '5000000']) {
        expect(issuesAt(query, { page }, 'page'), `${id} ${page}`).toEqual([tooFar]);
      }
    }
    // A history's pages (five items each, one identity's or request's) are not the lists'.
    expect(v.parse(calls.getAccessRequestHistory.query, { page: String(LIST_PAGE_LIMIT) })).toEqual({
      page: LIST_PAGE_LIMIT,
    });
  });

  it('fixes the invitation name only for a non-staff invitee with a customer number (section 5)', () => {
    expect(invitationFixesName({ isStaff: false, customerNumber: 'C20001' })).toBe(true);
    expect(invitationFixesName({ isStaff: true, customerNumber: 'C20001' })).toBe(false);
    expect(invitationFixesName({ isStaff: false, customerNumber: null })).toBe(false);
    expect(invitationFixesName({ isStaff: false })).toBe(false);
    expect(invitationFixesName({ isStaff: false, customerNumber: '  ' })).toBe(false);
    // The body itself takes a nameless invitation: the server refuses it with 422 at the name field,
    // not 400, so the form can show it there.
    const body = { email: 'a@example.com', appCode: 'PAYROLL', customerNumber: 'C20001', isStaff: false };
    expect(issuesOf(calls.createInvitation.body, body)).toEqual([]);
  });

  it('reads an actor-less history item as System (no actor)', () => {
    const parsed = v.parse(HistoryItem, { ...item, actor: null });
    expect(parsed.actor).toBeNull();
  });

  it('lists access requests with the paged list helper', () => {
    expect(issuesOf(calls.getAccessRequests.query, { page: 1, query: 'loans' })).toEqual([]);
    expect(
      issuesOf(calls.getAccessRequests.response, {
        data: [
          {
            id: '42',
            code: 'AR-1',
            app: { code: 'LOANS', name: 'Loans' },
            facility: { code: 'F001', name: 'Harbour branch' },
            requester: { id: '1', username: 'C10001', name: 'Casey One' },
            status: 'PENDING',
            createdDate: '2026-03-01T10:00:00.000Z',
          },
        ],
        page: { number: 0, size: 20, totalElements: 1 },
      }),
    ).toEqual([]);
    expect(
      issuesOf(Paged(v.string()), { data: ['a'], page: { number: 0, size: 0, totalElements: 1 } }).length,
    ).toBe(1);
  });
});
