// Hand-pinned transitions of the admin machines: the invitation list (revoke only open ones, a
// failed revoke keeps the list, a new invitation reloads the first page, no page past the server's
// LIST_PAGE_LIMIT) and the invite form
// (refusals back to the form, the sent invitation, another one).
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Paged } from '../../machines/access-requests/access-requests.types';
import { createInvitationMachine } from '../../machines/admin/create-invitation/create-invitation.machine';
import type { CreateInvitationResult } from '../../machines/admin/create-invitation/create-invitation.types';
import { invitationsMachine, REVOKE_FAILED } from '../../machines/admin/invitations/invitations.machine';
import { smsGatewayMachine } from '../../machines/admin/sms-gateway/sms-gateway.machine';
import type { InvitationListQuery } from '../../machines/admin/invitations/invitations.types';
import {
  LIST_PAGE_LIMIT,
  type AdminApp,
  type CreateInvitationBody,
  type InvitationSummary,
} from '../../src/contract/admin';
import {
  ADMIN_APPS,
  CREATED,
  INVITATION_FORM,
  invitation,
  invitationPage,
  REVOKED_AT,
} from '../model/admin.model';
import { walkToThePageCap } from './fixtures/page-cap';

type Answer<T> = T | Error;
const answer = async <T>(next: Answer<T> | undefined, what: string): Promise<T> => {
  if (next === undefined) throw new Error(`No ${what} answer scripted`);
  if (next instanceof Error) throw next;
  return next;
};

