// Hand-pinned transitions of the admin's identity page machine (/admin/identities/{id}): the load
// and its retry, the unlock (offered only while the identity is locked; done, the page reloads with
// the notice of what the server found: the lock lifted, or none left because another admin lifted
// it first; failed, the reason stays on the page), and 'Sign out of all devices' with its Jira
// ticket (trimmed and sent; a refusal or a failure keeps the modal open with the reason; done, the
// page reloads with the notice; on the admin's own account it ends instead, nothing reloaded, and
// no unlock is taken there). A notice or a reason belongs to its action: it stays through that
// action's reload and goes as the next action starts. The machine has no reenter-password or
// permission state: section 8's global handling acts on those answers, and what reaches the machine
// is a failure like others.
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import {
  IDENTITY_LOAD_FAILED,
  identityMachine,
  SIGN_OUT_FAILED,
  type SignOutResult,
  UNLOCK_FAILED,
} from '../../machines/admin/identity/identity.machine';
import type { UnlockResult } from '../../src/contract/admin';
import type { IdentityDetails } from '../../src/contract/admin-identities';
import { TICKET_FORMAT_MESSAGE } from '../../src/server/domain/profile/messages';
import {
  IDENTITY,
  IDENTITY_ID,
  IDENTITY_SIGNED_OUT,
  LOCKED_DATE,
  TICKET,
} from '../model/admin-identities.model';
import { UNEXPECTED_FAILURE } from './access-requests.fixtures';
import { held, scripted, type Answer } from './admin-identities.fixtures';

const LOCKED: IdentityDetails = { ...IDENTITY, lockedDate: LOCKED_DATE };
const UNLOCKED: UnlockResult = { username: IDENTITY.username, wasLocked: true };
/** The server's answer when another admin lifted the lock first. */
const ALREADY_UNLOCKED: UnlockResult = { username: IDENTITY.username, wasLocked: false };
const SIGNED_OUT: SignOutResult = { type: 'signedOut' };
const refused = (message: string): SignOutResult => ({ type: 'refused', message });

function start(script: {
  loads: Array<Answer<IdentityDetails>>;
  signOuts?: Array<Answer<SignOutResult>>;
  unlocks?: Array<Answer<UnlockResult>>;
  /** The page is the signed-in admin's own account. */
  ownAccount?: boolean;
}) {
  const calls = {
    loads: [] as Array<{ id: string }>,
    signOuts: [] as Array<{ id: string; ticketCode: string }>,
    unlocks: [] as Array<{ id: string }>,
  };
  const actor = createActor(
    identityMachine.provide({
      actors: {
        loadIdentity: scripted('identity', script.loads, calls.loads),
        signOutIdentity: scripted('sign-out', script.signOuts ?? [], calls.signOuts),
        unlockIdentity: scripted<UnlockResult, { id: string }>('unlock', script.unlocks ?? [], calls.unlocks),
      },
    }),
    { input: { id: IDENTITY_ID, ...(script.ownAccount ? { ownAccount: true } : {}) } },
  ).start();
  return { actor, calls };
}

const viewing = { ready: 'viewing' } as const;
const confirming = { ready: 'confirmingSignOut' } as const;

