/**
 * The admin's roles lists (section 3): samAdmin and the access-request user role, each an option
 * list of value and disabled, from GET admin/roles; READ_ONLY and VIEW_ACCESS_REQUESTS come back
 * disabled (they are granted outside the portal).
 *
 *   loading (GET admin/roles) --done / storeRoles--> ready
 *     --error / reportFailure--> failed --user.retry--> loading
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AdminRoles } from '../../../src/contract/admin';
import type { FlowStateMeta } from '../../shared/flow.types';
import { failureMessageOf } from '../../access-requests/access-requests.types';

export const ROLES_LOAD_FAILED = 'The roles could not be loaded.';

export interface IdentityRolesContext {
  roles: AdminRoles | null;
  errorMessage: string | null;
}

export type IdentityRolesEvent = { type: 'user.retry' };

const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));
const meta = (description: string): FlowStateMeta => ({ description });

export const identityRolesMachine = setup({
  types: { context: {} as IdentityRolesContext, events: {} as IdentityRolesEvent },
  actors: { loadRoles: fromPromise<AdminRoles>(provided('loadRoles')) },
  actions: {
    storeRoles: assign((_, roles: AdminRoles) => ({ roles, errorMessage: null })),
    reportFailure: assign((_, failure: { error: unknown }) => ({
      errorMessage: failureMessageOf(failure.error, ROLES_LOAD_FAILED),
    })),
  },
}).createMachine({
  id: 'adminIdentityRoles',
  context: { roles: null, errorMessage: null },
  initial: 'loading',
  states: {
    loading: {
      meta: meta('Loads the two role option lists.'),
      invoke: {
        id: 'loadRoles',
        src: 'loadRoles',
        onDone: { target: 'ready', actions: { type: 'storeRoles', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'reportFailure', params: ({ event }) => event } },
      },
    },
    ready: { meta: meta('Both lists, READ_ONLY and VIEW_ACCESS_REQUESTS shown disabled.') },
    failed: {
      meta: meta('The roles could not be loaded.'),
      on: { 'user.retry': { target: 'loading' } },
    },
  },
});
