// Every user-visible string of /access-requests (section 2.7). The spec gives 'result(s)', 'N pages'
// and 'System' word for word; the rest of these screens is "not shown" and worded here.
export const accessRequestsTexts = {
  heading: 'Access Requests',
  searchLabel: 'Search access requests',
  searchPlaceholder: 'Code, app, facility or requester',
  search: 'Search',
  /** Section 2.7, word for word: the result count. */
  resultCount: (n: number) => `${n} result(s)`,
  /** Section 2.7, word for word: shown when there is more than one page. */
  pageCount: (n: number) => `${n} pages`,
  /**
   * Not in the spec (worded here): after the count when more match than the pages reach (the
   * admin lists' LIST_PAGE_LIMIT pages); `rows` is those pages' rows.
   */
  pageLimit: (rows: number) =>
    `Only the first ${rows.toLocaleString('en-AU')} results can be paged through: narrow the search to see the others.`,
  pagination: 'Pages',
  previousPage: 'Previous',
  nextPage: 'Next',
  noRequests: 'No access requests match the search.',
  loadFailed: 'The access requests could not be loaded.',
  retry: 'Try again',
  loading: 'Loading',
  columns: {
    code: 'Code',
    app: 'App',
    facility: 'Facility',
    requester: 'Requester',
    status: 'Status',
    created: 'Created',
  },
  status: { PENDING: 'Pending', APPROVED: 'Approved', REJECTED: 'Rejected' } as Record<string, string>,
  noFacility: '—',
  backToList: 'All access requests',
  requestHeading: (code: string) => `Access request ${code}`,
  tabs: { organisations: 'Organisations', history: 'History', apiCalls: 'API calls' },
  tabsLabel: 'Access request',
  organisation: {
    app: 'App',
    facility: 'Facility',
    requester: 'Requester',
    status: 'Status',
    created: 'Created',
    decided: 'Decided',
  },
  notDecided: 'Not yet decided',
  noFacilityText: 'The app does not take a facility.',
  /** Section 2.7, word for word: an item without an actor. */
  system: 'System',
  historyColumns: {
    date: 'Date',
    actor: 'Actor',
    type: 'Event',
    ticket: 'Ticket',
    description: 'Description',
  },
  noHistory: 'There is no history yet.',
  noApiCalls: 'The request has made no outbound calls.',
  historyLoadFailed: 'The history could not be loaded.',
  viaApp: (name: string) => `via ${name}`,
  /** An admin's decision on a pending request (not shown in the spec: worded here). */
  decision: {
    actionsLabel: 'Decide this access request',
    /** In place of Approve and Reject on an admin's own pending request (the server refuses it too). */
    ownRequest: 'Another admin must decide your own access request.',
    approve: 'Approve',
    reject: 'Reject',
    approveHeading: (code: string) => `Approve access request ${code}?`,
    rejectHeading: (code: string) => `Reject access request ${code}?`,
    approveSummary: (requester: string, target: string) =>
      `${requester} will be given access to ${target} and told by email.`,
    rejectSummary: (requester: string, target: string) =>
      `${requester} will not be given access to ${target} and will be emailed the reason.`,
    ticketLabel: 'Jira ticket code',
    ticketPlaceholder: 'SUP-999999',
    ticketHint: 'The ticket this decision is recorded for.',
    reasonLabel: 'Reason',
    reasonHint: 'Sent to the requester and kept in the history. At most 500 characters.',
    confirmApprove: 'Confirm approval',
    confirmReject: 'Confirm rejection',
    cancel: 'Cancel',
    refusedTitle: 'The decision was not saved',
    approved: (code: string) => `Access request ${code} approved: the access has been granted.`,
    rejected: (code: string) => `Access request ${code} rejected: the requester has been told the reason.`,
    alreadyDecidedTitle: 'This access request was not changed',
    target: (app: string, facility: string | null) => (facility ? `${app} at ${facility}` : app),
  },
} as const;