describe('admin identity page machine', () => {
  it('loads the identity by its id; a failure shows its message (or the fallback) until a retry loads it', async () => {
    const { actor, calls } = start({
      loads: [new Error(UNEXPECTED_FAILURE), new Error(''), LOCKED],
    });
    expect(actor.getSnapshot().value).toBe('loading');
    actor.send({ type: 'user.openSignOut' });
    actor.send({ type: 'user.unlock' });
    expect(actor.getSnapshot().value).toBe('loading');

    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context).toMatchObject({ identity: null, errorMessage: UNEXPECTED_FAILURE });
    // Nothing to act on until the page is there.
    actor.send({ type: 'user.openSignOut' });
    actor.send({ type: 'user.unlock' });
    expect(actor.getSnapshot().value).toBe('failed');

    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('failed') && calls.loads.length === 2);
    expect(actor.getSnapshot().context.errorMessage).toBe(IDENTITY_LOAD_FAILED);

    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches(viewing));
    expect(actor.getSnapshot().context).toMatchObject({ identity: LOCKED, errorMessage: null });
    expect(calls.loads).toEqual([{ id: IDENTITY_ID }, { id: IDENTITY_ID }, { id: IDENTITY_ID }]);
    expect(calls.signOuts).toEqual([]);
    expect(calls.unlocks).toEqual([]);
  });

  it('does not unlock an identity that is not locked', async () => {
    const { actor, calls } = start({ loads: [IDENTITY] });
    await waitFor(actor, (s) => s.matches(viewing));
    expect(actor.getSnapshot().context.identity?.lockedDate).toBeNull();
    actor.send({ type: 'user.unlock' });
    expect(actor.getSnapshot().value).toEqual(viewing);
    expect(calls.unlocks).toEqual([]);
    expect(actor.getSnapshot().context).toMatchObject({ unlockNotice: null, unlockError: null, unlocks: 0 });
  });

  it('unlocks a locked identity, then reloads the page with the notice; unlocked, it is not offered again', async () => {
    const { actor, calls } = start({ loads: [LOCKED, IDENTITY], unlocks: [UNLOCKED] });
    await waitFor(actor, (s) => s.matches(viewing));
    actor.send({ type: 'user.unlock' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'unlocking' });
    await waitFor(actor, (s) => s.matches(viewing) && calls.loads.length === 2);
    expect(calls.unlocks).toEqual([{ id: IDENTITY_ID }]);
    expect(actor.getSnapshot().context).toMatchObject({
      unlockNotice: 'unlocked',
      unlocks: 1,
      unlockError: null,
    });
    expect(actor.getSnapshot().context.identity?.lockedDate).toBeNull();

    actor.send({ type: 'user.unlock' });
    expect(actor.getSnapshot().value).toEqual(viewing);
    expect(calls.unlocks).toHaveLength(1);
  });

  it('says so when the server found no lock left (another admin lifted it first), and reloads the page all the same', async () => {
    const { actor, calls } = start({ loads: [LOCKED, IDENTITY], unlocks: [ALREADY_UNLOCKED] });
    await waitFor(actor, (s) => s.matches(viewing));
    actor.send({ type: 'user.unlock' });
    // Reloaded: the lock is gone, and the history has the other admin's unlock.
    await waitFor(actor, (s) => s.matches(viewing) && calls.loads.length === 2);
    expect(calls.unlocks).toEqual([{ id: IDENTITY_ID }]);
    expect(actor.getSnapshot().context).toMatchObject({
      unlockNotice: 'alreadyUnlocked',
      unlocks: 1,
      unlockError: null,
      identity: IDENTITY,
    });
  });

  it('keeps the page and says why when an unlock fails, reloads nothing, and forgets the reason on the next try', async () => {
    const { actor, calls } = start({
      loads: [LOCKED, IDENTITY],
      unlocks: [new Error(UNEXPECTED_FAILURE), new Error(''), UNLOCKED],
    });
    await waitFor(actor, (s) => s.matches(viewing));
    actor.send({ type: 'user.unlock' });
    await waitFor(actor, (s) => s.matches(viewing) && s.context.unlockError !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      unlockError: UNEXPECTED_FAILURE,
      unlockNotice: null,
      identity: LOCKED,
    });
    expect(calls.loads).toHaveLength(1);

    // Still locked: the unlock is offered again, and the last reason goes while it runs.
    actor.send({ type: 'user.unlock' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'unlocking' });
    expect(actor.getSnapshot().context.unlockError).toBeNull();
    await waitFor(actor, (s) => s.matches(viewing) && s.context.unlockError !== null);
    expect(actor.getSnapshot().context.unlockError).toBe(UNLOCK_FAILED);

    actor.send({ type: 'user.unlock' });
    await waitFor(actor, (s) => s.matches(viewing) && calls.loads.length === 2);
    expect(actor.getSnapshot().context).toMatchObject({ unlockNotice: 'unlocked', unlockError: null });
    expect(calls.unlocks).toHaveLength(3);
  });

  it("forgets an unlock's failure as the next action starts: signed out, the reloaded page (no longer locked) does not keep it", async () => {
    const { actor, calls } = start({
      loads: [LOCKED, IDENTITY_SIGNED_OUT],
      unlocks: [new Error(UNEXPECTED_FAILURE)],
      signOuts: [SIGNED_OUT],
    });
    await waitFor(actor, (s) => s.matches(viewing));
    actor.send({ type: 'user.unlock' });
    await waitFor(actor, (s) => s.matches(viewing) && s.context.unlockError !== null);
    expect(actor.getSnapshot().context.unlockError).toBe(UNEXPECTED_FAILURE);

    actor.send({ type: 'user.openSignOut' });
    expect(actor.getSnapshot().context.unlockError).toBeNull();
    // Cancelled, it does not come back either.
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toEqual(viewing);
    expect(actor.getSnapshot().context.unlockError).toBeNull();

    actor.send({ type: 'user.openSignOut' });
    actor.send({ type: 'user.confirmSignOut', ticketCode: TICKET });
    await waitFor(actor, (s) => s.matches(viewing) && calls.loads.length === 2);
    // The account is not locked any more (unlocked elsewhere): the unlock is not offered, and no
    // reason of it is left on the page.
    expect(actor.getSnapshot().context).toMatchObject({
      identity: IDENTITY_SIGNED_OUT,
      unlockError: null,
      unlockNotice: null,
      signedOutTicket: TICKET,
    });
  });

  it("keeps each action's notice through its own reload (and that reload's retry) only: the next action, whichever it is, forgets it", async () => {
    const { actor, calls } = start({
      loads: [LOCKED, new Error(UNEXPECTED_FAILURE), IDENTITY, LOCKED, LOCKED],
      unlocks: [UNLOCKED, ALREADY_UNLOCKED],
      signOuts: [SIGNED_OUT],
    });
    await waitFor(actor, (s) => s.matches(viewing));
    actor.send({ type: 'user.unlock' });
    // The unlock's reload fails; its retry still shows what the unlock did.
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.unlockNotice).toBe('unlocked');
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches(viewing) && calls.loads.length === 3);
    expect(actor.getSnapshot().context).toMatchObject({ unlockNotice: 'unlocked', identity: IDENTITY });

    // Opening the sign-out forgets the unlock's notice: the account locked again in between, the
    // page after the sign-out shows the lock without a word of the earlier unlock.
    actor.send({ type: 'user.openSignOut' });
    expect(actor.getSnapshot().context.unlockNotice).toBeNull();
    actor.send({ type: 'user.confirmSignOut', ticketCode: TICKET });
    await waitFor(actor, (s) => s.matches(viewing) && calls.loads.length === 4);
    expect(actor.getSnapshot().context).toMatchObject({
      identity: LOCKED,
      unlockNotice: null,
      signedOutTicket: TICKET,
      signOuts: 1,
      unlocks: 1,
    });

    // And the unlock forgets the sign-out's notice as it starts.
    actor.send({ type: 'user.unlock' });
    expect(actor.getSnapshot().context).toMatchObject({ signedOutTicket: null, unlockNotice: null });
    await waitFor(actor, (s) => s.matches(viewing) && calls.loads.length === 5);
    expect(actor.getSnapshot().context).toMatchObject({
      unlockNotice: 'alreadyUnlocked',
      signedOutTicket: null,
      signOuts: 1,
      unlocks: 2,
    });
  });

  it('signs out with the trimmed ticket, then reloads the page with the notice; opening the modal again forgets it', async () => {
    const { actor, calls } = start({ loads: [IDENTITY, IDENTITY_SIGNED_OUT], signOuts: [SIGNED_OUT] });
    await waitFor(actor, (s) => s.matches(viewing));
    actor.send({ type: 'user.openSignOut' });
    expect(actor.getSnapshot().value).toEqual(confirming);
    actor.send({ type: 'user.confirmSignOut', ticketCode: `  ${TICKET} ` });
    expect(actor.getSnapshot().value).toEqual({ ready: 'signingOut' });
    expect(actor.getSnapshot().context.ticketCode).toBe(TICKET);

    await waitFor(actor, (s) => s.matches(viewing) && calls.loads.length === 2);
    expect(calls.signOuts).toEqual([{ id: IDENTITY_ID, ticketCode: TICKET }]);
    expect(actor.getSnapshot().context).toMatchObject({
      identity: IDENTITY_SIGNED_OUT,
      signedOutTicket: TICKET,
      signOuts: 1,
      signOutRefusal: null,
    });

    actor.send({ type: 'user.openSignOut' });
    expect(actor.getSnapshot().value).toEqual(confirming);
    expect(actor.getSnapshot().context).toMatchObject({
      signedOutTicket: null,
      signOutRefusal: null,
      signOuts: 1,
    });
  });

  it("keeps the modal open with the server's refusal of the ticket at its field; nothing signed out or reloaded", async () => {
    const { actor, calls } = start({
      loads: [IDENTITY, IDENTITY_SIGNED_OUT],
      signOuts: [refused('Enter the Jira ticket code.'), refused(TICKET_FORMAT_MESSAGE), SIGNED_OUT],
    });
    await waitFor(actor, (s) => s.matches(viewing));
    actor.send({ type: 'user.openSignOut' });
    // The machine asks nothing of the ticket itself: a blank one goes (empty) to the server,
    // which requires it, and its refusal is shown like any other.
    actor.send({ type: 'user.confirmSignOut', ticketCode: '   ' });
    await waitFor(actor, (s) => s.matches(confirming) && s.context.signOutRefusal !== null);
    expect(actor.getSnapshot().context.signOutRefusal).toBe('Enter the Jira ticket code.');

    actor.send({ type: 'user.confirmSignOut', ticketCode: 'SUP 42' });
    expect(actor.getSnapshot().context.signOutRefusal).toBeNull();
    await waitFor(actor, (s) => s.matches(confirming) && s.context.signOutRefusal !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      signOutRefusal: TICKET_FORMAT_MESSAGE,
      ticketCode: 'SUP 42',
      signedOutTicket: null,
      signOuts: 0,
    });
    expect(calls.loads).toHaveLength(1);

    actor.send({ type: 'user.confirmSignOut', ticketCode: TICKET });
    await waitFor(actor, (s) => s.matches(viewing) && calls.loads.length === 2);
    expect(calls.signOuts.map((c) => c.ticketCode)).toEqual(['', 'SUP 42', TICKET]);
    expect(actor.getSnapshot().context).toMatchObject({ signedOutTicket: TICKET, signOuts: 1 });
  });

  it('keeps the modal open with the reason (or the fallback) when the sign-out fails or gets no answer', async () => {
    const { actor, calls } = start({
      loads: [IDENTITY],
      signOuts: [new Error(UNEXPECTED_FAILURE), new Error('')],
    });
    await waitFor(actor, (s) => s.matches(viewing));
    actor.send({ type: 'user.openSignOut' });
    actor.send({ type: 'user.confirmSignOut', ticketCode: TICKET });
    await waitFor(actor, (s) => s.matches(confirming) && s.context.signOutRefusal !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      signOutRefusal: UNEXPECTED_FAILURE,
      ticketCode: TICKET,
      signedOutTicket: null,
      signOuts: 0,
    });

    actor.send({ type: 'user.confirmSignOut', ticketCode: TICKET });
    await waitFor(actor, (s) => s.matches(confirming) && s.context.signOutRefusal !== null);
    expect(actor.getSnapshot().context.signOutRefusal).toBe(SIGN_OUT_FAILED);
    expect(calls.signOuts).toHaveLength(2);
    expect(calls.loads).toHaveLength(1);

    // Cancelled, the modal closes on the page as it was; opened again, the reason is gone.
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toEqual(viewing);
    actor.send({ type: 'user.openSignOut' });
    expect(actor.getSnapshot().context.signOutRefusal).toBeNull();
  });

  it('does one thing at a time: no unlock from the modal, nothing else while signing out or unlocking', async () => {
    const signOut = held<SignOutResult>();
    const unlock = held<UnlockResult>();
    const { actor, calls } = start({
      loads: [LOCKED, LOCKED, IDENTITY],
      signOuts: [signOut.promise],
      unlocks: [unlock.promise],
    });
    await waitFor(actor, (s) => s.matches(viewing));

    actor.send({ type: 'user.openSignOut' });
    actor.send({ type: 'user.unlock' });
    expect(actor.getSnapshot().value).toEqual(confirming);
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toEqual(viewing);
    expect(calls.signOuts).toEqual([]);

    actor.send({ type: 'user.openSignOut' });
    actor.send({ type: 'user.confirmSignOut', ticketCode: TICKET });
    for (const event of [
      { type: 'user.cancel' },
      { type: 'user.unlock' },
      { type: 'user.openSignOut' },
      { type: 'user.confirmSignOut', ticketCode: 'SUP-1' },
    ] as const) {
      actor.send(event);
      expect(actor.getSnapshot().value).toEqual({ ready: 'signingOut' });
    }
    signOut.resolve(SIGNED_OUT);
    await waitFor(actor, (s) => s.matches(viewing) && calls.loads.length === 2);
    expect(calls.signOuts).toEqual([{ id: IDENTITY_ID, ticketCode: TICKET }]);

    actor.send({ type: 'user.unlock' });
    actor.send({ type: 'user.openSignOut' });
    actor.send({ type: 'user.unlock' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'unlocking' });
    unlock.resolve(UNLOCKED);
    await waitFor(actor, (s) => s.matches(viewing) && calls.loads.length === 3);
    expect(calls.unlocks).toEqual([{ id: IDENTITY_ID }]);
    expect(actor.getSnapshot().context.unlockNotice).toBe('unlocked');
  });

  it('ends, without loading the page again, once the admin signed out their own account (this session ended too: the view goes to sign in)', async () => {
    const { actor, calls } = start({ loads: [IDENTITY], signOuts: [SIGNED_OUT], ownAccount: true });
    await waitFor(actor, (s) => s.matches(viewing));
    actor.send({ type: 'user.openSignOut' });
    actor.send({ type: 'user.confirmSignOut', ticketCode: TICKET });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('signedOutOwnAccount');
    expect(calls.signOuts).toEqual([{ id: IDENTITY_ID, ticketCode: TICKET }]);
    // Loading it again would meet the ended session's 401 ('session expired').
    expect(calls.loads).toHaveLength(1);
  });

  it("keeps the modal open with a refusal on the admin's own account as on another's", async () => {
    const { actor, calls } = start({
      loads: [IDENTITY],
      signOuts: [refused(TICKET_FORMAT_MESSAGE)],
      ownAccount: true,
    });
    await waitFor(actor, (s) => s.matches(viewing));
    actor.send({ type: 'user.openSignOut' });
    actor.send({ type: 'user.confirmSignOut', ticketCode: 'SUP' });
    await waitFor(actor, (s) => s.matches(confirming) && s.context.signOutRefusal !== null);
    expect(actor.getSnapshot().context.signOutRefusal).toBe(TICKET_FORMAT_MESSAGE);
    expect(calls.loads).toHaveLength(1);
  });

  it("does not unlock the admin's own account (another admin must: the server refuses it)", async () => {
    const { actor, calls } = start({ loads: [LOCKED], unlocks: [UNLOCKED], ownAccount: true });
    await waitFor(actor, (s) => s.matches(viewing));
    actor.send({ type: 'user.unlock' });
    expect(actor.getSnapshot().value).toEqual(viewing);
    expect(calls.unlocks).toEqual([]);
  });
});
