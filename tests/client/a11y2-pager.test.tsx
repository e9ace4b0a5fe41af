// WCAG 4.1.3: the lists' result count (the Pager's status region) is on the page from the first
// load, empty, so that a screen reader announces the count when the first result comes: a region
// added with its text already in it is not announced.
import { act, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { fromPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import { historyMachine } from '../../machines/access-requests/history/history.machine';
import { requestListMachine } from '../../machines/access-requests/request-list/request-list.machine';
import { identitySearchMachine } from '../../machines/admin/identity-search/identity-search.machine';
import { invitationsMachine } from '../../machines/admin/invitations/invitations.machine';
import { accessRequestsTexts as t } from '../../src/client/flows/access-requests/access-requests.texts';
import { HistoryTab } from '../../src/client/flows/access-requests/HistoryTab';
import { RequestList } from '../../src/client/flows/access-requests/RequestList';
import { IdentitySearchScreen } from '../../src/client/flows/admin/IdentitySearchScreen';
import { InvitationsScreen } from '../../src/client/flows/admin/InvitationsScreen';
import { historyPage, listPage } from '../machines/access-requests.fixtures';
import { IDENTITY_ID, identityPage } from '../model/admin-identities.model';
import { invitationPage } from '../model/admin.model';
import { renderAdmin } from './render-admin';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const cases: {
  name: string;
  screen: ReactNode;
  machineId: string;
  actor: string;
  answer: () => { page: { totalElements: number } };
}[] = [
  {
    name: 'the identity search',
    screen: <IdentitySearchScreen />,
    machineId: identitySearchMachine.id,
    actor: 'searchIdentities',
    answer: () => identityPage(0, ''),
  },
  {
    name: 'the invitations',
    screen: <InvitationsScreen />,
    machineId: invitationsMachine.id,
    actor: 'loadInvitations',
    answer: () => invitationPage(0, ''),
  },
  {
    name: 'the access-request list',
    screen: <RequestList />,
    machineId: requestListMachine.id,
    actor: 'loadAccessRequests',
    answer: () => listPage(0, 27),
  },
  {
    name: 'a history tab',
    screen: <HistoryTab id={IDENTITY_ID} kind="history" />,
    machineId: historyMachine.id,
    actor: 'loadHistoryPage',
    answer: () => historyPage(0, 7),
  },
];

describe.each(cases)('$name', ({ screen: underTest, machineId, actor, answer }) => {
  it('has its result count region while the first page loads, and fills that same region', async () => {
    const load = deferred<unknown>();
    renderAdmin(underTest, {
      [machineId]: { actors: { [actor]: fromPromise(() => load.promise) } },
    });
    const loader = await screen.findByRole('progressbar', { name: t.loading });
    expect(loader).toBeInTheDocument();
    const status = screen.getByTestId('result-count');
    expect(status).toHaveAttribute('role', 'status');
    expect(status).toHaveTextContent(/^$/);

    const result = answer();
    await act(async () => load.resolve(result));
    expect(await screen.findByText(t.resultCount(result.page.totalElements), { exact: false })).toBe(status);
    expect(screen.getByTestId('result-count')).toBe(status);
    expect(screen.queryByRole('progressbar', { name: t.loading })).toBeNull();
  });
});
