// The hook point for handing off to an application: the handoff issue provides the handler (through
// AppProviders' `handoff`); until then a left click on an application does nothing.
import { createContext, useContext } from 'react';
import type { HandoffTarget } from '../../contract/entities';

export type HandoffHandler = (target: HandoffTarget) => void;

export const HandoffContext = createContext<HandoffHandler>(() => {});

export const useHandoff = (): HandoffHandler => useContext(HandoffContext);
