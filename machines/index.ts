// The catalogue of every machine: visualizations and generated path coverage read it.
import type { AnyStateMachine } from 'xstate';
import { SIGN_IN_ROUTE } from './routes';
import { appVersionMachine } from './session/app-version/app-version.machine';
import { signInMachine } from './sign-in/sign-in.machine';

export interface CatalogueEntry {
  /** Folder under machines/, also the file stem in visualizations/. */
  readonly name: string;
  readonly title: string;
  readonly machine: AnyStateMachine;
  /** Base path of the flow's routes; state meta routes are relative to it. */
  readonly basePath: string | null;
}

export const catalogue: readonly CatalogueEntry[] = [
  { name: 'sign-in', title: 'Sign-in', machine: signInMachine, basePath: SIGN_IN_ROUTE },
  { name: 'session/app-version', title: 'App-version watcher', machine: appVersionMachine, basePath: null },
];
