// Implementations a flow's machine gets from above its page: the app may provide them centrally,
// and tests provide a scripted fake API, a coverage inspector or spies, keyed by machine id.
import { createContext, useContext, type ReactNode } from 'react';
import type { AnyActorLogic, InspectionEvent } from 'xstate';

export interface FlowImplementations {
  actors?: Readonly<Record<string, AnyActorLogic>>;
  actions?: Readonly<Record<string, unknown>>;
  guards?: Readonly<Record<string, unknown>>;
  /** Receives the actor's inspection events (with the dev inspector, when that is on). */
  inspect?: (event: InspectionEvent) => void;
}

/** By machine id (e.g. 'signIn'). */
export type FlowImplementationsByMachine = Readonly<Record<string, FlowImplementations>>;

const FlowImplementationsContext = createContext<FlowImplementationsByMachine>({});

export function FlowImplementationsProvider({
  value,
  children,
}: {
  value: FlowImplementationsByMachine;
  children: ReactNode;
}) {
  return <FlowImplementationsContext value={value}>{children}</FlowImplementationsContext>;
}

export const useFlowImplementations = (machineId: string): FlowImplementations | undefined =>
  useContext(FlowImplementationsContext)[machineId];
