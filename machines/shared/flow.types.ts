// Types every flow machine shares with the flow outlet (src/client/flows/shared).

/**
 * State meta of a flow step. `route` is where the step lives: absolute ('/...') or relative to the
 * flow's base path (see the catalogue); `progress` is the wizard percentage of section 2.
 */
export interface FlowStateMeta {
  route?: string;
  progress?: number;
  description?: string;
}

/**
 * The address changed without the machine asking (back button, typed address, deep link, a link to
 * the page the user is on). `path` is the new pathname. The machine's guards accept it (a transition
 * to the state that owns that path) or ignore it, and the outlet then redirects to the route of the
 * state the machine is in.
 */
export interface RouteChangedEvent {
  type: 'route.changed';
  path: string;
}
