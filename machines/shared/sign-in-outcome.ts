// What sign-in (machines/sign-in) and the continuation of a forced step
// (machines/forced/continue-sign-in) do alike once the server answers FORCED_ACTION or
// DIRECT_LOGIN: the sub-states of their `forcedAction` and `directLogin` states. Each machine
// keeps its own id, actions and guards (same names); its setup() checks this config.
import { failTo, outputOf } from './invoke-basics';

/**
 * forcedAction's sub-states: loadingUser --done[isMfa]--> startingMfa
 *   --done[hasNextFactor] / routeToMfaFactor--> #<machine>.forwarded
 *   --done / reportUnknownOutcome--> #<machine>.failed
 * loadingUser --done / storeCurrentUser, routeToForcedAction--> #<machine>.forwarded
 */
export const forcedActionStates = <const TMachine extends string>(machine: TMachine) =>
  ({
    loadingUser: {
      meta: { description: 'Loads the user the server now knows (authentication pending).' },
      invoke: {
        id: 'getCurrentUser',
        src: 'getCurrentUser',
        onDone: [
          {
            guard: 'isMfa',
            target: 'startingMfa',
            actions: { type: 'storeCurrentUser', params: outputOf },
          },
          {
            target: `#${machine}.forwarded`,
            actions: [{ type: 'storeCurrentUser', params: outputOf }, 'routeToForcedAction'],
          },
        ],
        onError: failTo(`#${machine}.failed`),
      },
    },
    startingMfa: {
      meta: { description: 'MFA: starts it and learns the factor to verify first.' },
      invoke: {
        id: 'startMfa',
        src: 'startMfa',
        onDone: [
          {
            guard: { type: 'hasNextFactor', params: outputOf },
            target: `#${machine}.forwarded`,
            actions: { type: 'routeToMfaFactor', params: outputOf },
          },
          { target: `#${machine}.failed`, actions: 'reportUnknownOutcome' },
        ],
        onError: failTo(`#${machine}.failed`),
      },
    },
  }) as const;

/**
 * directLogin's sub-states: loadingUser --done / storeCurrentUser--> choosingLanding
 *   --> #<machine>.signedIn, landing on the first of: target path, admin target path,
 *   single-sign-on error page (single sign-on), /access-requests (VIEW_ACCESS_REQUESTS),
 *   applications page.
 */
export const directLoginStates = <const TMachine extends string>(machine: TMachine) =>
  ({
    loadingUser: {
      meta: { description: 'Loads the signed-in user.' },
      invoke: {
        id: 'getCurrentUser',
        src: 'getCurrentUser',
        onDone: { target: 'choosingLanding', actions: { type: 'storeCurrentUser', params: outputOf } },
        onError: failTo(`#${machine}.failed`),
      },
    },
    choosingLanding: {
      meta: {
        description:
          'Lands on the first of: target path, admin target path, single-sign-on error page ' +
          '(single sign-on), /access-requests (VIEW_ACCESS_REQUESTS), applications page.',
      },
      always: [
        { guard: 'hasTargetPath', target: `#${machine}.signedIn`, actions: 'landOnTargetPath' },
        { guard: 'hasAdminTargetPath', target: `#${machine}.signedIn`, actions: 'landOnAdminTargetPath' },
        { guard: 'isSingleSignOn', target: `#${machine}.signedIn`, actions: 'landOnSingleSignOnError' },
        { guard: 'viewsAccessRequests', target: `#${machine}.signedIn`, actions: 'landOnAccessRequests' },
        { target: `#${machine}.signedIn`, actions: 'landOnApplications' },
      ],
    },
  }) as const;
