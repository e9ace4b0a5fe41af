/**
 * App-version watcher (section 2.2, section 7's x-application-version).
 *
 *   watching --version.observed [differs from loaded]--> updateAvailable
 *   updateAvailable --user.dismiss--> dismissed --version.observed [newer than dismissed]--> updateAvailable
 *   updateAvailable --user.reload--> reloading (final; the app reloads the page)
 *
 * The first version observed is the one the page runs. The 'Update available' toast is shown in
 * updateAvailable and stays until the user dismisses it or reloads; a version released after a
 * dismissal announces itself again.
 */
import { assign, assertEvent, setup } from 'xstate';
import type { AppVersionContext, AppVersionEvent } from './app-version.types';

export const appVersionMachine = setup({
  types: {
    context: {} as AppVersionContext,
    events: {} as AppVersionEvent,
  },
  guards: {
    isFirstVersion: ({ context }) => context.loadedVersion === null,
    differsFromLoaded: ({ context, event }) => {
      assertEvent(event, 'version.observed');
      return event.version !== context.loadedVersion;
    },
    differsFromLatest: ({ context, event }) => {
      assertEvent(event, 'version.observed');
      return event.version !== context.latestVersion && event.version !== context.loadedVersion;
    },
  },
  actions: {
    rememberLoaded: assign(({ event }) => {
      assertEvent(event, 'version.observed');
      return { loadedVersion: event.version, latestVersion: event.version };
    }),
    rememberLatest: assign(({ event }) => {
      assertEvent(event, 'version.observed');
      return { latestVersion: event.version };
    }),
    reloadPage: () => {
      // Provided by the app (window.location.reload); a machine never touches window.
    },
  },
}).createMachine({
  id: 'appVersion',
  context: { loadedVersion: null, latestVersion: null },
  initial: 'watching',
  states: {
    watching: {
      on: {
        'version.observed': [
          { guard: 'isFirstVersion', actions: 'rememberLoaded' },
          { guard: 'differsFromLoaded', target: 'updateAvailable', actions: 'rememberLatest' },
        ],
      },
    },
    updateAvailable: {
      meta: { description: "Toast 'Update available' with a 'Reload page' action; stays until dismissed." },
      on: {
        'user.dismiss': { target: 'dismissed' },
        'user.reload': { target: 'reloading' },
        'version.observed': { guard: 'differsFromLatest', actions: 'rememberLatest' },
      },
    },
    dismissed: {
      on: {
        'version.observed': {
          guard: 'differsFromLatest',
          target: 'updateAvailable',
          actions: 'rememberLatest',
        },
      },
    },
    reloading: { type: 'final', entry: 'reloadPage' },
  },
});
