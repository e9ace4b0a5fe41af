// The local session state: first load, reloads, local changes, and the remembered target paths.
import { describe, expect, it, vi } from 'vitest';
import { ANONYMOUS_USER, SessionStore, targetPathKind } from '../../src/client/app/session/session-store';
import { MERGE_WIZARD_STORAGE_KEY } from '../../src/client/flows/forced/merge-accounts/merge-accounts.storage';
import { contexts, users } from './fixtures';

const loaded = (currentUser = users.customer, context = contexts.portal) => ({ currentUser, context });

describe('SessionStore', () => {
  it('has no current user until the first load answers', async () => {
    const store = new SessionStore(async () => loaded());
    expect(store.getState().currentUser).toBeNull();
    await expect(store.ready()).resolves.toEqual(users.customer);
    expect(store.getState()).toMatchObject({ currentUser: users.customer, context: contexts.portal });
  });

  it('shares one load between concurrent callers', async () => {
    const loader = vi.fn(async () => loaded());
    const store = new SessionStore(loader);
    await Promise.all([store.ready(), store.ready(), store.reload()]);
    expect(loader).toHaveBeenCalledTimes(1);
    await store.ready();
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('reload() asks the server again', async () => {
    const loader = vi.fn().mockResolvedValueOnce(loaded(users.pending)).mockResolvedValueOnce(loaded());
    const store = new SessionStore(loader);
    await store.ready();
    await expect(store.reload()).resolves.toEqual(users.customer);
    expect(store.getState().currentUser).toEqual(users.customer);
  });

  it('a failed first load can be retried', async () => {
    const loader = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce(loaded());
    const store = new SessionStore(loader);
    await expect(store.ready()).rejects.toThrow('down');
    await expect(store.ready()).resolves.toEqual(users.customer);
  });

  it('a local change wins over a load that started before it', async () => {
    let answer: (value: ReturnType<typeof loaded>) => void = () => {};
    const store = new SessionStore(() => new Promise((resolve) => (answer = resolve)));
    const pending = store.ready();
    store.setCurrentUser(users.admin);
    answer(loaded(users.anonymous));
    await expect(pending).resolves.toEqual(users.admin);
    expect(store.getState().currentUser).toEqual(users.admin);
  });

  it('notifies subscribers of changes only', () => {
    const store = new SessionStore(async () => loaded());
    const listener = vi.fn();
    store.subscribe(listener);
    store.setCurrentUser(users.customer);
    store.setCurrentUser(users.customer);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('invalidate() forgets the user but keeps the context and target paths', async () => {
    const store = new SessionStore(async () => loaded());
    await store.ready();
    store.rememberTargetPath('/profile');
    window.sessionStorage.setItem(MERGE_WIZARD_STORAGE_KEY, '{"newEmail":"new@example.com"}');
    store.invalidate();
    expect(store.getState()).toMatchObject({
      currentUser: ANONYMOUS_USER,
      context: contexts.portal,
      targetPath: '/profile',
    });
    // The merge wizard's data (other accounts' names, a new email) goes with the user.
    expect(window.sessionStorage.getItem(MERGE_WIZARD_STORAGE_KEY)).toBeNull();
  });

  it('clear() forgets the user, the context and both target paths', async () => {
    const store = new SessionStore(async () => loaded());
    await store.ready();
    store.rememberTargetPath('/profile/change-name');
    store.rememberTargetPath('/admin/apps');
    window.sessionStorage.setItem(MERGE_WIZARD_STORAGE_KEY, '{"newEmail":"new@example.com"}');
    store.clear();
    expect(store.getState()).toEqual({
      currentUser: ANONYMOUS_USER,
      context: null,
      targetPath: null,
      adminTargetPath: null,
      singleSignOnAppName: null,
      pendingStep: null,
    });
    expect(window.sessionStorage.getItem('portal.targetPath')).toBeNull();
    expect(window.sessionStorage.getItem('portal.adminTargetPath')).toBeNull();
    expect(window.sessionStorage.getItem(MERGE_WIZARD_STORAGE_KEY)).toBeNull();
  });
});

describe("the pending sign-in's step", () => {
  it('survives a reload of the page, and goes with the user (invalidate, clear)', () => {
    const first = new SessionStore();
    first.rememberPendingStep('/forced-actions/mfa/sms-verification');
    const second = new SessionStore();
    expect(second.getState().pendingStep).toBe('/forced-actions/mfa/sms-verification');
    second.invalidate();
    expect(new SessionStore().getState().pendingStep).toBeNull();
    second.rememberPendingStep('/forced-actions/select-facility');
    second.clear();
    expect(second.getState().pendingStep).toBeNull();
    expect(new SessionStore().getState().pendingStep).toBeNull();
  });
});

describe('target paths (section 4.1)', () => {
  it('are remembered for /profile and /access-requests paths, the admin one for /admin paths', () => {
    expect(targetPathKind('/profile')).toBe('targetPath');
    expect(targetPathKind('/profile/change-email?step=1')).toBe('targetPath');
    expect(targetPathKind('/access-requests/12/history')).toBe('targetPath');
    expect(targetPathKind('/admin')).toBe('adminTargetPath');
    expect(targetPathKind('/admin/apps/LOANS')).toBe('adminTargetPath');
    expect(targetPathKind('/')).toBeNull();
    expect(targetPathKind('/registration')).toBeNull();
    expect(targetPathKind('/profiles')).toBeNull();
  });

  it('ignores other paths', () => {
    const store = new SessionStore();
    expect(store.rememberTargetPath('/docs/user-guide')).toBeNull();
    expect(store.getState().targetPath).toBeNull();
  });

  it('survive a reload of the page (session storage)', () => {
    const first = new SessionStore();
    first.rememberTargetPath('/access-requests/5');
    first.rememberTargetPath('/admin/roles');
    const second = new SessionStore();
    expect(second.getState()).toMatchObject({
      targetPath: '/access-requests/5',
      adminTargetPath: '/admin/roles',
    });
    second.clearTargetPaths();
    expect(new SessionStore().getState()).toMatchObject({ targetPath: null, adminTargetPath: null });
  });
});
