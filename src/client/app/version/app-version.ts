// The app-version watcher (machines/session/app-version) as the app runs it: reloadPage provided,
// fed by the api layer's x-application-version notifications.
import { createContext, useContext } from 'react';
import { createActor, type ActorRefFrom } from 'xstate';
import { appVersionMachine } from '../../../../machines/session/app-version/app-version.machine';

export type AppVersionActor = ActorRefFrom<typeof appVersionMachine>;

export function createAppVersionActor(
  reloadPage: () => void = () => window.location.reload(),
): AppVersionActor {
  return createActor(appVersionMachine.provide({ actions: { reloadPage } }));
}

export const AppVersionContext = createContext<AppVersionActor | null>(null);

export const useAppVersionActor = (): AppVersionActor | null => useContext(AppVersionContext);
