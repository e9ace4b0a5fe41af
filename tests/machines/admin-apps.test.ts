// Hand-pinned transitions of the admin's apps screen machine (/admin/apps): every app with its
// settings and facilities kept as the server gives them, loaded once, and a failed load shown with
// its reason (or the fallback) and no apps until a retry loads them. No paging or filter.
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { APPS_LOAD_FAILED, appsMachine } from '../../machines/admin/apps/apps.machine';
import type { AdminApp } from '../../src/contract/admin';
import { ADMIN_APPS } from '../model/admin.model';
import { UNEXPECTED_FAILURE } from './access-requests.fixtures';
import { scripted, type Answer } from './admin-identities.fixtures';

function start(answers: Array<Answer<AdminApp[]>>) {
  const calls: unknown[] = [];
  const actor = createActor(
    appsMachine.provide({ actors: { loadApps: scripted('apps', answers, calls) } }),
  ).start();
  return { actor, calls };
}

describe('admin apps machine', () => {
  it('loads the apps once with their settings and facilities, as given', async () => {
    const { actor, calls } = start([ADMIN_APPS]);
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.apps).toEqual([]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toEqual({ apps: ADMIN_APPS, errorMessage: null });
    // Loaded, there is nothing to retry.
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(calls).toHaveLength(1);
  });

  it('keeps an empty list of apps as loaded, not as a failure', async () => {
    const { actor } = start([[]]);
    await waitFor(actor, (s) => !s.matches('loading'));
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context).toEqual({ apps: [], errorMessage: null });
  });

  it('shows why the load failed (or the fallback) until a retry loads the apps, then forgets it', async () => {
    const { actor, calls } = start([new Error(UNEXPECTED_FAILURE), new Error(''), ADMIN_APPS]);
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context).toEqual({ apps: [], errorMessage: UNEXPECTED_FAILURE });
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('failed') && calls.length === 2);
    expect(actor.getSnapshot().context.errorMessage).toBe(APPS_LOAD_FAILED);
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toEqual({ apps: ADMIN_APPS, errorMessage: null });
    expect(calls).toHaveLength(3);
  });
});
