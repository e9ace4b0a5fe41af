// The handoff hook point. Pages that offer applications (the applications page, the header's grid)
// hand off through the handoff flow (flows/handoff) by default; a handler given here (AppProviders'
// `handoff`) replaces it for everything below, as tests do.
import { createContext, useContext } from 'react';
import type { HandoffTarget } from '../../contract/entities';

export type HandoffHandler = (target: HandoffTarget) => void;

export const HandoffContext = createContext<HandoffHandler | null>(null);

/** The handler that replaces the handoff flow, if one is provided. */
export const useHandoffOverride = (): HandoffHandler | null => useContext(HandoffContext);
