// Hand-pinned transitions of the app-version watcher (section 2.2's 'Update available' toast).
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { appVersionMachine } from '../../machines/session/app-version/app-version.machine';
import {
  selectLatestVersion,
  selectUpdateAvailable,
} from '../../machines/session/app-version/app-version.select';

function start() {
  const reloads: number[] = [];
  const actor = createActor(
    appVersionMachine.provide({ actions: { reloadPage: () => void reloads.push(1) } }),
  ).start();
  const observe = (version: string) => actor.send({ type: 'version.observed', version });
  return { actor, observe, reloads };
}

describe('app-version watcher', () => {
  it('takes the first version observed as the one the page runs, without a toast', () => {
    const { actor, observe } = start();
    observe('1.0.0');
    expect(actor.getSnapshot().matches('watching')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ loadedVersion: '1.0.0', latestVersion: '1.0.0' });
    observe('1.0.0');
    expect(selectUpdateAvailable(actor.getSnapshot())).toBe(false);
  });

  it('announces an update when a response carries another version', () => {
    const { actor, observe } = start();
    observe('1.0.0');
    observe('1.1.0');
    expect(selectUpdateAvailable(actor.getSnapshot())).toBe(true);
    expect(selectLatestVersion(actor.getSnapshot())).toBe('1.1.0');
  });

  it('keeps the toast and tracks a still newer version while it is shown', () => {
    const { actor, observe } = start();
    observe('1.0.0');
    observe('1.1.0');
    observe('1.2.0');
    expect(selectUpdateAvailable(actor.getSnapshot())).toBe(true);
    expect(selectLatestVersion(actor.getSnapshot())).toBe('1.2.0');
  });

  it('stays dismissed for the version already announced', () => {
    const { actor, observe } = start();
    observe('1.0.0');
    observe('1.1.0');
    actor.send({ type: 'user.dismiss' });
    expect(actor.getSnapshot().matches('dismissed')).toBe(true);
    observe('1.1.0');
    observe('1.0.0');
    expect(selectUpdateAvailable(actor.getSnapshot())).toBe(false);
  });

  it('announces again a version released after the dismissal', () => {
    const { actor, observe } = start();
    observe('1.0.0');
    observe('1.1.0');
    actor.send({ type: 'user.dismiss' });
    observe('1.2.0');
    expect(selectUpdateAvailable(actor.getSnapshot())).toBe(true);
    expect(selectLatestVersion(actor.getSnapshot())).toBe('1.2.0');
  });

  it('reloads the page on Reload page', () => {
    const { actor, observe, reloads } = start();
    observe('1.0.0');
    observe('1.1.0');
    actor.send({ type: 'user.reload' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(reloads).toEqual([1]);
  });
});