describe('admin invitation list machine', () => {
  function start(script: {
    pages: Array<Answer<Paged<InvitationSummary>>>;
    revokes?: Array<Answer<InvitationSummary>>;
  }) {
    const pages = [...script.pages];
    const revokes = [...(script.revokes ?? [])];
    const calls = { loads: [] as InvitationListQuery[], revokes: [] as string[] };
    const actor = createActor(
      invitationsMachine.provide({
        actors: {
          loadInvitations: fromPromise<Paged<InvitationSummary>, InvitationListQuery>(({ input }) => {
            calls.loads.push(input);
            return answer(pages.shift(), 'page');
          }),
          revokeInvitation: fromPromise<InvitationSummary, { id: string }>(({ input }) => {
            calls.revokes.push(input.id);
            return answer(revokes.shift(), 'revoke');
          }),
        },
      }),
    );
    actor.start();
    return { actor, calls };
  }

  it('revokes only an open invitation, then reloads the page with its notice', async () => {
    const used = invitation(3);
    const revoked = invitation(5);
    const expired = invitation(7);
    const open = invitation(1);
    expect([used.status, revoked.status, expired.status, open.status]).toEqual([
      'USED',
      'REVOKED',
      'EXPIRED',
      'OPEN',
    ]);
    const { actor, calls } = start({
      pages: [invitationPage(0, ''), invitationPage(0, '')],
      revokes: [{ ...open, status: 'REVOKED', revokedAt: REVOKED_AT, revokedBy: 'admin1' }],
    });
    await waitFor(actor, (s) => s.matches('ready'));
    for (const ended of [used, revoked, expired]) {
      actor.send({ type: 'user.revoke', id: ended.id });
      expect(actor.getSnapshot().value).toBe('ready');
    }
    actor.send({ type: 'user.revoke', id: 'not-listed' });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'user.revoke', id: open.id });
    expect(actor.getSnapshot().value).toBe('revoking');
    await waitFor(actor, (s) => s.matches('ready') && calls.loads.length === 2);
    expect(calls.revokes).toEqual([open.id]);
    expect(actor.getSnapshot().context.revoked).toMatchObject({
      id: open.id,
      status: 'REVOKED',
      revokedBy: 'admin1',
    });
  });

  it('keeps the list and says why when a revoke fails; a search or page forgets it', async () => {
    const { actor } = start({
      pages: [invitationPage(0, ''), invitationPage(0, 'robin')],
      revokes: [new Error('')],
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.revoke', id: invitation(1).id });
    await waitFor(actor, (s) => s.matches('ready') && s.context.revokeError !== null);
    expect(actor.getSnapshot().context.revokeError).toBe(REVOKE_FAILED);
    actor.send({ type: 'user.search', query: ' robin ' });
    expect(actor.getSnapshot().context).toMatchObject({ query: 'robin', page: 0, revokeError: null });
  });

  it('goes back to the first page when an invitation is created', async () => {
    const { actor, calls } = start({
      pages: [invitationPage(0, ''), invitationPage(1, ''), invitationPage(0, '')],
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.page', page: 1 });
    await waitFor(actor, (s) => s.matches('ready') && s.context.page === 1);
    actor.send({ type: 'invitation.created' });
    await waitFor(actor, (s) => s.matches('ready') && calls.loads.length === 3);
    expect(calls.loads.map((c) => c.page)).toEqual([0, 1, 0]);
  });

  it('loads the first page again once the load under way ends when an invitation is created meanwhile', async () => {
    const { actor, calls } = start({
      pages: [invitationPage(0, ''), invitationPage(1, ''), invitationPage(0, '')],
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.page', page: 1 });
    expect(actor.getSnapshot().value).toBe('loading');
    actor.send({ type: 'invitation.created' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(calls.loads.map((c) => c.page)).toEqual([0, 1, 0]);
    expect(actor.getSnapshot().context).toMatchObject({ page: 0, createdMeanwhile: false });
  });

  it('loads the first page once a revoke ends when an invitation is created meanwhile, keeping its outcome', async () => {
    const onSecondPage = invitation(22);
    const open = invitation(1);
    expect([onSecondPage.status, open.status]).toEqual(['OPEN', 'OPEN']);
    const { actor, calls } = start({
      pages: [invitationPage(0, ''), invitationPage(1, ''), invitationPage(0, ''), invitationPage(0, '')],
      revokes: [
        { ...onSecondPage, status: 'REVOKED', revokedAt: REVOKED_AT, revokedBy: 'admin1' },
        new Error(''),
      ],
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.page', page: 1 });
    await waitFor(actor, (s) => s.matches('ready') && s.context.page === 1);
    // Revoked: its notice stays, and the first page (with the new invitation on top) loads.
    actor.send({ type: 'user.revoke', id: onSecondPage.id });
    expect(actor.getSnapshot().value).toBe('revoking');
    actor.send({ type: 'invitation.created' });
    await waitFor(actor, (s) => s.matches('ready') && calls.loads.length === 3);
    expect(calls.loads.map((c) => c.page)).toEqual([0, 1, 0]);
    expect(actor.getSnapshot().context.revoked).toMatchObject({ id: onSecondPage.id, status: 'REVOKED' });
    // Refused: its reason stays, and the first page loads all the same.
    actor.send({ type: 'user.revoke', id: open.id });
    actor.send({ type: 'invitation.created' });
    await waitFor(actor, (s) => s.matches('ready') && calls.loads.length === 4);
    expect(actor.getSnapshot().context).toMatchObject({
      page: 0,
      revokeError: REVOKE_FAILED,
      createdMeanwhile: false,
    });
  });

  it('runs a search made after a failed load (the search form stays offered)', async () => {
    const { actor, calls } = start({ pages: [new Error(''), invitationPage(0, 'robin')] });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'user.search', query: ' robin ' });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('ready'));
    expect(calls.loads).toEqual([
      { query: '', page: 0 },
      { query: 'robin', page: 0 },
    ]);
  });

  it(`pages 12,345 invitations only up to page ${LIST_PAGE_LIMIT} (the server's cap), the count exact`, async () => {
    const total = 12_345;
    const last = LIST_PAGE_LIMIT - 1;
    // Only the pages' numbers and the total matter here.
    const deep = (number: number): Paged<InvitationSummary> => ({
      data: invitationPage(0, '').data,
      page: { number, size: 20, totalElements: total },
    });
    const { actor, calls } = start({ pages: [deep(0), deep(last)] });
    await waitFor(actor, (s) => s.matches('ready'));
    await walkToThePageCap(actor);
    expect(calls.loads).toEqual([
      { query: '', page: 0 },
      { query: '', page: last },
    ]);
    expect(actor.getSnapshot().context.result?.page.totalElements).toBe(total);
  });
});

describe('admin invite form machine', () => {
  function start(script: {
    apps: Array<Answer<AdminApp[]>>;
    results?: Array<Answer<CreateInvitationResult>>;
  }) {
    const apps = [...script.apps];
    const results = [...(script.results ?? [])];
    const sent: CreateInvitationBody[] = [];
    const actor = createActor(
      createInvitationMachine.provide({
        actors: {
          loadApps: fromPromise<AdminApp[]>(() => answer(apps.shift(), 'apps')),
          createInvitation: fromPromise<CreateInvitationResult, CreateInvitationBody>(({ input }) => {
            sent.push(input);
            return answer(results.shift(), 'create');
          }),
        },
      }),
    );
    actor.start();
    return { actor, sent };
  }

  it('loads the apps (again after a failure), takes a refusal back to the form, then sends', async () => {
    const { actor, sent } = start({
      apps: [new Error('down'), ADMIN_APPS],
      results: [
        { type: 'refused', message: 'No', fieldErrors: [{ fieldName: 'facilityCode', message: 'No' }] },
        { type: 'created', invitation: CREATED },
      ],
    });
    await waitFor(actor, (s) => s.matches('loadFailed'));
    expect(actor.getSnapshot().context.loadError).toBe('down');
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.apps).toEqual(ADMIN_APPS);

    actor.send({ type: 'user.submit', form: INVITATION_FORM });
    await waitFor(actor, (s) => s.matches('editing') && s.context.refusal !== null);
    expect(actor.getSnapshot().context.refusal?.fieldErrors).toEqual([
      { fieldName: 'facilityCode', message: 'No' },
    ]);
    actor.send({ type: 'user.submit', form: INVITATION_FORM });
    await waitFor(actor, (s) => s.matches('created'));
    expect(actor.getSnapshot().context).toMatchObject({ created: CREATED, refusal: null, form: null });
    expect(sent).toEqual([INVITATION_FORM, INVITATION_FORM]);
    actor.send({ type: 'user.again' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.created).toBeNull();
  });
});

describe('admin SMS gateway machine', () => {
  it('saves only a change, and keeps the stored status when saving fails', async () => {
    const saves: boolean[] = [];
    const outcomes: Array<boolean | Error> = [new Error('down'), false];
    const actor = createActor(
      smsGatewayMachine.provide({
        actors: {
          loadStatus: fromPromise<boolean>(async () => true),
          saveStatus: fromPromise<boolean, { available: boolean }>(async ({ input }) => {
            saves.push(input.available);
            const next = outcomes.shift();
            if (next instanceof Error) throw next;
            return next ?? input.available;
          }),
        },
      }),
    );
    actor.start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.switch', available: true });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'user.switch', available: false });
    await waitFor(actor, (s) => s.matches('ready') && s.context.saveError !== null);
    expect(actor.getSnapshot().context).toMatchObject({ available: true, saveError: 'down', saved: null });
    actor.send({ type: 'user.switch', available: false });
    await waitFor(actor, (s) => s.matches('ready') && s.context.saved !== null);
    expect(actor.getSnapshot().context).toMatchObject({ available: false, saved: false, saveError: null });
    expect(saves).toEqual([false, false]);
  });
});
