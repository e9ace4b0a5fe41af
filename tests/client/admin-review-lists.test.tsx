// The admin lists after a failed load, and a new invitation sent while the list is busy: the search
// form stays offered when the access-request list or the invitation list failed to load, and its
// Search runs (it did nothing: the failed state took only Try again); an invitation sent while the
// invitation list loads shows on top once that load ends (it was dropped until the next action).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import type { Paged } from '../../machines/access-requests/access-requests.types';
import { requestListMachine } from '../../machines/access-requests/request-list/request-list.machine';
import type { RequestListQuery } from '../../machines/access-requests/request-list/request-list.types';
import { createInvitationMachine } from '../../machines/admin/create-invitation/create-invitation.machine';
import type { CreateInvitationResult } from '../../machines/admin/create-invitation/create-invitation.types';
import { invitationsMachine } from '../../machines/admin/invitations/invitations.machine';
import type { InvitationListQuery } from '../../machines/admin/invitations/invitations.types';
import { accessRequestsTexts as ta } from '../../src/client/flows/access-requests/access-requests.texts';
import { RequestList } from '../../src/client/flows/access-requests/RequestList';
import { adminTexts } from '../../src/client/flows/admin/admin.texts';
import { InvitationsScreen } from '../../src/client/flows/admin/InvitationsScreen';
import type { AccessRequestSummary, InvitationSummary } from '../../src/contract/admin';
import { listPage, UNEXPECTED_FAILURE } from '../machines/access-requests.fixtures';
import { ADMIN_APPS, CREATED, invitationPage } from '../model/admin.model';
import { renderAdmin } from './render-admin';

const ti = adminTexts.invitations;
const tc = adminTexts.create;

describe('a search after a failed load', () => {
  it('runs on the access-request list, and shows what it found', async () => {
    const load = vi.fn(async ({ input }: { input: RequestListQuery }) => {
      if (load.mock.calls.length === 1) throw new Error(UNEXPECTED_FAILURE);
      return listPage(0, 1, input.query);
    });
    renderAdmin(<RequestList />, {
      [requestListMachine.id]: {
        actors: { loadAccessRequests: fromPromise<Paged<AccessRequestSummary>, RequestListQuery>(load) },
      },
    });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByRole('alert')).toHaveTextContent(ta.loadFailed);
    const search = screen.getByRole('button', { name: ta.search });
    expect(search).toBeEnabled();

    await user.type(screen.getByRole('searchbox', { name: ta.searchLabel }), 'treasury');
    await user.click(search);
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    expect(load.mock.calls[1]![0].input).toEqual({ query: 'treasury', page: 0 });
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('runs on the invitation list, and shows what it found', async () => {
    const load = vi.fn(async ({ input }: { input: InvitationListQuery }) => {
      if (load.mock.calls.length === 1) throw new Error(UNEXPECTED_FAILURE);
      return invitationPage(input.page, input.query);
    });
    renderAdmin(<InvitationsScreen />, {
      [invitationsMachine.id]: {
        actors: { loadInvitations: fromPromise<Paged<InvitationSummary>, InvitationListQuery>(load) },
      },
      [createInvitationMachine.id]: { actors: { loadApps: fromPromise(async () => ADMIN_APPS) } },
    });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByRole('alert', { name: ti.loadFailed })).toBeInTheDocument();
    const search = screen.getByRole('button', { name: ti.search });
    expect(search).toBeEnabled();

    await user.type(screen.getByRole('searchbox', { name: ti.searchLabel }), 'robin');
    await user.click(search);
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    expect(load.mock.calls[1]![0].input).toEqual({ query: 'robin', page: 0 });
    expect(await screen.findAllByTestId('invitation-row')).toHaveLength(
      invitationPage(0, 'robin').data.length,
    );
    expect(screen.queryByRole('alert', { name: ti.loadFailed })).toBeNull();
  });
});

describe('an invitation sent while the invitation list loads', () => {
  it('is shown on top once that load ends: the first page is loaded again', { timeout: 20_000 }, async () => {
    const loads: Array<{ input: InvitationListQuery; answer: (page: Paged<InvitationSummary>) => void }> = [];
    const create = vi.fn(async (): Promise<CreateInvitationResult> => ({
      type: 'created',
      invitation: CREATED,
    }));
    renderAdmin(<InvitationsScreen />, {
      [invitationsMachine.id]: {
        actors: {
          loadInvitations: fromPromise<Paged<InvitationSummary>, InvitationListQuery>(
            ({ input }) => new Promise((answer) => loads.push({ input, answer })),
          ),
        },
      },
      [createInvitationMachine.id]: {
        actors: { loadApps: fromPromise(async () => ADMIN_APPS), createInvitation: fromPromise(create) },
      },
    });
    const user = userEvent.setup({ delay: null });
    await waitFor(() => expect(loads).toHaveLength(1));

    // The list is still loading when the invitation is sent.
    const form = await screen.findByRole('form', { name: tc.heading });
    await user.type(within(form).getByRole('textbox', { name: /^Email/ }), CREATED.email);
    await user.selectOptions(within(form).getByRole('combobox', { name: /^App/ }), 'PAYROLL');
    await user.click(within(form).getByRole('button', { name: tc.submit }));
    expect(await screen.findByText(tc.sent(CREATED.email))).toBeInTheDocument();
    expect(loads).toHaveLength(1);

    // The load under way answers without it (it was read before): the first page is asked again.
    loads[0]!.answer(invitationPage(0, ''));
    await waitFor(() => expect(loads).toHaveLength(2));
    expect(loads[1]!.input).toEqual({ query: '', page: 0 });
    const withCreated = invitationPage(0, '');
    loads[1]!.answer({
      data: [CREATED, ...withCreated.data.slice(0, -1)],
      page: { ...withCreated.page, totalElements: withCreated.page.totalElements + 1 },
    });
    await waitFor(() => expect(screen.getAllByTestId('invitation-row')[0]).toHaveTextContent(CREATED.email));
  });
});

describe('the invitation list', () => {
  it("names the admin who sent each invitation, and nobody for the invite command's", async () => {
    const page = invitationPage(0, '');
    const [first, second] = page.data;
    const load = vi.fn(async () => ({
      ...page,
      data: [
        { ...first!, createdBy: 'admin1' },
        { ...second!, createdBy: null },
      ],
    }));
    renderAdmin(<InvitationsScreen />, {
      [invitationsMachine.id]: {
        actors: { loadInvitations: fromPromise<Paged<InvitationSummary>, InvitationListQuery>(load) },
      },
    });
    const rows = await screen.findAllByTestId('invitation-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(ti.sentBy('admin1'));
    expect(rows[0]).toHaveTextContent('Sent by admin1');
    expect(rows[1]).not.toHaveTextContent('Sent by');
  });
});
